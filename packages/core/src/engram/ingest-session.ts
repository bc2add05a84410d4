import { parseInput } from '../errors/parse-input.js';
import { relationKey, type Relation } from '../model/graph.js';
import type { Scope } from '../model/scope.js';
import type { Fact, Unit } from '../model/units.js';
import { distillResultSchema, type DistillResult, type Distiller } from '../ports/distiller.js';
import { hashedEmbedding, hashedEmbeddingOf } from '../embed/hashed-embedder.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { Conversation, ConversationSession } from '../ingest/conversation.js';
import { turnUnitId } from '../ingest/turn-units.js';
import { storeMemoryView, type TenantFacts } from './store-memory-view.js';

/** What one `add()` wrote: records that did not exist before, and turns skipped as already stored. */
export interface AddCounts {
  /** Source turns written. */
  turns: number;
  /** Episodes written. */
  episodes: number;
  /** New facts (facts seen again are updated, not counted). */
  facts: number;
  /** New topics (topics extended by new episodes are not counted). */
  topics: number;
  /** New cues. */
  cues: number;
  /** New tags. */
  tags: number;
  /** New relations (those of a fact or topic seen again that were already stored are not counted). */
  relations: number;
  /** Facts closed because a newer value replaced them. */
  supersededFacts: number;
  /** Turns that were already stored and so were skipped. */
  skippedTurns: number;
  /** Time expressions the distiller saw, when it reports them. */
  timeExpressions: number;
  /** Of those, how many it resolved to dates. */
  timeExpressionsResolved: number;
}

/** Counts of nothing written. */
export function emptyCounts(): AddCounts {
  return { turns: 0, episodes: 0, facts: 0, topics: 0, cues: 0, tags: 0, relations: 0, supersededFacts: 0, skippedTurns: 0, timeExpressions: 0, timeExpressionsResolved: 0 };
}

/** Adds `b` into `a`. */
export function addCounts(a: AddCounts, b: AddCounts): AddCounts {
  const out = { ...a };
  for (const key of Object.keys(out) as Array<keyof AddCounts>) out[key] += b[key];
  return out;
}

/** The parts `ingestSession` works with. */
export interface IngestContext {
  /** Where memory is written. */
  store: MemoryStore;
  /** Embeds every written unit. */
  embedder: Embedder;
  /** Builds the session's units. */
  distiller: Distiller;
  /** Skip validating the distiller's output (for the built-in distiller, whose output the store validates anyway). */
  trustDistiller: boolean;
  /** The tenant's facts, shared by the sessions of one `add()` call. @default listed for each session */
  facts?: TenantFacts;
}

/**
 * How many of `relations` are not stored yet. Only relations of contents stored before can be: a fact
 * seen again or a topic extended by new episodes comes back with the relations it already had.
 * `distinct`: the relations hold no duplicates (the offline distiller's do not), so only those of
 * stored contents need a key.
 */
async function newRelationCount(
  store: MemoryStore,
  tenant: Scope,
  relations: ReadonlyArray<Relation>,
  storedContentIds: string[],
  distinct: boolean,
): Promise<number> {
  const storedIds = new Set(storedContentIds);
  const stored = new Set(storedIds.size === 0 ? [] : (await store.relationsOfContents(tenant, storedContentIds)).map(relationKey));
  const seen = distinct ? undefined : new Set<string>();
  let count = 0;
  for (const relation of relations) {
    if (seen !== undefined || storedIds.has(relation.contentId)) {
      const key = relationKey(relation);
      if (stored.has(key) || seen?.has(key) === true) continue;
      seen?.add(key);
    }
    count += 1;
  }
  return count;
}

async function missingIds(store: MemoryStore, tenant: Scope, kind: 'unit' | 'cue' | 'tag', ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = kind === 'unit' ? await store.getUnits(tenant, ids) : kind === 'cue' ? await store.getCues(tenant, ids) : await store.getTags(tenant, ids);
  return new Set(ids.filter((_, index) => found[index] === undefined));
}

/**
 * Ingests one session: skips it when all its turns are stored, otherwise distils the new turns
 * against what memory holds, applies fact supersessions, embeds every unit and writes one atomic
 * batch. Returns what was new.
 */
export async function ingestSession(
  context: IngestContext,
  tenant: Scope,
  conversation: Pick<Conversation, 'id' | 'speakers'>,
  session: ConversationSession,
  signal: AbortSignal | undefined,
): Promise<AddCounts> {
  const counts = emptyCounts();
  const { store, embedder, distiller } = context;
  if (session.turns.length === 0) return counts;
  const stored = await store.getUnits(tenant, session.turns.map((turn) => turnUnitId(tenant, conversation.id, session.id, turn)));
  const knownTurnIds = new Set(session.turns.filter((_, index) => stored[index] !== undefined).map((turn) => turn.id));
  counts.skippedTurns = knownTurnIds.size;
  if (knownTurnIds.size === session.turns.length) return counts;

  signal?.throwIfAborted();
  const memory = storeMemoryView(store, tenant, context.facts);
  // The built-in distiller can have its reader worker embed the source turns and new episodes when
  // the embedder is the hashed one (the same vectors, made off this thread); units it gives no
  // vector are embedded below.
  const turnEmbedding = context.trustDistiller ? hashedEmbeddingOf(embedder) : undefined;
  const raw = await distiller.distill({
    scope: tenant,
    conversation,
    session,
    knownTurnIds,
    memory,
    ...(signal === undefined ? {} : { signal }),
    ...(turnEmbedding === undefined ? {} : { [hashedEmbedding]: turnEmbedding }),
  });
  const result: DistillResult = context.trustDistiller ? (raw as DistillResult) : parseInput(distillResultSchema, raw, { label: `distill(${session.id})` });

  const facts = new Map<string, Fact>(result.facts.map((fact) => [fact.id, fact]));
  const notInResult = result.supersessions.map((entry) => entry.factId).filter((id) => !facts.has(id));
  if (notInResult.length > 0) {
    for (const unit of await memory.getUnits(notInResult)) if (unit?.kind === 'fact') facts.set(unit.id, unit);
  }
  for (const entry of result.supersessions) {
    const fact = facts.get(entry.factId);
    if (fact !== undefined) facts.set(fact.id, { ...fact, validTo: entry.validTo, supersededBy: entry.supersededBy });
  }

  const units: Unit[] = [...result.turns, ...result.episodes, ...facts.values(), ...result.topics];
  const contentIds = [...result.episodes, ...facts.values(), ...result.topics].map((unit) => unit.id);
  const [newUnits, newCues, newTags] = await Promise.all([
    missingIds(store, tenant, 'unit', contentIds),
    missingIds(store, tenant, 'cue', result.cues.map((cue) => cue.id)),
    missingIds(store, tenant, 'tag', result.tags.map((tag) => tag.id)),
  ]);
  const relations = await newRelationCount(store, tenant, result.relations, contentIds.filter((id) => !newUnits.has(id)), context.trustDistiller);
  signal?.throwIfAborted();
  // Only source turns and new episodes come embedded (a fact or topic may carry a stored vector of older text).
  const ready = (unit: Unit) => turnEmbedding !== undefined && (unit.kind === 'turn' || unit.kind === 'episode') && unit.vector !== undefined;
  const vectors = await embedder.embed(
    units.filter((unit) => !ready(unit)).map((unit) => unit.text),
    signal === undefined ? {} : { signal },
  );
  let next = 0;
  const withVectors = units.map((unit) => (ready(unit) ? unit : { ...unit, vector: vectors[next++] as Float32Array<ArrayBuffer> }));
  signal?.throwIfAborted();
  await store.write({ units: withVectors, cues: result.cues, tags: result.tags, relations: result.relations });
  await context.facts?.written(withVectors);

  counts.turns = result.turns.length;
  counts.episodes = result.episodes.filter((unit) => newUnits.has(unit.id)).length;
  counts.facts = [...facts.values()].filter((unit) => newUnits.has(unit.id)).length;
  counts.topics = result.topics.filter((unit) => newUnits.has(unit.id)).length;
  counts.cues = newCues.size;
  counts.tags = newTags.size;
  counts.relations = relations;
  const supersededNow = new Set(result.supersessions.map((entry) => entry.factId));
  counts.supersededFacts = [...facts.values()].filter((fact) => fact.supersededBy !== undefined && (newUnits.has(fact.id) || supersededNow.has(fact.id))).length;
  counts.timeExpressions = result.diagnostics?.timeExpressions ?? 0;
  counts.timeExpressionsResolved = result.diagnostics?.timeExpressionsResolved ?? 0;
  return counts;
}
