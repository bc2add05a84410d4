import cytoscape, { type Core, type ElementDefinition } from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { useEffect, useRef, useState } from 'react';
import { api, type Filters, type GraphPayload } from '../api.js';
import { ErrorMessage } from './error-message.js';

declare global {
  interface Window {
    /** The graph's Cytoscape instance, for the end-to-end tests and the curious. */
    engramGraph?: Core;
  }
}

cytoscape.use(fcose);

/** Above this many nodes the layout stops at fCoSE's spectral draft. */
const draftAbove = 160;

/** Filter changes settle this long before the graph is fetched again (typing an entity). */
const settleMs = 200;

const style: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-size': 9,
      color: '#1f2430',
      'text-wrap': 'ellipsis',
      'text-max-width': '110px',
      'text-valign': 'bottom',
      'text-margin-y': 2,
      // Labels appear as you zoom in, so a dense overview stays readable.
      'min-zoomed-font-size': 7,
      width: 'mapData(degree, 0, 30, 12, 34)',
      height: 'mapData(degree, 0, 30, 12, 34)',
      'border-width': 1,
      'border-color': '#ffffff',
    },
  },
  { selector: 'node[layer = "cue"]', style: { 'background-color': '#e8891c', shape: 'ellipse' } },
  { selector: 'node[layer = "tag"]', style: { 'background-color': '#9b59b6', shape: 'diamond', 'font-size': 8, color: '#6c3483' } },
  { selector: 'node[layer = "episode"]', style: { 'background-color': '#2f80ed', shape: 'round-rectangle' } },
  { selector: 'node[layer = "fact"]', style: { 'background-color': '#27ae60', shape: 'round-triangle' } },
  { selector: 'node[layer = "topic"]', style: { 'background-color': '#d64545', shape: 'hexagon', 'font-size': 11, 'font-weight': 'bold' } },
  // Edges take no clicks: a click near a small node selects the node, not an edge across it.
  { selector: 'edge', style: { width: 1, 'line-color': '#c5cbd6', 'curve-style': 'haystack', opacity: 0.8, events: 'no' } },
  { selector: 'edge[kind = "topic-episode"]', style: { 'line-color': '#e8a0a0', 'line-style': 'dashed' } },
  { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#111111', 'z-index': 10 } },
  { selector: '.faded', style: { opacity: 0.15 } },
];

function elements(graph: GraphPayload): ElementDefinition[] {
  return [
    ...graph.nodes.map((node) => ({ group: 'nodes' as const, data: { ...node } })),
    ...graph.edges.map((edge) => ({ group: 'edges' as const, data: { ...edge } })),
  ];
}

/** The memory graph, drawn by Cytoscape (canvas; no WebGL needed), with the layers and filters chosen. */
export function GraphView(props: {
  user: string;
  filters: Filters;
  limit: number;
  revision: number;
  selected?: string;
  onSelect: (id: string | undefined) => void;
  /** False while its tab is hidden: Cytoscape measures its container again when shown. */
  visible: boolean;
}) {
  const container = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;
  const [graph, setGraph] = useState<GraphPayload>();
  // Counts the graphs received, so a test (or a reader) can tell when the one shown is laid out.
  const [sequence, setSequence] = useState(0);
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (container.current === null) return;
    const instance = cytoscape({ container: container.current, style, minZoom: 0.05, maxZoom: 4 });
    instance.on('tap', 'node', (event) => onSelect.current(event.target.id() as string));
    instance.on('tap', (event) => {
      if (event.target === instance) onSelect.current(undefined);
    });
    cy.current = instance;
    window.engramGraph = instance;
    // Cytoscape caches where its canvas is; when the panel's header wraps or the window changes, the
    // canvas moves or resizes and clicks would land beside the nodes without this.
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(container.current);
    return () => {
      observer.disconnect();
      instance.destroy();
      cy.current = null;
      if (window.engramGraph === instance) delete window.engramGraph;
    };
  }, []);

  useEffect(() => {
    let live = true;
    setLoading(true);
    const timer = setTimeout(() => {
      api.graph(props.user, props.filters, props.limit).then(
        (value) => {
          if (!live) return;
          setGraph(value);
          setSequence((current) => current + 1);
          setError(undefined);
          setLoading(false);
        },
        (cause: unknown) => {
          if (!live) return;
          setError(cause instanceof Error ? cause.message : String(cause));
          setLoading(false);
        },
      );
    }, settleMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.user, props.filters, props.limit, props.revision]);

  useEffect(() => {
    const instance = cy.current;
    if (instance === null || graph === undefined) return;
    instance.batch(() => {
      instance.elements().remove();
      instance.add(elements(graph));
    });
    // fCoSE: a spectral start, then force-directed refinement. Refinement is the slow part, so larger
    // graphs keep the spectral draft and stay responsive.
    const layout = instance.layout({
      name: 'fcose',
      quality: graph.nodes.length > draftAbove ? 'draft' : 'default',
      animate: false,
      randomize: true,
      nodeRepulsion: () => 6000,
      idealEdgeLength: () => 45,
      numIter: 800,
      fit: true,
      padding: 20,
    } as cytoscape.LayoutOptions);
    layout.one('layoutstop', () => {
      instance.resize();
      instance.fit(undefined, 20);
      container.current?.setAttribute('data-laid-out', String(sequence));
    });
    layout.run();
  }, [graph, sequence]);

  useEffect(() => {
    const instance = cy.current;
    if (instance === null || !props.visible) return;
    instance.resize();
    instance.fit(undefined, 20);
  }, [props.visible]);

  useEffect(() => {
    const instance = cy.current;
    if (instance === null) return;
    instance.$(':selected').unselect();
    instance.elements().removeClass('faded');
    if (props.selected === undefined) return;
    const node = instance.getElementById(props.selected);
    if (node.empty()) return;
    node.select();
    const neighbourhood = node.closedNeighborhood();
    instance.elements().difference(neighbourhood).addClass('faded');
  }, [props.selected, graph]);

  const shown = graph ? graph.nodes.length : 0;
  const matching = graph ? Object.values(graph.matching).reduce((sum, count) => sum + count, 0) : 0;
  return (
    <section className="panel graph" aria-label="memory graph">
      <div className="graph-head">
        <h2>Cue–Tag–Content graph</h2>
        <span className="legend">
          <i className="dot dot-cue" /> cue <i className="dot dot-tag" /> tag <i className="dot dot-episode" /> episode <i className="dot dot-fact" /> fact <i className="dot dot-topic" /> topic
        </span>
        <span className="graph-count" data-testid="graph-count">
          {loading ? 'loading… ' : ''}
          {graph ? `${shown} nodes, ${graph.edges.length} edges${graph.truncated ? ` (of ${matching} matching: the best-connected shown)` : ''}` : ''}
        </span>
      </div>
      <ErrorMessage error={error} />
      <div className="graph-canvas" ref={container} data-testid="graph-canvas" data-graph={sequence} />
      {graph && graph.nodes.length === 0 ? <p className="hint">Nothing matches the filters.</p> : null}
    </section>
  );
}
