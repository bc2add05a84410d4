import { normalizeName } from '../../model/graph.js';
import { tenantOf, type Scope } from '../../model/scope.js';
import type { TimeInterval } from '../../model/time.js';
import type { Episode, Fact, Turn } from '../../model/units.js';
import {
  distillerSpecificationVersion,
  type DistillRequest,
  type DistillResult,
  type Distiller,
} from '../../ports/distiller.js';
import { hashedEmbedding, type HashedEmbedding } from '../../embed/hashed-embedder.js';
import type { Conversation, ConversationSession, ConversationTurn } from '../conversation.js';
import { sessionTurnUnits } from '../turn-units.js';
import { displayName, type CueOccurrence } from './analyse-session.js';
import { buildEpisode, type EpisodeMember, type EpisodeSession } from './build-episodes.js';
import { buildFacts, type ReadTurn } from './build-facts.js';
import { assignTopics, type TopicEpisode } from './build-topics.js';
import { GraphDraft, IdCache } from './graph-draft.js';
import { readingInput, segmentTurns, type EpisodePlan, type TurnReading } from './read-session.js';
import { segmentEpisodes } from './segment.js';
import { localSessionReader, sharedSessionReader, type SessionReader } from './session-reader.js';

/** Options of {@link createOfflineDistiller}. */
export interface OfflineDistillerOptions {
  /** Most messages in one episode. @default 4 */
  maxEpisodeTurns?: number;
  /** Relate cues to the source turns as well as to episodes, so a cue reaches a turn directly. @default true */
  relateTurns?: boolean;
  /**
   * Read the next sessions of a conversation (tagging, names, times, restatements, facts) in a
   * worker thread while this one distils the current session, when the worker entry
   * (`offline-reader-worker.js`) is built beside the bundle. Readings are the same either way; the
   * worker holds its own lexicon (about 80 MB) and stops after 30 s without work. @default true
   */
  readAhead?: boolean;
}

/** Marks a distiller whose output is built from core's schemas and needs no second validation. */
export const trustedDistillerOutput = Symbol.for('engram.distiller.trusted-output');

/**
 * The offline distiller (SPEC §3 without a model): per session it resolves pronouns, normalises
 * relative times against the session date, segments the messages into small episodes restated
 * self-contained, extracts cues (people, places, organisations, things, months) with a verb-phrase
 * tag per relation, reads first-person facts with their aspect (superseding changed single-valued
 * ones) and files episodes under topics shared across sessions. Deterministic; compromise's
 * lexicon is its only language resource.
 */
export function createOfflineDistiller(options: OfflineDistillerOptions = {}): Distiller {
  return offlineDistillerWith(options.readAhead === false ? localSessionReader : sharedSessionReader(), options);
}

/** The offline distiller reading sessions with `reader` (tests give it their own). */
export function offlineDistillerWith(reader: SessionReader, options: OfflineDistillerOptions = {}): Distiller {
  const ids = new IdCache();
  return {
    specificationVersion: distillerSpecificationVersion,
    name: 'offline',
    distill: (request) => distillOffline(request, options, ids, reader),
    [trustedDistillerOutput]: true,
  } as Distiller;
}

async function distillOffline(request: DistillRequest, options: OfflineDistillerOptions, ids: IdCache, reader: SessionReader): Promise<DistillResult> {
  request.signal?.throwIfAborted();
  const tenant = tenantOf(request.scope) as Scope;
  const { session, conversation, memory } = request;
  // Ingest asks for turn vectors this way when it embeds with the hashed embedder (see `ingestSession`).
  const embed = (request as DistillRequest & { [hashedEmbedding]?: HashedEmbedding })[hashedEmbedding];
  const input = readingInput(conversation, session, embed, options.maxEpisodeTurns);
  const { speakerNames } = input;
  // Asked for first, so that an idle reader worker takes this session rather than the next one.
  const readings = reader.read(session, input);
  // `createEngram` passes the whole conversation: the sessions after this one can be read ahead.
  const sessions = (conversation as Partial<Conversation>).sessions;
  const at = sessions?.indexOf(session) ?? -1;
  if (sessions !== undefined && at !== -1) {
    reader.prefetch(sessions.slice(at + 1, at + 1 + READ_AHEAD).map((next) => ({ session: next, input: readingInput(conversation, next, embed, options.maxEpisodeTurns) })));
  }
  const turnUnits = sessionTurnUnits(tenant, conversation, session);
  const span = turnUnits[0]?.context.session;
  const reading = await readings;
  const fresh = freshTurns(session, request.knownTurnIds, reading.turns);
  if (fresh.length === 0) return { turns: [], episodes: [], facts: [], topics: [], cues: [], tags: [], relations: [], supersessions: [] };

  const graph = new GraphDraft(tenant, await memory.findCues(namesToFind(speakerNames, fresh)), ids);
  aliasListeners(fresh, graph);
  const show = displayNames(speakerNames);
  const members = membersOf(fresh, turnUnits, graph, show);
  const episodeSession: EpisodeSession = {
    tenant,
    scope: { ...tenant, sessionId: session.id },
    span,
    day: span?.start.slice(0, 10),
    graph,
    relateTurns: options.relateTurns ?? true,
  };
  // Episodes planned by the reader hold when every message is new and the day is the same.
  const plan = fresh.length === session.turns.length && reading.episodes?.settings.day === episodeSession.day ? reading.episodes : undefined;
  const { episodes, topicEpisodes } = buildEpisodes(members, episodeSession, options, plan);

  const { topics, topicOf } = await assignTopics(topicEpisodes, tenant, (ids) => memory.getUnits(ids), graph);
  fileUnderTopics(episodes, topicOf);

  const stored = new Map<string, Fact[]>();
  await Promise.all(speakerEntities(fresh, graph).map(async (entity) => stored.set(entity, await memory.currentFacts(entity))));
  const { facts, supersessions } = buildFacts(fresh, { tenant, sessionId: session.id, span, day: episodeSession.day, stored, graph, show });

  return {
    turns: unitsOf(members),
    episodes,
    facts,
    topics,
    ...graph.output(),
    supersessions,
    diagnostics: timeDiagnostics(fresh),
  };
}

// The steps of `distillOffline` that loop over a session's messages live in the functions below.
// `distillOffline` runs once per session; kept free of loops it never becomes hot itself, and the
// optimising compiler is not made to compile it with everything it calls inlined — a very large
// compilation while ingesting — but only these small functions, each on its own.

/** The names to look up in memory: the speakers' and those of every cue of the new messages. */
function namesToFind(speakerNames: ReadonlyArray<string>, fresh: ReadonlyArray<ReadTurn>): string[] {
  const names = new Set<string>();
  for (const name of speakerNames) names.add(normalizeName(name));
  for (const { reading } of fresh) for (const cue of reading.cues) names.add(cue.name);
  return [...names];
}

/** Display names of normalised names, remembered for the session. */
function displayNames(speakerNames: ReadonlyArray<string>): (name: string) => string {
  const speakersByName = new Map(speakerNames.map((name) => [normalizeName(name), name]));
  const shown = new Map<string, string>();
  return (name: string) => {
    let out = shown.get(name);
    if (out === undefined) {
      out = displayName(name, speakersByName);
      shown.set(name, out);
    }
    return out;
  };
}

/** The episode members of the new messages. */
function membersOf(fresh: ReadonlyArray<ReadTurn>, turnUnits: ReadonlyArray<Turn>, graph: GraphDraft, show: (name: string) => string): EpisodeMember[] {
  // Pushed one by one, not made by `map`: a mapped array has another shape in optimised code than
  // in the interpreter, and every function it reaches would be re-optimised for it.
  const members: EpisodeMember[] = [];
  for (const turn of fresh) members.push(member(turn, turnUnits, graph, show));
  return members;
}

/** Gives each episode filed under a topic that topic's id. */
function fileUnderTopics(episodes: ReadonlyArray<Episode>, topicOf: ReadonlyMap<string, string>): void {
  for (const episode of episodes) {
    const topicId = topicOf.get(episode.id);
    if (topicId !== undefined) episode.context.topicId = topicId;
  }
}

/** The canonical names of the new messages' speakers, once each. */
function speakerEntities(fresh: ReadonlyArray<ReadTurn>, graph: GraphDraft): string[] {
  const entities = new Set<string>();
  for (const { turn } of fresh) entities.add(graph.canonical(turn.speaker));
  return [...entities];
}

/** The members' turn units. */
function unitsOf(members: ReadonlyArray<EpisodeMember>): Turn[] {
  const turns: Turn[] = [];
  for (const entry of members) turns.push(entry.unit);
  return turns;
}

/** Time expressions of the new messages: all seen, and those resolved to dates. */
function timeDiagnostics(fresh: ReadonlyArray<ReadTurn>): { timeExpressions: number; timeExpressionsResolved: number } {
  let resolved = 0;
  let vague = 0;
  for (const { reading } of fresh) {
    resolved += reading.times.length;
    vague += reading.vagueTimes;
  }
  return { timeExpressions: resolved + vague, timeExpressionsResolved: resolved };
}

/** Sessions of a conversation offered to the reader ahead of the one being distilled. */
const READ_AHEAD = 2;

/** The messages not stored yet, with their readings. */
function freshTurns(session: ConversationSession, known: ReadonlySet<string>, readings: ReadonlyArray<TurnReading>): ReadTurn[] {
  const fresh: ReadTurn[] = [];
  for (const reading of readings) {
    const turn = session.turns[reading.index] as ConversationTurn;
    if (!known.has(turn.id)) fresh.push({ turn, reading });
  }
  return fresh;
}

/** "Hey Mel!" said to Melanie: a shortened name of the person addressed is an alias of theirs. */
function aliasListeners(fresh: ReadonlyArray<ReadTurn>, graph: GraphDraft): void {
  for (const { reading } of fresh) {
    const listener = reading.speakers.listener === undefined ? undefined : graph.normal(reading.speakers.listener);
    if (listener === undefined) continue;
    const firstName = listener.split(' ')[0] ?? listener;
    for (const mention of reading.mentions) {
      if (mention.kind !== 'person' || mention.kin !== undefined || mention.name.length < 3 || mention.name === listener) continue;
      if (firstName.startsWith(mention.name)) graph.alias(listener, mention.name);
    }
  }
}

/**
 * A message's turn unit, enriched with what it names, and its cues resolved through aliases.
 * (One loop, no chains of array methods: this runs cold for every message, and the arrays such
 * chains make change shape between tiers and cost re-optimisations.)
 */
function member(read: ReadTurn, turnUnits: ReadonlyArray<Turn>, graph: GraphDraft, show: (name: string) => string): EpisodeMember {
  const { reading } = read;
  const unit = turnUnits[reading.index] as Turn;
  const cues: CueOccurrence[] = [];
  const participants = new Set<string>(unit.context.participants);
  const entities = new Set<string>();
  let location: string | undefined;
  for (const occurrence of reading.cues) {
    const cue: CueOccurrence = { name: graph.canonical(occurrence.name), kind: occurrence.kind, sentence: occurrence.sentence };
    cues.push(cue);
    if (cue.kind === 'person') participants.add(show(cue.name));
    else if (cue.kind === 'place' && location === undefined) location = cue.name;
    if (cue.kind !== 'time') entities.add(cue.name);
  }
  const eventTime = reading.times[0]?.interval;
  const mentionTimes: TimeInterval[] = [];
  for (const time of reading.times) mentionTimes.push(time.interval);
  const participantList = [...participants];
  const entityList = [...entities];
  // Every member is written out with the same keys in the same order (see `EpisodeMember`).
  return {
    turn: read.turn,
    reading,
    cues,
    unit: {
      ...unit,
      ...(reading.vector === undefined ? {} : { vector: reading.vector }),
      context: {
        ...unit.context,
        ...(eventTime === undefined ? {} : { eventTime }),
        mentionTimes,
        participants: participantList,
        entities: entityList,
        ...(location === undefined ? {} : { location }),
      },
    },
    eventTime,
    location,
    mentionTimes,
    participants: participantList,
    entities: entityList,
  };
}

/**
 * Segments the messages into episodes and builds them; with a plan (every message new), its
 * ranges are the segmentation and its vectors the episodes' (the same texts, embedded ahead).
 */
function buildEpisodes(members: ReadonlyArray<EpisodeMember>, session: EpisodeSession, options: OfflineDistillerOptions, plan: EpisodePlan | undefined) {
  const ranges = plan?.ranges ?? segmentEpisodes(
    segmentTurns(members),
    options.maxEpisodeTurns === undefined ? {} : { maxTurns: options.maxEpisodeTurns },
  );
  const episodes: Episode[] = [];
  const topicEpisodes: TopicEpisode[] = [];
  // A counted loop: ranges come from the worker's JSON or from here, and destructuring each
  // through the iterator protocol checks their array shapes (and deoptimises on a new one).
  for (let index = 0; index < ranges.length; index++) {
    const range = ranges[index] as [number, number];
    const { episode, topic } = buildEpisode(members.slice(range[0], range[1]), session, plan?.vectors[index]);
    episodes.push(episode);
    topicEpisodes.push(topic);
  }
  return { episodes, topicEpisodes };
}
