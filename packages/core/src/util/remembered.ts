/**
 * `cache.get(key)`, or on a miss `compute(key)`, remembered. A cache that has reached `limit`
 * entries is emptied before it takes a new one: the caches this serves hold words and names,
 * whose working set is small next to the limit.
 */
export function remembered<V>(cache: Map<string, V>, limit: number, key: string, compute: (key: string) => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= limit) cache.clear();
    value = compute(key);
    cache.set(key, value);
  }
  return value;
}
