import { InvalidInputError, validateJobs } from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ELO_JOB_SETS, ELO_MACHINES, eloWorkload } from "../src/elo.js";
import { ks1, mean } from "./stats.js";

describe("eloWorkload", () => {
  it("builds every experiment's shape: 30 or 60 machines, sets of 10 to 60 jobs at time 0", () => {
    for (const machines of ELO_MACHINES) {
      for (const jobs of ELO_JOB_SETS) {
        const w = eloWorkload({ machines, jobs, seed: 1 });
        expect(w.platform.machines).toHaveLength(machines);
        expect(w.jobs).toHaveLength(jobs);
        expect(validateJobs(w.jobs)).toEqual(w.jobs);
        expect(w.jobs.every((j) => j.submit === 0 && j.cores === 1)).toBe(true);
      }
    }
  });

  it("draws machine speeds uniformly in [5, 9] Mflops", () => {
    const speeds = eloWorkload({ machines: 3000, seed: 2 }).platform.machines.map((m) => m.speed);
    expect(Math.min(...speeds)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(9);
    expect(ks1(speeds, (x) => (x - 5) / 4)).toBeLessThan(1.949 / Math.sqrt(3000));
  });

  it("draws uniform sizes in [1e3, 9e9] operations by default; run time = operations / 1e6 s", () => {
    const w = eloWorkload({ jobs: 20_000, seed: 3 });
    expect(ks1(w.operations, (x) => (x - 1e3) / (9e9 - 1e3))).toBeLessThan(
      1.949 / Math.sqrt(20_000),
    );
    w.jobs.forEach((j, i) => {
      expect(j.runtime).toBeCloseTo(w.operations[i]! / 1e6, 9);
    });
  });

  it("draws log-uniform sizes in [1e3, 9e9] operations with sizes: log-uniform", () => {
    const w = eloWorkload({ jobs: 20_000, seed: 3, sizes: "log-uniform" });
    const lo = Math.log(1e3);
    const hi = Math.log(9e9);
    const logs = w.operations.map(Math.log);
    expect(Math.min(...w.operations)).toBeGreaterThanOrEqual(1e3);
    expect(Math.max(...w.operations)).toBeLessThanOrEqual(9e9);
    expect(ks1(logs, (x) => (x - lo) / (hi - lo))).toBeLessThan(1.949 / Math.sqrt(20_000));
    w.jobs.forEach((j, i) => {
      expect(j.runtime).toBeCloseTo(w.operations[i]! / 1e6, 9);
    });
  });

  it("keeps log-uniform sizes inside operations, ends included, where exp(log(x)) misses x by an ulp", () => {
    // exp(log(1e3)) is 999.9999999999998 and exp(log(9e9)) is 9000000000.000015.
    for (const x of [1e3, 9e9]) {
      const w = eloWorkload({ jobs: 3, seed: 1, sizes: "log-uniform", operations: [x, x] });
      expect(w.operations).toEqual([x, x, x]);
      expect(w.jobs.map((j) => j.runtime)).toEqual([x / 1e6, x / 1e6, x / 1e6]);
    }
    fc.assert(
      fc.property(
        fc.double({ min: 1e-3, max: 1e12, noNaN: true }),
        fc.double({ min: 1, max: 1 + 1e-9, noNaN: true }),
        fc.nat(1000),
        (lo, stretch, seed) => {
          const hi = lo * stretch;
          const w = eloWorkload({ jobs: 50, seed, sizes: "log-uniform", operations: [lo, hi] });
          for (const o of w.operations) {
            expect(o).toBeGreaterThanOrEqual(lo);
            expect(o).toBeLessThanOrEqual(hi);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("gives level 1 to the largest fifth (in log size) and 5 to the smallest, ~20% each", () => {
    const w = eloWorkload({ jobs: 20_000, seed: 4, sizes: "log-uniform" });
    const counts = [0, 0, 0, 0, 0, 0];
    for (const l of w.levels) counts[l]!++;
    for (let l = 1; l <= 5; l++) {
      // binomial(20000, 0.2): sd 57
      expect(Math.abs(counts[l]! - 4000)).toBeLessThan(5 * 57);
    }
    // levels never increase with size
    const order = w.operations
      .map((o, i) => [o, w.levels[i]!] as const)
      .sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < order.length; i++)
      expect(order[i]![1]).toBeLessThanOrEqual(order[i - 1]![1]);
    expect(mean(w.levels)).toBeCloseTo(3, 1);
  });

  it("pins machine 0 at the top speed only when asked, leaving the other machines alone", () => {
    const a = eloWorkload({ machines: 30, seed: 5 }).platform.machines.map((m) => m.speed);
    const b = eloWorkload({ machines: 30, seed: 5, pinFastest: true }).platform.machines.map(
      (m) => m.speed,
    );
    expect(a[0]).toBeLessThan(9);
    expect(b[0]).toBe(9);
    expect(b.slice(1)).toEqual(a.slice(1));
  });

  it("submits a stream at the offered load: mean work / (machines x mean speed x span) ~ load", () => {
    const w = eloWorkload({ jobs: 20_000, machines: 30, load: 0.7, seed: 6 });
    const span = w.jobs.at(-1)!.submit;
    const work = w.operations.reduce((s, o) => s + o / 1e6, 0);
    expect(work / (30 * 7 * span)).toBeCloseTo(0.7, 1);
    // the load only moves arrivals: sizes are those of the batch
    expect(w.operations).toEqual(eloWorkload({ jobs: 20_000, machines: 30, seed: 6 }).operations);
  });

  it("is its documented draws: a uniform speed per machine (elo/machines), a size per job (elo/jobs), an exponential gap per job after the first (elo/arrivals)", () => {
    for (const sizes of ["uniform", "log-uniform"] as const) {
      for (const load of [0, 0.8]) {
        const [lo, hi] = [2e3, 5e8];
        const w = eloWorkload({
          jobs: 40,
          machines: 7,
          speedMflops: [4, 10],
          operations: [lo, hi],
          sizes,
          load,
          seed: -3,
        });
        const m = new Random(-3, "elo/machines");
        expect(w.platform.machines.map((x) => x.speed)).toEqual(
          Array.from({ length: 7 }, () => m.uniform(4, 10)),
        );
        const j = new Random(-3, "elo/jobs");
        const ops = Array.from({ length: 40 }, () =>
          sizes === "uniform" ? j.uniform(lo, hi) : Math.exp(j.uniform(Math.log(lo), Math.log(hi))),
        );
        expect(w.operations).toEqual(ops);
        expect(w.jobs.map((x) => x.runtime)).toEqual(ops.map((o) => o / 1e6));
        // The mean size of the distribution: (lo + hi) / 2, or (hi - lo) / ln(hi / lo) for the
        // log-uniform; the mean speed (4 + 10) / 2 = 7 Mflops.
        const meanOps = sizes === "uniform" ? (lo + hi) / 2 : (hi - lo) / Math.log(hi / lo);
        const a = new Random(-3, "elo/arrivals");
        let t = 0;
        const submits = ops.map((_, i) => {
          if (load > 0 && i > 0) t += a.exponential(meanOps / 1e6 / (7 * ((4 + 10) / 2) * load));
          return t;
        });
        expect(w.jobs.map((x) => x.submit)).toEqual(submits);
        expect(w.jobs[0]!.submit).toBe(0);
      }
    }
  });

  it("submits a log-uniform stream at the offered load too (mean size (hi - lo) / ln(hi / lo))", () => {
    const w = eloWorkload({ jobs: 20_000, machines: 30, load: 0.7, sizes: "log-uniform", seed: 6 });
    const span = w.jobs.at(-1)!.submit;
    const work = w.operations.reduce((s, o) => s + o / 1e6, 0);
    // the work's relative standard error is about 2.6 / sqrt(20,000) = 1.9%
    expect(work / (30 * 7 * span)).toBeCloseTo(0.7, 1);
  });

  it("gives every job a level in 1..levels, even on a range of two adjacent doubles (sizes at its top end)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-300, max: 1e300, noNaN: true }),
        fc.constantFrom(1, 1 + 2 ** -52, 1 + 1e-15, 1.5, 1e6),
        fc.constantFrom("uniform", "log-uniform") as fc.Arbitrary<"uniform" | "log-uniform">,
        fc.integer({ min: 1, max: 7 }),
        fc.integer(),
        (lo, w, sizes, levels, seed) => {
          const hi = lo * w;
          fc.pre(Number.isFinite(hi));
          const e = eloWorkload({ jobs: 60, operations: [lo, hi], sizes, levels, seed });
          for (const l of e.levels) expect(l >= 1 && l <= levels && Number.isInteger(l)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    const adjacent = eloWorkload({ jobs: 200, operations: [1, 1 + 2 ** -52], seed: 1 });
    // about half the sizes round to the top: the largest level (1)
    expect(adjacent.operations.filter((o) => o === 1 + 2 ** -52).length).toBeGreaterThan(50);
    expect(new Set(adjacent.levels)).toEqual(new Set([1, 5]));
  });

  it("names the option that is out of range", () => {
    expect(() => eloWorkload({ load: -1 })).toThrow("options.load is -1");
    expect(() => eloWorkload({ sizes: "normal" as "uniform" })).toThrow("options.sizes");
    expect(() => eloWorkload({ levels: 0 })).toThrow(InvalidInputError);
    expect(() => eloWorkload({ operations: [9e9, 1e3] })).toThrow(
      "@sched/workload/eloWorkload: options.operations is [9000000000,1000], expected [lo, hi] with finite",
    );
  });
});
