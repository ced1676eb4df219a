/**
 * Awaits reads sent together, and throws the first failure only once every one has settled: a
 * transaction must not end (roll back) while one of its statements is still under way.
 */
export async function settled<T extends readonly unknown[] | []>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const values: unknown[] = [];
  for (const r of results) {
    if (r.status === "rejected") throw r.reason;
    values.push(r.value);
  }
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}
