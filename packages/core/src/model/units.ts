import { z } from 'zod';
import { episodicContextSchema, sourceRefSchema } from './context.js';
import { scopeSchema } from './scope.js';

const id = z.string().min(1, 'must not be empty').max(512);
const vectorSchema = z
  .union([z.instanceof(Float32Array), z.array(z.number().finite())])
  .transform((value) => (value instanceof Float32Array ? value : Float32Array.from(value)))
  .refine((value) => value.length > 0, 'must not be empty')
  // A Float32Array may hold NaN/Infinity, and a finite double may overflow to Infinity as f32.
  .refine((value) => value.every(Number.isFinite), 'must hold finite 32-bit floats');

const unitBase = {
  /** Stable id (derived from scope + source + content by ingest). */
  id,
  /** Who it belongs to. */
  scope: scopeSchema,
  /** `x_i`: the self-contained restatement that is indexed and shown. */
  text: z.string().min(1, 'must not be empty'),
  /** `e_i`: episodic coordinates. */
  context: episodicContextSchema.default({ mentionTimes: [], participants: [], entities: [] }),
  /** The source turns it was built from. */
  sources: z.array(sourceRefSchema).default([]),
  /** Embedding of `text`, when the writer computed one. */
  vector: vectorSchema.optional(),
  /** When it was written (ISO). */
  createdAt: z.string().min(1).optional(),
};

/** A raw message as it was said: the source layer every other unit points back to. */
export const turnSchema = z.strictObject({
  ...unitBase,
  kind: z.literal('turn'),
  /** Who said it (speaker name or role). */
  speaker: z.string().min(1),
  /** `user` / `assistant` where the source has roles. */
  role: z.string().min(1).optional(),
  /** Position within its session, 0-based. */
  index: z.number().int().min(0),
});

/** One coherent event, restated self-contained and placed on the timeline. */
export const episodeSchema = z.strictObject({
  ...unitBase,
  kind: z.literal('episode'),
  /** A short associative label of the event. */
  title: z.string().min(1).optional(),
});

/** A stable attribute, preference or general fact about an entity, linked by its aspect. */
export const factSchema = z.strictObject({
  ...unitBase,
  kind: z.literal('fact'),
  /** The entity it is about (normalised cue name). */
  entity: z.string().min(1),
  /** The aspect tag: identity, job, hobby, family, pet, home, preference, goal, health, … */
  aspect: z.string().min(1),
  /** The value, e.g. `pottery`. */
  value: z.string().min(1),
  /** Session id where first observed. */
  firstSeenSession: z.string().min(1).optional(),
  /** Session id where last observed. */
  lastSeenSession: z.string().min(1).optional(),
  /** Start of validity (ISO). */
  validFrom: z.string().min(1).optional(),
  /** End of validity (ISO): set when a newer value superseded it; the fact is kept. */
  validTo: z.string().min(1).optional(),
  /** Id of the fact that replaced it. */
  supersededBy: z.string().min(1).optional(),
});

/** A recurring theme that groups episodes. */
export const topicSchema = z.strictObject({
  ...unitBase,
  kind: z.literal('topic'),
  /** Short label of the theme. */
  label: z.string().min(1),
  /** Episodes it groups (τ → e). */
  episodeIds: z.array(id).default([]),
});

/** Any stored content unit. */
export const unitSchema = z.discriminatedUnion('kind', [turnSchema, episodeSchema, factSchema, topicSchema]);

/** The kinds of content unit. */
export const unitKinds = ['turn', 'episode', 'fact', 'topic'] as const;
/** A kind of content unit. */
export type UnitKind = (typeof unitKinds)[number];

export type Turn = z.output<typeof turnSchema>;
export type Episode = z.output<typeof episodeSchema>;
export type Fact = z.output<typeof factSchema>;
export type Topic = z.output<typeof topicSchema>;
/** Any stored content unit. */
export type Unit = z.output<typeof unitSchema>;
/** A unit as accepted on input (defaults may be omitted, vectors may be number arrays). */
export type UnitInput = z.input<typeof unitSchema>;
