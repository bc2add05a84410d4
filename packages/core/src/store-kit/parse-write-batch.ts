import type { WriteBatch } from '../model/batch.js';
import type { Scope } from '../model/scope.js';
import { cueKindSchema } from '../model/graph.js';
import { granularitySchema } from '../model/time.js';

// A hand-written twin of `writeBatchSchema` for the common case: zod spends about 0.2 ms per unit
// (discriminated union, strict objects, date refinements, a callback per vector element), which
// dominated ingest. It accepts only what the schema accepts and returns what the schema would
// (fresh objects in schema key order, defaults filled, number arrays made `Float32Array`s; vectors
// given as `Float32Array` are passed through, as zod does). Anything it is unsure about — an
// unusual object, a key it does not know, a value the schema would reject — makes it decline, and
// the caller falls back to zod, so every error is zod's own.

type Plain = Record<string, unknown>;

/** Thrown inside the parser to decline; never leaves this module. */
const decline: unique symbol = Symbol('decline');

function fail(): never {
  throw decline;
}

function plain(value: unknown): Plain {
  if (typeof value !== 'object' || value === null) fail();
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) fail();
  return value as Plain;
}

/** Fails unless every enumerable key of `object` (own or inherited, as zod's strict check reads them) is allowed. */
function onlyKeys(object: Plain, allowed: ReadonlySet<string>): void {
  for (const key in object) if (!allowed.has(key)) fail();
}

function text(value: unknown, min = 0, max = Number.POSITIVE_INFINITY): string {
  if (typeof value !== 'string' || value.length < min || value.length > max) fail();
  return value;
}

const id = (value: unknown) => text(value, 1, 512);
const nonEmpty = (value: unknown) => text(value, 1);

function list<T>(value: unknown, item: (entry: unknown) => T): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail();
  const out = new Array<T>(value.length);
  for (let index = 0; index < value.length; index++) out[index] = item(value[index]);
  return out;
}

/** Copies optional key `key` when present (a present `undefined` stays present, as with zod). */
function optional(out: Plain, input: Plain, key: string, check: (value: unknown) => unknown): void {
  if (!(key in input)) return;
  const value = input[key];
  out[key] = value === undefined ? undefined : check(value);
}

const scopeKeys = new Set(['userId', 'agentId', 'sessionId']);
function scope(value: unknown): Plain {
  const input = plain(value);
  onlyKeys(input, scopeKeys);
  const out: Plain = { userId: text(input['userId'], 1, 256) };
  // Named stores, not `out[key]`: these run for every record of every batch.
  if ('agentId' in input) out['agentId'] = input['agentId'] === undefined ? undefined : text(input['agentId'], 1, 256);
  if ('sessionId' in input) out['sessionId'] = input['sessionId'] === undefined ? undefined : text(input['sessionId'], 1, 256);
  return out;
}

/** The last scope parsed in this batch: records of a batch repeat a few scopes, so they share one object. */
let lastScope: Plain | undefined;

/** `scope`, but an input equal to the last one parsed (same keys present, same values) gets that same output object. */
function batchScope(value: unknown): Plain {
  const last = lastScope;
  if (last !== undefined) {
    const input = plain(value);
    onlyKeys(input, scopeKeys);
    if (
      input['userId'] === last['userId'] &&
      'agentId' in input === 'agentId' in last &&
      input['agentId'] === last['agentId'] &&
      'sessionId' in input === 'sessionId' in last &&
      input['sessionId'] === last['sessionId']
    ) {
      return last;
    }
  }
  const out = scope(value);
  lastScope = out;
  return out;
}

// The pattern of the model's `isoDateSchema` (the test checks they agree).
const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/;
// Times of the dates already checked: a batch repeats the same few (the session's day, its events).
const checkedDates = new Map<string, number>();
/** The time of a date the schema accepts; declines anything else. */
function isoTime(value: unknown): number {
  const out = text(value);
  let time = checkedDates.get(out);
  if (time === undefined) {
    if (!isoDateTime.test(out)) fail();
    time = Date.parse(out);
    if (Number.isNaN(time)) fail();
    if (checkedDates.size >= 10_000) checkedDates.clear();
    checkedDates.set(out, time);
  }
  return time;
}

const granularities: ReadonlySet<string> = new Set(granularitySchema.options);
const intervalKeys = new Set(['start', 'end', 'granularity', 'text']);
function interval(value: unknown): Plain {
  const input = plain(value);
  onlyKeys(input, intervalKeys);
  const start = input['start'] as string;
  const end = input['end'] as string;
  if (isoTime(start) > isoTime(end) || !granularities.has(input['granularity'] as string)) fail();
  const out: Plain = { start, end, granularity: input['granularity'] };
  if ('text' in input) out['text'] = input['text'] === undefined ? undefined : text(input['text']);
  return out;
}

const spanKeys = new Set(['id', 'start', 'end']);
function span(value: unknown): Plain {
  const input = plain(value);
  onlyKeys(input, spanKeys);
  return { id: nonEmpty(input['id']), start: nonEmpty(input['start']), end: nonEmpty(input['end']) };
}

const contextKeys = new Set(['eventTime', 'mentionTimes', 'session', 'participants', 'location', 'entities', 'topicId']);
function context(value: unknown): Plain {
  if (value === undefined) return { mentionTimes: [], participants: [], entities: [] };
  const input = plain(value);
  onlyKeys(input, contextKeys);
  const out: Plain = {};
  if ('eventTime' in input) out['eventTime'] = input['eventTime'] === undefined ? undefined : interval(input['eventTime']);
  out['mentionTimes'] = list(input['mentionTimes'], interval);
  if ('session' in input) out['session'] = input['session'] === undefined ? undefined : span(input['session']);
  out['participants'] = list(input['participants'], nonEmpty);
  if ('location' in input) out['location'] = input['location'] === undefined ? undefined : nonEmpty(input['location']);
  out['entities'] = list(input['entities'], nonEmpty);
  if ('topicId' in input) out['topicId'] = input['topicId'] === undefined ? undefined : nonEmpty(input['topicId']);
  return out;
}

const sourceKeys = new Set(['sessionId', 'turnId']);
function source(value: unknown): Plain {
  const input = plain(value);
  onlyKeys(input, sourceKeys);
  return { sessionId: nonEmpty(input['sessionId']), turnId: nonEmpty(input['turnId']) };
}

function finite(vector: Float32Array): Float32Array {
  if (vector.length === 0) fail();
  // One pass: `x - x` is 0 for a finite number and NaN for NaN and ±Infinity.
  for (let index = 0; index < vector.length; index++) {
    const entry = vector[index] as number;
    if (entry - entry !== 0) fail();
  }
  return vector;
}

function vector(value: unknown): Float32Array {
  if (value instanceof Float32Array) return finite(value);
  if (!Array.isArray(value)) fail();
  for (let index = 0; index < value.length; index++) {
    const entry: unknown = value[index];
    if (typeof entry !== 'number' || !Number.isFinite(entry)) fail();
  }
  return finite(Float32Array.from(value as number[]));
}

const factOptionalKeys = ['firstSeenSession', 'lastSeenSession', 'validFrom', 'validTo', 'supersededBy'];
const baseKeys = ['id', 'scope', 'text', 'context', 'sources', 'vector', 'createdAt', 'kind'];
const kindKeys: Readonly<Record<string, ReadonlySet<string>>> = {
  turn: new Set([...baseKeys, 'speaker', 'role', 'index']),
  episode: new Set([...baseKeys, 'title']),
  fact: new Set([...baseKeys, 'entity', 'aspect', 'value', 'firstSeenSession', 'lastSeenSession', 'validFrom', 'validTo', 'supersededBy']),
  topic: new Set([...baseKeys, 'label', 'episodeIds']),
};

function unit(value: unknown): Plain {
  const input = plain(value);
  const kind = input['kind'];
  const allowed = typeof kind === 'string' && Object.hasOwn(kindKeys, kind) ? kindKeys[kind] : undefined;
  if (allowed === undefined) fail();
  onlyKeys(input, allowed);
  const out: Plain = {
    id: id(input['id']),
    scope: batchScope(input['scope']),
    text: nonEmpty(input['text']),
    context: context(input['context']),
    sources: list(input['sources'], source),
  };
  if ('vector' in input) out['vector'] = input['vector'] === undefined ? undefined : vector(input['vector']);
  if ('createdAt' in input) out['createdAt'] = input['createdAt'] === undefined ? undefined : nonEmpty(input['createdAt']);
  out['kind'] = kind;
  switch (kind) {
    case 'turn': {
      out['speaker'] = nonEmpty(input['speaker']);
      if ('role' in input) out['role'] = input['role'] === undefined ? undefined : nonEmpty(input['role']);
      const index = input['index'];
      if (!Number.isSafeInteger(index) || (index as number) < 0) fail();
      out['index'] = index;
      break;
    }
    case 'episode':
      if ('title' in input) out['title'] = input['title'] === undefined ? undefined : nonEmpty(input['title']);
      break;
    case 'fact':
      out['entity'] = nonEmpty(input['entity']);
      out['aspect'] = nonEmpty(input['aspect']);
      out['value'] = nonEmpty(input['value']);
      for (const key of factOptionalKeys) optional(out, input, key, nonEmpty);
      break;
    default:
      out['label'] = nonEmpty(input['label']);
      out['episodeIds'] = list(input['episodeIds'], id);
  }
  return out;
}

const cueKinds: ReadonlySet<string> = new Set(cueKindSchema.options);
const cueKeys = new Set(['id', 'scope', 'name', 'kind', 'aliases']);
function cue(value: unknown): Plain {
  const input = plain(value);
  onlyKeys(input, cueKeys);
  const kind = input['kind'] === undefined ? 'entity' : input['kind'];
  if (!cueKinds.has(kind as string)) fail();
  return { id: id(input['id']), scope: batchScope(input['scope']), name: nonEmpty(input['name']), kind, aliases: list(input['aliases'], nonEmpty) };
}

const tagKeys = new Set(['id', 'scope', 'label']);
function tag(value: unknown): Plain {
  const input = plain(value);
  onlyKeys(input, tagKeys);
  return { id: id(input['id']), scope: batchScope(input['scope']), label: nonEmpty(input['label']) };
}

const relationKeys = new Set(['scope', 'cueId', 'tagId', 'contentId']);
function relation(value: unknown): Plain {
  const input = plain(value);
  onlyKeys(input, relationKeys);
  return { scope: batchScope(input['scope']), cueId: id(input['cueId']), tagId: id(input['tagId']), contentId: id(input['contentId']) };
}

/**
 * Parses a scope as `scopeSchema` would, without zod; `undefined` whenever it is not certain of
 * zod's answer (including every scope zod rejects), so the caller can fall back. Stores check the
 * scope of every query: zod would cost more than many of the queries.
 */
export function parseScope(input: unknown): Scope | undefined {
  try {
    return scope(input) as Scope;
  } catch (error) {
    if (error === decline) return undefined;
    throw error;
  }
}

const batchKeys = new Set(['units', 'cues', 'tags', 'relations']);

/**
 * Parses a write batch as `writeBatchSchema` would, without zod; returns `undefined` whenever it
 * is not certain of zod's answer (including every input zod rejects), so the caller can fall back.
 */
export function parseWriteBatch(input: unknown): WriteBatch | undefined {
  lastScope = undefined;
  try {
    const batch = plain(input);
    onlyKeys(batch, batchKeys);
    return {
      units: list(batch['units'], unit),
      cues: list(batch['cues'], cue),
      tags: list(batch['tags'], tag),
      relations: list(batch['relations'], relation),
    } as WriteBatch;
  } catch (error) {
    if (error === decline) return undefined;
    throw error;
  } finally {
    lastScope = undefined;
  }
}
