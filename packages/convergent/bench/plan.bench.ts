import type { ExactMatching } from "@sched/matching";
import { bench, describe } from "vitest";
import type { MatrixJob } from "../src/heuristic.js";
import { buildMatrix } from "../src/matrix.js";
import { meetsRequirements } from "../src/minimalRequirements.js";
import { OVERHEAD_NON_PREEMPTIVE } from "../src/overhead.js";
import { paperHeuristics } from "../src/paperHeuristics.js";
import { makePlan } from "../src/plan.js";
import { paperWorkload } from "../src/workload.js";

// One scheduling plan (heuristics + clustering/pre-matching + matching) at 150 machines with N
// jobs in the system: the first 150 eligible ones running, the rest queued, one job just
// arrived (the previous plan, for IMFS, is the plan without it, with its weights as the
// scheduler passes them: makePlan then picks imfs with an exact change hint or mfs).
const { platform, jobs } = paperWorkload({ seed: 11, interArrival: 4, jobs: 1501 });
// The scheduler caches each job's eligibility row; so does the benchmark.
const eligibilityRows = new Map<number, Uint8Array>();
for (const job of jobs) {
  const e = new Uint8Array(platform.machines.length);
  for (let m = 0; m < e.length; m++) if (meetsRequirements(job, platform, m)) e[m] = 1;
  eligibilityRows.set(job.id, e);
}
const eligibility = (r: MatrixJob): Uint8Array => eligibilityRows.get(r.job.id) as Uint8Array;
const variants = [
  { name: "CS_ip", matcher: "imfs", overhead: 8 },
  { name: "CS_inp", matcher: "imfs", overhead: OVERHEAD_NON_PREEMPTIVE },
  { name: "CS_nip", matcher: "mfs", overhead: 8 },
  { name: "CS_ninp", matcher: "mfs", overhead: OVERHEAD_NON_PREEMPTIVE },
  { name: "MIS", matcher: "mis", overhead: 8 },
] as const;

for (const n of [150, 500, 1000, 1500]) {
  const now = jobs[n]?.submit as number;
  const rows: MatrixJob[] = jobs.slice(0, n).map((job, i) => ({
    job,
    progress: 0,
    machine: i < platform.machines.length ? i : -1,
  }));
  describe(`one plan, ${n} jobs in the system, 150 machines`, () => {
    for (const v of variants) {
      const heuristics = paperHeuristics({ overhead: v.overhead });
      const before = buildMatrix(
        { now, platform, jobs: rows.slice(0, n - 1), eligibility },
        heuristics,
      );
      const previousPlan = makePlan(before, { matcher: v.matcher === "mis" ? "mis" : "mfs" });
      const previous = Int32Array.from(rows, (_, i) =>
        i < n - 1 ? (previousPlan.rowToCol[i] ?? -1) : -1,
      );
      bench(
        v.name,
        () => {
          const matrix = buildMatrix(
            { now, platform, jobs: rows, previous, eligibility },
            heuristics,
          );
          makePlan(matrix, {
            matcher: v.matcher,
            previous:
              v.matcher === "imfs"
                ? {
                    rowIds: previousPlan.rowIds,
                    matching: previousPlan.matching as ExactMatching,
                    weights: previousPlan.weights,
                  }
                : undefined,
          });
        },
        { time: 300, iterations: 3 },
      );
    }
  });
}
