import {
  normalizeName,
  singleValuedAspects,
  stableId,
  timeCueName,
  topicIdOf,
  type DistillRequest,
  type DistillResult,
  type Episode,
  type Fact,
  type Scope,
  type Supersession,
  type TimeInterval,
  type Topic,
  type Turn,
} from '@engram/core';
import type { ModelBatch } from './distill-schema.js';
import { SessionGraph } from './session-graph.js';

/** One batch the model distilled: its turn units (fresh ones, in order) and the model's output. */
export interface DistilledBatch {
  turns: ReadonlyArray<Turn>;
  output: ModelBatch;
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

function interval(time: { start: string; end: string; granularity: TimeInterval['granularity']; text: string }): TimeInterval {
  return { start: time.start, end: time.end, granularity: time.granularity, ...(time.text ? { text: time.text } : {}) };
}

function topicText(label: string, titles: ReadonlyArray<string>): string {
  return `Topic: ${label}. Episodes: ${titles.join('; ')}`;
}

function titlesOf(topic: Topic): string[] {
  const at = topic.text.indexOf('Episodes: ');
  return at === -1 ? [] : topic.text.slice(at + 'Episodes: '.length).split('; ').filter((title) => title.length > 0);
}

/**
 * Turns the model's batches into the distiller port's model — the same units, ids, cues, tags,
 * relations and supersessions the offline distiller builds: episodes keyed by their turn units,
 * cues and tags by name within the tenant, topics by their label's stems (so a later session
 * extends a stored topic), facts by entity, aspect, value and session.
 */
export async function assembleSession(request: DistillRequest, batches: ReadonlyArray<DistilledBatch>): Promise<DistillResult> {
  const tenant: Scope = request.scope.agentId === undefined ? { userId: request.scope.userId } : { userId: request.scope.userId, agentId: request.scope.agentId };
  const sessionScope: Scope = { ...tenant, sessionId: request.session.id };
  const { memory } = request;
  const names = unique([
    ...request.conversation.speakers.map(normalizeName),
    ...batches.flatMap((batch) => [
      ...batch.turns.map((turn) => normalizeName(turn.speaker)),
      ...batch.output.episodes.flatMap((episode) => episode.cues.map((cue) => normalizeName(cue.name))),
      ...batch.output.facts.map((fact) => normalizeName(fact.entity)),
      ...batch.output.aliases.flatMap((alias) => [normalizeName(alias.name), normalizeName(alias.alias)]),
    ]),
  ]).filter((name) => name.length > 0);
  const graph = new SessionGraph(tenant, names.length === 0 ? [] : await memory.findCues(names));
  for (const batch of batches) for (const alias of batch.output.aliases) graph.alias(alias.name, alias.alias);

  const turns: Turn[] = [];
  const episodes: Episode[] = [];
  const topicDrafts = new Map<string, { label: string; episodeIds: string[]; titles: string[]; participants: Set<string> }>();
  let timeExpressions = 0;
  for (const batch of batches) {
    const enriched = batch.turns.map((turn) => ({ ...turn, context: { ...turn.context, mentionTimes: [...turn.context.mentionTimes], participants: [...turn.context.participants], entities: [...turn.context.entities] } }));
    for (const episode of batch.output.episodes) {
      const members = unique(episode.turns).sort((a, b) => a - b).map((index) => enriched[index] as Turn);
      const id = stableId('episode', tenant, ...members.map((turn) => turn.id));
      const episodeTag = graph.tag(episode.tag);
      const mentionTimes = episode.times.map(interval);
      timeExpressions += mentionTimes.length;
      const people: string[] = [];
      const entities: string[] = [];
      for (const member of members) graph.relate(graph.cue(member.speaker, 'person'), episodeTag, id, sessionScope);
      for (const cue of episode.cues) {
        const name = graph.canonical(cue.name);
        const cueIdentity = graph.cue(name, cue.kind);
        const tag = cue.tag ? graph.tag(cue.tag) : episodeTag;
        graph.relate(cueIdentity, tag, id, sessionScope);
        if (cue.kind === 'person') people.push(cue.name);
        if (cue.kind !== 'time') entities.push(name);
        for (const index of unique(cue.turns)) {
          const turn = enriched[index] as Turn;
          graph.relate(cueIdentity, tag, turn.id, sessionScope);
          if (cue.kind !== 'time' && !turn.context.entities.includes(name)) turn.context.entities.push(name);
          if (cue.kind === 'person' && !turn.context.participants.includes(cue.name)) turn.context.participants.push(cue.name);
        }
      }
      for (const time of episode.times) {
        const turn = enriched[time.turn] as Turn;
        turn.context.mentionTimes.push(interval(time));
        turn.context.eventTime ??= interval(time);
        // Like the offline distiller, a resolved time is also a cue ("june 2024"), so the timeline can be entered by name.
        const timeCue = graph.cue(timeCueName(interval(time)), 'time');
        graph.relate(timeCue, episodeTag, id, sessionScope);
        graph.relate(timeCue, episodeTag, turn.id, sessionScope);
      }
      if (episode.location) for (const member of members) member.context.location ??= episode.location;
      const day = members[0]?.context.session?.start.slice(0, 10);
      const label = episode.topic ? normalizeName(episode.topic) : undefined;
      const topicId = label ? topicIdOf(tenant, label) : undefined;
      const eventTime = episode.eventTime ? interval(episode.eventTime) : mentionTimes[0];
      const session = members[0]?.context.session;
      episodes.push({
        id,
        kind: 'episode',
        scope: sessionScope,
        text: `${day === undefined ? '' : `[${day}] `}${episode.text}`,
        title: normalizeName(episode.tag),
        context: {
          ...(eventTime === undefined ? {} : { eventTime }),
          mentionTimes,
          ...(session === undefined ? {} : { session }),
          participants: unique([...members.map((member) => member.speaker), ...people]),
          entities: unique(entities),
          ...(episode.location ? { location: episode.location } : {}),
          ...(topicId === undefined ? {} : { topicId }),
        },
        sources: members.flatMap((member) => member.sources),
      });
      if (label !== undefined && topicId !== undefined) {
        const draft = topicDrafts.get(topicId) ?? { label, episodeIds: [], titles: [], participants: new Set<string>() };
        if (!draft.episodeIds.includes(id)) draft.episodeIds.push(id);
        const title = normalizeName(episode.tag);
        if (!draft.titles.includes(title) && draft.titles.length < 40) draft.titles.push(title);
        for (const member of members) draft.participants.add(member.speaker);
        topicDrafts.set(topicId, draft);
      }
    }
    // A message the model left out of every episode still gets one, restated as said: like the
    // offline distiller, every new message is reachable from the episode layer.
    const covered = new Set(batch.output.episodes.flatMap((episode) => episode.turns));
    for (const [index, turn] of enriched.entries()) {
      if (covered.has(index)) continue;
      const id = stableId('episode', tenant, turn.id);
      graph.relate(graph.cue(turn.speaker, 'person'), graph.tag('said'), id, sessionScope);
      const day = turn.context.session?.start.slice(0, 10);
      episodes.push({
        id,
        kind: 'episode',
        scope: sessionScope,
        text: `${day === undefined ? '' : `[${day}] `}${turn.text}`,
        context: { ...turn.context, mentionTimes: [...turn.context.mentionTimes], participants: [...turn.context.participants], entities: [...turn.context.entities] },
        sources: turn.sources,
      });
    }
    turns.push(...enriched);
  }

  const stored = topicDrafts.size === 0 ? [] : await memory.getUnits([...topicDrafts.keys()]);
  const storedTopics = new Map(stored.filter((unit): unit is Topic => unit?.kind === 'topic').map((topic) => [topic.id, topic]));
  const topics: Topic[] = [...topicDrafts].map(([id, draft]) => {
    const base = storedTopics.get(id);
    const label = base?.label ?? draft.label;
    graph.relate(graph.cue(label, 'thing'), graph.tag('topic'), id, tenant);
    const titles = unique([...(base ? titlesOf(base) : []), ...draft.titles]).slice(0, 40);
    return {
      ...(base ?? {}),
      id,
      kind: 'topic',
      scope: tenant,
      label,
      episodeIds: unique([...(base?.episodeIds ?? []), ...draft.episodeIds]),
      text: topicText(label, titles),
      context: {
        ...(base?.context ?? {}),
        mentionTimes: base?.context.mentionTimes ?? [],
        participants: unique([...(base?.context.participants ?? []), ...draft.participants]),
        entities: [label],
      },
      sources: base?.sources ?? [],
    };
  });

  const { facts, supersessions } = await buildFacts(batches, { tenant, sessionId: request.session.id, graph, memory });
  return {
    turns,
    episodes,
    facts,
    topics,
    ...graph.output(),
    supersessions,
    diagnostics: { timeExpressions, timeExpressionsResolved: timeExpressions },
  };
}

async function buildFacts(
  batches: ReadonlyArray<DistilledBatch>,
  session: { tenant: Scope; sessionId: string; graph: SessionGraph; memory: DistillRequest['memory'] },
): Promise<{ facts: Fact[]; supersessions: Supersession[] }> {
  const { tenant, sessionId, graph } = session;
  const out = new Map<string, Fact>();
  const supersessions: Supersession[] = [];
  const closed = new Set<string>();
  const storedByEntity = new Map<string, Fact[]>();
  const storedOf = async (entity: string) => {
    let facts = storedByEntity.get(entity);
    if (facts === undefined) {
      facts = await session.memory.currentFacts(entity);
      storedByEntity.set(entity, facts);
    }
    return facts;
  };
  for (const batch of batches) {
    for (const candidate of batch.output.facts) {
      const turn = batch.turns[candidate.turn] as Turn;
      const entity = graph.canonical(candidate.entity);
      const aspect = normalizeName(candidate.aspect);
      const value = normalizeName(candidate.value);
      const source = turn.sources[0] ?? { sessionId, turnId: turn.id };
      const stored = (await storedOf(entity)).filter((fact) => fact.aspect === aspect && !closed.has(fact.id));
      const local = [...out.values()].filter((fact) => fact.entity === entity && fact.aspect === aspect && fact.validTo === undefined);
      const held = [...new Map([...stored, ...local].map((fact) => [fact.id, out.get(fact.id) ?? fact])).values()];
      const tag = graph.tag(aspect);
      const entityCue = graph.cue(entity, 'person');
      const same = held.find((fact) => fact.value === value);
      if (same !== undefined) {
        const sources = same.sources.some((ref) => ref.turnId === source.turnId && ref.sessionId === source.sessionId) ? same.sources : [...same.sources, source];
        out.set(same.id, { ...same, lastSeenSession: sessionId, sources });
        graph.relate(entityCue, tag, same.id, tenant);
        continue;
      }
      const day = turn.context.session?.start.slice(0, 10);
      const fact: Fact = {
        id: stableId('fact', tenant, entity, aspect, value, sessionId),
        kind: 'fact',
        scope: tenant,
        text: `${candidate.entity} — ${aspect}: ${value}. ${candidate.text}`,
        entity,
        aspect,
        value,
        firstSeenSession: sessionId,
        lastSeenSession: sessionId,
        ...(day === undefined ? {} : { validFrom: day }),
        context: {
          mentionTimes: [],
          ...(turn.context.session === undefined ? {} : { session: turn.context.session }),
          participants: [turn.speaker],
          entities: [entity],
        },
        sources: [source],
      };
      if (singleValuedAspects.has(aspect) && day !== undefined) {
        for (const old of held) {
          if (stored.some((fact) => fact.id === old.id)) {
            supersessions.push({ factId: old.id, supersededBy: fact.id, validTo: day });
            closed.add(old.id);
          }
          const mine = out.get(old.id);
          if (mine !== undefined) out.set(old.id, { ...mine, validTo: day, supersededBy: fact.id });
        }
      }
      out.set(fact.id, fact);
      graph.relate(entityCue, tag, fact.id, tenant);
    }
  }
  return { facts: [...out.values()], supersessions };
}
