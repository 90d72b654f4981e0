import { createJob, simulate } from "@sched/core";
import { Random } from "@sched/random";
import { oasExecutionModel } from "../src/execution.js";
import { type OasRule, oasHeuristic } from "../src/oas-heuristics.js";
import { multiClusterPlatform } from "../src/platform.js";
import { cpuMs, median, reportOnce } from "./cpu.js";

// The OAS list heuristics under a long queue: n jobs of 1-16 tasks arrive faster than 8 x 8
// nodes serve them (offered load about 1.5), so the queue grows to thousands. Each call
// used to check every waiting job and build its slowdown row over every resource (O(waiting x
// resources) per call), and recompute every running job's link demand; a run cost grew with
// n^2. Now what a run does not change is computed once per job and the queue is kept in the
// rule's order between calls (a heap; FPFS an arrival-order min-tree), so the CPU time per job
// should stay nearly flat as n doubles (what is left per call: the jobs it tries, and the
// running jobs' link loads).
// Prints the median CPU time of 3 runs per case, and per job.

const platform = multiClusterPlatform(
  Array.from({ length: 8 }, (_, k) => ({ nodes: 8, speed: 1 - 0.05 * (k % 4), bandwidth: 125e6 })),
);
const profile = () => ({ sigma: 0.6, ptbw: 2e6 });
const executionModel = oasExecutionModel({ profile });

function jobsOf(n: number) {
  const rng = new Random(7);
  let t = 0;
  return Array.from({ length: n }, (_, i) => {
    t += rng.exponential(100);
    const runtime = rng.uniform(200, 2000);
    return createJob({ id: i + 1, submit: Math.round(t), runtime, cores: rng.integer(1, 16) });
  });
}

function report(rule: OasRule): void {
  for (const n of [1000, 2000, 4000]) {
    const jobs = jobsOf(n);
    const t: number[] = [];
    let waitMax = 0;
    for (let r = 0; r < 3; r++)
      t.push(
        cpuMs(() => {
          const trace = simulate(jobs, platform, oasHeuristic(rule, { profile }), {
            executionModel,
          });
          waitMax = trace.records.reduce(
            (m, x) => Math.max(m, (x.intervals[0]?.start ?? 0) - x.job.submit),
            0,
          );
        }),
      );
    const ms = median(t);
    console.log(
      `${rule}, ${n} jobs on 8 x 8 (longest wait ${(waitMax / 3600).toFixed(0)} h): median CPU ${ms.toFixed(0)} ms, ${((1000 * ms) / n).toFixed(0)} µs per job`,
    );
  }
}

reportOnce(
  "OAS heuristics, long queue (tables on the console)",
  "FCFS and FPFS, 1000 to 4000 jobs",
  () => {
    report("FCFS");
    report("FPFS");
  },
);
