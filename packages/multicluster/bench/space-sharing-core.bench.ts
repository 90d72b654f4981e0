import { multiclusterWorkload } from "@sched/workload";
import { bench, describe } from "vitest";
import { multiClusterPlatform } from "../src/platform.js";
import { simulateSpaceSharing } from "../src/space-sharing.js";
import { simulateSpaceSharingOnCore } from "../src/space-sharing-core.js";
import { cpuMs, median } from "./cpu.js";

// The same instance as bench/space-sharing.bench.ts, run on core's engine.
const platform = multiClusterPlatform(
  Array.from({ length: 8 }, (_, k) => ({ nodes: 8, speed: 1 + 0.2 * k })),
);
const { jobs } = multiclusterWorkload({ jobs: 2000, load: 0.7, seed: 1 });

// CPU time of whole runs (engine, local jobs, model and policy included), median of 7, per
// engine call (`decisions`: one policy call per batch of events) and per parallel job.
for (const backgroundLoad of [0, 0.3]) {
  for (const policy of ["dynamic", "adaptive"] as const) {
    let decisions = 0;
    let localJobs = 0;
    const times: number[] = [];
    const own: number[] = [];
    for (let i = 0; i < 7; i++) {
      times.push(
        cpuMs(() => {
          const r = simulateSpaceSharingOnCore(jobs, platform, { policy, backgroundLoad });
          decisions = r.decisions;
          localJobs = r.localJobs;
        }),
      );
      own.push(cpuMs(() => simulateSpaceSharing(jobs, platform, { policy, backgroundLoad })));
    }
    const ms = median(times);
    console.log(
      `core ${policy} bg ${backgroundLoad}: CPU median ${ms.toFixed(1)} ms per run (7 runs; own simulator ${median(own).toFixed(1)} ms), ${decisions} engine calls (${localJobs} local jobs), ${((ms * 1000) / decisions).toFixed(1)} us per call, ${((ms * 1000) / jobs.length).toFixed(1)} us per parallel job`,
    );
  }
}

describe("space sharing on core: 2000 moldable jobs on 8 x 8, load 0.7, background 0.3", () => {
  for (const policy of ["dynamic", "adaptive"] as const) {
    bench(
      policy,
      () => {
        simulateSpaceSharingOnCore(jobs, platform, { policy, backgroundLoad: 0.3 });
      },
      { iterations: 5, time: 0 },
    );
  }
});
