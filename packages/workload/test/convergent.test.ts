import { InvalidInputError, type Job, type Platform, validateJobs } from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CONVERGENT_MKP_LICENSE_RATIOS,
  CONVERGENT_MKP_STUDY,
  convergentWorkload,
} from "../src/convergent.js";
import { diffs, ks1, mean } from "./stats.js";

/** A machine exists with enough cores that can use every license the job needs. */
function feasible(job: Job, platform: Platform): boolean {
  const needs = Object.keys(job.licenses ?? {});
  return platform.machines.some(
    (m) =>
      m.cores >= job.cores &&
      needs.every((name) => {
        const l = platform.licenses.find((x) => x.name === name)!;
        return l.machines === undefined || l.machines.includes(m.id);
      }),
  );
}

/** |observed - expected| within 5 standard errors of a mean of n draws of variance v. */
function near(observed: number, expected: number, v: number, n: number) {
  expect(Math.abs(observed - expected)).toBeLessThan(5 * Math.sqrt(v / n));
}

describe("convergentWorkload (defaults: 150 machines, 20 licenses, 1500 jobs)", () => {
  const { platform, jobs } = convergentWorkload({ seed: 1 });
  const uVar = (lo: number, hi: number) => (hi - lo) ** 2 / 12;

  it("has the paper's sizes and valid jobs, each runnable on some machine", () => {
    expect(platform.machines).toHaveLength(150);
    expect(platform.licenses).toHaveLength(20);
    expect(jobs).toHaveLength(1500);
    expect(validateJobs(jobs)).toEqual(jobs);
    for (const j of jobs) expect(feasible(j, platform)).toBe(true);
  });

  it("draws machine CPUs in 1..8 and benchmarks in [200, 600] uniformly", () => {
    const cores = platform.machines.map((m) => m.cores);
    expect(Math.min(...cores)).toBe(1);
    expect(Math.max(...cores)).toBe(8);
    near(mean(cores), 4.5, (64 - 1) / 12, 150);
    const speeds = platform.machines.map((m) => m.speed);
    expect(Math.min(...speeds)).toBeGreaterThanOrEqual(200);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(600);
    near(mean(speeds), 400, uVar(200, 600), 150);
  });

  it("sets the platform's referenceSpeed to the middle of the benchmark range (README)", () => {
    expect(platform.referenceSpeed).toBe(400);
    expect(
      convergentWorkload({ seed: 1, jobs: 3, benchmark: [100, 700.5] }).platform.referenceSpeed,
    ).toBe(400.25);
  });

  it("makes licenses usable on ~90% of machines, with 55-65% of them as copies", () => {
    for (const l of platform.licenses) {
      expect(l.kind).toBe("floating");
      const usable = l.machines!.length;
      // binomial(150, 0.9): mean 135, sd 3.7
      expect(Math.abs(usable - 135)).toBeLessThan(5 * 3.7);
      expect(l.copies / usable).toBeGreaterThanOrEqual(0.55 - 0.5 / usable);
      expect(l.copies / usable).toBeLessThanOrEqual(0.65 + 0.5 / usable);
    }
  });

  it("draws job attributes from the stated uniform ranges", () => {
    const est = jobs.map((j) => j.estimate);
    expect(Math.min(...est)).toBeGreaterThanOrEqual(500);
    expect(Math.max(...est)).toBeLessThanOrEqual(3000);
    near(mean(est), 1750, uVar(500, 3000), 1500);
    expect(jobs.every((j) => j.runtime === j.estimate)).toBe(true);
    near(mean(jobs.map((j) => j.cores)), 4.5, 63 / 12, 1500);
    near(mean(jobs.map((j) => j.benchmark!)), 400, uVar(200, 600), 1500);
    const input = jobs.map((j) => j.input![0]!.size / 1e6);
    expect(Math.min(...input)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...input)).toBeLessThanOrEqual(800);
    near(mean(input), 450, uVar(100, 800), 1500);
  });

  it("leaves ~30% of jobs without a deadline; the others get 25-150% slack over the estimate", () => {
    const withDl = jobs.filter((j) => j.deadline !== undefined);
    near(1 - withDl.length / 1500, 0.3, 0.21, 1500);
    const slack = withDl.map((j) => ((j.deadline! - j.submit) / j.estimate - 1) * 100);
    expect(Math.min(...slack)).toBeGreaterThanOrEqual(25 - 1e-9);
    expect(Math.max(...slack)).toBeLessThanOrEqual(150 + 1e-9);
    near(mean(slack), 87.5, uVar(25, 150), withDl.length);
  });

  it("has each job need each license with probability ~0.2", () => {
    const perJob = jobs.map((j) => Object.keys(j.licenses ?? {}).length);
    // binomial(20, 0.2) per job: mean 4, variance 3.2 (redraws for infeasible sets are rare)
    near(mean(perJob), 4, 3.2, 1500);
    expect(jobs.every((j) => Object.values(j.licenses ?? {}).every((c) => c === 1))).toBe(true);
  });

  it("draws input machines and license needs over all of them, the last ones included", () => {
    // 1,500 uniform draws over 150 machines miss a given one with probability 0.99333^1500
    // (about 4e-5), and each of the 20 licenses is needed by about 300 jobs: a draw that skips
    // the last machine or the last license is seen at once.
    const holders = new Set(jobs.map((j) => j.input![0]!.machine));
    expect(holders.size).toBe(150);
    const needed = new Set(jobs.flatMap((j) => Object.keys(j.licenses ?? {})));
    expect([...needed].sort()).toEqual(platform.licenses.map((l) => l.name).sort());
  });

  it("spaces arrivals exponentially with mean 10 (KS against the exponential CDF, 0.1%)", () => {
    const gaps = diffs([0, ...jobs.map((j) => j.submit)]);
    near(mean(gaps), 10, 100, 1500);
    expect(ks1(gaps, (x) => 1 - Math.exp(-x / 10))).toBeLessThan(1.949 / Math.sqrt(1500));
  });
});

describe("convergentWorkload options", () => {
  it("reproduces the MKP study's sizes and license-ratio bins", () => {
    for (const ratio of CONVERGENT_MKP_LICENSE_RATIOS) {
      const w = convergentWorkload({ ...CONVERGENT_MKP_STUDY, licenseRatio: ratio, seed: 2 });
      expect([w.platform.machines.length, w.platform.licenses.length, w.jobs.length]).toEqual([
        100, 40, 1000,
      ]);
      for (const l of w.platform.licenses) {
        const n = l.machines!.length;
        expect(l.copies).toBeGreaterThanOrEqual(Math.round(ratio[0] * n));
        expect(l.copies).toBeLessThanOrEqual(Math.round(ratio[1] * n));
      }
    }
  });

  it("reads the deadline range three ways, from the same draws (deadlineReading)", () => {
    const o = { jobs: 200, machines: 20, seed: 7 };
    const percent = convergentWorkload(o).jobs;
    const seconds = convergentWorkload({ ...o, deadlineReading: "slack-seconds" }).jobs;
    const of = convergentWorkload({ ...o, deadlineReading: "percent-of-estimate" }).jobs;
    let dated = 0;
    for (let i = 0; i < percent.length; i++) {
      const [p, s, f] = [percent[i]!, seconds[i]!, of[i]!];
      // Everything but the deadline is the same job.
      expect({ ...s, deadline: p.deadline }).toEqual(p);
      expect({ ...f, deadline: p.deadline }).toEqual(p);
      if (p.deadline === undefined) {
        expect([s.deadline, f.deadline]).toEqual([undefined, undefined]);
        continue;
      }
      dated++;
      // The one slack drawn: percent over the estimate, seconds over it, or percent of it.
      const slack = ((p.deadline - p.submit) / p.estimate - 1) * 100;
      expect(s.deadline! - s.submit - s.estimate).toBeCloseTo(slack, 6);
      expect(((f.deadline! - f.submit) / f.estimate) * 100).toBeCloseTo(slack, 6);
      expect(slack).toBeGreaterThanOrEqual(25 - 1e-9);
      expect(slack).toBeLessThanOrEqual(150 + 1e-9);
    }
    expect(dated).toBeGreaterThan(100);
    expect(() => convergentWorkload({ deadlineReading: "absolute" as "slack-seconds" })).toThrow(
      '@sched/workload/convergentWorkload: options.deadlineReading is "absolute", expected one of "slack-percent", "slack-seconds", "percent-of-estimate"',
    );
  });

  it("is deterministic per seed", () => {
    expect(convergentWorkload({ jobs: 50, machines: 10, seed: 3 })).toEqual(
      convergentWorkload({ jobs: 50, machines: 10, seed: 3 }),
    );
    expect(convergentWorkload({ jobs: 50, machines: 10, seed: 3 }).jobs).not.toEqual(
      convergentWorkload({ jobs: 50, machines: 10, seed: 4 }).jobs,
    );
  });

  it("every generated job can run on the platform it was generated for (property)", () => {
    fc.assert(
      fc.property(
        fc.record({
          jobs: fc.integer({ min: 0, max: 40 }),
          machines: fc.integer({ min: 1, max: 12 }),
          licenses: fc.integer({ min: 0, max: 8 }),
          licenseSuitability: fc.double({ min: 0.05, max: 1, noNaN: true }),
          licenseNeed: fc.double({ min: 0, max: 0.6, noNaN: true }),
          seed: fc.integer(),
        }),
        (o) => {
          const { platform, jobs } = convergentWorkload(o);
          expect(validateJobs(jobs)).toEqual(jobs);
          for (const j of jobs) expect(feasible(j, platform)).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("gives a license no machine drew one machine (licenseSuitability 0), so every job still runs", () => {
    const { platform, jobs } = convergentWorkload({
      jobs: 30,
      machines: 4,
      licenses: 3,
      licenseSuitability: 0,
      licenseNeed: 0.5,
      seed: 2,
    });
    for (const l of platform.licenses) {
      expect(l.machines).toHaveLength(1);
      expect(l.copies).toBe(1);
    }
    expect(jobs.some((j) => j.licenses !== undefined)).toBe(true);
    for (const j of jobs) expect(feasible(j, platform)).toBe(true);
  });

  it("draws each job's values from its named streams in the documented order (rebuilt exactly)", () => {
    // Without licenses and with one core, a job's draws are: cores, estimate, benchmark, input
    // size, input machine, deadline slack, then whether it has a deadline; arrivals have their
    // own stream. Every job draws its slack, with a deadline or not.
    for (const seed of [0, 7, -3]) {
      const { jobs } = convergentWorkload({
        jobs: 40,
        machines: 3,
        licenses: 0,
        cpus: [1, 1],
        seed,
      });
      const j = new Random(seed, "convergent/jobs");
      const a = new Random(seed, "convergent/arrivals");
      let t = 0;
      const want = jobs.map((_, id) => {
        t += a.exponential(10);
        const cores = j.integer(1, 1);
        const estimate = j.uniform(500, 3000);
        const benchmark = j.uniform(200, 600);
        const size = Math.round(j.uniform(100, 800) * 1e6);
        const machine = j.integer(0, 2);
        const slack = j.uniform(25, 150);
        const job: Record<string, unknown> = {
          id,
          submit: t,
          runtime: estimate,
          estimate,
          cores,
          benchmark,
          input: [{ size, machine }],
        };
        if (j.next() >= 0.3) job.deadline = t + estimate * (1 + slack / 100);
        return job;
      });
      expect(jobs).toEqual(want);
      expect(jobs.some((x) => x.deadline === undefined)).toBe(true);
    }
  });

  it("names the option that is out of range", () => {
    const cases: [Parameters<typeof convergentWorkload>[0], string][] = [
      [{ jobs: -1 }, "options.jobs is -1, expected an integer >= 0"],
      [{ machines: 0 }, "options.machines is 0, expected an integer >= 1"],
      [{ meanInterArrival: 0 }, "options.meanInterArrival is 0, expected a finite number > 0"],
      [
        { estimated: [3000, 500] },
        "options.estimated is [3000,500], expected [lo, hi] with finite",
      ],
      [{ cpus: [1.5, 8] }, "options.cpus[0] is 1.5, expected an integer >= 1"],
      [
        { estimated: [0, 10] },
        "options.estimated is [0,10], expected [lo, hi] with finite 5e-324 <= lo <= hi",
      ],
      [{ licenseNeed: 2 }, "options.licenseNeed is 2, expected a probability in [0, 1]"],
      [
        { licenseRatio: [0.5, 1.5] },
        "options.licenseRatio[1] is 1.5, expected a probability in [0, 1]",
      ],
    ];
    for (const [o, message] of cases) {
      expect(() => convergentWorkload(o)).toThrow(InvalidInputError);
      expect(() => convergentWorkload(o)).toThrow(`@sched/workload/convergentWorkload: ${message}`);
    }
  });
});
