import type { CueKind } from '../../model/graph.js';
import type { SessionSpan, SourceRef } from '../../model/context.js';
import { stableId } from '../../model/ids.js';
import type { Scope } from '../../model/scope.js';
import type { TimeInterval } from '../../model/time.js';
import type { Episode, Turn } from '../../model/units.js';
import type { CueOccurrence } from './analyse-session.js';
import type { ReadTurn } from './build-facts.js';
import type { TopicEpisode } from './build-topics.js';
import type { GraphDraft } from './graph-draft.js';
import type { TurnReading } from './read-session.js';

/** What episode building needs from the session. */
export interface EpisodeSession {
  /** The tenant scope ids are made under. */
  tenant: Scope;
  /** The tenant scope narrowed to the session: the scope of episodes and their relations. */
  scope: Scope;
  /** The session span, when the session has a date. */
  span: SessionSpan | undefined;
  /** The session's day (`YYYY-MM-DD`), when known. */
  day: string | undefined;
  /** Cue resolution and relation collection. */
  graph: GraphDraft;
  /** Relate cues to the turns as well as to episodes. */
  relateTurns: boolean;
}

/**
 * A message with its turn unit, its cues resolved to canonical names, and the coordinates its
 * episode gathers. The coordinates are also in `unit.context`, whose shape varies with what a
 * message has (an event time, a place); episode building reads them here, from one shape, so
 * that its optimised code is not thrown away each time a new combination turns up.
 */
export interface EpisodeMember extends ReadTurn {
  unit: Turn;
  cues: ReadonlyArray<CueOccurrence>;
  /** The message's event time (`unit.context.eventTime`). */
  eventTime: TimeInterval | undefined;
  /** The first place it names (`unit.context.location`). */
  location: string | undefined;
  /** `unit.context.mentionTimes`. */
  mentionTimes: ReadonlyArray<TimeInterval>;
  /** `unit.context.participants`. */
  participants: ReadonlyArray<string>;
  /** `unit.context.entities`. */
  entities: ReadonlyArray<string>;
}

/** An episode's text: the session's day, then each message restated after its speaker's name. */
export function episodeText(day: string | undefined, parts: ReadonlyArray<{ speaker: string; restated: string }>): string {
  let text = day === undefined ? '' : `[${day}] `;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as { speaker: string; restated: string };
    text += index === 0 ? `${part.speaker}: ${part.restated}` : `\n${part.speaker}: ${part.restated}`;
  }
  return text;
}

/** The first verb-phrase tag of a message. */
export function firstTag(reading: TurnReading): string | undefined {
  return reading.sentenceTags.find((tag) => tag !== undefined);
}

/** A tag that says what happened: a verb with an object, not a bare verb or a copula. */
function isRichTag(tag: string | undefined): tag is string {
  return tag !== undefined && tag.includes(' ') && !/^(?:is|was|be|been|not) /.test(tag);
}

/**
 * Builds one episode of consecutive messages: its id from the turn units' ids (which cover scope,
 * source and words, so an edited message makes a new episode), a title from its richest
 * verb-phrase tag, its text restated, its coordinates from its turns, and `vector` when its text
 * was embedded ahead; relates each cue to the episode (once) and to the turns that name it.
 * Returns the episode and what topic assignment needs of it.
 */
export function buildEpisode(members: ReadonlyArray<EpisodeMember>, session: EpisodeSession, vector?: Float32Array<ArrayBuffer>): { episode: Episode; topic: TopicEpisode } {
  const { graph, scope } = session;
  // Plain loops rather than chains of array methods: this runs cold for every episode, and the
  // arrays such chains make change shape between tiers and cost re-optimisations.
  const unitIds: string[] = [];
  let richTag: string | undefined;
  let anyTag: string | undefined;
  for (const member of members) {
    unitIds.push(member.unit.id);
    for (const tag of member.reading.sentenceTags) {
      if (anyTag === undefined) anyTag = tag;
      if (richTag === undefined && isRichTag(tag)) richTag = tag;
    }
  }
  const id = stableId('episode', session.tenant, ...unitIds);
  // The first rich verb-phrase tag, else the first tag at all.
  const title = richTag ?? anyTag;
  const cueStats = new Map<string, { kind: CueKind; count: number; first: number }>();
  let position = 0;
  for (const member of members) {
    const seenInTurn = new Set<string>();
    for (const cue of member.cues) {
      const stats = cueStats.get(cue.name);
      if (stats === undefined) cueStats.set(cue.name, { kind: cue.kind, count: 1, first: position++ });
      else stats.count += 1;
      const tag = graph.tag((cue.sentence >= 0 ? member.reading.sentenceTags[cue.sentence] : undefined) ?? firstTag(member.reading) ?? title ?? 'mentioned');
      const cueId = graph.cue(cue.name, cue.kind);
      if (stats === undefined) graph.relate(cueId, tag, id, scope);
      // The speaker (sentence -1) is not related to each of their turns: that fan-out says nothing.
      if (session.relateTurns && cue.sentence >= 0 && !seenInTurn.has(cue.name)) graph.relate(cueId, tag, member.unit.id, scope);
      seenInTurn.add(cue.name);
    }
  }
  let eventTime: TimeInterval | undefined;
  let location: string | undefined;
  const mentionTimes: TimeInterval[] = [];
  const participants = new Set<string>();
  const entities = new Set<string>();
  const sources: SourceRef[] = [];
  const speakers = new Set<string>();
  const parts: Array<{ speaker: string; restated: string }> = [];
  for (const member of members) {
    if (eventTime === undefined) eventTime = member.eventTime;
    if (location === undefined && member.location) location = member.location;
    for (const time of member.mentionTimes) mentionTimes.push(time);
    for (const name of member.participants) participants.add(name);
    for (const name of member.entities) entities.add(name);
    for (const source of member.unit.sources) sources.push(source);
    speakers.add(member.turn.speaker);
    parts.push({ speaker: member.turn.speaker, restated: member.reading.restated });
  }
  const text = episodeText(session.day, parts);
  const episode: Episode = {
    id,
    kind: 'episode',
    scope,
    text,
    ...(title === undefined ? {} : { title }),
    context: {
      ...(eventTime === undefined ? {} : { eventTime }),
      mentionTimes,
      ...(session.span === undefined ? {} : { session: session.span }),
      participants: [...participants],
      entities: [...entities],
      ...(location === undefined ? {} : { location }),
    },
    sources,
    ...(vector === undefined ? {} : { vector }),
  };
  return { episode, topic: { id, title, participants: [...speakers], cues: cueStats } };
}
