import { useCallback, useEffect, useState } from 'react';
import { api, type Filters, type MemorySummaryPayload, type StatusPayload } from './api.js';
import { AskPanel } from './components/ask-panel.js';
import { GraphFilters } from './components/graph-filters.js';
import { GraphView } from './components/graph-view.js';
import { LoadPanel } from './components/load-panel.js';
import { NodeDetails } from './components/node-details.js';
import { TimelineView } from './components/timeline-view.js';

const allLayers: Filters['layers'] = ['cue', 'tag', 'episode', 'fact', 'topic'];

/** The playground: load a conversation, explore its memory graph, ask it a question. */
export function App() {
  const [status, setStatus] = useState<StatusPayload>();
  const [error, setError] = useState<string>();
  const [user, setUser] = useState<string>();
  const [summary, setSummary] = useState<MemorySummaryPayload>();
  const [filters, setFilters] = useState<Filters>({ layers: allLayers, entity: '', from: '', to: '' });
  const [limit, setLimit] = useState(150);
  const [selected, setSelected] = useState<string>();
  const [tab, setTab] = useState<'explore' | 'ask'>('explore');
  const [revision, setRevision] = useState(0);

  const refresh = useCallback(async (choose?: string) => {
    try {
      const next = await api.status();
      setStatus(next);
      setUser((current) => choose ?? current ?? next.memories[0]?.user);
      setRevision((value) => value + 1);
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    setSummary(undefined);
    setSelected(undefined);
    if (user === undefined) return;
    let live = true;
    api.summary(user).then(
      (value) => live && setSummary(value),
      (cause: unknown) => live && setError(cause instanceof Error ? cause.message : String(cause)),
    );
    return () => {
      live = false;
    };
  }, [user, revision]);

  return (
    <div className="app">
      <header className="topbar">
        <h1>
          Engram <span>playground</span>
        </h1>
        <label className="memory-picker">
          memory
          <select aria-label="memory" value={user ?? ''} onChange={(event) => setUser(event.target.value)} disabled={!status?.memories.length}>
            {status?.memories.length ? null : <option value="">(empty — load a conversation)</option>}
            {status?.memories.map((memory) => (
              <option key={memory.user} value={memory.user}>
                {memory.user}
                {memory.questions > 0 ? ` · ${memory.questions} questions` : ''}
              </option>
            ))}
          </select>
        </label>
        {summary ? (
          <span className="counts" data-testid="memory-counts">
            {summary.counts.turn} turns · {summary.counts.episode} episodes · {summary.counts.fact} facts · {summary.counts.topic} topics · {summary.counts.cue} cues ·{' '}
            {summary.counts.tag} tags
          </span>
        ) : null}
        <nav className="tabs" role="tablist">
          <button role="tab" aria-selected={tab === 'explore'} onClick={() => setTab('explore')}>
            Explore
          </button>
          <button role="tab" aria-selected={tab === 'ask'} onClick={() => setTab('ask')} disabled={user === undefined}>
            Ask
          </button>
        </nav>
        <span className="store" title="store directory">
          {status?.store}
        </span>
      </header>
      {error ? (
        <div className="error banner" role="alert">
          {error} <button onClick={() => setError(undefined)}>dismiss</button>
        </div>
      ) : null}
      <aside className="sidebar">
        <LoadPanel samples={status?.samples ?? []} onLoaded={(users) => void refresh(users[0])} />
        {user !== undefined && tab === 'explore' ? (
          <GraphFilters filters={filters} onChange={setFilters} limit={limit} onLimit={setLimit} summary={summary} />
        ) : null}
      </aside>
      {user === undefined ? (
        <main className="empty">
          <p>No memory yet. Load the sample or drop a conversation file (LoCoMo, LongMemEval, JSON or JSONL) on the left.</p>
        </main>
      ) : (
        <>
          {/* Both tabs stay mounted: the graph keeps its layout and the answer stays while you switch. */}
          <main className="explore" hidden={tab !== 'explore'}>
            <GraphView user={user} filters={filters} limit={limit} revision={revision} selected={selected} onSelect={setSelected} visible={tab === 'explore'} />
            <TimelineView user={user} filters={filters} revision={revision} selected={selected} onSelect={setSelected} onFilters={setFilters} />
            <NodeDetails user={user} id={selected} onSelect={setSelected} />
          </main>
          <main className="ask" hidden={tab !== 'ask'}>
            <AskPanel
              user={user}
              revision={revision}
              onShow={(id) => {
                setSelected(id);
                setTab('explore');
              }}
            />
          </main>
        </>
      )}
    </div>
  );
}
