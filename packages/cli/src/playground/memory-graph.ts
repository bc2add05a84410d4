import { intervalsOverlap, normalizeName, type Cue, type MemoryStore, type Relation, type Tag, type Unit } from '@engram/core';
import type { GraphEdge, GraphLayer, GraphNode, GraphPayload, MemorySummaryPayload, TimelineItem, TimelinePayload } from './playground-types.js';

const pageSize = 1000;
/** Content ids per `relationsOfContents` call. */
const relationBatch = 500;

/** What the graph view, the timeline and the filters are computed from: one user's graph without vectors or turns. */
export interface MemoryGraph {
  user: string;
  /** Episodes, facts and topics. */
  contents: Map<string, Unit>;
  turns: number;
  cues: Map<string, Cue>;
  tags: Map<string, Tag>;
  relations: Relation[];
  /** Relations by content id. */
  relationsByContent: Map<string, Relation[]>;
  /** Contents per cue (its degree). */
  cueDegree: Map<string, number>;
}

/** The filters of the graph and the timeline. */
export interface GraphFilter {
  /** Layers to show. @default every layer */
  layers?: ReadonlyArray<GraphLayer>;
  /** A cue name (or part of one): only contents linked to a matching cue, or naming it. */
  entity?: string;
  /** First day (ISO date) a content's session or event time may touch. */
  from?: string;
  /** Last day (ISO date). */
  to?: string;
}

async function listAll<T extends { id: string }>(list: (after: string | undefined) => Promise<T[]>): Promise<T[]> {
  const all: T[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await list(after);
    all.push(...page);
    const last = page[page.length - 1];
    if (page.length < pageSize || last === undefined) return all;
    after = last.id;
  }
}

function withoutVector(unit: Unit): Unit {
  const { vector: _vector, ...rest } = unit;
  return rest as Unit;
}

/** Reads one user's cues, tags, contents and relations from the store (turns are only counted). */
export async function loadMemoryGraph(store: MemoryStore, user: string): Promise<MemoryGraph> {
  const scope = { userId: user };
  const page = (after: string | undefined) => ({ limit: pageSize, ...(after === undefined ? {} : { after }) });
  const [units, turns, cues, tags] = await Promise.all([
    listAll((after) => store.listUnits(scope, { kinds: ['episode', 'fact', 'topic'], ...page(after) })),
    listAll((after) => store.listUnits(scope, { kinds: ['turn'], ...page(after) })),
    listAll((after) => store.listCues(scope, page(after))),
    listAll((after) => store.listTags(scope, page(after))),
  ]);
  const contents = new Map(units.map((unit) => [unit.id, withoutVector(unit)]));
  const ids = [...contents.keys()];
  const relations: Relation[] = [];
  for (let start = 0; start < ids.length; start += relationBatch) relations.push(...(await store.relationsOfContents(scope, ids.slice(start, start + relationBatch))));
  const relationsByContent = new Map<string, Relation[]>();
  const cueContents = new Map<string, Set<string>>();
  for (const relation of relations) {
    const list = relationsByContent.get(relation.contentId);
    if (list === undefined) relationsByContent.set(relation.contentId, [relation]);
    else list.push(relation);
    const set = cueContents.get(relation.cueId);
    if (set === undefined) cueContents.set(relation.cueId, new Set([relation.contentId]));
    else set.add(relation.contentId);
  }
  return {
    user,
    contents,
    turns: turns.length,
    cues: new Map(cues.map((cue) => [cue.id, cue])),
    tags: new Map(tags.map((tag) => [tag.id, tag])),
    relations,
    relationsByContent,
    cueDegree: new Map([...cueContents].map(([cueId, set]) => [cueId, set.size])),
  };
}

/** The session date (ISO date) of a unit. */
export function sessionDate(unit: Unit): string | undefined {
  return unit.context.session?.start.slice(0, 10);
}

function contentLabel(unit: Unit): string {
  if (unit.kind === 'topic') return unit.label;
  if (unit.kind === 'fact') return `${unit.entity} · ${unit.aspect} = ${unit.value}`;
  if (unit.kind === 'episode' && unit.title !== undefined) return unit.title;
  return unit.text.length > 48 ? `${unit.text.slice(0, 47)}…` : unit.text;
}

function inWindow(unit: Unit, filter: GraphFilter): boolean {
  if (filter.from === undefined && filter.to === undefined) return true;
  const window = { start: filter.from ?? '0001-01-01', end: filter.to ?? '9999-12-31' };
  const session = unit.context.session;
  if (session !== undefined && intervalsOverlap({ start: session.start.slice(0, 10), end: session.end.slice(0, 10) }, window)) return true;
  const event = unit.context.eventTime;
  return event !== undefined && intervalsOverlap(event, window);
}

/** Cue ids whose name or an alias contains the entity text. */
function matchingCues(graph: MemoryGraph, entity: string): Set<string> {
  const wanted = normalizeName(entity);
  const ids = new Set<string>();
  for (const cue of graph.cues.values()) if (cue.name.includes(wanted) || cue.aliases.some((alias) => alias.includes(wanted))) ids.add(cue.id);
  return ids;
}

/** Contents that pass the entity and time filters. */
export function filterContents(graph: MemoryGraph, filter: GraphFilter): Unit[] {
  const entity = filter.entity?.trim() ?? '';
  const cues = entity === '' ? undefined : matchingCues(graph, entity);
  const wanted = normalizeName(entity);
  return [...graph.contents.values()].filter((unit) => {
    if (!inWindow(unit, filter)) return false;
    if (cues === undefined) return true;
    if ((graph.relationsByContent.get(unit.id) ?? []).some((relation) => cues.has(relation.cueId))) return true;
    return unit.context.entities.some((name) => name.includes(wanted)) || unit.context.participants.some((name) => normalizeName(name).includes(wanted));
  });
}

const emptyCounts = (): Record<GraphLayer, number> => ({ cue: 0, tag: 0, episode: 0, fact: 0, topic: 0 });

/**
 * The graph view under a filter, cut to `limit` nodes: the best-connected contents first (at most
 * half the budget), then the cues and (cue, tag) pairs that link most of the contents shown.
 */
export function graphView(graph: MemoryGraph, filter: GraphFilter, limit: number): GraphPayload {
  const layers = new Set<GraphLayer>(filter.layers ?? ['cue', 'tag', 'episode', 'fact', 'topic']);
  const contents = filterContents(graph, filter).filter((unit) => layers.has(unit.kind as GraphLayer));
  const degree = (unit: Unit) => (graph.relationsByContent.get(unit.id)?.length ?? 0) + (unit.kind === 'topic' ? unit.episodeIds.length : 0);
  const matching = emptyCounts();
  for (const unit of contents) matching[unit.kind as GraphLayer] += 1;

  // Cues and pairs reached from the matching contents, with how many of them they link.
  const cueLinks = new Map<string, number>();
  const pairLinks = new Map<string, { cueId: string; tagId: string; count: number }>();
  for (const unit of contents) {
    for (const relation of graph.relationsByContent.get(unit.id) ?? []) {
      cueLinks.set(relation.cueId, (cueLinks.get(relation.cueId) ?? 0) + 1);
      const key = `pair:${relation.cueId}|${relation.tagId}`;
      const pair = pairLinks.get(key);
      if (pair === undefined) pairLinks.set(key, { cueId: relation.cueId, tagId: relation.tagId, count: 1 });
      else pair.count += 1;
    }
  }
  if (layers.has('cue')) matching.cue = cueLinks.size;
  if (layers.has('tag')) matching.tag = pairLinks.size;

  const hasContentLayer = layers.has('episode') || layers.has('fact') || layers.has('topic');
  const contentBudget = layers.has('cue') || layers.has('tag') ? Math.ceil(limit / 2) : limit;
  const shownContents = [...contents].sort((a, b) => degree(b) - degree(a) || a.id.localeCompare(b.id)).slice(0, hasContentLayer ? contentBudget : 0);
  const shownIds = new Set(shownContents.map((unit) => unit.id));
  const nodes: GraphNode[] = shownContents.map((unit) => {
    const date = sessionDate(unit);
    return { id: unit.id, layer: unit.kind as GraphLayer, label: contentLabel(unit), degree: degree(unit), ...(date === undefined ? {} : { date }) };
  });

  // Links counted again over the contents actually shown, so the cues kept are the ones that connect them.
  const shownCueLinks = new Map<string, number>();
  const shownPairLinks = new Map<string, number>();
  for (const unit of shownContents) {
    for (const relation of graph.relationsByContent.get(unit.id) ?? []) {
      shownCueLinks.set(relation.cueId, (shownCueLinks.get(relation.cueId) ?? 0) + 1);
      const key = `pair:${relation.cueId}|${relation.tagId}`;
      shownPairLinks.set(key, (shownPairLinks.get(key) ?? 0) + 1);
    }
  }
  const rank = (links: Map<string, number>, fallback: Map<string, number>) =>
    [...(hasContentLayer ? links : fallback).entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  let budget = limit - nodes.length;
  const shownCues = new Set<string>();
  if (layers.has('cue')) {
    const cueBudget = layers.has('tag') ? Math.ceil(budget * 0.6) : budget;
    for (const [cueId, links] of rank(shownCueLinks, cueLinks).slice(0, cueBudget)) {
      const cue = graph.cues.get(cueId);
      if (cue === undefined) continue;
      shownCues.add(cueId);
      nodes.push({ id: cueId, layer: 'cue', label: cue.name, degree: graph.cueDegree.get(cueId) ?? links });
    }
    budget = limit - nodes.length;
  }
  const shownPairs = new Set<string>();
  if (layers.has('tag')) {
    const pairCounts = new Map([...(hasContentLayer ? shownPairLinks : new Map([...pairLinks].map(([key, pair]) => [key, pair.count])))]);
    // A tag is drawn only beside its cue when cues are shown, so the path cue → tag → content reads.
    const candidates = [...pairCounts.entries()]
      .filter(([key]) => !layers.has('cue') || shownCues.has(key.slice(5, key.indexOf('|'))))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, Math.max(0, budget));
    for (const [key, links] of candidates) {
      const tagId = key.slice(key.indexOf('|') + 1);
      shownPairs.add(key);
      nodes.push({ id: key, layer: 'tag', label: graph.tags.get(tagId)?.label ?? tagId, degree: links });
    }
  }

  const edges = new Map<string, GraphEdge>();
  const addEdge = (source: string, target: string, kind: GraphEdge['kind']) => {
    const id = `${source}→${target}`;
    if (!edges.has(id)) edges.set(id, { id, source, target, kind });
  };
  for (const unit of shownContents) {
    for (const relation of graph.relationsByContent.get(unit.id) ?? []) {
      const pair = `pair:${relation.cueId}|${relation.tagId}`;
      if (shownPairs.has(pair)) addEdge(pair, unit.id, 'tag-content');
      else if (shownCues.has(relation.cueId)) addEdge(relation.cueId, unit.id, 'cue-content');
    }
    if (unit.kind === 'topic') for (const episodeId of unit.episodeIds) if (shownIds.has(episodeId)) addEdge(unit.id, episodeId, 'topic-episode');
  }
  for (const pair of shownPairs) {
    const cueId = pair.slice(5, pair.indexOf('|'));
    if (shownCues.has(cueId)) addEdge(cueId, pair, 'cue-tag');
  }
  const total = Object.values(matching).reduce((sum, count) => sum + count, 0);
  return { nodes, edges: [...edges.values()], matching, truncated: nodes.length < total };
}

/** Episodes in time order (session time, then event time), filtered, one page of them. */
export function timelineView(graph: MemoryGraph, filter: GraphFilter, offset: number, limit: number): TimelinePayload {
  const episodes = filterContents(graph, filter)
    .filter((unit) => unit.kind === 'episode')
    .sort((a, b) => (a.context.session?.start ?? '').localeCompare(b.context.session?.start ?? '') || (a.sources[0]?.turnId ?? '').localeCompare(b.sources[0]?.turnId ?? '', undefined, { numeric: true }));
  const sessions = new Map<string, { id: string; date?: string; episodes: number }>();
  for (const episode of episodes) {
    const session = episode.context.session;
    const id = session?.id ?? '(no session)';
    const entry = sessions.get(id) ?? { id, ...(session === undefined ? {} : { date: session.start }), episodes: 0 };
    entry.episodes += 1;
    sessions.set(id, entry);
  }
  const items: TimelineItem[] = episodes.slice(offset, offset + limit).map((unit) => {
    const event = unit.context.eventTime;
    const session = unit.context.session;
    return {
      id: unit.id,
      title: contentLabel(unit),
      text: unit.text,
      ...(session === undefined ? {} : { sessionId: session.id, said: session.start }),
      ...(event === undefined ? {} : { happened: { start: event.start, end: event.end, ...(event.text === undefined ? {} : { text: event.text }) } }),
    };
  });
  return { total: episodes.length, offset, items, sessions: [...sessions.values()] };
}

/** Counts, date range and the best-connected cues of a memory. */
export function summarize(graph: MemoryGraph, entityCount = 200): MemorySummaryPayload {
  const counts = { cue: graph.cues.size, tag: 0, episode: 0, fact: 0, topic: 0, turn: graph.turns };
  const pairs = new Set<string>();
  for (const relation of graph.relations) pairs.add(`${relation.cueId}|${relation.tagId}`);
  counts.tag = pairs.size;
  let start: string | undefined;
  let end: string | undefined;
  for (const unit of graph.contents.values()) {
    counts[unit.kind as 'episode' | 'fact' | 'topic'] += 1;
    const date = sessionDate(unit);
    if (date === undefined) continue;
    if (start === undefined || date < start) start = date;
    if (end === undefined || date > end) end = date;
  }
  const entities = [...graph.cueDegree.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, entityCount)
    .map(([cueId, degree]) => {
      const cue = graph.cues.get(cueId);
      return { name: cue?.name ?? cueId, kind: cue?.kind ?? 'entity', degree };
    });
  return { user: graph.user, counts, ...(start !== undefined && end !== undefined ? { dateRange: { start, end } } : {}), entities };
}
