/**
 * A deep copy of a stored record (plain objects, arrays, `Float32Array`s and primitives — what the
 * model's schemas produce), several times faster than `structuredClone` for small objects.
 */
export function cloneRecord<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Float32Array) return value.slice() as T;
  if (Array.isArray(value)) return value.map(cloneRecord) as T;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) out[key] = cloneRecord(entry);
  return out as T;
}
