import { createPlatform, identicalPool, type Platform, simulate } from "@sched/core";
import { generateLublin, swfToJobs } from "@sched/workload";
import { type OasRule, oasHeuristic } from "../src/oas-heuristics.js";
import { cpuMs, median, reportOnce } from "./cpu.js";

// The OAS list heuristics on a machine of 131 072 single-core processors (the shape of the
// largest SWF traces: one cluster, no link), 2 000 Lublin jobs (about 6 000 cores a job on
// average). On identical machines a job takes core's first fit of the view (the `cores`
// fastest free resources are the first free by index), whose machine ranges the engine reads
// instead of its parts; on two speeds, the faster half last, a walk of a bit set of the free
// resources by runs of the slowdown order. Before 2026-11-28 both walked the free flags past
// every busy resource and handed the engine one part per core (README, Benchmarks).
// Prints the median CPU time of 3 whole simulations per case.

const PROCS = 131_072;
const { records } = generateLublin({ jobs: 2000, procs: PROCS, seed: 0 });
const jobs = swfToJobs(records, { estimate: "runtime" }).jobs;

const platforms: [string, () => Platform][] = [
  ["identical", () => identicalPool(PROCS)],
  [
    "two speeds, faster half last",
    () =>
      createPlatform({
        machines: Array.from({ length: PROCS }, (_, i) => ({ speed: i < PROCS / 2 ? 1 : 2 })),
      }),
  ],
];

function report(rule: OasRule): void {
  for (const [name, make] of platforms) {
    const platform = make();
    const t: number[] = [];
    for (let r = 0; r < 3; r++) {
      t.push(cpuMs(() => simulate(jobs, platform, oasHeuristic(rule))));
    }
    console.log(
      `${rule}, ${jobs.length} Lublin jobs on ${PROCS} processors (${name}): median CPU ${median(t).toFixed(0)} ms`,
    );
  }
}

reportOnce(
  "OAS heuristics on a machine of 131 072 processors (tables on the console)",
  "FCFS and FPFS, identical and two speeds",
  () => {
    report("FCFS");
    report("FPFS");
  },
);
