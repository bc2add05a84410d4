import type { Filters, GraphLayer, MemorySummaryPayload } from '../api.js';

const layerNames: Record<GraphLayer, string> = { cue: 'cues', tag: 'tags', episode: 'episodes', fact: 'facts', topic: 'topics' };

/** Layer, entity and time filters of the graph and timeline, and the graph's node limit. */
export function GraphFilters(props: {
  filters: Filters;
  onChange: (filters: Filters) => void;
  limit: number;
  onLimit: (limit: number) => void;
  summary: MemorySummaryPayload | undefined;
}) {
  const { filters, onChange, summary } = props;
  const toggle = (layer: GraphLayer) =>
    onChange({ ...filters, layers: filters.layers.includes(layer) ? filters.layers.filter((entry) => entry !== layer) : [...filters.layers, layer] });
  return (
    <section className="panel filters" aria-label="filters">
      <h2>Filter</h2>
      <fieldset>
        <legend>layers</legend>
        {(Object.keys(layerNames) as GraphLayer[]).map((layer) => (
          <label key={layer} className={`layer-toggle layer-${layer}`}>
            <input type="checkbox" checked={filters.layers.includes(layer)} onChange={() => toggle(layer)} aria-label={`show ${layerNames[layer]}`} />
            {layerNames[layer]}
            {summary ? <small> {summary.counts[layer]}</small> : null}
          </label>
        ))}
      </fieldset>
      <label>
        entity
        <input
          list="entities"
          value={filters.entity}
          placeholder="a person, place, thing…"
          aria-label="entity filter"
          onChange={(event) => onChange({ ...filters, entity: event.target.value })}
        />
        <datalist id="entities">
          {summary?.entities.map((entity) => (
            <option key={entity.name} value={entity.name}>
              {entity.kind} · {entity.degree}
            </option>
          ))}
        </datalist>
      </label>
      <div className="dates">
        <label>
          from
          <input type="date" value={filters.from} min={summary?.dateRange?.start} max={summary?.dateRange?.end} aria-label="from date" onChange={(event) => onChange({ ...filters, from: event.target.value })} />
        </label>
        <label>
          to
          <input type="date" value={filters.to} min={summary?.dateRange?.start} max={summary?.dateRange?.end} aria-label="to date" onChange={(event) => onChange({ ...filters, to: event.target.value })} />
        </label>
      </div>
      {summary?.dateRange ? (
        <small>
          sessions from {summary.dateRange.start} to {summary.dateRange.end}
        </small>
      ) : null}
      <label>
        at most {props.limit} nodes
        <input type="range" min={50} max={1000} step={50} value={props.limit} onChange={(event) => props.onLimit(Number(event.target.value))} aria-label="node limit" />
      </label>
      {filters.entity || filters.from || filters.to ? (
        <button className="link" onClick={() => onChange({ ...filters, entity: '', from: '', to: '' })}>
          clear entity and time
        </button>
      ) : null}
    </section>
  );
}
