/**
 * The JSON the playground's HTTP API speaks. The web app (apps/playground) imports these types, so
 * the server and the app cannot drift apart silently.
 */

/** The layers of the memory graph the playground shows. */
export const graphLayers = ['cue', 'tag', 'episode', 'fact', 'topic'] as const;
/** A layer of the memory graph. */
export type GraphLayer = (typeof graphLayers)[number];

/** The strategies the playground compares. */
export const playgroundStrategies = ['similarity', 'ramem', 'active', 'graph'] as const;
/** A strategy the playground can run. */
export type PlaygroundStrategy = (typeof playgroundStrategies)[number];

/** A conversation the server can load without an upload. */
export interface SampleInfo {
  /** Id to pass to `POST /api/load`. */
  id: string;
  /** What it is, for the button. */
  label: string;
  /** Sessions and turns, for the button. */
  description: string;
}

/** A user (one memory) in the store. */
export interface MemoryInfo {
  /** The user id. */
  user: string;
  /** Benchmark questions known for it (LoCoMo / LongMemEval files loaded through the playground). */
  questions: number;
}

/** `GET /api/status`. */
export interface StatusPayload {
  /** The store directory. */
  store: string;
  /** Memories in the store. */
  memories: MemoryInfo[];
  /** Bundled samples. */
  samples: SampleInfo[];
  /** The ingest running now, if any. */
  job?: IngestJobPayload;
}

/** An ingest started by `POST /api/load` or `POST /api/upload`. */
export interface IngestJobPayload {
  /** Job id. */
  id: string;
  /** What is loaded: a sample label or a file name. */
  source: string;
  /** `reading` the file, `ingesting` sessions, `done`, or `failed` (see `error`). */
  status: 'reading' | 'ingesting' | 'done' | 'failed';
  /** Sessions written so far. */
  done: number;
  /** Sessions in all (0 while reading). */
  total: number;
  /** Turns written so far. */
  turns: number;
  /** Format of the file, once known. */
  format?: string;
  /** Users (memories) it writes to. */
  users: string[];
  /** Benchmark questions the file carried. */
  questions: number;
  /** A readable error naming the file, record and field, when it failed. */
  error?: string;
  /** Milliseconds since it started (final once done). */
  ms: number;
}

/** Counts and ranges of one memory, for the filters. */
export interface MemorySummaryPayload {
  user: string;
  /** Records per layer. */
  counts: Record<GraphLayer | 'turn', number>;
  /** Earliest and latest session date (ISO dates), when known. */
  dateRange?: { start: string; end: string };
  /** The most connected cues, for the entity filter. */
  entities: Array<{ name: string; kind: string; degree: number }>;
}

/** One node of the graph view. */
export interface GraphNode {
  /** Unit id, cue id, or `pair:<cueId>|<tagId>` for a tag (a tag is the label of one cue's relation). */
  id: string;
  layer: GraphLayer;
  /** Short label. */
  label: string;
  /** Relations it takes part in (size hint). */
  degree: number;
  /** Session date (ISO date) of a content unit. */
  date?: string;
}

/** One edge of the graph view. */
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  /** `cue-tag`, `tag-content`, `cue-content` (tags hidden) or `topic-episode`. */
  kind: 'cue-tag' | 'tag-content' | 'cue-content' | 'topic-episode';
}

/** `GET /api/memories/:user/graph`. */
export interface GraphPayload {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Nodes that match the filters, per layer, before the limit. */
  matching: Record<GraphLayer, number>;
  /** True when the limit cut the graph. */
  truncated: boolean;
}

/** One episode on the timeline. */
export interface TimelineItem {
  id: string;
  title: string;
  text: string;
  sessionId?: string;
  /** When it was said (ISO). */
  said?: string;
  /** When it happened, when known (ISO dates). */
  happened?: { start: string; end: string; text?: string };
}

/** `GET /api/memories/:user/timeline`. */
export interface TimelinePayload {
  /** Episodes matching the filters. */
  total: number;
  offset: number;
  items: TimelineItem[];
  /** Episodes per session, in time order, for the strip. */
  sessions: Array<{ id: string; date?: string; episodes: number }>;
}

/** A unit as shown: its fields without the vector, and its rendered form with coordinates. */
export type UnitPayload = Record<string, unknown> & { id: string; kind: string; text: string; rendered: string };

/** `GET /api/memories/:user/nodes/:id`: a content unit, or a cue (or one cue's tag) with what it leads to. */
export type NodePayload =
  | {
      kind: 'cue';
      cue: { id: string; name: string; kind: string; aliases: string[] };
      tags: Array<{ id: string; label: string; contents: UnitPayload[]; more: number }>;
    }
  | {
      kind: 'episode' | 'fact' | 'topic' | 'turn';
      unit: UnitPayload;
      pairs: Array<{ cue: { id: string; name: string }; tag: { id: string; label: string } }>;
      sources: Array<{ sessionId: string; turnId: string; turn?: UnitPayload }>;
      topic?: { id: string; label: string };
      episodes?: UnitPayload[];
      supersededBy?: UnitPayload;
    };

/** A benchmark question of a memory. */
export interface QuestionPayload {
  id: string;
  question: string;
  answer?: string;
  category: string;
  evidenceTurns: string[];
  questionDate?: string;
}

/** One evidence item of an answer. */
export interface EvidencePayload {
  rank: number;
  unit: UnitPayload;
  score: number;
  sources: Array<{ sessionId: string; turnId: string }>;
  coordinates: Record<string, unknown>;
  reasons: string[];
  /** Gold turns (of the benchmark question) among its sources. */
  goldTurns: string[];
}

/** One step of a recall trace. */
export interface TraceStepPayload {
  step: number;
  action: string;
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
  reason?: string;
}

/** One strategy's answer to a question. */
export interface StrategyResultPayload {
  strategy: string;
  evidence: EvidencePayload[];
  trace: TraceStepPayload[];
  ms: number;
  /** With gold evidence: gold turns found among the evidence, and those missed. */
  gold?: { found: string[]; missed: string[] };
}

/** `POST /api/ask`. */
export interface AskPayload {
  user: string;
  question: string;
  k: number;
  /** The benchmark question asked, when it is one (exact text or id). */
  benchmark?: QuestionPayload & { goldTurnTexts: Record<string, string> };
  results: StrategyResultPayload[];
}
