import { createJob, createPlatform, type Job, type LicenseSpec, type Platform } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { antiAgingHeuristic } from "../src/anti-aging.js";
import { deadlineHeuristic } from "../src/deadline.js";
import type { Heuristic, MatrixJob } from "../src/heuristic.js";
import { inputHeuristic } from "../src/input.js";
import { licensesHeuristic } from "../src/licenses.js";
import { buildMatrix, type MatrixInput } from "../src/matrix.js";
import { minimalRequirementsHeuristic } from "../src/minimal-requirements.js";
import { overheadHeuristic } from "../src/overhead.js";
import {
  type HeuristicConstants,
  type HeuristicReadings,
  PAPER_CONSTANTS,
  paperHeuristics,
} from "../src/paper-heuristics.js";
import { PaperIncrementalMatrix } from "../src/paper-incremental.js";
import { waitMinimizationHeuristic } from "../src/wait-minimization.js";

// The seven heuristics exist twice: one file each (what `paperHeuristics` returns and
// `buildMatrix` sums), and fused into one pass per row in paper-incremental.ts (what the
// scheduler runs). These properties hold the two together, heuristic by heuristic, on random
// farms (clusters with uplinks, floating and node-locked licenses, speeds) and random jobs
// (deadlines met, tight and missed, license requests, input data, progress, running and
// previously planned machines): the fused matrix equals the per-heuristic sum up to rounding.
// A constant changed in either copy (a default weight, a formula's coefficient) breaks one.

const stateArb = fc
  .record({
    machines: fc.array(
      fc.record({
        cores: fc.integer({ min: 1, max: 8 }),
        speed: fc.integer({ min: 1, max: 6 }),
        cluster: fc.integer({ min: 0, max: 2 }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    bandwidths: fc.tuple(
      fc.integer({ min: 1, max: 1000 }),
      fc.integer({ min: 1, max: 1000 }),
      fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
    ),
    floating: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 2 }),
    locked: fc.array(fc.integer({ min: 1, max: 2 }), { maxLength: 2 }),
  })
  .chain(({ machines, bandwidths, floating, locked }) => {
    const n = machines.length;
    const licenses: LicenseSpec[] = [
      ...floating.map((copies, i): LicenseSpec => ({ name: `f${i}`, kind: "floating", copies })),
      ...locked.map(
        (copies, i): LicenseSpec => ({
          name: `l${i}`,
          kind: "node-locked",
          copies,
          machines: Array.from({ length: n }, (_, m) => m).filter((m) => (m + i) % 2 === 0),
        }),
      ),
    ];
    const platform = createPlatform({
      machines,
      clusters: [{ link: 0 }, { link: 1 }, bandwidths[2] === undefined ? {} : { link: 2 }],
      links: bandwidths.flatMap((b) => (b === undefined ? [] : [{ bandwidth: b }])),
      licenses,
      referenceSpeed: 3,
    });
    const names = licenses.map((l) => l.name);
    const job = fc.record({
      submit: fc.integer({ min: 0, max: 500 }),
      estimate: fc.integer({ min: 1, max: 2000 }),
      cores: fc.integer({ min: 1, max: 8 }),
      benchmark: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
      slack: fc.option(fc.double({ min: -0.5, max: 4, noNaN: true }), { nil: undefined }),
      licenses: fc.array(
        fc.record({
          name: fc.constantFrom(...(names.length > 0 ? names : ["none"])),
          n: fc.integer({ min: 1, max: 2 }),
        }),
        { maxLength: 2 },
      ),
      input: fc.array(
        fc.record({ size: fc.integer({ min: 0, max: 100000 }), machine: fc.nat({ max: n - 1 }) }),
        { maxLength: 3 },
      ),
      progress: fc.constantFrom(0, 0, 0.3, 0.75),
      running: fc.boolean(),
      previous: fc.option(fc.nat({ max: n - 1 }), { nil: undefined }),
    });
    return fc.tuple(
      fc.constant(platform),
      fc.array(job, { minLength: 1, maxLength: 10 }),
      fc.integer({ min: 0, max: 3000 }),
    );
  })
  .map(([platform, specs, later]) => {
    const now = Math.max(...specs.map((s) => s.submit)) + later;
    const used = new Set<number>();
    const rows: MatrixJob[] = [];
    const previous: number[] = [];
    specs.forEach((s, id) => {
      const licenses: Record<string, number> = {};
      for (const l of s.licenses) if (l.name !== "none") licenses[l.name] = l.n;
      const job: Job = createJob({
        id,
        submit: s.submit,
        runtime: s.estimate,
        cores: s.cores,
        ...(s.benchmark === undefined ? {} : { benchmark: s.benchmark }),
        ...(s.slack === undefined ? {} : { deadline: now + Math.round(s.slack * s.estimate) }),
        ...(Object.keys(licenses).length === 0 ? {} : { licenses }),
        ...(s.input.length === 0 ? {} : { input: s.input }),
      });
      const m = s.previous ?? -1;
      const machine = s.running && m >= 0 && !used.has(m) ? m : -1;
      if (machine >= 0) used.add(machine);
      rows.push({ job, progress: s.progress, machine });
      previous.push(machine >= 0 ? machine : m);
    });
    return { now, platform, jobs: rows, previous: Int32Array.from(previous) };
  });

/**
 * A hand-built state where every heuristic is active: deadlines met, tight (on the line of
 * `f1`) and missed, a critical floating license, a node-locked one, input data across
 * clusters, a running job with progress, a previously planned machine, different ages. Checked
 * at every run beside the random states, so a changed constant is always caught.
 */
const RICH: MatrixInput & { platform: Platform } = (() => {
  const platform = createPlatform({
    machines: [
      { cores: 4, speed: 1, cluster: 0 },
      { cores: 4, speed: 2, cluster: 0 },
      { cores: 2, speed: 4, cluster: 1 },
    ],
    clusters: [{ link: 0 }, { link: 1 }],
    links: [{ bandwidth: 100 }, { bandwidth: 40 }],
    licenses: [
      { name: "f0", kind: "floating", copies: 1 },
      { name: "l0", kind: "node-locked", copies: 1, machines: [0, 1] },
    ],
    referenceSpeed: 2,
  });
  const now = 50;
  const jobs = [
    // Nxtime 200, 100, 50: late on m0, on f1's line on m1, at Min on m2
    createJob({ id: 0, submit: 0, runtime: 100, cores: 1, deadline: now + 150 }),
    createJob({
      id: 1,
      submit: 5,
      runtime: 80,
      cores: 2,
      licenses: { f0: 1 },
      input: [{ size: 1000, machine: 0 }],
    }),
    createJob({
      id: 2,
      submit: 10,
      runtime: 60,
      cores: 1,
      licenses: { f0: 1, l0: 1 },
      input: [{ size: 300, machine: 2 }],
    }),
    createJob({ id: 3, submit: 20, runtime: 40, cores: 1, deadline: now + 1 }),
    createJob({ id: 4, submit: 30, runtime: 40, cores: 1, deadline: now + 10000 }),
  ];
  return {
    now,
    platform,
    jobs: [
      { job: jobs[0] as Job, progress: 0, machine: -1 },
      { job: jobs[1] as Job, progress: 0.4, machine: 1 },
      { job: jobs[2] as Job, progress: 0, machine: -1 },
      { job: jobs[3] as Job, progress: 0, machine: -1 },
      { job: jobs[4] as Job, progress: 0, machine: -1 },
    ],
    previous: Int32Array.from([-1, 1, 0, 2, -1]),
  };
})();

const readingsArb: fc.Arbitrary<Required<HeuristicReadings>> = fc.record({
  deadlineLate: fc.constantFrom("max" as const, "min" as const),
  deadlineAllLate: fc.constantFrom("max" as const, "zero" as const),
  waitSup: fc.constantFrom("global" as const, "row" as const),
});

const weight = fc.double({ min: -2, max: 12, noNaN: true });

/** The fused matrix (from scratch) against `buildMatrix` over `heuristics`, entry by entry. */
function expectSame(
  input: MatrixInput & { platform: Platform },
  constants: Required<HeuristicConstants>,
  readings: Required<HeuristicReadings>,
  heuristics: readonly Heuristic[],
): void {
  const fused = new PaperIncrementalMatrix({ constants, readings, incremental: false }).update(
    input,
  ).matrix.weights;
  const sum = buildMatrix(input, heuristics).weights;
  expect(fused.length).toBe(sum.length);
  for (let k = 0; k < sum.length; k++) {
    const a = fused[k] as number;
    const b = sum[k] as number;
    if (b === 0) expect(a).toBe(0);
    else expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * (1 + Math.abs(b)));
  }
}

/** Every heuristic off but the minimal requirements' base. */
const OFF: Required<HeuristicConstants> = {
  base: 1,
  deadlineMax: 0,
  deadlineMin: 0,
  deadlineK: PAPER_CONSTANTS.deadlineK,
  licenses: 0,
  input: 0,
  waitMinimization: 0,
  overhead: 0,
  antiAging: 0,
};

/**
 * Each heuristic alone (beside the base): its fused constants from a weight `w` (and the
 * deadline's min, k), and the same heuristic from its own file, given those or left at its
 * defaults (`undefined`: the defaults must then be the paper's constants).
 */
const ALONE: readonly [
  string,
  (w: number, min: number, k: number) => Partial<HeuristicConstants>,
  (
    given: { w: number; min: number; k: number } | undefined,
    r: Required<HeuristicReadings>,
  ) => Heuristic,
][] = [
  [
    "deadline",
    (w, min, k) => ({ deadlineMax: w + min, deadlineMin: min, deadlineK: k }),
    (g, r) =>
      deadlineHeuristic({
        ...(g === undefined ? {} : { max: g.w + g.min, min: g.min, k: g.k }),
        late: r.deadlineLate,
        allLate: r.deadlineAllLate,
      }),
  ],
  [
    "licenses",
    (w) => ({ licenses: w }),
    (g) => licensesHeuristic(g === undefined ? {} : { weight: g.w }),
  ],
  ["input", (w) => ({ input: w }), (g) => inputHeuristic(g === undefined ? {} : { weight: g.w })],
  [
    "wait minimization",
    (w) => ({ waitMinimization: w }),
    (g, r) =>
      waitMinimizationHeuristic({ ...(g === undefined ? {} : { weight: g.w }), sup: r.waitSup }),
  ],
  [
    "overhead minimization",
    (w) => ({ overhead: w }),
    (g) => overheadHeuristic(g === undefined ? {} : { weight: g.w }),
  ],
  [
    "anti-aging",
    (w) => ({ antiAging: w / 100 }),
    (g) => antiAgingHeuristic(g === undefined ? {} : { weight: g.w / 100 }),
  ],
];

/** The paper's constants of one heuristic, as `ALONE`'s (w, min, k). */
function paperArgs(name: string): { w: number; min: number; k: number } {
  const c = PAPER_CONSTANTS;
  const w: Record<string, number> = {
    deadline: c.deadlineMax - c.deadlineMin,
    licenses: c.licenses,
    input: c.input,
    "wait minimization": c.waitMinimization,
    "overhead minimization": c.overhead,
    "anti-aging": c.antiAging * 100,
  };
  return { w: w[name] as number, min: c.deadlineMin, k: c.deadlineK };
}

describe("the fused row computation equals the seven heuristics' files", () => {
  it("minimal requirements alone: the base on every eligible entry, with its default the paper's", () => {
    fc.assert(
      fc.property(stateArb, fc.double({ min: 0.01, max: 5, noNaN: true }), (input, base) => {
        const r = { deadlineLate: "max", deadlineAllLate: "max", waitSup: "global" } as const;
        expectSame(input, { ...OFF, base }, r, [minimalRequirementsHeuristic({ base })]);
        for (const state of [input, RICH])
          expectSame(state, { ...OFF, base: PAPER_CONSTANTS.base }, r, [
            minimalRequirementsHeuristic(),
          ]);
      }),
      { numRuns: 60 },
    );
  });

  for (const [name, fusedConstants, own] of ALONE) {
    it(`${name} alone, at random constants and at the file's defaults (the paper's)`, () => {
      fc.assert(
        fc.property(
          stateArb,
          readingsArb,
          weight,
          fc.double({ min: 0, max: 2, noNaN: true }),
          fc.double({ min: 0, max: 3, noNaN: true }),
          (input, readings, w, min, k) => {
            const base = [minimalRequirementsHeuristic({ base: 1 })];
            expectSame(input, { ...OFF, ...fusedConstants(w, min, k) }, readings, [
              ...base,
              own({ w, min, k }, readings),
            ]);
            const p = paperArgs(name);
            for (const state of [input, RICH])
              expectSame(state, { ...OFF, ...fusedConstants(p.w, p.min, p.k) }, readings, [
                ...base,
                own(undefined, readings),
              ]);
            expectSame(RICH, { ...OFF, ...fusedConstants(w, min, k) }, readings, [
              ...base,
              own({ w, min, k }, readings),
            ]);
          },
        ),
        { numRuns: 60 },
      );
    });
  }

  it("all seven together, at random constants and readings: paperHeuristics(constants, readings)", () => {
    fc.assert(
      fc.property(
        stateArb,
        readingsArb,
        fc.record({
          base: fc.double({ min: 0.01, max: 5, noNaN: true }),
          deadlineMax: fc.double({ min: 0, max: 20, noNaN: true }),
          deadlineMin: fc.double({ min: 0, max: 1, noNaN: true }),
          deadlineK: fc.double({ min: 0, max: 3, noNaN: true }),
          licenses: weight,
          input: weight,
          waitMinimization: weight,
          overhead: fc.double({ min: 0, max: 1000, noNaN: true }),
          antiAging: fc.double({ min: 0, max: 0.1, noNaN: true }),
        }),
        (input, readings, constants) => {
          expectSame(input, constants, readings, paperHeuristics(constants, readings));
          expectSame(RICH, constants, readings, paperHeuristics(constants, readings));
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("the fused deadline line stays between Min and Max, as f1 does", () => {
  // On f1's line at Extime = Deadline, `a * (Extime - t) + Min` can round one ulp past Max
  // (9.9 / 144.3 * 144.3 + 0.1 = 10.000000000000002 for Nxtime 111 and k 1.3). f1 (deadline.ts)
  // clamps to the line's ends; the fused copy must too, or Max - f1, and so the machine's Δp,
  // goes negative and its entry drops below the base.
  const platform = createPlatform({
    machines: [
      { cores: 1, speed: 1 },
      { cores: 1, speed: 2 },
    ],
    referenceSpeed: 1,
  });
  const input: MatrixInput & { platform: Platform } = {
    now: 0,
    platform,
    // Nxtime 111 on machine 0 (Extime = Deadline exactly), 55.5 on machine 1 (on the line)
    jobs: [
      {
        job: createJob({ id: 0, submit: 0, runtime: 111, cores: 1, deadline: 111 }),
        progress: 0,
        machine: -1,
      },
    ],
    previous: Int32Array.from([-1]),
  };
  const deadlineOnly = { ...OFF, deadlineMax: 10, deadlineMin: 0.1, deadlineK: 1.3 };

  it("Δp of the machine where the job ends exactly at its deadline is 0, not below", () => {
    const readings = { deadlineLate: "max", deadlineAllLate: "max", waitSup: "global" } as const;
    const fused = new PaperIncrementalMatrix({
      constants: deadlineOnly,
      readings,
      incremental: false,
    }).update(input).matrix.weights;
    const plain = buildMatrix(input, [
      minimalRequirementsHeuristic({ base: 1 }),
      deadlineHeuristic({ max: 10, min: 0.1, k: 1.3 }),
    ]).weights;
    expect(plain[0]).toBe(1);
    expect(fused[0]).toBe(1);
    expect(fused[1]).toBe(plain[1]);
  });
});

describe("the fused deadline cases where equation (1) has d_i <= 0 (Max = Min, Max < Min)", () => {
  // RICH has a job at Min everywhere (4) and one late everywhere (3): the fused copy gives them
  // a constant, which must be what deadlineHeuristic's equation (1) and allLate reading give.
  it.each([
    [5, 5],
    [1, 5],
  ])("Max %d, Min %d, every reading", (max, min) => {
    for (const deadlineLate of ["max", "min"] as const)
      for (const deadlineAllLate of ["max", "zero"] as const) {
        const readings = { deadlineLate, deadlineAllLate, waitSup: "global" } as const;
        expectSame(RICH, { ...OFF, deadlineMax: max, deadlineMin: min }, readings, [
          minimalRequirementsHeuristic({ base: 1 }),
          deadlineHeuristic({ max, min, late: deadlineLate, allLate: deadlineAllLate }),
        ]);
      }
  });
});
