import { multiclusterWorkload } from "@sched/workload";
import { bench, describe } from "vitest";
import { multiClusterPlatform } from "../src/platform.js";
import { simulateSpaceSharing } from "../src/space-sharing.js";
import { cpuMs, median } from "./cpu.js";

const platform = multiClusterPlatform(
  Array.from({ length: 8 }, (_, k) => ({ nodes: 8, speed: 1 + 0.2 * k })),
);
const { jobs } = multiclusterWorkload({ jobs: 2000, load: 0.7, seed: 1 });

// Time per decision: CPU time of a whole run (simulation included) / its decisions, median
// of 7 runs.
for (const policy of ["dynamic", "adaptive"] as const) {
  let decisions = 0;
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    times.push(
      cpuMs(() => {
        decisions = simulateSpaceSharing(jobs, platform, { policy, backgroundLoad: 0.3 }).decisions;
      }),
    );
  }
  const ms = median(times);
  console.log(
    `${policy}: CPU median ${ms.toFixed(1)} ms per run (7 runs), ${decisions} decisions, ${((ms * 1000) / decisions).toFixed(1)} us per decision (2000 jobs, 8x8, load 0.7, background 0.3)`,
  );
}

describe("space sharing: 2000 moldable jobs on 8 x 8, load 0.7, background 0.3", () => {
  for (const policy of ["dynamic", "adaptive"] as const) {
    bench(
      policy,
      () => {
        simulateSpaceSharing(jobs, platform, { policy, backgroundLoad: 0.3 });
      },
      { iterations: 5, time: 0 },
    );
  }
});
