import { normalizeName, type Cue, type Tag } from '../../model/graph.js';
import type { ScopeFilter } from '../../model/scope.js';
import type { Unit } from '../../model/units.js';
import type { MemoryStore } from '../../ports/memory-store.js';
import type { NavigationAction } from '../../ports/navigator.js';
import { createMappingOperators } from '../../operators/mapping-operators.js';
import { buildQueryModel, rankPositions, scoreTurns, type QueryModel } from '../relevance/query-model.js';
import type { RecallFrame } from '../frame/recall-frame.js';
import type { MemoryView } from '../view/memory-view.js';
import { addTerms } from '../view/weighted-bm25.js';
import { analyze } from '../../search/analyzer.js';
import { singleValuedAspects } from '../../ingest/offline/fact-patterns.js';

/** What the toolkit runs against: one scope, never another. */
export interface ToolkitEnvironment {
  store: MemoryStore;
  scope: ScopeFilter;
  view: MemoryView;
  frame: RecallFrame;
  embed: (texts: string[]) => Promise<Float32Array[]>;
  /** The query model of the recall's own query (built once). */
  baseModel: QueryModel;
}

/** What one action reached. */
export interface ActionResult {
  /** Contents reached, each with a short note on how. */
  contents: Array<{ unit: Unit; detail: string }>;
  /** Cues met on the way. */
  cues: Cue[];
  /** Tags met on the way (with the cue they hang from). */
  tags: Array<Tag & { cueId: string }>;
}

const limits = { search: 30, tagEvents: 40, time: 60, topic: 30 } as const;

/** The query model of a `search` action: the words asked plus the navigator's expansion terms. */
export function searchModel(environment: ToolkitEnvironment, query: string, expansions: ReadonlyArray<string> = []): QueryModel {
  const base = query === environment.frame.query ? environment.baseModel : buildQueryModel({ ...environment.frame, query }, environment.view);
  const model: QueryModel = { terms: new Map(base.terms), expansions: [...base.expansions], speaker: base.speaker };
  for (const term of expansions) {
    for (const analyzed of analyze(term)) if (!model.terms.has(analyzed)) addTerms(model.terms, [analyzed], 0.3);
  }
  return model;
}

async function units(environment: ToolkitEnvironment, ids: ReadonlyArray<string>): Promise<Unit[]> {
  const cached: Unit[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const unit = environment.view.units.get(id);
    if (unit) cached.push(unit);
    else missing.push(id);
  }
  if (missing.length === 0) return cached;
  const fetched = await environment.store.getUnits(environment.scope, missing);
  return [...cached, ...fetched.filter((unit): unit is Unit => unit !== undefined)];
}

async function resolveCues(environment: ToolkitEnvironment, nameOrId: string): Promise<Cue[]> {
  const byId = (await environment.store.getCues(environment.scope, [nameOrId])).filter((cue): cue is Cue => cue !== undefined);
  if (byId.length > 0) return byId;
  return environment.store.findCues(environment.scope, [normalizeName(nameOrId)]);
}

async function tagsOf(environment: ToolkitEnvironment, cueIds: string[]): Promise<Array<Tag & { cueId: string }>> {
  const pairs = await createMappingOperators(environment.store, environment.scope).cueToTags(cueIds);
  const tags = await environment.store.getTags(environment.scope, [...new Set(pairs.map((pair) => pair.tagId))]);
  const byId = new Map(tags.filter((tag): tag is Tag => tag !== undefined).map((tag) => [tag.id, tag]));
  return pairs.flatMap((pair) => {
    const tag = byId.get(pair.tagId);
    return tag ? [{ ...tag, cueId: pair.cueId }] : [];
  });
}

/** Runs one toolkit action inside the environment's scope. */
export async function runAction(environment: ToolkitEnvironment, action: NavigationAction & { expansions?: string[] }): Promise<ActionResult> {
  const { store, scope, view } = environment;
  const operators = createMappingOperators(store, scope);
  const empty: ActionResult = { contents: [], cues: [], tags: [] };
  switch (action.type) {
    case 'search': {
      const model = searchModel(environment, action.query, action.expansions);
      const lexical = rankPositions(scoreTurns(view, model)).slice(0, limits.search);
      // Dense search adds distilled units the words miss; a follow-up search with expansions is lexical only.
      const [vector] = (action.expansions ?? []).length === 0 ? await environment.embed([action.query]) : [];
      const dense = vector ? await store.vectorSearch(scope, vector, { k: 10, kinds: ['episode', 'fact'] }) : [];
      return {
        ...empty,
        contents: [
          ...lexical.map(([position]) => ({ unit: view.turns[position] as Unit, detail: 'lexical' })),
          ...dense.map((hit) => ({ unit: hit.unit, detail: `dense ${hit.score.toFixed(2)}` })),
        ],
      };
    }
    case 'query_tag_events': {
      const cues = await resolveCues(environment, action.cue);
      const tags = await tagsOf(environment, cues.map((cue) => cue.id));
      const wanted = action.tags ? new Set(action.tags.map((tag) => normalizeName(tag))) : undefined;
      const chosen = tags.filter((tag) => !wanted || wanted.has(tag.id) || wanted.has(normalizeName(tag.label)));
      const contentIds = await operators.pairsToContents(chosen.map((tag) => ({ cueId: tag.cueId, tagId: tag.id })));
      const reached = await units(environment, contentIds.slice(0, limits.tagEvents));
      const labels = new Map(chosen.map((tag) => [tag.id, tag.label]));
      return { contents: reached.map((unit) => ({ unit, detail: `${action.cue} → ${[...labels.values()].slice(0, 3).join(', ')}` })), cues, tags: chosen };
    }
    case 'query_conversation_time': {
      const reached = await store.timeline(scope, { start: action.start, end: action.end, field: action.field ?? 'any' }, { kinds: ['episode', 'turn'], limit: limits.time });
      return { ...empty, contents: reached.map((unit) => ({ unit, detail: `time ${action.start}..${action.end}` })) };
    }
    case 'query_event_context': {
      const [unit] = await units(environment, [action.contentId]);
      if (!unit) return empty;
      const pairs = await operators.contentsToPairs([unit.id]);
      const cues = (await store.getCues(scope, [...new Set(pairs.map((pair) => pair.cueId))])).filter((cue): cue is Cue => cue !== undefined);
      const neighbours = view.sourceTurns(unit).flatMap((turn) => view.neighbours(turn.id, 1));
      return { contents: neighbours.map((turn) => ({ unit: turn, detail: `context of ${unit.id}` })), cues, tags: [] };
    }
    case 'query_personal_aspect': {
      const cues = await resolveCues(environment, action.entity);
      const tags = (await tagsOf(environment, cues.map((cue) => cue.id))).filter((tag) => normalizeName(tag.label) === normalizeName(action.aspect));
      const contentIds = await operators.pairsToContents(tags.map((tag) => ({ cueId: tag.cueId, tagId: tag.id })));
      const facts = (await units(environment, contentIds)).filter((unit) => unit.kind === 'fact');
      const state = (unit: Unit) => (unit.kind === 'fact' && unit.validTo ? ' (superseded)' : singleValuedAspects.has(action.aspect) ? ' (current)' : '');
      return { contents: facts.map((unit) => ({ unit, detail: `${action.entity} · ${action.aspect}${state(unit)}` })), cues, tags };
    }
    case 'query_topic_events': {
      const episodeIds = await operators.topicsToEpisodes([action.topicId]);
      const reached = await units(environment, episodeIds.slice(0, limits.topic));
      return { ...empty, contents: reached.map((unit) => ({ unit, detail: `topic ${action.topicId}` })) };
    }
    case 'cue_tags': {
      const [cue] = (await store.getCues(scope, [action.cueId])).filter((value): value is Cue => value !== undefined);
      return { ...empty, cues: cue ? [cue] : [], tags: cue ? await tagsOf(environment, [cue.id]) : [] };
    }
    case 'pair_contents': {
      const contentIds = await operators.pairsToContents([{ cueId: action.cueId, tagId: action.tagId }]);
      const reached = await units(environment, contentIds.slice(0, limits.tagEvents));
      return { ...empty, contents: reached.map((unit) => ({ unit, detail: `φ(c,g)→v` })) };
    }
    case 'content_pairs': {
      const pairs = await operators.contentsToPairs([action.contentId]);
      const cues = (await store.getCues(scope, [...new Set(pairs.map((pair) => pair.cueId))])).filter((cue): cue is Cue => cue !== undefined);
      const tags = (await store.getTags(scope, [...new Set(pairs.map((pair) => pair.tagId))])).filter((tag): tag is Tag => tag !== undefined);
      const cueOf = new Map(pairs.map((pair) => [pair.tagId, pair.cueId]));
      return { contents: [], cues, tags: tags.map((tag) => ({ ...tag, cueId: cueOf.get(tag.id) ?? '' })) };
    }
  }
}
