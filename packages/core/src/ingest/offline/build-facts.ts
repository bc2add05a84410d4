import type { SessionSpan } from '../../model/context.js';
import { stableId } from '../../model/ids.js';
import type { Scope } from '../../model/scope.js';
import type { Fact } from '../../model/units.js';
import type { Supersession } from '../../ports/distiller.js';
import type { ConversationTurn } from '../conversation.js';
import { singleValuedAspects } from './fact-patterns.js';
import type { GraphDraft } from './graph-draft.js';
import type { FactReading, TurnReading } from './read-session.js';

/** What fact building needs from the session. */
export interface FactSession {
  /** The tenant scope facts are stored under. */
  tenant: Scope;
  /** Session id. */
  sessionId: string;
  /** The session span, when the session has a date. */
  span: SessionSpan | undefined;
  /** The session's day (`YYYY-MM-DD`), when known. */
  day: string | undefined;
  /** Stored facts still valid, per entity. */
  stored: ReadonlyMap<string, ReadonlyArray<Fact>>;
  /** Cue resolution and relation collection. */
  graph: GraphDraft;
  /** Display name of a cue name. */
  show: (name: string) => string;
}

/** A message with its reading. */
export interface ReadTurn {
  turn: ConversationTurn;
  reading: TurnReading;
}

/**
 * Turns the first-person fact candidates of the new messages into fact units about their
 * speakers. A value already held (stored or earlier in the session) is updated — last seen now,
 * one more source — not duplicated; a new value of a single-valued aspect (home, job,
 * relationship, …) supersedes the current one, which is kept with `validTo` and `supersededBy`.
 */
export function buildFacts(turns: ReadonlyArray<ReadTurn>, session: FactSession): { facts: Fact[]; supersessions: Supersession[] } {
  const out = new Map<string, Fact>();
  const supersessions: Supersession[] = [];
  const closed = new Set<string>();
  const current = (entity: string, aspect: string): Fact[] => {
    const stored = (session.stored.get(entity) ?? []).filter((fact) => fact.aspect === aspect && !closed.has(fact.id));
    const local = [...out.values()].filter((fact) => fact.entity === entity && fact.aspect === aspect && fact.validTo === undefined);
    const byId = new Map<string, Fact>();
    for (const fact of [...stored, ...local]) byId.set(fact.id, out.get(fact.id) ?? fact);
    return [...byId.values()];
  };
  for (const { turn, reading } of turns) {
    const entity = session.graph.canonical(turn.speaker);
    const source = { sessionId: session.sessionId, turnId: turn.id };
    for (const candidate of reading.facts) {
      const held = current(entity, candidate.aspect);
      const same = held.find((fact) => fact.value === candidate.key);
      if (same !== undefined) {
        const sources = same.sources.some((ref) => ref.turnId === source.turnId && ref.sessionId === source.sessionId) ? same.sources : [...same.sources, source];
        out.set(same.id, { ...same, lastSeenSession: session.sessionId, sources });
        relateFact(reading, candidate, entity, same.id, session);
        continue;
      }
      const fact = newFact(turn, reading, candidate, entity, session);
      const validTo = fact.validFrom ?? session.day;
      if (singleValuedAspects.has(candidate.aspect) && validTo !== undefined) {
        for (const old of held) {
          const isStored = session.stored.get(entity)?.some((stored) => stored.id === old.id) ?? false;
          if (isStored) {
            supersessions.push({ factId: old.id, supersededBy: fact.id, validTo });
            closed.add(old.id);
          }
          const local = out.get(old.id);
          if (local !== undefined) out.set(old.id, { ...local, validTo, supersededBy: fact.id });
        }
      }
      out.set(fact.id, fact);
      relateFact(reading, candidate, entity, fact.id, session);
    }
  }
  return { facts: [...out.values()], supersessions };
}

function newFact(turn: ConversationTurn, reading: TurnReading, candidate: FactReading, entity: string, session: FactSession): Fact {
  const times = reading.times.filter((time) => time.index >= candidate.from && time.index < candidate.to);
  const eventTime = times[0]?.interval;
  const validFrom = eventTime?.start ?? session.day;
  const name = session.show(entity);
  const surface = candidate.value === candidate.key ? '' : ` (${candidate.value})`;
  const text = `${name} — ${candidate.aspect}: ${candidate.key}${surface}. ${candidate.restated}`;
  const valueCues = reading.cues
    .filter((cue) => cue.sentence === candidate.sentence && cue.kind !== 'time' && candidate.value.includes(cue.name))
    .map((cue) => session.graph.canonical(cue.name));
  return {
    id: stableId('fact', session.tenant, entity, candidate.aspect, candidate.key, session.sessionId),
    kind: 'fact',
    scope: session.tenant,
    text,
    entity,
    aspect: candidate.aspect,
    value: candidate.key,
    firstSeenSession: session.sessionId,
    lastSeenSession: session.sessionId,
    ...(validFrom === undefined ? {} : { validFrom }),
    context: {
      ...(eventTime === undefined ? {} : { eventTime }),
      mentionTimes: times.map((time) => time.interval),
      ...(session.span === undefined ? {} : { session: session.span }),
      participants: [turn.speaker],
      entities: [...new Set([entity, ...valueCues])],
    },
    sources: [{ sessionId: session.sessionId, turnId: turn.id }],
  };
}

function relateFact(reading: TurnReading, candidate: FactReading, entity: string, factId: string, session: FactSession): void {
  const tag = session.graph.tag(candidate.aspect);
  session.graph.relate(session.graph.cue(entity, 'person'), tag, factId, session.tenant);
  for (const cue of reading.cues) {
    if (cue.sentence !== candidate.sentence || cue.kind === 'time' || !candidate.value.includes(cue.name)) continue;
    session.graph.relate(session.graph.cue(cue.name, cue.kind), tag, factId, session.tenant);
  }
}
