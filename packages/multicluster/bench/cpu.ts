import { bench, describe } from "vitest";

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

/**
 * One bench that runs `report` once (vitest may call a bench function more than once) and
 * prints its tables on the console: for the benches that measure CPU themselves.
 */
export function reportOnce(title: string, name: string, report: () => void): void {
  let measured = false;
  describe(title, () => {
    bench(
      name,
      () => {
        if (measured) return;
        measured = true;
        report();
      },
      { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
    );
  });
}
