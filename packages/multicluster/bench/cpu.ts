/** CPU time (user + system) of `f`, ms: the machine is shared, so wall clock would mislead. */
export function cpuMs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

/** Async variant of {@link cpuMs} (the awaited work must run on this thread, as HiGHS' Wasm does). */
export async function cpuMsAsync(f: () => Promise<unknown>): Promise<number> {
  const t = process.cpuUsage();
  await f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

/** Median of `xs`. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
