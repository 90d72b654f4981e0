import { readFileSync } from "node:fs";

/**
 * CPU-time measurement for the benchmarks of this package: figures are compared within one run
 * (calls interleaved round by round), never taken as absolute times on a shared machine.
 */

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Sleeps the calling thread (no CPU) for `ms` milliseconds. */
export function sleep(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

/**
 * CPU time of the calling thread so far (ms): the first field of /proc/thread-self/schedstat
 * (Linux; `undefined` elsewhere). The kernel brings that counter up to date when the thread is
 * switched out, not while it runs, so it is read only right after a sleep.
 */
function threadClock(): number | undefined {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "latin1").split(" ", 1)[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** `CLOCK=process` measures with process.cpuUsage (whole process, every thread) instead. */
const useThreadClock = process.env.CLOCK !== "process" && threadClock() !== undefined;

/** What {@link cpuMs} measures, for the tables' captions. */
export function clockName(): string {
  return useThreadClock
    ? `CPU time of the measuring thread (/proc/thread-self/schedstat), less ${overhead.toFixed(3)} ms of measuring overhead`
    : "CPU time of the whole process (process.cpuUsage)";
}

let overhead = 0;

/**
 * CPU time of one call (ms), of the measuring thread only: a 1 ms sleep, the thread clock, the
 * call, a 15 ms sleep (which also lets background work started by the call finish before the
 * next one), the thread clock again, less the fixed cost of this measurement (see
 * {@link calibrate}). process.cpuUsage would count the whole process, and with it V8's
 * background threads (concurrent marking and sweeping of the large arrays earlier calls
 * dropped, optimizing compilation), which charged several ms to whichever short call happened
 * to run while they worked (see the README). Garbage collection on the measuring thread itself
 * still counts.
 */
export function cpuMs(f: () => unknown): number {
  if (useThreadClock) {
    sleep(1);
    const start = threadClock() as number;
    f();
    sleep(15);
    return (threadClock() as number) - start - overhead;
  }
  const start = process.cpuUsage();
  f();
  const d = process.cpuUsage(start);
  sleep(15);
  return (d.user + d.system) / 1000;
}

/**
 * Estimates the fixed cost of a thread-clock measurement (the sleeps' wake-up, the file reads)
 * by timing an empty call 15 times; {@link cpuMs} subtracts its median from then on.
 */
export function calibrate(): void {
  if (!useThreadClock) return;
  overhead = 0;
  const empty: number[] = [];
  for (let k = 0; k < 15; k++) empty.push(cpuMs(() => 0));
  overhead = quantile(empty, 0.5);
}

/** The `q`-quantile of `xs` (nearest rank, lower). */
export function quantile(xs: readonly number[], q: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
