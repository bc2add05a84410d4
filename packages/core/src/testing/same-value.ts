/**
 * Deep equality with `toEqual`'s rules that matter for stored records — keys holding `undefined`
 * count as absent, typed arrays compare by element, arrays and objects must match in kind — but
 * fast: the suite compares thousands of answers and only asks vitest for a diff on a mismatch.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!(a instanceof Float32Array && b instanceof Float32Array) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!Object.is(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameValue(a[index], b[index])) return false;
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype && Object.getPrototypeOf(a) !== null) return false;
  if (Object.getPrototypeOf(b) !== Object.prototype && Object.getPrototypeOf(b) !== null) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}
