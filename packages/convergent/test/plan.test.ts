import { createPlatform, InvalidInputError } from "@sched/core";
import { type ExactMatching, mfs } from "@sched/matching";
import { describe, expect, it } from "vitest";
import { buildMatrix, type JobMachineMatrix } from "../src/matrix.js";
import { paperHeuristics } from "../src/paper-heuristics.js";
import { makePlan, PlanMemory, type PlanOptions } from "../src/plan.js";
import { farm, job, rowOf } from "./helpers.js";

describe("makePlan", () => {
  it("clears the job that loses the license knapsack (one copy, two requests)", () => {
    const platform = farm({ licenses: [{ name: "cad", copies: 1 }] });
    // job 1 is older (anti-aging): its row mean is larger, so the knapsack keeps it
    const rows = [
      rowOf(job({ id: 1, submit: 0, licenses: { cad: 1 } })),
      rowOf(job({ id: 2, submit: 90, licenses: { cad: 1 } })),
      rowOf(job({ id: 3, submit: 90 })),
    ];
    const plan = makePlan(buildMatrix({ now: 100, platform, jobs: rows }, paperHeuristics()), {
      matcher: "mfs",
    });
    expect(plan.cleared).toEqual([2]);
    expect(plan.critical).toEqual(["cad"]);
    expect(plan.rowToCol[1]).toBe(-1);
    expect(plan.rowToCol[0]).toBeGreaterThanOrEqual(0);
    expect(plan.rowToCol[2]).toBeGreaterThanOrEqual(0);
    expect(Array.from(plan.weights.subarray(3, 6))).toEqual([0, 0, 0]);
  });
  it("leaves node-locked licenses to the minimal requirements (never cleared)", () => {
    const platform = farm({
      licenses: [{ name: "nl", kind: "node-locked", copies: 1, machines: [0] }],
    });
    const rows = [
      rowOf(job({ id: 1, licenses: { nl: 1 } })),
      rowOf(job({ id: 2, licenses: { nl: 1 } })),
    ];
    const plan = makePlan(buildMatrix({ now: 0, platform, jobs: rows }, paperHeuristics()));
    expect(plan.cleared).toEqual([]);
    expect(plan.matching.size).toBe(1); // one machine has the license
  });
  it("matches one job per machine and one machine per job, eligible pairs only", () => {
    const platform = farm();
    const rows = [1, 2, 3, 4].map((id) => rowOf(job({ id, cores: id === 1 ? 4 : 1 })));
    for (const matcher of ["mis", "mfs", "imfs"] as const) {
      const m = buildMatrix({ now: 0, platform, jobs: rows }, paperHeuristics());
      const plan = makePlan(m, { matcher });
      const used = new Set<number>();
      plan.rowToCol.forEach((c, i) => {
        if (c < 0) return;
        expect(used.has(c)).toBe(false);
        used.add(c);
        expect(m.weights[i * 3 + c]).toBeGreaterThan(0);
      });
      expect(plan.rowToCol[0]).toBe(1); // the 4-core job fits only on m1
    }
  });
  it("imfs from a previous plan finds a matching as good as mfs from scratch", () => {
    const platform = farm();
    const first = [1, 2, 3].map((id) => rowOf(job({ id, estimate: 10 * id })));
    const p1 = makePlan(buildMatrix({ now: 0, platform, jobs: first }, paperHeuristics()), {
      matcher: "imfs",
    });
    const second = [...first.slice(1), rowOf(job({ id: 4, submit: 5, estimate: 7 }))];
    const m2 = buildMatrix({ now: 5, platform, jobs: second }, paperHeuristics());
    const inc = makePlan(m2, {
      matcher: "imfs",
      previous: { rowIds: p1.rowIds, matching: p1.matching as ReturnType<typeof mfs> },
    });
    const fresh = mfs({ rows: m2.rows, cols: m2.cols, weights: m2.weights });
    expect(inc.matching.size).toBe(fresh.size);
    expect(inc.matching.weight).toBeCloseTo(fresh.weight, 9);
  });
  it("with the previous weights, keeps the previous plan when nothing changed and matches mfs when a job arrives", () => {
    const platform = farm();
    const jobs = [1, 2, 3, 4].map((id) => rowOf(job({ id, estimate: 10 * id })));
    const m1 = buildMatrix({ now: 0, platform, jobs }, paperHeuristics());
    const p1 = makePlan(m1, { matcher: "mfs" });
    const prev = (p: typeof p1) => ({
      rowIds: p.rowIds,
      matching: p.matching as ReturnType<typeof mfs>,
      weights: p.weights,
    });
    // the same matrix again: no row changed, imfs is handed an empty change hint
    const same = makePlan(buildMatrix({ now: 0, platform, jobs }, paperHeuristics()), {
      matcher: "imfs",
      previous: prev(p1),
    });
    expect(Array.from(same.rowToCol)).toEqual(Array.from(p1.rowToCol));
    expect(same.matching.weight).toBeCloseTo(p1.matching.weight, 9);
    // one more job at the same instant (a new row, and the rows it changes)
    const more = [...jobs, rowOf(job({ id: 5, estimate: 3 }))];
    const m3 = buildMatrix({ now: 0, platform, jobs: more }, paperHeuristics());
    const p3 = makePlan(m3, { matcher: "imfs", previous: prev(same) });
    const fresh = mfs({ rows: m3.rows, cols: m3.cols, weights: m3.weights });
    expect(p3.matching.size).toBe(fresh.size);
    expect(p3.matching.weight).toBeCloseTo(fresh.weight, 9);
  });
  it("rejects an unknown matcher or knapsack, a clearInPlace that is not true or false", () => {
    const m = buildMatrix({ now: 0, platform: farm(), jobs: [] }, []);
    expect(() => makePlan(m, { matcher: "hungarian" as never })).toThrow(InvalidInputError);
    expect(() => makePlan(m, { knapsack: "dp" as never })).toThrow(/options.knapsack/);
    expect(() => makePlan(m, { clearInPlace: 1 as never })).toThrow(
      "@sched/convergent/makePlan: options.clearInPlace is 1, expected true or false",
    );
  });
});

describe("makePlan's imfs from the previous plan (rows that changed)", () => {
  // Two jobs on two machines, matrices written by hand over one context. Before: job 2's row is
  // 0 (ineligible, or cleared), job 1 on m0. The exact optimum of each matrix is mfs's.
  const platform = farm({ machines: [{ speed: 1 }, { speed: 1 }] });
  const rows = [rowOf(job({ id: 1 })), rowOf(job({ id: 2 }))];
  const base = buildMatrix({ now: 0, platform, jobs: rows }, paperHeuristics());
  const withWeights = (w: number[]) => ({ ...base, weights: Float64Array.from(w) });

  it("sees a row whose entry went from 0 to > 0 or from > 0 to 0 as changed (previous weights)", () => {
    for (const [before, after] of [
      // job 2 becomes eligible on m0: the optimum moves job 1 to m1
      [
        [5, 1, 0, 0],
        [5, 1, 4, 0],
      ],
      // job 1 loses m0, where the previous matching had it
      [
        [5, 1, 0, 2],
        [0, 1, 0, 2],
      ],
    ] as const) {
      const first = makePlan(withWeights([...before]), { matcher: "mfs" });
      const matrix = withWeights([...after]);
      const plan = makePlan(matrix, {
        matcher: "imfs",
        previous: {
          rowIds: first.rowIds,
          matching: first.matching as ExactMatching,
          weights: first.weights,
        },
      });
      const fresh = mfs({ rows: 2, cols: 2, weights: matrix.weights });
      expect(plan.matching.size).toBe(fresh.size);
      expect(plan.matching.weight).toBe(fresh.weight);
      expect(plan.rowToCol).toEqual(fresh.rowToCol);
    }
  });

  it("adds to the change hint the kept rows whose clearing changed (same matrix, other costs)", () => {
    // One copy of cad, two jobs asking for it: the knapsack keeps the job of larger cost. The
    // matrix before clearing is the same at both plans (the hint lists no row), but the costs
    // swap which job is cleared: both rows changed after clearing, and the plan is mfs's.
    const platform = farm({ licenses: [{ name: "cad", copies: 1 }] });
    const jobs = [
      rowOf(job({ id: 1, licenses: { cad: 1 } })),
      rowOf(job({ id: 2, licenses: { cad: 1 } })),
    ];
    const matrix = buildMatrix({ now: 0, platform, jobs }, paperHeuristics());
    const first = makePlan(matrix, { matcher: "mfs", costs: [10, 1] });
    expect(first.cleared).toEqual([2]);
    const plan = makePlan(matrix, {
      matcher: "imfs",
      costs: [1, 10],
      changedRows: [],
      previous: {
        rowIds: first.rowIds,
        matching: first.matching as ExactMatching,
        cleared: first.cleared,
      },
    });
    expect(plan.cleared).toEqual([1]);
    const fresh = mfs({ rows: 2, cols: 3, weights: plan.weights });
    expect(plan.rowToCol[0]).toBe(-1);
    expect(plan.rowToCol).toEqual(fresh.rowToCol);
    expect(plan.matching.weight).toBe(fresh.weight);
  });
});

describe("makePlan's pre-matching observer", () => {
  it("runs the knapsack (and onPreMatch) only when a floating license is critical (rho > 1)", () => {
    const platform = farm({ licenses: [{ name: "cad", copies: 2 }] });
    const calls: number[] = [];
    for (const n of [1, 2, 3]) {
      const rows = Array.from({ length: n }, (_, k) =>
        rowOf(job({ id: k + 1, licenses: { cad: 1 } })),
      );
      let seen = 0;
      makePlan(buildMatrix({ now: 0, platform, jobs: rows }, paperHeuristics()), {
        matcher: "mfs",
        onPreMatch: () => {
          seen++;
        },
      });
      calls.push(seen);
    }
    // 1 or 2 copies asked for out of 2: rho <= 1, no knapsack; 3 of 2: one call
    expect(calls).toEqual([0, 0, 1]);
  });
});

describe("makePlan's checks of its matrix and options", () => {
  // Each malformed field is refused naming it (an audit found these accepted or refused by
  // another check with another message when one check was weakened).
  const platform = createPlatform({ machines: [{ speed: 1 }, { speed: 4 }] });
  const rows = [rowOf(job({ id: 1 })), rowOf(job({ id: 2, estimate: 50 }))];
  const m = buildMatrix({ now: 0, platform, jobs: rows }, paperHeuristics());
  const bad = (matrix: JobMachineMatrix, options: PlanOptions, message: string) => {
    expect(() => makePlan(matrix, options)).toThrow(InvalidInputError);
    expect(() => makePlan(matrix, options)).toThrow(`@sched/convergent/makePlan: ${message}`);
  };
  it("refuses weights of the wrong length or not finite", () => {
    bad(
      { ...m, weights: new Float64Array(3) },
      {},
      "matrix.weights is a Float64Array of 3, expected a Float64Array of rows x cols = 4",
    );
    const infinite = Float64Array.from(m.weights);
    infinite[2] = Number.POSITIVE_INFINITY;
    bad(
      { ...m, weights: infinite },
      {},
      "matrix.weights[2] is Infinity, expected a finite number (> 0: eligible)",
    );
  });
  it("refuses a context whose platform or jobs do not match the matrix's shape", () => {
    const three = createPlatform({ machines: [{}, {}, {}] });
    bad(
      { ...m, context: { ...m.context, platform: three } },
      {},
      "matrix.cols is 2, but matrix.context.platform has 3 machines",
    );
    bad(
      { ...m, context: { ...m.context, jobs: [...m.context.jobs, rowOf(job({ id: 3 }))] } },
      {},
      "matrix.context.jobs has 3 rows, expected matrix.rows = 2",
    );
  });
  it("refuses a previous matching without its state, costs of the wrong length, a memory that is not a PlanMemory", () => {
    const first = makePlan(m, { matcher: "mfs" });
    const matching = { ...first.matching, state: {} } as unknown as ExactMatching;
    bad(
      m,
      { previous: { rowIds: first.rowIds, matching } },
      "options.previous.matching has no state, expected the exact matching of a previous plan (from mfs or imfs)",
    );
    bad(
      m,
      { costs: [1, 2, 3] },
      "options.costs has 3 entries, expected matrix.rows = 2 (one per row)",
    );
    bad(m, { memory: {} as PlanMemory }, "options.memory is object, expected a PlanMemory");
    // the same with valid options is accepted
    expect(makePlan(m, { costs: [1, 2], memory: new PlanMemory() }).rowToCol).toHaveLength(2);
  });
});

describe("makePlan's memory (PlanMemory)", () => {
  it("rebuilds its license clustering for another platform", () => {
    // cad is critical on the first platform, fem on the second (other jobs there): a clustering
    // kept from the first would put the cad jobs in a cluster of the second plan's knapsack.
    const on = (cad: number, fem: number) =>
      createPlatform({
        machines: [{}, {}, {}, {}],
        licenses: [
          { name: "cad", copies: cad },
          { name: "fem", copies: fem },
        ],
      });
    const rowsFrom = (id: number) => [
      rowOf(job({ id, licenses: { cad: 1 } })),
      rowOf(job({ id: id + 1, submit: 5, licenses: { cad: 1 } })),
      rowOf(job({ id: id + 2, licenses: { fem: 1 } })),
      rowOf(job({ id: id + 3, submit: 5, licenses: { fem: 1 } })),
    ];
    const memory = new PlanMemory();
    const plan = (platform: ReturnType<typeof on>, id: number, withMemory: boolean) => {
      const matrix = buildMatrix({ now: 10, platform, jobs: rowsFrom(id) }, paperHeuristics());
      const p = makePlan(matrix, { matcher: "mfs", ...(withMemory ? { memory } : {}) });
      return { cleared: p.cleared, critical: p.critical };
    };
    expect(plan(on(1, 10), 1, true)).toEqual({ cleared: [2], critical: ["cad"] });
    expect(plan(on(10, 1), 5, false)).toEqual({ cleared: [8], critical: ["fem"] });
    expect(plan(on(10, 1), 5, true)).toEqual({ cleared: [8], critical: ["fem"] });
  });

  it("plans the same jobs alike on two copies of one platform spec", () => {
    // The second platform object gets a new clustering, which must track the same jobs afresh
    // (the memory kept its tracked set and threw "jobs[0] (id 1) is not tracked by clusters").
    const spec = { machines: [{}, {}], licenses: [{ name: "cad", copies: 1 }] };
    const jobs = [
      rowOf(job({ id: 1, licenses: { cad: 1 } })),
      rowOf(job({ id: 2, submit: 5, licenses: { cad: 1 } })),
    ];
    const memory = new PlanMemory();
    const plan = () => {
      const matrix = buildMatrix(
        { now: 10, platform: createPlatform(spec), jobs },
        paperHeuristics(),
      );
      const p = makePlan(matrix, { matcher: "mfs", memory });
      return { cleared: p.cleared, critical: p.critical };
    };
    const first = plan();
    expect(first.critical).toEqual(["cad"]);
    expect(first.cleared).toHaveLength(1);
    expect(plan()).toEqual(first);
  });
});
