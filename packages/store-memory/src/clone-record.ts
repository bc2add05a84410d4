/**
 * A deep copy of a stored record (plain objects, arrays, `Float32Array`s and primitives — what the
 * model's schemas produce), several times faster than `structuredClone` for small objects.
 */
export function cloneRecord<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Float32Array) return value.slice() as T;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) out[index] = cloneRecord(value[index] as unknown);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  // Stored records are plain objects (the schemas build them), so `for…in` sees own keys only.
  for (const key in value) out[key] = cloneRecord(value[key] as unknown);
  return out as T;
}
