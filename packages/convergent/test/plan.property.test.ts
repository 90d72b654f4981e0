import { arbJobs, arbPlatform } from "@sched/core/testing";
import { preMatch } from "@sched/knapsack";
import { type ExactMatching, mfs } from "@sched/matching";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MatrixJob } from "../src/heuristic.js";
import { buildMatrix, rowMeans } from "../src/matrix.js";
import { paperHeuristics } from "../src/paper-heuristics.js";
import { makePlan } from "../src/plan.js";

const scenario = arbPlatform({ shape: "farm", maxMachines: 6 }).chain((platform) =>
  fc.tuple(
    fc.constant(platform),
    arbJobs(platform, { maxJobs: 12, singleMachine: true, readyTimes: false }),
    fc.array(fc.nat(), { maxLength: 12 }),
  ),
);

function rowsOf(jobs: readonly MatrixJob["job"][], running: number[], cols: number): MatrixJob[] {
  const used = new Set<number>();
  return jobs.map((job, i) => {
    const m = (running[i] ?? 0) % (cols + 1);
    if (m < cols && !used.has(m)) {
      used.add(m);
      return { job, progress: 0.25, machine: m };
    }
    return { job, progress: 0, machine: -1 };
  });
}

describe("makePlan properties", () => {
  it("clears exactly what the knapsack pre-matching over all jobs clears", () => {
    fc.assert(
      fc.property(scenario, ([platform, jobs, running]) => {
        const rows = rowsOf(jobs, running, platform.machines.length);
        const now = jobs[jobs.length - 1]?.submit ?? 0;
        const matrix = buildMatrix({ now, platform, jobs: rows }, paperHeuristics());
        const plan = makePlan(matrix, { matcher: "mfs" });
        const copies: Record<string, number> = {};
        for (const l of platform.licenses) if (l.kind === "floating") copies[l.name] = l.copies;
        const all = rows.map((r) => {
          const lic: Record<string, number> = {};
          for (const [k, v] of Object.entries(r.job.licenses ?? {})) if (k in copies) lic[k] = v;
          return { id: r.job.id, licenses: lic };
        });
        const reference = preMatch({
          jobs: all,
          copies,
          costs: rowMeans(matrix.weights, matrix.rows, matrix.cols),
        });
        expect(plan.cleared).toEqual(reference.clear);
      }),
      { numRuns: 60 },
    );
  });
  it("imfs from the previous plan is as good as mfs from scratch, and never matches a cleared job", () => {
    fc.assert(
      fc.property(scenario, fc.nat(), ([platform, jobs, running], drop) => {
        const cols = platform.machines.length;
        const rows = rowsOf(jobs, running, cols);
        const now = jobs[jobs.length - 1]?.submit ?? 0;
        const first = makePlan(buildMatrix({ now, platform, jobs: rows }, paperHeuristics()), {
          matcher: "mfs",
        });
        const later = rows.filter((_, i) => i !== drop % rows.length);
        const matrix = buildMatrix({ now: now + 7, platform, jobs: later }, paperHeuristics());
        const inc = makePlan(matrix, {
          matcher: "imfs",
          previous: { rowIds: first.rowIds, matching: first.matching as ExactMatching },
        });
        const fresh = mfs({ rows: matrix.rows, cols, weights: inc.weights });
        expect(inc.matching.size).toBe(fresh.size);
        expect(inc.matching.weight).toBeCloseTo(fresh.weight, 6);
        const cleared = new Set(inc.cleared);
        inc.rowToCol.forEach((m, i) => {
          if (m >= 0) expect(cleared.has(inc.rowIds[i] as number)).toBe(false);
        });
      }),
      { numRuns: 60 },
    );
  });
  it("with the previous weights (exact change hint, or mfs when most rows changed) it stays optimal over a chain of plans", () => {
    fc.assert(
      fc.property(
        scenario,
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(0, 0, 3)), { minLength: 1, maxLength: 4 }),
        ([platform, jobs, running], steps) => {
          const cols = platform.machines.length;
          let rows = rowsOf(jobs, running, cols);
          let now = jobs[jobs.length - 1]?.submit ?? 0;
          const heuristics = paperHeuristics();
          let plan = makePlan(buildMatrix({ now, platform, jobs: rows }, heuristics), {
            matcher: "mfs",
          });
          for (const [drop, dt] of steps) {
            if (rows.length > 1) rows = rows.filter((_, i) => i !== drop % rows.length);
            now += dt;
            const matrix = buildMatrix({ now, platform, jobs: rows }, heuristics);
            plan = makePlan(matrix, {
              matcher: "imfs",
              previous: {
                rowIds: plan.rowIds,
                matching: plan.matching as ExactMatching,
                weights: plan.weights,
              },
            });
            const fresh = mfs({ rows: matrix.rows, cols, weights: plan.weights });
            expect(plan.matching.size).toBe(fresh.size);
            expect(plan.matching.weight).toBeCloseTo(fresh.weight, 6);
            // the matrix handed in is never modified
            expect(matrix.weights).toEqual(
              buildMatrix({ now, platform, jobs: rows }, heuristics).weights,
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
