import {
  createJob,
  createPlatform,
  InvalidInputError,
  type Job,
  type Platform,
  simulate,
} from "@sched/core";
import { arbJobs, arbPlatform } from "@sched/core/testing";
import { type ExactMatching, mfs } from "@sched/matching";
import { convergentWorkload } from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { antiAgingHeuristic } from "../src/anti-aging.js";
import { convergent } from "../src/convergent.js";
import type { Heuristic, MatrixJob } from "../src/heuristic.js";
import { IncrementalMatrix } from "../src/incremental.js";
import { buildMatrix, type MatrixInput, type MatrixUpdate } from "../src/matrix.js";
import {
  eligibilityRow,
  meetsRequirements,
  minimalRequirementsHeuristic,
} from "../src/minimal-requirements.js";
import {
  type HeuristicReadings,
  PAPER_CONSTANTS,
  PAPER_READINGS,
  paperHeuristics,
  scaled,
} from "../src/paper-heuristics.js";
import { PaperIncrementalMatrix, UNCHECKED_COSTS } from "../src/paper-incremental.js";
import { makePlan, type Plan } from "../src/plan.js";
import { convergentVariant } from "../src/variants.js";

// A chain of scheduling events: time advances, jobs arrive and leave, running jobs progress,
// the previous plan's machines change.
const scenario = arbPlatform({ shape: "farm", maxMachines: 6 }).chain((platform) =>
  fc.tuple(
    fc.constant(platform),
    arbJobs(platform, { maxJobs: 12, singleMachine: true, readyTimes: false }),
    fc.array(
      fc.record({
        dt: fc.integer({ min: 0, max: 400 }),
        leave: fc.nat(),
        running: fc.array(fc.nat(), { maxLength: 12 }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  ),
);

type Event = { dt: number; leave: number; running: number[] };

interface Step {
  readonly now: number;
  readonly rows: MatrixJob[];
  readonly previous: Int32Array;
  /** The matrix input of this state: `now`, the platform, `rows` as its jobs and `previous`. */
  readonly input: MatrixInput;
}

/** The states of the chain: the jobs submitted by `now`, minus one that left per event. */
function steps(platform: Platform, jobs: readonly Job[], events: readonly Event[]): Step[] {
  const cols = platform.machines.length;
  const gone = new Set<number>();
  let now = jobs[0]?.submit ?? 0;
  const out: Step[] = [];
  events.forEach((ev, k) => {
    now += ev.dt;
    const present = jobs.filter((j) => j.submit <= now && !gone.has(j.id));
    if (present.length > 0 && ev.leave % 3 === 0)
      gone.add((present[ev.leave % present.length] as Job).id);
    const used = new Set<number>();
    const rows = present
      .filter((j) => !gone.has(j.id))
      .map((job, i): MatrixJob => {
        const m = (ev.running[i] ?? cols) % (cols + 1);
        if (m < cols && !used.has(m) && meetsRequirements(job, platform, m)) {
          used.add(m);
          return { job, progress: Math.min(0.9, 0.1 * (k + 1)), machine: m };
        }
        return { job, progress: 0, machine: -1 };
      });
    const previous = Int32Array.from(rows, (r, i) =>
      r.machine >= 0 ? r.machine : (ev.running[i + 1] ?? cols) % (cols + 1) < cols ? 0 : -1,
    );
    out.push({ now, rows, previous, input: { now, platform, jobs: rows, previous } });
  });
  return out;
}

/** Every entry of the incremental matrix against the from-scratch one. */
function checkAgainstScratch(
  u: MatrixUpdate & { readonly costs: Float64Array },
  step: Step,
  tolerance: number,
  readings: Required<HeuristicReadings> = PAPER_READINGS,
  heuristics: readonly Heuristic[] = paperHeuristics({}, readings),
): void {
  const exact = buildMatrix(step.input, heuristics);
  expect(u.matrix.rows).toBe(exact.rows);
  const slack = 1e-9 * (1 + Math.abs(u.shift));
  for (let k = 0; k < exact.weights.length; k++) {
    const f = exact.weights[k] as number;
    const s = u.matrix.weights[k] as number;
    if (f === 0) {
      expect(s).toBe(0);
    } else {
      expect(s).toBeGreaterThan(0);
      expect(Math.abs(s - u.shift - f)).toBeLessThanOrEqual(slack + tolerance * f + 1e-9 * f);
    }
  }
}

type Readings = Required<HeuristicReadings>;

const engines = [
  [
    "IncrementalMatrix (any heuristics)",
    (tol: number, horizon: number, readings?: Readings) =>
      new IncrementalMatrix({
        heuristics: paperHeuristics({}, readings),
        tolerance: tol,
        horizon,
      }),
  ],
  [
    "PaperIncrementalMatrix (the paper's seven, fused)",
    (tol: number, horizon: number, readings?: Readings) =>
      new PaperIncrementalMatrix({
        constants: PAPER_CONSTANTS,
        tolerance: tol,
        horizon,
        ...(readings === undefined ? {} : { readings }),
      }),
  ],
  [
    "PaperIncrementalMatrix in fresh mode (non-incremental variants, convergentPriority)",
    (tol: number, horizon: number, readings?: Readings) =>
      new PaperIncrementalMatrix({
        constants: PAPER_CONSTANTS,
        incremental: false,
        tolerance: tol,
        horizon,
        ...(readings === undefined ? {} : { readings }),
      }),
  ],
] as const;

/** Every combination of the heuristics' readings. */
const readingsArb = fc.record({
  deadlineLate: fc.constantFrom("max" as const, "min" as const),
  deadlineAllLate: fc.constantFrom("max" as const, "zero" as const),
  waitSup: fc.constantFrom("global" as const, "row" as const),
});

describe("IncrementalMatrix with a scaled uniform-rate heuristic", () => {
  it("cancels the drift of scaled(anti-aging, f) at f times its rate: tolerance 0 is P plus one shift", () => {
    // scaled() must scale the rate it declares: the shift that cancels anti-aging's growth is
    // rate * (base + horizon - now), and stored rows are kept only while they stay exact.
    fc.assert(
      fc.property(scenario, fc.constantFrom(0.5, 5, 40), ([platform, jobs, events], factor) => {
        const heuristics = [minimalRequirementsHeuristic(), scaled(antiAgingHeuristic(), factor)];
        const inc = new IncrementalMatrix({ heuristics, tolerance: 0, horizon: 1000 });
        for (const step of steps(platform, jobs, events)) {
          const u = inc.update(step.input);
          checkAgainstScratch(u, step, 0, PAPER_READINGS, heuristics);
        }
      }),
      { numRuns: 60 },
    );
    // Only time passes (same jobs, same plan): the shift cancels the growth, so no row changes
    // and the matching is told so. A rate not scaled with the heuristic changes every row.
    const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }, { cores: 4 }] });
    const rows = [1, 2, 3].map(
      (id): MatrixJob => ({
        job: createJob({ id, submit: 0, runtime: 50, cores: id }),
        progress: 0,
        machine: -1,
      }),
    );
    const previous = new Int32Array(rows.length).fill(-1);
    for (const factor of [0.5, 5, 40]) {
      const heuristics = [minimalRequirementsHeuristic(), scaled(antiAgingHeuristic(), factor)];
      const inc = new IncrementalMatrix({ heuristics, tolerance: 0, horizon: 1000 });
      inc.update({ now: 10, platform, jobs: rows, previous });
      for (const now of [20, 150, 400]) {
        const u = inc.update({ now, platform, jobs: rows, previous });
        expect(u.changedRows, `factor ${factor}, now ${now}`).toEqual([]);
      }
    }
  });
});

describe("a negative anti-aging weight (old jobs rank lower)", () => {
  // The shift that cancels the drift falls by the rate per second; for a negative rate it is
  // anchored at the base, not at base + horizon, so that it never goes negative and no eligible
  // entry of the returned matrix drops to 0 or below (which the matching reads as ineligible:
  // with antiAging -0.02 the shift was -400 and no job ever started).
  const constants = { ...PAPER_CONSTANTS, antiAging: -0.01 };
  const heuristics = paperHeuristics(constants);
  const make = [
    (horizon: number) => new IncrementalMatrix({ heuristics, tolerance: 0, horizon }),
    (horizon: number) => new PaperIncrementalMatrix({ constants, tolerance: 0, horizon }),
  ];
  it("with tolerance 0 is still the from-scratch P plus one shift, which is never negative", () => {
    fc.assert(
      fc.property(
        scenario,
        fc.constantFrom(1000, 20000),
        fc.constantFrom(0, 1),
        ([platform, jobs, events], horizon, which) => {
          const inc = make[which]!(horizon);
          for (const step of steps(platform, jobs, events)) {
            const u = inc.update(step.input);
            expect(u.shift).toBeGreaterThanOrEqual(0);
            checkAgainstScratch(u, step, 0, PAPER_READINGS, heuristics);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe.each(engines)("%s", (_name, make) => {
  it("with tolerance 0 is the from-scratch P plus one uniform shift (up to rounding), for every reading", () => {
    fc.assert(
      fc.property(
        scenario,
        fc.constantFrom(1000, 20000),
        readingsArb,
        ([platform, jobs, events], horizon, readings) => {
          const inc = make(0, horizon, readings);
          for (const step of steps(platform, jobs, events)) {
            const u = inc.update(step.input);
            checkAgainstScratch(u, step, 0, readings);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
  it("follows a platform that loses and regains machines (rows stored on the old size are not kept)", () => {
    // On the first two machines the rows are equal across the three platforms, so a row stored
    // on three columns would pass the comparison on two and be written three entries long.
    const three = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }, { cores: 2 }] });
    const two = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }] });
    const rows = [0, 1, 2].map(
      (id): MatrixJob => ({
        job: createJob({ id, submit: 0, runtime: 10 + id, cores: 1 }),
        progress: 0,
        machine: -1,
      }),
    );
    const previous = Int32Array.from([-1, -1, -1]);
    const inc = make(0.05, 20000);
    for (const [now, platform] of [
      [0, three],
      [1, two],
      [2, three],
      [3, two],
    ] as const) {
      const input = { now, platform, jobs: rows, previous };
      const u = inc.update(input);
      expect(u.matrix.cols).toBe(platform.machines.length);
      checkAgainstScratch(u, { now, rows, previous, input }, 0.05);
    }
  });
  it("keeps every entry within the relative tolerance, and the unlisted rows bit for bit", () => {
    fc.assert(
      fc.property(
        scenario,
        fc.constantFrom(0.01, 0.05, 0.3),
        fc.constantFrom(1000, 20000),
        readingsArb,
        ([platform, jobs, events], tol, horizon, readings) => {
          const inc = make(tol, horizon, readings);
          let before = new Map<number, number[]>();
          for (const step of steps(platform, jobs, events)) {
            const u = inc.update(step.input);
            checkAgainstScratch(u, step, tol, readings);
            const cols = u.matrix.cols;
            const changed = new Set(u.changedRows);
            const after = new Map<number, number[]>();
            step.rows.forEach((r, i) => {
              const row = Array.from(u.matrix.weights.subarray(i * cols, (i + 1) * cols));
              after.set(r.job.id, row);
              const old = before.get(r.job.id);
              if (old === undefined) expect(changed.has(i)).toBe(true);
              else if (!changed.has(i)) expect(row).toEqual(old);
            });
            before = after;
          }
        },
      ),
      { numRuns: 60 },
    );
  });
  it("costs are the row means of the fresh matrix, within the tolerance", () => {
    fc.assert(
      fc.property(scenario, ([platform, jobs, events]) => {
        const inc = make(0, 20000);
        for (const step of steps(platform, jobs, events)) {
          const u = inc.update(step.input);
          const exact = buildMatrix(step.input, paperHeuristics());
          const cols = exact.cols;
          for (let i = 0; i < exact.rows; i++) {
            let s = 0;
            let c = 0;
            for (let m = 0; m < cols; m++) {
              const v = exact.weights[i * cols + m] as number;
              if (v > 0) {
                s += v;
                c++;
              }
            }
            expect(u.costs[i]).toBeCloseTo(c === 0 ? 0 : s / c, 6);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("PaperIncrementalMatrix's rows kept in O(1) (only the row scalars moved)", () => {
  it("are refreshed once the drift exceeds the tolerance of their smallest entry (worked case)", () => {
    // One machine of speed 1, Input 0, the clock still: job 1's row is the one entry
    // 1 + 4 - alpha, alpha = 4 * 100 / Sup, Sup = job 2's remaining work 1000 (1 - progress).
    // Progress 0: alpha 0.4, entry 4.6. Progress 0.385: Sup 615, alpha 0.6504..., entry
    // 4.3496...: the drift 0.2504 is above 5 % of the entry (0.2175) but below 5 % of the entry
    // plus 1 (0.2675): the row must be refreshed, and equal the from-scratch entry.
    const platform = createPlatform({ machines: [{ cores: 1, speed: 1 }], referenceSpeed: 1 });
    const constants = { ...PAPER_CONSTANTS, input: 0 };
    const waiting = createJob({ id: 1, submit: 0, runtime: 100, cores: 1 });
    const running = createJob({ id: 2, submit: 0, runtime: 1000, cores: 1 });
    const source = new PaperIncrementalMatrix({ constants, tolerance: 0.05 });
    for (const progress of [0, 0.385]) {
      const jobs: MatrixJob[] = [
        { job: waiting, progress: 0, machine: -1 },
        { job: running, progress, machine: 0 },
      ];
      const previous = Int32Array.from([-1, 0]);
      const u = source.update({ now: 0, platform, jobs, previous });
      const exact = buildMatrix({ now: 0, platform, jobs, previous }, paperHeuristics(constants));
      expect(u.changedRows).toContain(0);
      const f = exact.weights[0] as number;
      expect(f).toBeCloseTo(progress === 0 ? 4.6 : 5 - 400 / 615, 12);
      expect(Math.abs((u.matrix.weights[0] as number) - u.shift - f)).toBeLessThanOrEqual(0.05 * f);
    }
  });
});

describe("IncrementalMatrix's uniform shift (anti-aging)", () => {
  it("keeps the entries of a job submitted after the base positive: P plus a shift of rate (base + horizon - now)", () => {
    // Horizon 1000, base 0 (the first update). At 400 (no rebase yet) job 2 arrives with the
    // largest remaining work (wait minimization 0): its from-scratch entry is 1 + 3 = 4, and
    // the shift 0.02 (0 + 1000 - 400) = 12 keeps it at 16. A shift that only cancels the drift
    // (0.02 (0 - 400) = -8) would leave it at -4: ineligible for the matching.
    const platform = createPlatform({ machines: [{ cores: 1, speed: 1 }], referenceSpeed: 1 });
    const first = createJob({ id: 1, submit: 0, runtime: 10, cores: 1 });
    const second = createJob({ id: 2, submit: 400, runtime: 1000, cores: 1 });
    const source = new IncrementalMatrix({
      heuristics: paperHeuristics(),
      tolerance: 0,
      horizon: 1000,
    });
    for (const [now, jobs] of [
      [0, [first]],
      [400, [first, second]],
    ] as const) {
      const rows: MatrixJob[] = jobs.map((job) => ({ job, progress: 0, machine: -1 }));
      const u = source.update({ now, platform, jobs: rows });
      const exact = buildMatrix({ now, platform, jobs: rows }, paperHeuristics());
      expect(u.shift).toBeCloseTo(0.02 * (1000 - now), 12);
      for (let i = 0; i < rows.length; i++) {
        const f = exact.weights[i] as number;
        expect(u.matrix.weights[i]).toBeGreaterThan(0);
        expect(u.matrix.weights[i]).toBeCloseTo(f + u.shift, 9);
      }
    }
  });
});

describe("PaperIncrementalMatrix's costs only (convergentPriority's ranking)", () => {
  it("equal update().costs bit for bit, along a chain, with and without an eligibility function", () => {
    fc.assert(
      fc.property(
        scenario,
        readingsArb,
        fc.boolean(),
        ([platform, jobs, events], readings, withEligibility) => {
          const make = () =>
            new PaperIncrementalMatrix({
              constants: PAPER_CONSTANTS,
              incremental: false,
              readings,
            });
          const full = make();
          const only = make();
          const eligibility = withEligibility
            ? (r: MatrixJob) => eligibilityRow(r.job, platform)
            : undefined;
          for (const step of steps(platform, jobs, events)) {
            const input = {
              ...step.input,
              ...(eligibility === undefined ? {} : { eligibility }),
            };
            const expected = Array.from(full.update(input).costs);
            const got = Array.from(only[UNCHECKED_COSTS](input));
            expect(got.length).toBe(expected.length);
            for (let i = 0; i < got.length; i++) expect(got[i]).toBe(expected[i]); // Object.is
          }
        },
      ),
      { numRuns: 150 },
    );
  });
  it("are refused by an incremental source", () => {
    const inc = new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS });
    expect(() =>
      inc[UNCHECKED_COSTS]({ now: 0, platform: { machines: [] } as unknown as Platform, jobs: [] }),
    ).toThrow(/from-scratch/);
  });
});

describe("incremental plans (IncrementalMatrix + makePlan with the change hint)", () => {
  it("are optimal for the matrix they are given, and within the tolerance bound of the from-scratch optimum", () => {
    fc.assert(
      fc.property(scenario, fc.constantFrom(0, 0.05, 0.3), ([platform, jobs, events], tol) => {
        const inc = new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS, tolerance: tol });
        let previous: Plan | undefined;
        for (const step of steps(platform, jobs, events)) {
          const u = inc.update(step.input);
          const plan = makePlan(u.matrix, {
            matcher: "imfs",
            previous:
              previous === undefined
                ? undefined
                : {
                    rowIds: previous.rowIds,
                    matching: previous.matching as ExactMatching,
                    cleared: previous.cleared,
                  },
            changedRows: u.changedRows,
            costs: u.costs,
          });
          const cols = u.matrix.cols;
          // exact for its own matrix
          const own = mfs({ rows: u.matrix.rows, cols, weights: plan.weights });
          expect(plan.matching.size).toBe(own.size);
          expect(plan.matching.weight).toBeCloseTo(own.weight, 6);
          // against the from-scratch P (same rows cleared): same size, weight within the bound
          const exact = buildMatrix(step.input, paperHeuristics());
          const truth = Float64Array.from(exact.weights);
          const cleared = new Set(plan.cleared);
          plan.rowIds.forEach((id, i) => {
            if (cleared.has(id)) truth.fill(0, i * cols, (i + 1) * cols);
          });
          const best = mfs({ rows: exact.rows, cols, weights: truth });
          let got = 0;
          plan.rowToCol.forEach((m, i) => {
            if (m >= 0) {
              expect(truth[i * cols + m]).toBeGreaterThan(0);
              got += truth[i * cols + m] as number;
            }
          });
          expect(plan.matching.size).toBe(best.size);
          expect(got).toBeGreaterThanOrEqual(
            ((1 - tol) / (1 + tol)) * best.weight - 1e-6 * (1 + best.weight),
          );
          previous = plan;
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe("row kernels", () => {
  it("buildMatrix row by row equals the heuristics applied one after the other, bit for bit", () => {
    fc.assert(
      fc.property(scenario, ([platform, jobs, events]) => {
        for (const step of steps(platform, jobs, events)) {
          const { input } = step;
          const byRows = buildMatrix(input, paperHeuristics({ overhead: 800 }));
          // the same heuristics without their row kernels: buildMatrix falls back to apply
          const applyOnly = paperHeuristics({ overhead: 800 }).map((h) => ({
            name: h.name,
            apply: h.apply.bind(h),
          }));
          const byApply = buildMatrix(input, applyOnly);
          expect(Array.from(byRows.weights)).toEqual(Array.from(byApply.weights));
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("incremental options", () => {
  it("rejects a bad refresh tolerance, naming it", () => {
    expect(() => convergent({ refreshTolerance: -1 })).toThrow(InvalidInputError);
    expect(() => convergent({ refreshTolerance: Number.NaN })).toThrow(/options.refreshTolerance/);
    const heuristics = paperHeuristics();
    expect(
      () => new IncrementalMatrix({ heuristics, tolerance: Number.POSITIVE_INFINITY }),
    ).toThrow(/options.tolerance/);
    expect(() => new IncrementalMatrix({ heuristics, horizon: 0 })).toThrow(/options.horizon/);
  });
  it("counts the rows handed to the matching as changed (incremental variants only)", () => {
    const { platform, jobs } = convergentWorkload({ seed: 5, jobs: 60, machines: 12, licenses: 4 });
    const ip = convergentVariant("CS_ip");
    const nip = convergentVariant("CS_nip");
    simulate(jobs, platform, ip);
    simulate(jobs, platform, nip);
    expect(ip.stats.refreshedRows).toBeGreaterThan(0);
    expect(ip.stats.refreshedRows).toBeLessThan(ip.stats.plans * ip.stats.maxRows);
    expect(nip.stats.refreshedRows).toBe(0);
  });
});

describe("PaperIncrementalMatrix's floor under its shift", () => {
  it("floors an entry whose value is negative at shift + 1e-9, as the from-scratch matrix floors it at 1e-9", () => {
    // Input -5 on a job with no input data: base 1 - 5 + aging is negative on both machines.
    const platform = createPlatform({ machines: [{}, {}] });
    const constants = { ...PAPER_CONSTANTS, input: -5 };
    const input = {
      now: 10,
      platform,
      jobs: [
        { job: createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }), progress: 0, machine: -1 },
      ],
    };
    const inc = new PaperIncrementalMatrix({ constants, tolerance: 0 }).update(input);
    const fresh = new PaperIncrementalMatrix({ constants, incremental: false }).update(input);
    expect(inc.shift).toBeGreaterThan(100);
    expect(Array.from(fresh.matrix.weights)).toEqual([1e-9, 1e-9]);
    for (const x of inc.matrix.weights) expect(x - inc.shift).toBeCloseTo(1e-9, 9);
    expect(inc.costs[0]).toBeCloseTo(1e-9, 9);
  });
});
