import { InvalidInputError, validateJobs } from "@sched/core";
import { Random } from "@sched/random";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MULTICLUSTER_SPEED_SETS, multiclusterWorkload } from "../src/multicluster.js";
import { chiSquareQuantile, diffs, ks1, mean, variance } from "./stats.js";

describe("multiclusterWorkload (8 x 8 processors, demand mean 14.06, CV 3.5)", () => {
  const n = 100_000;
  const { platform, jobs } = multiclusterWorkload({ jobs: n, load: 0.5, seed: 1 });

  it("builds 8 homogeneous clusters of 8 single-core machines, each cluster on its own link", () => {
    expect(platform.machines).toHaveLength(64);
    expect(platform.clusters).toHaveLength(8);
    expect(platform.links.map((l) => l.bandwidth)).toEqual(new Array(8).fill(12_500_000));
    platform.machines.forEach((m) => {
      expect(m.cores).toBe(1);
      expect(m.speed).toBe(1);
      expect(platform.clusters[m.cluster]!.link).toBe(m.cluster);
    });
    expect(platform.referenceSpeed).toBe(1);
  });

  it("gives each cluster its speed from a named set, the slowest as the reference", () => {
    for (const name of ["heterogeneous", "clock"] as const) {
      const p = multiclusterWorkload({ jobs: 0, speeds: name }).platform;
      const set = MULTICLUSTER_SPEED_SETS[name];
      for (const m of p.machines) expect(m.speed).toBe(set[m.cluster % set.length]);
      expect(p.referenceSpeed).toBe(Math.min(...set));
    }
    const three = multiclusterWorkload({ jobs: 0, clusters: 3, speeds: "heterogeneous" });
    expect(three.platform.machines.map((m) => m.speed)).toEqual([
      ...new Array(8).fill(1),
      ...new Array(8).fill(1),
      ...new Array(8).fill(1.3),
    ]);
  });

  it("gives valid moldable jobs: 1 to maxParallelism = tasks processors, uniform on 1..64 (chi-square)", () => {
    expect(validateJobs(jobs.slice(0, 2000))).toEqual(jobs.slice(0, 2000));
    const counts = new Array<number>(65).fill(0);
    for (const j of jobs) counts[j.maxParallelism!]!++;
    expect(jobs.every((j) => j.cores === 1 && j.tasks === j.maxParallelism)).toBe(true);
    const e = n / 64;
    let chi = 0;
    for (let m = 1; m <= 64; m++) chi += (counts[m]! - e) ** 2 / e;
    expect(counts[0]).toBe(0);
    expect(chi).toBeLessThan(chiSquareQuantile(63, 3.09));
  });

  it("has total work D = runtime (on one processor) with mean 14.06 and CV 3.5", () => {
    const d = jobs.map((j) => j.runtime);
    const m = mean(d);
    expect(Math.abs(m - 14.06)).toBeLessThan((5 * 3.5 * 14.06) / Math.sqrt(n));
    // the sample CV of a hyper-exponential with CV 3.5 has a relative standard error of ~2% here
    expect(Math.abs(Math.sqrt(variance(d)) / m - 3.5)).toBeLessThan(0.35);
    expect(jobs.every((j) => j.estimate === j.runtime)).toBe(true);
  });

  it("arrives as a Poisson process at the rate of the offered load (KS against the exponential)", () => {
    const gaps = diffs([0, ...jobs.map((j) => j.submit)]);
    const meanGap = 14.06 / (0.5 * 64);
    expect(Math.abs(mean(gaps) - meanGap)).toBeLessThan((5 * meanGap) / Math.sqrt(n));
    expect(ks1(gaps, (x) => 1 - Math.exp(-x / meanGap))).toBeLessThan(1.949 / Math.sqrt(n));
  });

  it("offers the load against the capacity (total relative speed), or the processors with loadBasis", () => {
    const m = 20_000;
    const meanGapOf = (o: Parameters<typeof multiclusterWorkload>[0]) => {
      const js = multiclusterWorkload({ jobs: m, load: 0.5, seed: 2, ...o }).jobs;
      return js[js.length - 1]!.submit / m;
    };
    // heterogeneous: 8 processors per cluster at 1, 1, 1.3, 1.3, 1.7, 1.7, 2.2, 2.2: capacity 99.2
    const capacity = 8 * 2 * (1 + 1.3 + 1.7 + 2.2);
    const gap = 14.06 / (0.5 * capacity);
    expect(Math.abs(meanGapOf({ speeds: "heterogeneous" }) - gap)).toBeLessThan(
      (5 * gap) / Math.sqrt(m),
    );
    const perProcessor = 14.06 / (0.5 * 64);
    expect(
      Math.abs(meanGapOf({ speeds: "heterogeneous", loadBasis: "processors" }) - perProcessor),
    ).toBeLessThan((5 * perProcessor) / Math.sqrt(m));
  });

  it("sizes jobs uniformly in [1, 1024] KB, held on the first machine of a cluster", () => {
    const kb = jobs.map((j) => j.input![0]!.size / 1024);
    expect(Math.min(...kb)).toBeGreaterThanOrEqual(1 - 1 / 1024);
    expect(Math.max(...kb)).toBeLessThanOrEqual(1024 + 1 / 1024);
    expect(Math.abs(mean(kb) - 512.5)).toBeLessThan(5 * Math.sqrt(1023 ** 2 / 12 / n));
    expect(jobs.every((j) => j.input![0]!.machine % 8 === 0)).toBe(true);
  });
});

describe("multiclusterWorkload options", () => {
  it("every job is valid on its platform, for any shape and load (property)", () => {
    fc.assert(
      fc.property(
        fc.record({
          jobs: fc.integer({ min: 0, max: 50 }),
          processorsPerCluster: fc.integer({ min: 1, max: 16 }),
          speeds: fc.array(fc.double({ min: 0.1, max: 10, noNaN: true }), {
            minLength: 1,
            maxLength: 5,
          }),
          load: fc.double({ min: 0.05, max: 2, noNaN: true }),
          seed: fc.integer(),
        }),
        (o) => {
          const { platform, jobs } = multiclusterWorkload({ ...o, maxParallelism: [1, 4] });
          expect(validateJobs(jobs)).toEqual(jobs);
          for (const j of jobs) expect(j.input![0]!.machine).toBeLessThan(platform.machines.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("is its documented draws: a gap per job from multicluster/arrivals; m, D, size and site per job from multicluster/jobs", () => {
    const o = {
      jobs: 300,
      clusters: 3,
      processorsPerCluster: 4,
      speeds: [2, 4, 3],
      load: 0.8,
      meanServiceDemand: 20,
      serviceCV: 2.5,
      arrivalCV: 1.7,
      maxParallelism: [2, 9] as const,
      jobSizeKB: [3, 700] as const,
      seed: 11,
    };
    const { jobs } = multiclusterWorkload(o);
    // capacity: 4 processors per cluster at 2, 4 and 3 against the slowest (2): 4 * 4.5 = 18
    const meanGap = 20 / (0.8 * 18);
    const a = new Random(11, "multicluster/arrivals");
    const j = new Random(11, "multicluster/jobs");
    let t = 0;
    jobs.forEach((job, i) => {
      t += a.hyperExponential(meanGap, 1.7);
      const m = j.integer(2, 9);
      const d = j.hyperExponential(20, 2.5);
      const size = Math.round(j.uniform(3, 700) * 1024);
      const site = j.integer(0, 2);
      expect(job).toEqual({
        id: i,
        submit: t,
        runtime: d,
        estimate: d,
        cores: 1,
        tasks: m,
        maxParallelism: m,
        input: [{ size, machine: site * 4 }],
      });
    });
  });

  it("offers the load against the capacity relative to the slowest cluster, whatever its speed", () => {
    const m = 20_000;
    const js = multiclusterWorkload({ jobs: m, load: 0.5, speeds: [2, 4], seed: 3 }).jobs;
    // 8 processors at 2 and 8 at 4, against the reference 2: capacity 8 * 1 + 8 * 2 = 24
    const gap = 14.06 / (0.5 * 24);
    expect(Math.abs(js[m - 1]!.submit / m - gap)).toBeLessThan((5 * gap) / Math.sqrt(m));
  });

  it("draws the inter-arrival times with the CV asked (arrivalCV 2: mean kept, CV 2)", () => {
    const n = 100_000;
    const gaps = diffs([
      0,
      ...multiclusterWorkload({ jobs: n, arrivalCV: 2, seed: 4 }).jobs.map((j) => j.submit),
    ]);
    const meanGap = 14.06 / (0.5 * 64);
    const m = mean(gaps);
    expect(Math.abs(m - meanGap)).toBeLessThan((5 * 2 * meanGap) / Math.sqrt(n));
    expect(Math.abs(Math.sqrt(variance(gaps)) / m - 2)).toBeLessThan(0.1);
  });

  it("submits each job at a uniformly drawn cluster, the last one included (chi-square)", () => {
    const n = 8000;
    const { jobs } = multiclusterWorkload({ jobs: n, clusters: 4, seed: 5 });
    const counts = [0, 0, 0, 0];
    for (const j of jobs) counts[j.input![0]!.machine / 8]!++;
    const chi = counts.reduce((s, c) => s + (c - n / 4) ** 2 / (n / 4), 0);
    expect(chi).toBeLessThan(16.3); // 3 degrees of freedom, p = 0.001
  });

  it("is deterministic per seed", () => {
    expect(multiclusterWorkload({ jobs: 100, seed: 5 })).toEqual(
      multiclusterWorkload({ jobs: 100, seed: 5 }),
    );
  });

  it("names the option that is out of range", () => {
    const cases: [Parameters<typeof multiclusterWorkload>[0], string][] = [
      [{ load: 0 }, "options.load is 0, expected a finite number > 0"],
      [{ serviceCV: 0.5 }, "options.serviceCV is 0.5, expected a finite number >= 1"],
      [{ speeds: [] }, "options.speeds is empty, expected one speed per cluster"],
      [{ speeds: [1, -2] }, "options.speeds[1] is -2, expected a finite number > 0"],
      [
        // @ts-expect-error: an unknown set on purpose
        { speeds: "fast" },
        'options.speeds is "fast", expected one of homogeneous, heterogeneous, clock or a list of speeds',
      ],
      [
        { speeds: [1, 2], clusters: 3 },
        "options.clusters is 3, but options.speeds lists 2 clusters",
      ],
      [
        // @ts-expect-error: an unknown basis on purpose
        { loadBasis: "nodes" },
        'options.loadBasis is "nodes", expected "capacity" or "processors"',
      ],
      [
        { maxParallelism: [0, 64] },
        "options.maxParallelism is [0,64], expected [lo, hi] with finite 1 <= lo <= hi",
      ],
    ];
    for (const [o, message] of cases) {
      expect(() => multiclusterWorkload(o)).toThrow(InvalidInputError);
      expect(() => multiclusterWorkload(o)).toThrow(
        `@sched/workload/multiclusterWorkload: ${message}`,
      );
    }
  });
});
