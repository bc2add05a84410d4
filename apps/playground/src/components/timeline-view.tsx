import { useEffect, useState } from 'react';
import { api, type Filters, type TimelinePayload } from '../api.js';

const pageSize = 40;

function day(iso: string | undefined): string {
  return iso === undefined ? '?' : iso.slice(0, 10);
}

/** Episodes on one timeline: a strip of sessions (click one to filter to its day) and a paginated list. */
export function TimelineView(props: {
  user: string;
  filters: Filters;
  revision: number;
  selected?: string;
  onSelect: (id: string) => void;
  onFilters: (filters: Filters) => void;
}) {
  const [page, setPage] = useState(0);
  const [timeline, setTimeline] = useState<TimelinePayload>();
  const [error, setError] = useState<string>();

  useEffect(() => setPage(0), [props.user, props.filters]);
  useEffect(() => {
    let live = true;
    api.timeline(props.user, props.filters, page * pageSize, pageSize).then(
      (value) => {
        if (!live) return;
        setTimeline(value);
        setError(undefined);
      },
      (cause: unknown) => live && setError(cause instanceof Error ? cause.message : String(cause)),
    );
    return () => {
      live = false;
    };
  }, [props.user, props.filters, page, props.revision]);

  const sessions = timeline?.sessions ?? [];
  const dated = sessions.filter((session) => session.date !== undefined).map((session) => Date.parse(session.date as string));
  const min = Math.min(...dated);
  const max = Math.max(...dated);
  const most = Math.max(1, ...sessions.map((session) => session.episodes));
  const pages = timeline ? Math.max(1, Math.ceil(timeline.total / pageSize)) : 1;
  return (
    <section className="panel timeline" aria-label="timeline">
      <div className="graph-head">
        <h2>Timeline of episodes</h2>
        <span data-testid="timeline-count">{timeline ? `${timeline.total} episodes in ${sessions.length} sessions` : ''}</span>
      </div>
      {error ? <div className="error">{error}</div> : null}
      <svg className="strip" viewBox="0 0 1000 60" preserveAspectRatio="none" role="img" aria-label="episodes per session over time">
        <line x1="0" x2="1000" y1="50" y2="50" stroke="#c5cbd6" />
        {sessions.map((session, index) => {
          const time = session.date === undefined ? undefined : Date.parse(session.date);
          const x = time === undefined || max === min ? ((index + 0.5) / Math.max(1, sessions.length)) * 1000 : 10 + ((time - min) / (max - min)) * 980;
          const height = 6 + (session.episodes / most) * 40;
          return (
            <rect
              key={session.id}
              x={x - 3}
              y={50 - height}
              width={6}
              height={height}
              className="session-bar"
              onClick={() => session.date && props.onFilters({ ...props.filters, from: day(session.date), to: day(session.date) })}
            >
              <title>
                {session.id} · {day(session.date)} · {session.episodes} episodes (click: only this day)
              </title>
            </rect>
          );
        })}
      </svg>
      <ol className="episodes" start={page * pageSize + 1}>
        {timeline?.items.map((item) => (
          <li key={item.id} className={item.id === props.selected ? 'selected' : ''}>
            <button className="episode" onClick={() => props.onSelect(item.id)} title={item.text}>
              <span className="when">
                said {day(item.said)}
                {item.happened ? ` · happened ${item.happened.start === item.happened.end ? day(item.happened.start) : `${day(item.happened.start)}..${day(item.happened.end)}`}` : ''}
              </span>
              <span className="what">{item.text}</span>
            </button>
          </li>
        ))}
      </ol>
      {pages > 1 ? (
        <div className="pager">
          <button disabled={page === 0} onClick={() => setPage(page - 1)}>
            ◀
          </button>
          page {page + 1} of {pages}
          <button disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
            ▶
          </button>
        </div>
      ) : null}
    </section>
  );
}
