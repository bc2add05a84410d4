import { z } from 'zod';
import { cueSchema, relationSchema, tagSchema, type Cue } from '../model/graph.js';
import type { Scope } from '../model/scope.js';
import { episodeSchema, factSchema, topicSchema, turnSchema, type Fact, type Unit } from '../model/units.js';
import type { ConversationSession } from '../ingest/conversation.js';

/** Version of the {@link Distiller} contract a distiller implements. */
export const distillerSpecificationVersion = 'v1' as const;

/** A fact that a newer value replaced: it is kept, closed at `validTo`, and points at its successor. */
export const supersessionSchema = z.strictObject({
  /** Id of the replaced fact (stored or in the same result). */
  factId: z.string().min(1),
  /** Id of the fact that replaces it. */
  supersededBy: z.string().min(1),
  /** End of the old value's validity (ISO): the new value's `validFrom`. */
  validTo: z.string().min(1),
});
/** A fact supersession. */
export type Supersession = z.output<typeof supersessionSchema>;

/**
 * What a distiller makes of one session (SPEC §1–3). Every distiller — offline or model-backed —
 * returns exactly this model. Units are complete: a unit whose id is already stored replaces it
 * (a fact seen again with a later `lastSeenSession`, a topic that gained episodes); cues are
 * returned with the union of old and new aliases. Vectors are left to the caller.
 */
export const distillResultSchema = z.strictObject({
  /** Source turns of the session not already stored, enriched with mention times, event time and entities. */
  turns: z.array(turnSchema).default([]),
  /** Episodes: small coherent events restated self-contained, linked to their source turns. */
  episodes: z.array(episodeSchema).default([]),
  /** Semantic facts: new ones, and stored ones updated (seen again). */
  facts: z.array(factSchema).default([]),
  /** Topics: new ones, and stored ones extended with episodes of this session. */
  topics: z.array(topicSchema).default([]),
  /** Cues referred to by the relations (new, or stored with merged aliases). */
  cues: z.array(cueSchema).default([]),
  /** Tags referred to by the relations. */
  tags: z.array(tagSchema).default([]),
  /** Relations `(cue, tag, content)`. */
  relations: z.array(relationSchema).default([]),
  /** Facts this session superseded (single-valued aspects whose value changed). */
  supersessions: z.array(supersessionSchema).default([]),
  /** Counters for reports; not stored. */
  diagnostics: z
    .strictObject({
      /** Time expressions seen in the text. */
      timeExpressions: z.number().int().min(0),
      /** Of those, how many were resolved to an interval. */
      timeExpressionsResolved: z.number().int().min(0),
    })
    .optional(),
});
/** What a distiller returns for one session. */
export type DistillResult = z.output<typeof distillResultSchema>;
/** A distill result as a distiller may write it (defaults omitted, vectors as number arrays). */
export type DistillResultInput = z.input<typeof distillResultSchema>;

/** The part of memory a distiller reads: enough for supersession, alias normalisation and topics. */
export interface DistillMemoryView {
  /** Stored cues whose normalised name or alias is one of `names`. */
  findCues(names: ReadonlyArray<string>): Promise<Cue[]>;
  /** Stored facts about `entity` (normalised cue name) that are still valid (no `validTo`). */
  currentFacts(entity: string): Promise<Fact[]>;
  /** Stored units by id, in order; `undefined` where missing. */
  getUnits(ids: ReadonlyArray<string>): Promise<Array<Unit | undefined>>;
  /** Stored topics, at most `limit`. @default limit 1000 */
  listTopics(options?: { limit?: number }): Promise<Array<Extract<Unit, { kind: 'topic' }>>>;
}

/** One session to distil. */
export interface DistillRequest {
  /** The tenant (`userId`, optional `agentId`); session units get `sessionId` added. */
  scope: Scope;
  /** The conversation the session belongs to. */
  conversation: {
    /** Conversation id (part of every turn id). */
    id: string;
    /** Speaker names, when known. */
    speakers: ReadonlyArray<string>;
  };
  /** The session, with all its turns (known ones give context but produce no units). */
  session: ConversationSession;
  /** Source turn ids (`ConversationTurn.id`) of this session already stored: produce nothing for them. */
  knownTurnIds: ReadonlySet<string>;
  /** What memory already holds. */
  memory: DistillMemoryView;
  /** Cancels the call. */
  signal?: AbortSignal;
}

/**
 * The distiller port (SPEC §3): builds the memory graph of one session — turns, episodes, facts,
 * topics, cues, tags, relations and fact supersessions. It writes nothing; the caller embeds the
 * units and writes one atomic batch. Ids must be stable (`stableId` of scope + source + content),
 * so that distilling the same turns twice yields the same records.
 */
export interface Distiller {
  /** Contract version. */
  readonly specificationVersion: typeof distillerSpecificationVersion;
  /** Name used in reports, e.g. `offline` or `llm:openai/gpt-4.1-mini`. */
  readonly name: string;
  /** Distils one session. */
  distill(request: DistillRequest): Promise<DistillResultInput>;
}
