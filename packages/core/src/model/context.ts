import { z } from 'zod';
import { timeIntervalSchema } from './time.js';

/** The session a unit was said in: the stable coordinate (when it was said, not when it happened). */
export const sessionSpanSchema = z.strictObject({
  /** Session id as the source names it. */
  id: z.string().min(1),
  /** Start of the session (ISO). */
  start: z.string().min(1),
  /** End of the session (ISO). */
  end: z.string().min(1),
});
/** The session a unit was said in. */
export type SessionSpan = z.output<typeof sessionSpanSchema>;

/**
 * RaMem's episodic coordinates `e_i` of a unit (SPEC §2). Event time and session time are separate
 * fields and are never conflated.
 */
export const episodicContextSchema = z.strictObject({
  /** When the event happened, when inferable. */
  eventTime: timeIntervalSchema.optional(),
  /** Explicit time expressions found in the text, resolved against the session date. */
  mentionTimes: z.array(timeIntervalSchema).default([]),
  /** When it was said. */
  session: sessionSpanSchema.optional(),
  /** People taking part (speakers and people the event involves). */
  participants: z.array(z.string().min(1)).default([]),
  /** Where it happened, when known. */
  location: z.string().min(1).optional(),
  /** Entities it mentions (normalised cue names). */
  entities: z.array(z.string().min(1)).default([]),
  /** The topic it belongs to (topic unit id). */
  topicId: z.string().min(1).optional(),
});
/** Episodic coordinates of a unit. */
export type EpisodicContext = z.output<typeof episodicContextSchema>;
/** Episodic coordinates as accepted on input (arrays may be omitted). */
export type EpisodicContextInput = z.input<typeof episodicContextSchema>;

/** A pointer to the source turn a unit was built from. */
export const sourceRefSchema = z.strictObject({
  /** Session id of the turn. */
  sessionId: z.string().min(1),
  /** Turn id as the source names it (LoCoMo `D1:3`, LongMemEval `<session>#<index>`). */
  turnId: z.string().min(1),
});
/** A pointer to a source turn. */
export type SourceRef = z.output<typeof sourceRefSchema>;
