/**
 * Runs per second through the Redis work queue with 1, 2 and 4 `sched-sim worker` processes
 * (one worker thread each) on this machine, against the local worker-thread sweep. Starts its own
 * redis-server on a free loopback port; skipped with a message when there is none.
 *
 * Each measured iteration submits the same 48-run experiment (4000-job synthetic workloads) into a fresh folder and waits until
 * every result is collected (the workers are started once, before). After the runs, a table shows
 * runs/s (wall clock), the mean time inside a run (the run files' timing.wallMs) and the CPU time
 * of the worker processes per run (/proc), the measure that does not depend on the machine's load.
 */
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { main } from "../src/main.js";
import { readExperimentFile } from "../src/sweep/experiment-file.js";
import type { SweepPlan } from "../src/sweep/plan.js";
import { parseRedisUrl, submitQueueSweep } from "../src/sweep/queue.js";
import { tempDir } from "../test/helpers.js";
import { buildCli, type Proc, startCli, startRedis, waitFor } from "../test/queue-helpers.js";
import { writeExperiment } from "../test/sweep-helpers.js";

const redis = await startRedis();
if (redis.url === undefined) console.warn(`queue.bench.ts: SKIPPED: ${redis.skipReason}`);

const experiment = {
  name: "queue-bench",
  workload: { type: "synthetic", jobs: 4000 },
  platform: { procs: 64 },
  schedulers: ["fcfs", "easy", "conservative"],
  grid: { load: [0.5, 0.7] },
  seeds: 8,
  metrics: ["meanWait", "utilization"],
};
const RUNS = 3 * 2 * 8;

interface Sample {
  readonly label: string;
  readonly wallMs: number;
  readonly runMs: number;
  /** CPU time (user + system) of the worker processes, or of this process for the local sweep. */
  readonly cpuMs: number;
}

/** CPU time (user + system, all threads) of process `pid` so far, ms (Linux /proc). */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

function workersCpuMs(n: number): number {
  return (workers.get(n) ?? []).reduce((sum, p) => sum + processCpuMs(p.child.pid as number), 0);
}

function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
const samples: Sample[] = [];
let file = "";
let plan: SweepPlan;
let built: { cli: string; remove: () => Promise<void> } | undefined;
const workers = new Map<number, Proc[]>();

async function meanRunMs(dir: string): Promise<number> {
  const names = (await readdir(join(dir, "runs"))).filter((n) => !n.startsWith("."));
  let sum = 0;
  for (const n of names) {
    sum += (
      JSON.parse(await readFile(join(dir, "runs", n), "utf8")) as { timing: { wallMs: number } }
    ).timing.wallMs;
  }
  return sum / names.length;
}

async function setUp(): Promise<void> {
  file = await writeExperiment(experiment);
  plan = await readExperimentFile(file);
  built = await buildCli();
  for (const n of [1, 2, 4]) {
    const set = Array.from({ length: n }, () =>
      startCli((built as { cli: string }).cli, [
        "worker",
        "--queue",
        redis.url as string,
        "--queue-name",
        `bench-${n}`,
        "--jobs",
        "1",
      ]),
    );
    workers.set(n, set);
  }
  // every worker prints its first line once connected
  for (const set of workers.values()) {
    await waitFor(() => set.every((p) => p.stderr.includes("taking runs")), 60_000, "workers");
  }
}

/** Stop the workers and redis, and print the table (after the last benchmark). */
async function tearDown(): Promise<void> {
  for (const set of workers.values()) {
    for (const p of set) p.child.kill("SIGTERM");
    await Promise.all(set.map((p) => p.exited));
  }
  workers.clear();
  await built?.remove();
  await redis.stop();
  const lines = ["", `queue benchmark (${RUNS} runs of 4000 jobs; median of the iterations):`];
  for (const label of [...new Set(samples.map((s) => s.label))]) {
    const mine = samples.filter((s) => s.label === label).sort((a, b) => a.wallMs - b.wallMs);
    const mid = mine[Math.floor(mine.length / 2)] as Sample;
    lines.push(
      `  ${label.padEnd(20)} ${(RUNS / (mid.wallMs / 1000)).toFixed(1).padStart(6)} runs/s   ` +
        `wall ${(mid.wallMs / 1000).toFixed(2)} s   time inside a run ${mid.runMs.toFixed(1)} ms   ` +
        `CPU per run ${(mid.cpuMs / RUNS).toFixed(1)} ms`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

// Measured iterations in all (vitest's bench runs no afterAll hook): the last one tears down.
// Should the benchmark die before, the workers exit after 20 idle seconds and the redis-server
// with its watchdog.
const ITERATIONS = 3;
const SAMPLES = 4 * ITERATIONS;
async function record(sample: Sample): Promise<void> {
  samples.push(sample);
  if (samples.length === SAMPLES) await tearDown();
}

if (redis.url !== undefined) await setUp();

describe.skipIf(redis.url === undefined)(`sweep of ${RUNS} runs (4000 jobs each)`, () => {
  bench(
    "local sweep, in-process (no queue)",
    async () => {
      const out = await tempDir();
      const cpu = selfCpuMs();
      const t = performance.now();
      await main(["sweep", file, "--out", out, "--quiet", "--jobs", "1"], {
        stdout: () => {},
        stderr: () => {},
      });
      await record({
        label: "local, 1 thread",
        wallMs: performance.now() - t,
        cpuMs: selfCpuMs() - cpu,
        runMs: await meanRunMs(out),
      });
    },
    { iterations: ITERATIONS, time: 0, warmupIterations: 0, warmupTime: 0, throws: true },
  );

  for (const n of [1, 2, 4]) {
    bench(
      `queue, ${n} worker process${n > 1 ? "es" : ""}`,
      async () => {
        const out = await tempDir();
        const cpu = workersCpuMs(n);
        const t = performance.now();
        await submitQueueSweep(plan, parseRedisUrl("bench", redis.url as string), {
          out,
          queueName: `bench-${n}`,
          attempts: 3,
          detach: false,
          pollMs: 20,
        });
        await record({
          label: `queue, ${n} worker${n > 1 ? "s" : ""}`,
          wallMs: performance.now() - t,
          cpuMs: workersCpuMs(n) - cpu,
          runMs: await meanRunMs(out),
        });
      },
      { iterations: ITERATIONS, time: 0, warmupIterations: 0, warmupTime: 0, throws: true },
    );
  }
});
