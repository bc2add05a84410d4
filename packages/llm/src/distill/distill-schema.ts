import { z } from 'zod';
import { cueKindSchema, timeIntervalSchema } from '@engram/core';

/** A time expression the model resolved against the session date. */
const timeSchema = z.object({
  /** The words it was read from, e.g. `last Saturday`. */
  text: z.string(),
  /** First day (YYYY-MM-DD). */
  start: z.string(),
  /** Last day (YYYY-MM-DD), inclusive. */
  end: z.string(),
  /** How precise it is. */
  granularity: z.enum(['day', 'week', 'month', 'season', 'year', 'range']),
});

/** What the model returns for one batch of a session's messages; checked again by {@link checkBatch}. */
export const modelBatchSchema = z.object({
  episodes: z.array(
    z.object({
      /** Message numbers it covers, in order. */
      turns: z.array(z.number().int()).min(1),
      /** F_tag: a short associative label of the event ("adopted a dog"). */
      tag: z.string().min(1),
      /** The event restated self-contained: names for pronouns, absolute dates for relative times. */
      text: z.string().min(1),
      /** When it happened, when the text says. */
      eventTime: timeSchema.nullable(),
      /** Time expressions in its messages, each with the message it is in. */
      times: z.array(timeSchema.extend({ turn: z.number().int() })),
      /** Where it happened, when said. */
      location: z.string().nullable(),
      /** F_cue: entities, attributes and descriptors, each with the tag relating it to the event and the messages naming it. */
      cues: z.array(z.object({ name: z.string().min(1), kind: cueKindSchema, tag: z.string().nullable(), turns: z.array(z.number().int()) })),
      /** The recurring theme it belongs to, when any ("pottery", "job search"). */
      topic: z.string().nullable(),
    }),
  ),
  facts: z.array(
    z.object({
      /** Who it is about (a speaker or a named person). */
      entity: z.string().min(1),
      /** The aspect tag: identity, job, workplace, hobby, family, pet, home, origin, relationship, preference, goal, health, … */
      aspect: z.string().min(1),
      /** The value, short ("pottery"). */
      value: z.string().min(1),
      /** The message it was read from. */
      turn: z.number().int(),
      /** The fact restated self-contained. */
      text: z.string().min(1),
    }),
  ),
  /** Other names of a person or thing ("Mel" for "Melanie"). */
  aliases: z.array(z.object({ name: z.string().min(1), alias: z.string().min(1) })),
});

/** A model's batch output. */
export type ModelBatch = z.output<typeof modelBatchSchema>;

/** Checks what JSON schema cannot: message numbers in range and real dates. Returns the problems found. */
export function checkBatch(batch: ModelBatch, turnCount: number): string[] {
  const problems: string[] = [];
  const inRange = (turn: number, where: string) => {
    if (turn < 0 || turn >= turnCount) problems.push(`${where}: message ${turn} does not exist (0..${turnCount - 1})`);
  };
  const checkTime = (time: z.output<typeof timeSchema>, where: string) => {
    const parsed = timeIntervalSchema.safeParse({ start: time.start, end: time.end, granularity: time.granularity, text: time.text });
    if (!parsed.success) problems.push(`${where}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
  };
  batch.episodes.forEach((episode, index) => {
    episode.turns.forEach((turn) => inRange(turn, `episodes[${index}].turns`));
    if (episode.eventTime) checkTime(episode.eventTime, `episodes[${index}].eventTime`);
    episode.times.forEach((time, timeIndex) => {
      inRange(time.turn, `episodes[${index}].times[${timeIndex}].turn`);
      checkTime(time, `episodes[${index}].times[${timeIndex}]`);
    });
    episode.cues.forEach((cue, cueIndex) => cue.turns.forEach((turn) => inRange(turn, `episodes[${index}].cues[${cueIndex}].turns`)));
  });
  batch.facts.forEach((fact, index) => inRange(fact.turn, `facts[${index}].turn`));
  return problems;
}
