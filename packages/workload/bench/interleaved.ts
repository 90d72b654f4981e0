import { loadavg } from "node:os";
import { bench } from "vitest";

// What the benches that compare builds of this package share: CPU per item of each build, in
// turns, so that every build sees the same load.

/** A vitest bench that calls `measure` once (vitest may call a bench function more than once). */
export function benchOnce(name: string, measure: () => void): void {
  let measured = false;
  bench(
    name,
    () => {
      if (measured) return;
      measured = true;
      measure();
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
}

/**
 * The median CPU time (`process.cpuUsage`, user + system), in ns per item, of `run(b)` for each
 * build `b` of `builds`: one untimed round first (the compiler's warm-up), then `rounds` rounds
 * of turns, each round's turns starting one build later than the last's.
 */
export function interleavedCpu(
  builds: number,
  rounds: number,
  items: number,
  run: (b: number) => void,
): number[] {
  const times = Array.from({ length: builds }, (): number[] => []);
  for (let round = -1; round < rounds; round++) {
    for (let k = 0; k < builds; k++) {
      const b = (k + Math.max(round, 0)) % builds;
      const start = process.cpuUsage();
      run(b);
      const { user, system } = process.cpuUsage(start);
      if (round >= 0) times[b]!.push(((user + system) * 1000) / items);
    }
  }
  return times.map((xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!);
}

/** `load average 1.2 0.9 0.8`, for the figures' line. */
export function loadText(): string {
  return `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`;
}
