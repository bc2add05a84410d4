import { useEffect, useState } from 'react';
import { api, type NodePayload, type UnitPayload } from '../api.js';
import { Coordinates } from './coordinates.js';

function unitTitle(unit: UnitPayload): string {
  if (unit.kind === 'fact') return `${String(unit.entity)} · ${String(unit.aspect)} = ${String(unit.value)}`;
  if (unit.kind === 'topic') return String(unit.label);
  if (unit.kind === 'episode' && typeof unit.title === 'string') return unit.title;
  return unit.kind;
}

/** One node: a content unit with its content, coordinates, (cue, tag) pairs and source turns; or a cue with its tags. */
export function NodeDetails({ user, id, onSelect }: { user: string; id: string | undefined; onSelect: (id: string) => void }) {
  const [node, setNode] = useState<NodePayload>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setNode(undefined);
    setError(undefined);
    if (id === undefined) return;
    let live = true;
    api.node(user, id).then(
      (value) => live && setNode(value),
      (cause: unknown) => live && setError(cause instanceof Error ? cause.message : String(cause)),
    );
    return () => {
      live = false;
    };
  }, [user, id]);

  return (
    <section className="panel details" aria-label="node details" data-testid="node-details">
      <h2>Node</h2>
      {id === undefined ? <p className="hint">Click a node in the graph or an episode in the timeline.</p> : null}
      {error ? <div className="error">{error}</div> : null}
      {node?.kind === 'cue' ? (
        <div>
          <h3 className="layer-cue">
            cue “{node.cue.name}” <small>{node.cue.kind}</small>
          </h3>
          {node.cue.aliases.length > 0 ? <p>aliases: {node.cue.aliases.join(', ')}</p> : null}
          {node.tags.map((tag) => (
            <div key={tag.id} className="tag-group">
              <h4 className="layer-tag">tag “{tag.label}”</h4>
              <ul>
                {tag.contents.map((content) => (
                  <li key={content.id}>
                    <button className="link" onClick={() => onSelect(content.id)}>
                      {content.kind}
                    </button>{' '}
                    {content.text}
                  </li>
                ))}
              </ul>
              {tag.more > 0 ? <small>+{tag.more} more</small> : null}
            </div>
          ))}
        </div>
      ) : null}
      {node !== undefined && node.kind !== 'cue' ? (
        <div>
          <h3 className={`layer-${node.kind}`} data-testid="node-title">
            {node.kind}: {unitTitle(node.unit)}
          </h3>
          <p className="content" data-testid="node-content">
            {node.unit.text}
          </p>
          <h4>coordinates</h4>
          <Coordinates value={node.unit.context as Record<string, unknown> | undefined} />
          {node.topic ? (
            <p>
              topic:{' '}
              <button className="link" onClick={() => onSelect(node.topic?.id as string)}>
                {node.topic.label}
              </button>
            </p>
          ) : null}
          {node.supersededBy ? <p className="superseded">superseded by: {node.supersededBy.text}</p> : null}
          {node.pairs.length > 0 ? (
            <>
              <h4>cue → tag</h4>
              <ul className="pairs">
                {node.pairs.map((pair) => (
                  <li key={`${pair.cue.id}|${pair.tag.id}`}>
                    <button className="link layer-cue" onClick={() => onSelect(pair.cue.id)}>
                      {pair.cue.name}
                    </button>{' '}
                    → <span className="layer-tag">{pair.tag.label}</span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {node.sources.length > 0 ? (
            <>
              <h4>source turns</h4>
              <ul className="sources" data-testid="source-turns">
                {node.sources.map((source) => (
                  <li key={`${source.sessionId}/${source.turnId}`}>
                    <code>
                      {source.sessionId}/{source.turnId}
                    </code>{' '}
                    {source.turn ? source.turn.text : node.kind === 'turn' ? <em>(this turn, above)</em> : <em>(turn not stored)</em>}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {node.episodes && node.episodes.length > 0 ? (
            <>
              <h4>episodes of this topic</h4>
              <ul>
                {node.episodes.slice(0, 30).map((episode) => (
                  <li key={episode.id}>
                    <button className="link" onClick={() => onSelect(episode.id)}>
                      {episode.text}
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
