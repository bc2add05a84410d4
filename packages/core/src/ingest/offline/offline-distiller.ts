import { normalizeName, type CueKind } from '../../model/graph.js';
import { stableId } from '../../model/ids.js';
import { tenantOf, type Scope } from '../../model/scope.js';
import type { Episode, Fact, Turn } from '../../model/units.js';
import {
  distillerSpecificationVersion,
  type DistillRequest,
  type DistillResult,
  type Distiller,
} from '../../ports/distiller.js';
import { sessionTurnUnits } from '../turn-units.js';
import { analyseSession, displayName, type CueOccurrence, type TurnAnalysis } from './analyse-session.js';
import { buildFacts } from './build-facts.js';
import { assignTopics, type TopicEpisode } from './build-topics.js';
import { GraphDraft, IdCache } from './graph-draft.js';
import { loadLexicon } from './lexicon.js';
import { segmentEpisodes } from './segment.js';

/** Options of {@link createOfflineDistiller}. */
export interface OfflineDistillerOptions {
  /** Most messages in one episode. @default 4 */
  maxEpisodeTurns?: number;
  /** Relate cues to the source turns as well as to episodes, so a cue reaches a turn directly. @default true */
  relateTurns?: boolean;
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

function firstTag(analysis: TurnAnalysis): string | undefined {
  return analysis.sentenceTags.find((tag) => tag !== undefined);
}

/** A tag that says what happened: a verb with an object, not a bare verb or a copula. */
function isRichTag(tag: string | undefined): tag is string {
  return tag !== undefined && tag.includes(' ') && !/^(?:is|was|be|been|not) /.test(tag);
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
  const ids = new IdCache();
  return {
    specificationVersion: distillerSpecificationVersion,
    name: 'offline',
    distill: (request) => distillOffline(request, options, ids),
    [trustedDistillerOutput]: true,
  } as Distiller;
}

async function distillOffline(request: DistillRequest, options: OfflineDistillerOptions, ids: IdCache): Promise<DistillResult> {
  request.signal?.throwIfAborted();
  const lexicon = await loadLexicon();
  const tenant = tenantOf(request.scope) as Scope;
  const { session, conversation, memory } = request;
  const sessionScope: Scope = { ...tenant, sessionId: session.id };
  const speakerNames = unique([...conversation.speakers, ...session.turns.map((turn) => turn.speaker)]);
  const turnUnits = sessionTurnUnits(tenant, conversation, session);
  const span = turnUnits[0]?.context.session;
  const day = span?.start.slice(0, 10);
  const analyses = analyseSession(session, speakerNames, span?.start, lexicon);
  const fresh = analyses.filter((analysis) => !request.knownTurnIds.has(analysis.turn.id));
  const empty: DistillResult = { turns: [], episodes: [], facts: [], topics: [], cues: [], tags: [], relations: [], supersessions: [] };
  if (fresh.length === 0) return empty;

  const names = unique([...speakerNames.map(normalizeName), ...fresh.flatMap((analysis) => analysis.cues.map((cue) => cue.name))]);
  const graph = new GraphDraft(tenant, await memory.findCues(names), ids);
  // "Hey Mel!" said to Melanie: a shortened name of the person addressed is an alias of theirs.
  for (const analysis of fresh) {
    const listener = analysis.speakers.listener === undefined ? undefined : normalizeName(analysis.speakers.listener);
    if (listener === undefined) continue;
    const firstName = listener.split(' ')[0] ?? listener;
    for (const mention of analysis.mentions) {
      if (mention.kind !== 'person' || mention.kin !== undefined || mention.name.length < 3 || mention.name === listener) continue;
      if (firstName.startsWith(mention.name)) graph.alias(listener, mention.name);
    }
  }
  const speakersByName = new Map(speakerNames.map((name) => [normalizeName(name), name]));
  const shown = new Map<string, string>();
  const show = (name: string) => {
    let out = shown.get(name);
    if (out === undefined) {
      out = displayName(name, speakersByName);
      shown.set(name, out);
    }
    return out;
  };
  // Cue names resolved through aliases, once per message (turns and episodes both read them).
  const canonical = new Map<TurnAnalysis, CueOccurrence[]>(fresh.map((analysis) => [analysis, analysis.cues.map((cue) => ({ ...cue, name: graph.canonical(cue.name) }))]));
  const canonicalCues = (analysis: TurnAnalysis) => canonical.get(analysis) as CueOccurrence[];
  const relateTurns = options.relateTurns ?? true;

  const turns: Turn[] = fresh.map((analysis) => {
    const unit = turnUnits[analysis.index] as Turn;
    const cues = canonicalCues(analysis);
    const people = cues.filter((cue) => cue.kind === 'person').map((cue) => show(cue.name));
    const location = cues.find((cue) => cue.kind === 'place')?.name;
    const eventTime = analysis.times[0]?.interval;
    return {
      ...unit,
      context: {
        ...unit.context,
        ...(eventTime === undefined ? {} : { eventTime }),
        mentionTimes: analysis.times.map((time) => time.interval),
        participants: unique([...unit.context.participants, ...people]),
        entities: unique(cues.filter((cue) => cue.kind !== 'time').map((cue) => cue.name)),
        ...(location === undefined ? {} : { location }),
      },
    };
  });
  const turnById = new Map(turns.map((turn, index) => [fresh[index]?.turn.id ?? '', turn]));

  const ranges = segmentEpisodes(
    fresh.map((analysis) => ({
      speaker: analysis.turn.speaker,
      stems: analysis.stems,
      asks: /\?\s*$/.test(analysis.turn.text),
      words: analysis.tagged.tokens.filter((token) => token.pos !== 'punct').length,
    })),
    options.maxEpisodeTurns === undefined ? {} : { maxTurns: options.maxEpisodeTurns },
  );

  const episodes: Episode[] = [];
  const topicEpisodes: TopicEpisode[] = [];
  for (const [start, end] of ranges) {
    const members = fresh.slice(start, end);
    // From the turn units' ids, which cover scope, source and words: an edited message makes a new episode.
    const id = stableId('episode', tenant, ...members.map((member) => (turnById.get(member.turn.id) as Turn).id));
    const title = members.flatMap((member) => member.sentenceTags).find(isRichTag) ?? members.map(firstTag).find((tag) => tag !== undefined);
    const cueStats = new Map<string, { kind: CueKind; count: number; first: number }>();
    let position = 0;
    for (const member of members) {
      const memberTurn = turnById.get(member.turn.id) as Turn;
      const seenInTurn = new Set<string>();
      for (const cue of canonicalCues(member)) {
        const stats = cueStats.get(cue.name);
        if (stats === undefined) cueStats.set(cue.name, { kind: cue.kind, count: 1, first: position++ });
        else stats.count += 1;
        const tag = graph.tag((cue.sentence >= 0 ? member.sentenceTags[cue.sentence] : undefined) ?? firstTag(member) ?? title ?? 'mentioned');
        const cueId = graph.cue(cue.name, cue.kind);
        if (stats === undefined) graph.relate(cueId, tag, id, sessionScope);
        // The speaker (sentence -1) is not related to each of their turns: that fan-out says nothing.
        if (relateTurns && cue.sentence >= 0 && !seenInTurn.has(cue.name)) graph.relate(cueId, tag, memberTurn.id, sessionScope);
        seenInTurn.add(cue.name);
      }
    }
    const memberTurns = members.map((member) => turnById.get(member.turn.id) as Turn);
    const eventTime = memberTurns.find((turn) => turn.context.eventTime !== undefined)?.context.eventTime;
    const participants = unique(memberTurns.flatMap((turn) => turn.context.participants));
    const text = `${day === undefined ? '' : `[${day}] `}${members.map((member) => `${member.turn.speaker}: ${member.restated}`).join('\n')}`;
    episodes.push({
      id,
      kind: 'episode',
      scope: sessionScope,
      text,
      ...(title === undefined ? {} : { title }),
      context: {
        ...(eventTime === undefined ? {} : { eventTime }),
        mentionTimes: memberTurns.flatMap((turn) => turn.context.mentionTimes),
        ...(span === undefined ? {} : { session: span }),
        participants,
        entities: unique(memberTurns.flatMap((turn) => turn.context.entities)),
        ...(memberTurns.find((turn) => turn.context.location)?.context.location === undefined
          ? {}
          : { location: memberTurns.find((turn) => turn.context.location)?.context.location as string }),
      },
      sources: memberTurns.flatMap((turn) => turn.sources),
    });
    topicEpisodes.push({ id, title, participants: unique(members.map((member) => member.turn.speaker)), cues: cueStats });
  }

  const { topics, topicOf } = await assignTopics(topicEpisodes, tenant, (ids) => memory.getUnits(ids), graph);
  for (const episode of episodes) {
    const topicId = topicOf.get(episode.id);
    if (topicId !== undefined) episode.context.topicId = topicId;
  }

  const entities = unique(fresh.map((analysis) => graph.canonical(analysis.turn.speaker)));
  const stored = new Map<string, Fact[]>();
  await Promise.all(entities.map(async (entity) => stored.set(entity, await memory.currentFacts(entity))));
  const { facts, supersessions } = buildFacts(fresh, { tenant, sessionId: session.id, span, day, stored, graph, show }, lexicon);

  const resolved = fresh.reduce((sum, analysis) => sum + analysis.times.length, 0);
  return {
    turns,
    episodes,
    facts,
    topics,
    ...graph.output(),
    supersessions,
    diagnostics: { timeExpressions: resolved + fresh.reduce((sum, analysis) => sum + analysis.vagueTimes, 0), timeExpressionsResolved: resolved },
  };
}
