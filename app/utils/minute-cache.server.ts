/**
 * Values worked out from the database and kept in this process for a minute, under keys that name
 * what they were worked out from (a report's version, a quarter's fingerprint): a change gives a new
 * key, so a kept value is never out of date, and nothing is lost with the process.
 */
const CACHE_TTL_MS = 60_000;

/** A store of `maxEntries` values computed once per key for a minute; a failure is not kept. */
export function minuteStore(maxEntries: number) {
  const cache = new Map<string, { at: number; value: Promise<unknown> }>();
  return function cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = cache.get(key);
    if (hit && now - hit.at < CACHE_TTL_MS) return hit.value as Promise<T>;
    const value = compute();
    cache.delete(key);
    cache.set(key, { at: now, value });
    value.catch(() => cache.get(key)?.value === value && cache.delete(key));
    while (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
    return value;
  };
}
