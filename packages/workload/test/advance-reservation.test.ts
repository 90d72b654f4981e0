import { InvalidInputError, validateJobs } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  type AdvanceReservationWorkloadOptions,
  AR_ARRIVAL_READINGS,
  AR_LANL_CM5,
  AR_LANL_CM5_ARAR,
  AR_RUNTIME_CLASSES,
  AR_RUNTIME_MAPPINGS,
  advanceReservationWorkload,
  arRuntimeClass,
} from "../src/advance-reservation.js";
import { LUBLIN_TYPELESS, lublinRecords } from "../src/lublin.js";
import { chiSquare, exactSizePmf } from "./oracles.js";
import { chiSquareQuantile, gammaCdf, mean } from "./stats.js";

describe("advanceReservationWorkload (10,000 jobs, UMed 7, {3, 3})", () => {
  const { platform, jobs } = advanceReservationWorkload({ seed: 1 });

  it("is 10,000 valid rigid jobs on a 1024-processor pool", () => {
    expect(platform.totalCores).toBe(1024);
    expect(jobs).toHaveLength(10_000);
    expect(validateJobs(jobs)).toEqual(jobs);
  });

  it("sizes are powers of two from 32 to 1024, distributed as the two-stage uniform says", () => {
    const p = { ...LUBLIN_TYPELESS, ...AR_LANL_CM5, uMed: 7 };
    const pmf = exactSizePmf(p, 1024);
    expect([...pmf.keys()].sort((a, b) => a - b)).toEqual([32, 64, 128, 256, 512, 1024]);
    const counts = new Map<number, number>();
    for (const j of jobs) counts.set(j.cores, (counts.get(j.cores) ?? 0) + 1);
    const { chi, df } = chiSquare(counts, pmf, jobs.length);
    expect(chi).toBeLessThan(chiSquareQuantile(df, 3.09));
  });

  it("run times take the six classes, as the model's run times rounded up (chi-square)", () => {
    expect(new Set(jobs.map((j) => j.runtime))).toEqual(new Set(AR_RUNTIME_CLASSES));
    // P(class <= c) = sum over sizes s of P(s) * P(g < ln(c + 1)), g the hyper-gamma for s
    const p = { ...LUBLIN_TYPELESS, ...AR_LANL_CM5, uMed: 7 };
    const sizes = exactSizePmf(p, 1024);
    const below = (c: number) => {
      let total = 0;
      for (const [s, q] of sizes) {
        const w = Math.min(1, Math.max(0, p.pa * s + p.pb));
        const x = Math.log(c + 1);
        total += q * (w * gammaCdf(p.a1, p.b1, x) + (1 - w) * gammaCdf(p.a2, p.b2, x));
      }
      return total;
    };
    const pmf = new Map<number, number>();
    let prev = 0;
    AR_RUNTIME_CLASSES.forEach((c, k) => {
      const cum = k === AR_RUNTIME_CLASSES.length - 1 ? 1 : below(c);
      pmf.set(c, cum - prev);
      prev = cum;
    });
    const counts = new Map<number, number>();
    for (const j of jobs) counts.set(j.runtime, (counts.get(j.runtime) ?? 0) + 1);
    const { chi, df } = chiSquare(counts, pmf, jobs.length);
    expect(chi).toBeLessThan(chiSquareQuantile(df, 3.09));
  });

  it("ready = submit + 3 U duration and deadline = ready + (1 + 3 U') duration", () => {
    const a = jobs.map((j) => (j.ready! - j.submit) / j.runtime);
    const d = jobs.map((j) => (j.deadline! - j.ready!) / j.runtime - 1);
    for (const x of [...a, ...d]) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(3 + 1e-9);
    }
    // U[0, 3]: mean 1.5, variance 0.75; within 5 standard errors
    expect(Math.abs(mean(a) - 1.5)).toBeLessThan(5 * Math.sqrt(0.75 / 10_000));
    expect(Math.abs(mean(d) - 1.5)).toBeLessThan(5 * Math.sqrt(0.75 / 10_000));
    expect(jobs.every((j) => j.estimate === j.runtime)).toBe(true);
  });
});

describe("advanceReservationWorkload options", () => {
  it("mean size grows with UMed from 5 to 9, as the paper relies on", () => {
    const means = [5, 6, 7, 8, 9].map((uMed) =>
      mean(advanceReservationWorkload({ jobs: 3000, uMed, seed: 2 }).jobs.map((j) => j.cores)),
    );
    for (let i = 1; i < means.length; i++) expect(means[i]!).toBeGreaterThan(means[i - 1]!);
  });

  it("arrivalFactor 2 halves the arrival times and keeps the rest", () => {
    const a = advanceReservationWorkload({ jobs: 500, seed: 3 }).jobs;
    const b = advanceReservationWorkload({ jobs: 500, seed: 3, arrivalFactor: 2 }).jobs;
    a.forEach((j, i) => {
      expect(Math.abs(b[i]!.submit - j.submit / 2)).toBeLessThanOrEqual(1);
      expect(b[i]!.cores).toBe(j.cores);
      expect(b[i]!.runtime).toBe(j.runtime);
    });
  });

  it("factors 0 make ready = submit and deadline = ready + duration", () => {
    const { jobs } = advanceReservationWorkload({ jobs: 200, artimeFactor: 0, deadlineFactor: 0 });
    for (const j of jobs) {
      expect(j.ready).toBe(j.submit);
      expect(j.deadline).toBe(j.ready! + j.runtime);
    }
  });

  it("names the option that is out of range", () => {
    const cases: [Parameters<typeof advanceReservationWorkload>[0], string][] = [
      [{ artimeFactor: -1 }, "options.artimeFactor is -1, expected a finite number >= 0"],
      [
        { runtimeClasses: [60, 30] },
        "options.runtimeClasses[1] is 30, expected finite run times > 0 in increasing order",
      ],
      [
        { runtimeClasses: [0, 60] },
        "options.runtimeClasses[0] is 0, expected finite run times > 0 in increasing order",
      ],
      [
        { runtimeClasses: [60, 60] },
        "options.runtimeClasses[1] is 60, expected finite run times > 0 in increasing order",
      ],
      [{ arrivalFactor: 0 }, "options.arrivalFactor is 0, expected a finite number > 0"],
      [{ jobs: 1.5 }, "options.jobs is 1.5, expected an integer >= 0"],
      [
        { arrivals: "lanl" as never },
        'options.arrivals is "lanl", expected "lanl-cm5-rate" or "generic"',
      ],
      [
        { runtimeMapping: "down" as never },
        'options.runtimeMapping is "down", expected one of "up", "nearest-log", "nearest"',
      ],
      [
        { runtimeMapping: 1 as never },
        'options.runtimeMapping is 1, expected one of "up", "nearest-log", "nearest"',
      ],
    ];
    for (const [o, message] of cases) {
      expect(() => advanceReservationWorkload(o)).toThrow(InvalidInputError);
      expect(() => advanceReservationWorkload(o)).toThrow(
        `@sched/workload/advanceReservationWorkload: ${message}`,
      );
    }
    // The Lublin parameters are named as this function's options, not the generator's
    // `options.typeless` that they are passed on as.
    const lublinCases: [AdvanceReservationWorkloadOptions, string][] = [
      [{ uMed: 11 }, "options.uMed is 11, expected uLow (4.5) <= uMed <= uHi (10)"],
      [{ lublin: { uMd: 5 } as never }, "options.lublin.uMd is not a Lublin parameter"],
      [{ lublin: { uHi: Number.NaN } }, "options.lublin.uHi is NaN, expected a finite number"],
      [{ lublin: { uMed: 3 } }, "options.lublin.uMed is 3, expected uLow (4.5) <= uMed"],
      [{ lublin: { a1: 0 } }, "options.lublin.a1 is 0, expected > 0"],
      [
        { lublin: { serialProb: 0.5 } },
        "options.lublin.pow2Prob (this workload's LANL-CM5 value) is 1, expected serialProb + pow2Prob <= 1",
      ],
    ];
    for (const [o, message] of lublinCases) {
      expect(() => advanceReservationWorkload(o)).toThrow(
        `@sched/workload/advanceReservationWorkload: ${message}`,
      );
    }
  });
});

describe("advanceReservationWorkload: the readings of Interpretation 15", () => {
  it("arRuntimeClass maps hand-picked run times up, to the nearest in log scale, and to the nearest", () => {
    const cases: Record<string, [number, number][]> = {
      up: [
        [1, 60],
        [60, 60],
        [61, 300],
        [300, 300],
        [301, 900],
        [3601, 10800],
        [10800, 10800],
        [50_000, 10800],
      ],
      // boundaries sqrt(60 x 300) = 134.2, 519.6, 1272.8, 2545.6, 6235.4
      "nearest-log": [
        [1, 60],
        [100, 60],
        [134, 60],
        [135, 300],
        [519, 300],
        [520, 900],
        [1272, 900],
        [1273, 1800],
        [2545, 1800],
        [2546, 3600],
        [6235, 3600],
        [6236, 10800],
        [50_000, 10800],
      ],
      // boundaries (60 + 300) / 2 = 180, 600, 1350, 2700, 7200; on a boundary, the larger class
      nearest: [
        [1, 60],
        [179, 60],
        [180, 300],
        [599, 300],
        [600, 900],
        [1349, 900],
        [1350, 1800],
        [2699, 1800],
        [2700, 3600],
        [7199, 3600],
        [7200, 10800],
        [50_000, 10800],
      ],
    };
    for (const mapping of AR_RUNTIME_MAPPINGS) {
      for (const [runtime, expected] of cases[mapping]!) {
        expect(arRuntimeClass(runtime, mapping), `${mapping} ${runtime}`).toBe(expected);
      }
    }
    // any increasing classes; one class takes everything
    expect(arRuntimeClass(15, "nearest", [10, 20])).toBe(20);
    expect(arRuntimeClass(14, "nearest-log", [10, 20])).toBe(10);
    expect(arRuntimeClass(1e6, "up", [7])).toBe(7);
  });

  it("each job's duration is its model run time mapped as runtimeMapping says; nothing else moves", () => {
    const base = { jobs: 2000, uMed: 7, seed: 4 } as const;
    const model = [
      ...lublinRecords({
        jobs: 2000,
        procs: 1024,
        seed: 4,
        jobTypes: false,
        typeless: { ...AR_LANL_CM5, uMed: 7 },
      }),
    ];
    const up = advanceReservationWorkload(base).jobs;
    const shares: Record<string, number> = {};
    for (const mapping of AR_RUNTIME_MAPPINGS) {
      const jobs = advanceReservationWorkload({ ...base, runtimeMapping: mapping }).jobs;
      jobs.forEach((j, i) => {
        expect(j.runtime).toBe(arRuntimeClass(model[i]!.runTime, mapping));
        expect(j.submit).toBe(up[i]!.submit);
        expect(j.cores).toBe(up[i]!.cores);
      });
      shares[mapping] = jobs.filter((j) => j.runtime === 10800).length / jobs.length;
    }
    // rounding up puts the most jobs in the top class, to the nearest in seconds the fewest
    expect(shares.up).toBeGreaterThan(shares["nearest-log"]!);
    expect(shares["nearest-log"]).toBeGreaterThan(shares.nearest!);
  });

  it("arrivals lanl-cm5-rate: the mean gap is LANL-CM5's 510 s (generic: ~923 s); sizes and run times stay", () => {
    const gap = (arrivals: (typeof AR_ARRIVAL_READINGS)[number], seed: number) => {
      const { jobs } = advanceReservationWorkload({ jobs: 100_000, seed, arrivals });
      return (jobs.at(-1)!.submit - jobs[0]!.submit) / (jobs.length - 1);
    };
    for (const seed of [1, 2]) {
      expect(Math.abs(gap("lanl-cm5-rate", seed) / 510.4 - 1), `seed ${seed}`).toBeLessThan(0.05);
      expect(Math.abs(gap("generic", seed) / 923 - 1), `seed ${seed}`).toBeLessThan(0.05);
    }
    const a = advanceReservationWorkload({ jobs: 500, seed: 5, arrivals: "generic" }).jobs;
    const b = advanceReservationWorkload({ jobs: 500, seed: 5, arrivals: "lanl-cm5-rate" }).jobs;
    a.forEach((j, i) => {
      expect(b[i]!.cores).toBe(j.cores);
      expect(b[i]!.runtime).toBe(j.runtime);
      expect(b[i]!.ready! - b[i]!.submit).toBeCloseTo(j.ready! - j.submit, 6);
    });
    // lublin.arar, when given, wins over the reading
    const c = advanceReservationWorkload({
      jobs: 500,
      seed: 5,
      arrivals: "lanl-cm5-rate",
      lublin: { arar: LUBLIN_TYPELESS.arar },
    }).jobs;
    expect(c).toEqual(a);
    expect(AR_LANL_CM5_ARAR).toBeLessThan(LUBLIN_TYPELESS.arar);
  });

  it("the defaults are lanl-cm5-rate arrivals and rounding up; every reading is deterministic", () => {
    const base = { jobs: 300, seed: 6 };
    expect(
      advanceReservationWorkload({ ...base, arrivals: "lanl-cm5-rate", runtimeMapping: "up" }),
    ).toEqual(advanceReservationWorkload(base));
    expect(advanceReservationWorkload({ ...base, arrivals: "generic" })).not.toEqual(
      advanceReservationWorkload(base),
    );
    for (const arrivals of AR_ARRIVAL_READINGS) {
      for (const runtimeMapping of AR_RUNTIME_MAPPINGS) {
        const o = { ...base, arrivals, runtimeMapping };
        expect(advanceReservationWorkload(o)).toEqual(advanceReservationWorkload(o));
      }
    }
  });
});
