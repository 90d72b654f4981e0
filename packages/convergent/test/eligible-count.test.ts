import { simulate, type WaitingJob } from "@sched/core";
import { describe, expect, it } from "vitest";
import { convergent } from "../src/convergent.js";
import type { Heuristic } from "../src/heuristic.js";
import { convergentPriority } from "../src/priority.js";
import { farm, job } from "./helpers.js";

// The scheduler and `convergentPriority` build each job's eligibility row once and know how many
// machines it marks, so the matrix context takes `eligibleCount` from there instead of counting
// the row again at every event. A heuristic of the caller's own reads both: they must agree.

/** A heuristic that adds nothing and records, per row, "ones in the row / eligibleCount". */
function counting(seen: string[]): Heuristic {
  return {
    name: "count-check",
    apply(ctx) {
      for (let i = 0; i < ctx.jobs.length; i++) {
        let ones = 0;
        for (let m = 0; m < ctx.cols; m++) ones += ctx.eligible[i * ctx.cols + m]!;
        seen.push(`${ones}/${ctx.eligibleCount[i]}`);
      }
    },
  };
}

// Machines of 2, 4 and 1 cores: jobs of 1, 2 and 3-4 cores are eligible on 3, 2 and 1 machines.
const platform = farm();
const jobs = [1, 2, 3, 4, 1, 2, 1, 3].map((cores, i) =>
  job({ id: i + 1, submit: 5 * i, runtime: 40 + 10 * i, cores }),
);

/** Every record agrees, and rows of 1, 2 and 3 eligible machines were all seen. */
function check(seen: string[]): void {
  expect(seen.length).toBeGreaterThan(jobs.length);
  for (const s of seen) {
    const [ones, count] = s.split("/");
    expect(count).toBe(ones);
  }
  expect(new Set(seen)).toEqual(new Set(["1/1", "2/2", "3/3"]));
}

describe("eligibleCount in the context a heuristic sees", () => {
  it("equals the ones of each eligibility row, in the scheduler", () => {
    const seen: string[] = [];
    simulate(jobs, platform, convergent({ heuristics: [counting(seen)] }));
    check(seen);
  });

  it("equals the ones of each eligibility row, in convergentPriority", () => {
    const seen: string[] = [];
    const priority = convergentPriority({ heuristics: [counting(seen)] });
    simulate(jobs, platform, {
      name: "probe",
      schedule(ctx) {
        for (const w of ctx.view.waiting as readonly WaitingJob[]) priority(w, ctx.view);
        for (const w of ctx.view.waiting) {
          const m = [0, 1, 2].find((k) => ctx.view.freeCores(k) >= w.job.cores);
          if (m !== undefined) ctx.start(w.job.id, [{ machine: m, cores: w.job.cores }]);
        }
      },
    });
    check(seen);
  });
});
