import { createJob } from "@sched/core";
import type { Highs } from "highs";
import { describe, expect, it, vi } from "vitest";
import { solveOas } from "../src/mip.js";
import { multiClusterPlatform } from "../src/platform.js";

// HiGHS rounds its dual bound to a whole number when the objective is integral (here `cmax`, a
// general integer), so a real solve never shows how solveOas rounds a fractional bound. This
// file hands solveOas the real solver with one change: the dual bound it reports goes through
// `reported` (the identity unless a test sets it), as a solver that does not round would give it.
let reported: (dual: number) => number = (d) => d;

vi.mock("../src/solver.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/solver.js")>();
  const wrap = (highs: Highs): Highs =>
    new Proxy(highs, {
      get(target, key, receiver) {
        if (key !== "createModel") return Reflect.get(target, key, receiver);
        return (...args: Parameters<Highs["createModel"]>) => {
          const model = target.createModel(...args);
          const info = model.info;
          const get = (name: string) => {
            const v = info.get(name as never);
            return name === "mip_dual_bound" ? reported(Number(v)) : v;
          };
          return new Proxy(model, {
            get(m, k, r) {
              if (k !== "info") return Reflect.get(m, k, r);
              return new Proxy(info, {
                get(i, ik, ir) {
                  return ik === "get" ? get : Reflect.get(i, ik, ir);
                },
              });
            },
          });
        };
      },
    });
  return { ...real, loadSolver: async () => wrap(await real.loadSolver()) };
});

const paper = multiClusterPlatform([
  { nodes: 2, speed: 1 },
  { nodes: 2, speed: 0.75 },
  { nodes: 2, speed: 0.5 },
]);

// Five jobs in 60 s slots, one branch-and-bound node: HiGHS stops by the budget with a schedule
// of 10 slots and a dual bound of exactly 9.
const jobs = [
  [159, 3],
  [167, 1],
  [107, 4],
  [44, 4],
  [135, 3],
].map(([runtime, cores], id) => createJob({ id, submit: 0, runtime: runtime!, cores: cores! }));
const solve = () => solveOas(jobs, paper, { eta: 60, maxNodes: 1 });

describe("solveOas: the bound of a solve stopped short of a proof", () => {
  it("is HiGHS' dual bound rounded up to a whole slot, with a tolerance of 1e-6 either way", async () => {
    reported = (d) => d;
    const plain = await solve();
    expect([plain.status, plain.makespanSlots, plain.bound]).toEqual(["feasible", 10, 9]);
    expect(plain.gap).toBeCloseTo(0.1, 12);
    // a bound of 9.2 proves 10 (the objective is a whole number of slots): optimal
    reported = (d) => d + 0.2;
    const above = await solve();
    expect([above.status, above.makespanSlots, above.bound, above.gap]).toEqual([
      "optimal",
      10,
      10,
      0,
    ]);
    expect(above.message).toBe("optimal");
    // 10 - 1e-9 is 10 within the solver's tolerance: optimal too
    reported = (d) => d + 1 - 1e-9;
    const under = await solve();
    expect([under.status, under.bound]).toEqual(["optimal", 10]);
    // 9 + 1e-7 is 9 within the tolerance, not a proof of 10
    reported = (d) => d + 1e-7;
    const noise = await solve();
    expect([noise.status, noise.bound]).toEqual(["feasible", 9]);
    reported = (d) => d;
  });
  it("a relative gap that stops HiGHS early leaves the status feasible, not optimal", async () => {
    reported = (d) => d;
    // Six jobs in 40 s slots: the optimum is 13 slots; with relativeGap 0.5 HiGHS stops at the
    // root with a schedule of 14 and calls it optimal (within 50%), which proves nothing here.
    const six = [
      [92, 5],
      [121, 3],
      [57, 1],
      [134, 2],
      [72, 2],
      [91, 2],
    ].map(([runtime, cores], id) => createJob({ id, submit: 0, runtime: runtime!, cores: cores! }));
    const r = await solveOas(six, paper, { eta: 40, relativeGap: 0.5 });
    expect([r.status, r.makespanSlots]).toEqual(["feasible", 14]);
    expect(r.bound!).toBeLessThanOrEqual(13);
    expect(r.gap).toBe((14 - r.bound!) / 14);
    expect(r.message).toMatch(/^stopped within options\.relativeGap \(0\.5\) with a gap of/);
  });
});
