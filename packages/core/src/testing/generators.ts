import fc from 'fast-check';
import type { CueInput, RelationInput, TagInput } from '../model/graph.js';
import type { Scope, ScopeFilter } from '../model/scope.js';
import type { z } from 'zod';
import type { timeIntervalSchema } from '../model/time.js';
import { unitKinds, type UnitInput, type UnitKind } from '../model/units.js';
import type { WriteBatchInput } from '../model/batch.js';
import type { TimeWindow } from '../ports/memory-store.js';

/**
 * The id space generated data lives in: a few tenants, agents and sessions, and a fixed pool of
 * ids per tenant and record kind, so that writes replace, relate and delete the same records.
 */
export interface Universe {
  /** Tenants (`userId`s). */
  tenants: ReadonlyArray<string>;
  /** Agent ids used inside each tenant. */
  agents: ReadonlyArray<string>;
  /** Session ids used inside each tenant. */
  sessions: ReadonlyArray<string>;
  /** Ids per tenant and record kind (units of each kind, cues, tags). */
  poolSize: number;
  /** Dimension of generated vectors. */
  dims: number;
}

/** Three tenants, two agents, two sessions, five ids per kind (so writes often collide), 8-dimensional vectors. */
export const defaultUniverse: Universe = { tenants: ['ua', 'ub', 'uc'], agents: ['a1', 'a2'], sessions: ['s1', 's2'], poolSize: 5, dims: 8 };

/** A time interval as accepted on input. */
type TimeIntervalInput = z.input<typeof timeIntervalSchema>;

const kindLetter: Record<UnitKind, string> = { turn: 't', episode: 'e', fact: 'f', topic: 'p' };

/** Id of the `index`-th unit of `kind` of `tenant`, e.g. `ua-e3`. */
export const unitId = (tenant: string, kind: UnitKind, index: number): string => `${tenant}-${kindLetter[kind]}${index}`;
/** Id of the `index`-th cue of `tenant`, e.g. `ua-c3`. */
export const cueId = (tenant: string, index: number): string => `${tenant}-c${index}`;
/** Id of the `index`-th tag of `tenant`, e.g. `ua-g3`. */
export const tagId = (tenant: string, index: number): string => `${tenant}-g${index}`;

const range = (count: number) => Array.from({ length: count }, (_, index) => index);

/** Every unit id of the universe (all tenants, all kinds), plus one that is never written. */
export function universeUnitIds(universe: Universe, kinds: ReadonlyArray<UnitKind> = unitKinds): string[] {
  return [...universe.tenants.flatMap((tenant) => kinds.flatMap((kind) => range(universe.poolSize).map((index) => unitId(tenant, kind, index)))), 'never-written'];
}
/** Every cue id of the universe, plus one that is never written. */
export function universeCueIds(universe: Universe): string[] {
  return [...universe.tenants.flatMap((tenant) => range(universe.poolSize).map((index) => cueId(tenant, index))), 'never-written'];
}
/** Every tag id of the universe, plus one that is never written. */
export function universeTagIds(universe: Universe): string[] {
  return [...universe.tenants.flatMap((tenant) => range(universe.poolSize).map((index) => tagId(tenant, index))), 'never-written'];
}

/** Words of generated texts: stop words, inflections that stem alike, case and accents. */
export const vocabulary = [
  'Caroline', 'caroline', "Caroline's", 'Melanie', 'went', 'goes', 'going', 'to', 'the', 'a', 'and', 'of', 'her',
  'painting', 'paints', 'painted', 'pottery', 'class', 'classes', 'Paris', 'tournament', 'video', 'game', 'games',
  'adopted', 'dog', 'dogs', 'guitar', 'July', '2023', 'career', 'counselor', 'running', 'ran', 'runs', 'support',
  'group', 'camping', 'beach', 'sunset', 'book', 'reading', 'café', 'Café', 'naïve', 'zebra',
] as const;
/** Normalised cue names. */
export const cueNames = ['caroline', 'melanie', 'video game', 'july 2023', 'paris', 'pottery', 'dog', 'guitar', 'new york', 'café'] as const;
/** Normalised cue aliases. */
export const cueAliases = ['caro', 'mel', 'videogame', 'nyc', 'the big apple', 'puppy', 'cafe'] as const;
/** Tag labels. */
export const tagLabels = ['entered tournament', 'adopted pet', 'career', 'hobby', 'travel', 'family'] as const;

/** A `YYYY-MM-DD` date `day` days after 2023-01-01. */
export function dayDate(day: number): string {
  return new Date(Date.UTC(2023, 0, 1 + day)).toISOString().slice(0, 10);
}
const pad = (value: number) => String(value).padStart(2, '0');

/** Drops keys whose value is `undefined`, so generated records only carry the fields they set. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

const optional = <T>(arbitrary: fc.Arbitrary<T>, freq = 2) => fc.option(arbitrary, { nil: undefined, freq });

/** A record scope inside `tenant`, with or without agent and session. */
export function scopeArbitrary(universe: Universe, tenant: string): fc.Arbitrary<Scope> {
  return fc
    .record({ agentId: optional(fc.constantFrom(...universe.agents)), sessionId: optional(fc.constantFrom(...universe.sessions)) })
    .map((extra) => compact({ userId: tenant, ...extra }));
}

/** A query scope: mostly a whole tenant, sometimes narrowed to an agent or a session. */
export function scopeFilterArbitrary(universe: Universe): fc.Arbitrary<ScopeFilter> {
  const tenant = fc.constantFrom(...universe.tenants);
  return fc.oneof(
    { weight: 4, arbitrary: tenant.map((userId) => ({ userId })) },
    { weight: 1, arbitrary: fc.tuple(tenant, fc.constantFrom(...universe.agents)).map(([userId, agentId]) => ({ userId, agentId })) },
    { weight: 1, arbitrary: fc.tuple(tenant, fc.constantFrom(...universe.sessions)).map(([userId, sessionId]) => ({ userId, sessionId })) },
  );
}

/** A text of 1–10 vocabulary words (possibly only stop words). */
export const textArbitrary: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 10 })
  .map((words) => words.join(' '));

/** A time interval in 2023 (dates, date ranges, instants with time of day, whole months). */
export const intervalArbitrary: fc.Arbitrary<TimeIntervalInput> = fc
  .record({ day: fc.integer({ min: 0, max: 364 }), span: fc.integer({ min: 1, max: 40 }), style: fc.constantFrom('day', 'range', 'instant', 'month') })
  .map(({ day, span, style }): TimeIntervalInput => {
    const date = dayDate(day);
    if (style === 'day') return { start: date, end: date, granularity: 'day' };
    if (style === 'range') return { start: date, end: dayDate(day + span), granularity: 'range', text: `for ${span} days` };
    if (style === 'instant') {
      const instant = `${date}T${pad(day % 24)}:30:00Z`;
      return { start: instant, end: instant, granularity: 'instant' };
    }
    const month = date.slice(0, 7);
    const last = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)), 0)).toISOString().slice(0, 10);
    return { start: `${month}-01`, end: last, granularity: 'month' };
  });

const sessionSpanArbitrary = fc
  .record({ index: fc.integer({ min: 0, max: 5 }), day: fc.integer({ min: 0, max: 364 }), hour: fc.integer({ min: 0, max: 22 }) })
  .map(({ index, day, hour }) => ({ id: `session-${index}`, start: `${dayDate(day)}T${pad(hour)}:00:00Z`, end: `${dayDate(day)}T${pad(hour + 1)}:15:00Z` }));

/** A vector of small integers (ties and zero vectors happen), as an array or a `Float32Array`, or none. */
export function vectorArbitrary(dims: number): fc.Arbitrary<number[] | Float32Array | undefined> {
  const values = fc.array(fc.integer({ min: -4, max: 4 }), { minLength: dims, maxLength: dims });
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: values },
    { weight: 1, arbitrary: values.map((vector) => Float32Array.from(vector)) },
  );
}

/** A unit of `tenant` with an id from the tenant's pool. */
export function unitArbitrary(universe: Universe, tenant: string): fc.Arbitrary<UnitInput> {
  const index = fc.integer({ min: 0, max: universe.poolSize - 1 });
  const others = universe.tenants.filter((other) => other !== tenant);
  const base = fc.record({
    index,
    scope: scopeArbitrary(universe, tenant),
    text: textArbitrary,
    context: fc
      .record({
        eventTime: optional(intervalArbitrary),
        mentionTimes: fc.array(intervalArbitrary, { maxLength: 2 }),
        session: optional(sessionSpanArbitrary, 4),
        participants: fc.subarray(['Caroline', 'Melanie']),
        entities: fc.subarray([...cueNames], { maxLength: 2 }),
        topicId: optional(index.map((topic) => unitId(tenant, 'topic', topic))),
      })
      .map(compact),
    sources: fc.array(fc.record({ sessionId: fc.constantFrom('session-0', 'session-1'), turnId: fc.constantFrom('D1:1', 'D1:2', 'D2:7') }), { maxLength: 2 }),
    vector: vectorArbitrary(universe.dims),
    createdAt: optional(fc.integer({ min: 0, max: 364 }).map(dayDate)),
  });
  const episodeId = fc.oneof(
    { weight: 4, arbitrary: index.map((episode) => unitId(tenant, 'episode', episode)) },
    ...(others.length === 0 ? [] : [{ weight: 1, arbitrary: fc.tuple(fc.constantFrom(...others), index).map(([other, episode]) => unitId(other, 'episode', episode)) }]),
    { weight: 1, arbitrary: fc.constant(`${tenant}-missing-episode`) },
  );
  const kindFields = fc.oneof(
    fc.record({ kind: fc.constant('turn' as const), speaker: fc.constantFrom('Caroline', 'Melanie'), role: optional(fc.constantFrom('user', 'assistant')), index: fc.nat(40) }),
    fc.record({ kind: fc.constant('episode' as const), title: optional(fc.constantFrom(...tagLabels)) }),
    fc.record({
      kind: fc.constant('fact' as const),
      entity: fc.constantFrom(...cueNames),
      aspect: fc.constantFrom('hobby', 'job', 'pet', 'home'),
      value: fc.constantFrom('pottery', 'counselor', 'dog', 'paris'),
      validFrom: optional(fc.integer({ min: 0, max: 364 }).map(dayDate)),
      supersededBy: optional(index.map((fact) => unitId(tenant, 'fact', fact))),
    }),
    fc.record({ kind: fc.constant('topic' as const), label: fc.constantFrom(...tagLabels), episodeIds: fc.array(episodeId, { maxLength: 4 }) }),
  );
  return fc.tuple(base, kindFields).map(([{ index: position, ...common }, { kind, ...fields }]) => {
    const unit = compact({ id: unitId(tenant, kind, position), kind, ...common, ...compact(fields) });
    return unit as unknown as UnitInput;
  });
}

/** A cue of `tenant` with an id from the tenant's pool. */
export function cueArbitrary(universe: Universe, tenant: string): fc.Arbitrary<CueInput> {
  return fc
    .record({
      index: fc.integer({ min: 0, max: universe.poolSize - 1 }),
      scope: scopeArbitrary(universe, tenant),
      name: fc.constantFrom(...cueNames),
      kind: optional(fc.constantFrom('person', 'place', 'thing', 'time', 'entity') as fc.Arbitrary<CueInput['kind']>),
      aliases: fc.subarray([...cueAliases], { maxLength: 2 }),
    })
    .map(({ index, ...cue }) => compact({ id: cueId(tenant, index), ...cue }));
}

/** A tag of `tenant` with an id from the tenant's pool. */
export function tagArbitrary(universe: Universe, tenant: string): fc.Arbitrary<TagInput> {
  return fc
    .record({ index: fc.integer({ min: 0, max: universe.poolSize - 1 }), scope: scopeArbitrary(universe, tenant), label: fc.constantFrom(...tagLabels) })
    .map(({ index, ...tag }) => ({ id: tagId(tenant, index), ...tag }));
}

/** A relation of `tenant` between pool ids (which may not exist: see `resolveBatch`). */
export function relationArbitrary(universe: Universe, tenant: fc.Arbitrary<string>): fc.Arbitrary<RelationInput> {
  const index = fc.integer({ min: 0, max: universe.poolSize - 1 });
  return fc
    .record({ tenant, cue: index, tag: index, kind: fc.constantFrom(...unitKinds), content: index })
    .chain(({ tenant: userId, cue, tag, kind, content }) =>
      scopeArbitrary(universe, userId).map((scope) => ({ scope, cueId: cueId(userId, cue), tagId: tagId(userId, tag), contentId: unitId(userId, kind, content) })),
    );
}

/** A relation with the cue and tag records it needs, when the batch lacks them. */
interface BatchRelation {
  relation: RelationInput;
  cue?: CueInput;
  tag?: TagInput;
}

/**
 * A relation from a unit of `base` to a cue and a tag of the same tenant: one of `base`'s, or a
 * pool cue or tag that is added to the batch with it.
 */
function batchRelationArbitrary(universe: Universe, base: { units: UnitInput[]; cues: CueInput[]; tags: TagInput[] }): fc.Arbitrary<BatchRelation> {
  const index = fc.integer({ min: 0, max: universe.poolSize - 1 });
  return fc
    .record({
      unit: fc.nat(),
      cue: fc.nat(),
      tag: fc.nat(),
      poolCue: index,
      poolTag: index,
      agentId: optional(fc.constantFrom(...universe.agents)),
      sessionId: optional(fc.constantFrom(...universe.sessions)),
    })
    .map(({ unit, cue, tag, poolCue, poolTag, agentId, sessionId }): BatchRelation => {
      const content = base.units[unit % Math.max(1, base.units.length)] as UnitInput;
      const userId = content.scope.userId;
      const cues = base.cues.filter((record) => record.scope.userId === userId);
      const tags = base.tags.filter((record) => record.scope.userId === userId);
      const ownCue = cues.length > 0 && cue % 3 !== 0 ? (cues[cue % cues.length] as CueInput) : undefined;
      const ownTag = tags.length > 0 && tag % 3 !== 0 ? (tags[tag % tags.length] as TagInput) : undefined;
      const newCue = ownCue === undefined ? { id: cueId(userId, poolCue), scope: { userId }, name: cueNames[poolCue % cueNames.length] as string } : undefined;
      const newTag = ownTag === undefined ? { id: tagId(userId, poolTag), scope: { userId }, label: tagLabels[poolTag % tagLabels.length] as string } : undefined;
      return compact({
        relation: { scope: compact({ userId, agentId, sessionId }), cueId: (ownCue ?? newCue)?.id ?? '', tagId: (ownTag ?? newTag)?.id ?? '', contentId: content.id },
        cue: cue % 2 === 0 ? newCue : undefined,
        tag: tag % 2 === 0 ? newTag : undefined,
      });
    });
}

/** Inclusive bounds of array lengths in generated batches. */
export interface BatchSizes {
  /** Units per batch. */
  units: [number, number];
  /** Cues per batch (before the ones relations bring along). */
  cues: [number, number];
  /** Tags per batch (before the ones relations bring along). */
  tags: [number, number];
  /** Relations per batch (before `resolveBatch` drops dangling ones). */
  relations: [number, number];
}

/** Small multi-tenant batches, as used by the property test. */
export const smallBatchSizes: BatchSizes = { units: [0, 6], cues: [0, 4], tags: [0, 3], relations: [0, 8] };

const arrayOf = <T>(arbitrary: fc.Arbitrary<T>, [minLength, maxLength]: [number, number]) => fc.array(arbitrary, { minLength, maxLength });

/**
 * A multi-tenant write batch. Relations mostly point at records of the same batch; some point at
 * pool ids that may not exist yet, which `resolveBatch` drops before writing.
 */
export function batchArbitrary(universe: Universe, sizes: BatchSizes = smallBatchSizes): fc.Arbitrary<WriteBatchInput> {
  const perTenant = <T>(make: (tenant: string) => fc.Arbitrary<T>) => fc.oneof(...universe.tenants.map(make));
  return fc
    .record({
      units: arrayOf(perTenant((tenant) => unitArbitrary(universe, tenant)), sizes.units),
      cues: arrayOf(perTenant((tenant) => cueArbitrary(universe, tenant)), sizes.cues),
      tags: arrayOf(perTenant((tenant) => tagArbitrary(universe, tenant)), sizes.tags),
    })
    .chain((base) => {
      const batchTenants = [...new Set([...base.units, ...base.cues, ...base.tags].map((record) => record.scope.userId))];
      const tenant = batchTenants.length === 0 ? fc.constantFrom(...universe.tenants) : fc.constantFrom(...batchTenants);
      const relation = fc.oneof(
        { weight: base.units.length === 0 ? 0 : 3, arbitrary: batchRelationArbitrary(universe, base) },
        { weight: 1, arbitrary: relationArbitrary(universe, tenant).map((pool): BatchRelation => ({ relation: pool })) },
      );
      return arrayOf(relation, sizes.relations).map((relations) => {
        // Pool cues and tags a relation brought along join the batch unless it already has them
        // (when neither it nor the store has them, `resolveBatch` drops the relation).
        const cues = [...base.cues];
        const tags = [...base.tags];
        for (const { cue, tag } of relations) {
          if (cue !== undefined && !cues.some((record) => record.id === cue.id)) cues.push(cue);
          if (tag !== undefined && !tags.some((record) => record.id === tag.id)) tags.push(tag);
        }
        return { ...base, cues, tags, relations: relations.map(({ relation: item }) => item) };
      });
    });
}

/** A sequence of `count` batches: a whole generated data set. */
export function worldArbitrary(universe: Universe, count: number, sizes: BatchSizes): fc.Arbitrary<WriteBatchInput[]> {
  return fc.array(batchArbitrary(universe, sizes), { minLength: count, maxLength: count });
}

/** A reproducible data set: `count` batches generated from `seed`. */
export function sampleWorld(seed: number, universe: Universe, count: number, sizes: BatchSizes): WriteBatchInput[] {
  const [world] = fc.sample(worldArbitrary(universe, count, sizes), { seed, numRuns: 1 });
  return world ?? [];
}

/** A cue name or alias written differently (case, spacing, compatibility forms), or an unknown name. */
export const cueNameQueryArbitrary: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...cueNames, ...cueAliases, 'nobody known'), fc.constantFrom('as-is', 'upper', 'spaced', 'title'))
  .map(([name, style]) => {
    if (style === 'upper') return name.toUpperCase();
    if (style === 'spaced') return `  ${name.replace(/ /g, '   ')}\t`;
    if (style === 'title') return name.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
    return name;
  });

/** A lexical query of 1–4 words (stop words and unknown words included). */
export const lexicalQueryArbitrary: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...vocabulary, 'unicorn', 'PAINTING!'), { minLength: 1, maxLength: 4 })
  .map((words) => words.join(' '));

/** A time window over 2023, either bound possibly open, over a random coordinate. */
export const windowArbitrary: fc.Arbitrary<TimeWindow> = fc
  .record({
    start: optional(fc.integer({ min: -10, max: 364 }), 5),
    length: fc.integer({ min: 0, max: 120 }),
    openEnd: fc.boolean(),
    field: optional(fc.constantFrom('event' as const, 'session' as const, 'any' as const)),
  })
  .map(({ start, length, openEnd, field }) =>
    compact({
      start: start === undefined ? undefined : dayDate(start),
      end: openEnd ? undefined : dayDate((start ?? 0) + length),
      field,
    }),
  );
