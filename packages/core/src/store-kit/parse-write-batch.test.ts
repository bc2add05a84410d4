import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeBatchSchema } from '../model/batch.js';
import { scopeSchema } from '../model/scope.js';
import { batchArbitrary, defaultUniverse } from '../testing/generators.js';
import { parseScope, parseWriteBatch } from './parse-write-batch.js';

/** Values that break some field of some record. */
const oddValues: ReadonlyArray<() => unknown> = [
  () => undefined,
  () => null,
  () => '',
  () => 'x'.repeat(600),
  () => -1,
  () => 1.5,
  () => 2 ** 53,
  () => Number.NaN,
  () => ({}),
  () => [],
  () => [1, Number.POSITIVE_INFINITY],
  () => [1e39],
  () => new Float32Array(0),
  () => new Float32Array([1, Number.NaN]),
  () => new Float64Array([1, 2]),
  () => new Date(0),
  () => '2023-02-30',
  () => '2023-05-07T10:00:00Z',
  () => 'week',
  () => 'place',
  () => 'turn',
  () => 'fact',
  () => '9999-12-31',
  () => '2023-05-07T10:00',
  () => '2023-05-07T10:00:00.1234',
  () => '2023-05-07T10:00+02:00',
  () => '2023-5-7',
  () => '2023-05-07T25:00:00Z',
  () => '0001-01-01',
  () => 'instant',
  () => Object.create({ inherited: 1 }) as unknown,
];

const interval = { start: '2023-05-01', end: '2023-05-31T23:59:59.999Z', granularity: 'month', text: 'in May' };
const context = {
  eventTime: interval,
  mentionTimes: [interval],
  session: { id: 's1', start: '2023-05-08T13:00:00Z', end: '2023-05-08T14:00:00Z' },
  participants: ['Caroline'],
  location: 'boston',
  entities: ['pottery'],
  topicId: 't1',
};
const base = { scope: { userId: 'u1', agentId: 'a1', sessionId: 's1' }, text: 'Caroline: hi', context, sources: [{ sessionId: 's1', turnId: 'D1:1' }], createdAt: '2023-05-08' };
/** One record of every kind with every optional field set: each field is then broken in turn. */
const richBatch = {
  units: [
    { ...base, id: 'turn1', kind: 'turn', speaker: 'Caroline', role: 'user', index: 0, vector: new Float32Array([1, 0]) },
    { ...base, id: 'episode1', kind: 'episode', title: 'went to group', vector: [0.5, 0.5] },
    {
      ...base, id: 'fact1', kind: 'fact', entity: 'caroline', aspect: 'home', value: 'boston', firstSeenSession: 's1',
      lastSeenSession: 's2', validFrom: '2023-05-01', validTo: '2023-06-01', supersededBy: 'fact2',
    },
    { ...base, id: 'topic1', kind: 'topic', label: 'pottery', episodeIds: ['episode1'] },
  ],
  cues: [{ id: 'c1', scope: { userId: 'u1' }, name: 'caroline', kind: 'person', aliases: ['caro'] }],
  tags: [{ id: 'g1', scope: { userId: 'u1' }, label: 'home' }],
  relations: [{ scope: { userId: 'u1' }, cueId: 'c1', tagId: 'g1', contentId: 'fact1' }],
};

/** Paths of every object and array inside `value` (vectors excepted). */
function containerPaths(value: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null || value instanceof Float32Array) return out;
  out.push(path);
  for (const [key, entry] of Object.entries(value)) containerPaths(entry, [...path, Array.isArray(value) ? Number(key) : key], out);
  return out;
}

function at(root: unknown, path: ReadonlyArray<string | number>): Record<string, unknown> {
  let value = root as Record<string | number, unknown>;
  for (const key of path) value = value[key] as Record<string | number, unknown>;
  return value as Record<string, unknown>;
}

/** Every copy of `batch` with one field set to an odd value, removed, or one unknown key added. */
function singleMutations(batch: unknown): Array<{ label: string; batch: unknown }> {
  const out: Array<{ label: string; batch: unknown }> = [];
  for (const path of containerPaths(batch)) {
    const keys = [...Object.keys(at(batch, path)), 'unexpected'];
    for (const key of keys) {
      for (let which = -1; which < oddValues.length; which++) {
        const copy = structuredClone(batch);
        const target = at(copy, path);
        if (which === -1) delete target[key];
        else target[key] = (oddValues[which] as () => unknown)();
        out.push({ label: `${path.join('.')}.${key} = ${which === -1 ? 'deleted' : String(which)}`, batch: copy });
      }
    }
  }
  return out;
}

describe('parseWriteBatch', () => {
  it('parses every generated batch exactly as the schema does', () => {
    fc.assert(
      fc.property(batchArbitrary(defaultUniverse), (batch) => {
        const expected = writeBatchSchema.parse(batch);
        expect(parseWriteBatch(batch)).toStrictEqual(expected);
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('never accepts what the schema rejects, and agrees with it on what it accepts', () => {
    expect(parseWriteBatch(richBatch)).toStrictEqual(writeBatchSchema.parse(richBatch));
    const cases = singleMutations(richBatch);
    let declined = 0;
    for (const { label, batch } of cases) {
      const expected = writeBatchSchema.safeParse(batch);
      const actual = parseWriteBatch(batch);
      if (actual === undefined) declined += 1;
      else expect(expected.success ? actual : 'rejected by the schema', label).toStrictEqual(expected.data);
    }
    // Most single changes break the batch; the ones that do not (an optional field removed, an
    // enum value swapped for another) must still be parsed here, not left to the schema.
    expect(declined).toBeGreaterThan(cases.length / 2);
    expect(declined).toBeLessThan(cases.length);
  });

  it('returns fresh records, keeping only Float32Array vectors', () => {
    const vector = new Float32Array([1, 0]);
    const unit = { id: 'e1', kind: 'episode', scope: { userId: 'u1' }, text: 'x', vector, context: { mentionTimes: [], participants: ['a'], entities: [] }, sources: [] };
    const parsed = parseWriteBatch({ units: [unit] });
    const out = parsed?.units[0];
    expect(out).toStrictEqual(unit);
    expect(out).not.toBe(unit);
    expect(out?.context.participants).not.toBe(unit.context.participants);
    expect(out?.vector).toBe(vector);
  });

  it('declines objects that are not plain, leaving them to the schema', () => {
    class Batch {
      units = [];
    }
    expect(parseWriteBatch(new Batch())).toBeUndefined();
    expect(parseWriteBatch({ units: [], cues: [], tags: [], relations: [] })).toStrictEqual({ units: [], cues: [], tags: [], relations: [] });
  });
});

describe('parseScope', () => {
  it('accepts what the schema accepts, as the schema returns it, and nothing it rejects', () => {
    const scopes: unknown[] = [{ userId: 'u1' }, { userId: 'u1', agentId: 'a1', sessionId: 's1' }, { userId: 'u1', sessionId: undefined }];
    for (const key of ['userId', 'agentId', 'sessionId', 'unexpected']) {
      for (const odd of oddValues) scopes.push({ userId: 'u1', agentId: 'a1', sessionId: 's1', [key]: odd() });
      const { [key]: _, ...without } = { userId: 'u1', agentId: 'a1', sessionId: 's1' } as Record<string, string>;
      scopes.push(without);
    }
    scopes.push(null, 'u1', [], Object.create({ userId: 'u1' }), { userId: 'x'.repeat(256) }, { userId: 'x'.repeat(257) });
    let accepted = 0;
    for (const scope of scopes) {
      const expected = scopeSchema.safeParse(scope);
      const actual = parseScope(scope);
      if (actual === undefined) continue;
      accepted += 1;
      expect(expected.success ? actual : 'rejected by the schema').toStrictEqual(expected.data);
    }
    expect(accepted).toBeGreaterThan(3);
  });
});
