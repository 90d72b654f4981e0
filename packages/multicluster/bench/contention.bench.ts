import {
  createJob,
  defaultExecutionModel,
  type ExecutionModel,
  type Job,
  type Scheduler,
  simulate,
} from "@sched/core";
import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { oasExecutionModel } from "../src/execution.js";
import { multiClusterPlatform } from "../src/platform.js";
import { cpuMs, median } from "./cpu.js";

// Engine overhead of the rate-based (contention) execution model against fixed durations:
// 10 000 jobs, 8 clusters x 8 single-core nodes (64 cores), FCFS first fit blind to links (so
// links do saturate), offered load about 0.8.
const platform = multiClusterPlatform(
  Array.from({ length: 8 }, (_, k) => ({ nodes: 8, speed: 1 - 0.05 * k, bandwidth: 125e6 })),
);
const rng = new Random(7, "bench/contention");
const jobs: Job[] = [];
let t = 0;
for (let i = 0; i < 10_000; i++) {
  const cores = 1 + Math.floor(rng.next() * 8);
  const runtime = 10 + Math.floor(rng.next() * 990);
  // mean work 4.5 cores x 505 s; 64 cores at load 0.8 -> mean gap 4.5 * 505 / (64 * 0.8)
  t += -Math.log(1 - rng.next()) * ((4.5 * 505) / (64 * 0.8));
  jobs.push(createJob({ id: i, submit: Math.round(t * 1000) / 1000, runtime, cores }));
}
const fcfs: Scheduler = {
  name: "fcfs-first-fit",
  schedule(ctx) {
    const v = ctx.view;
    for (let i = 0; i < v.waitingCount!; i++) {
      const w = v.waitingAt!(i)!;
      if (v.totalFreeCores < w.job.cores) break;
      const parts: { machine: number; cores: number }[] = [];
      let need = w.job.cores;
      for (let m = v.nextFreeMachine!(0); need > 0 && m >= 0; m = v.nextFreeMachine!(m + 1)) {
        parts.push({ machine: m, cores: 1 });
        need--;
        if (m + 1 >= platform.machines.length) break;
      }
      ctx.start(w.job.id, parts);
    }
  },
};
const profile = (job: Job) => ({ sigma: 0.6, ptbw: 5e6 * (1 + (job.id % 5)) });
const ones: ExecutionModel = {
  duration: defaultExecutionModel.duration,
  slowdowns: (running) => running.map(() => 1),
};
const models: [string, ExecutionModel][] = [
  ["core default (fixed durations)", defaultExecutionModel],
  ["core default + slowdowns() = 1 (rate-based engine path)", ones],
  ["OAS cost, contention: false (fixed)", oasExecutionModel({ profile, contention: false })],
  ["OAS cost, contention: true (rate-based)", oasExecutionModel({ profile })],
];
for (const [name, model] of models) {
  const times: number[] = [];
  let ends = 0;
  for (let rep = 0; rep < 5; rep++) {
    times.push(
      cpuMs(() => {
        const trace = simulate(jobs, platform, fcfs, { executionModel: model });
        ends = trace.records.reduce((m, r) => Math.max(m, r.end ?? 0), 0);
      }),
    );
  }
  console.log(
    `${name}: median CPU ${median(times).toFixed(0)} ms over 5 runs (min ${Math.min(...times).toFixed(0)}), last end ${ends.toFixed(0)} s`,
  );
}

describe("engine: 10k jobs, 8x8 nodes, FCFS first fit", () => {
  for (const [name, model] of models) {
    bench(
      name,
      () => {
        simulate(jobs, platform, fcfs, { executionModel: model });
      },
      { iterations: 3, warmupIterations: 0, time: 0 },
    );
  }
});
