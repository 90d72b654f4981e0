import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { advanceReservation, paperPolicies } from "@sched/advance-reservation";
import { createJob, createPlatform, identicalPool, simulate } from "@sched/core";
import { advanceReservationWorkload } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { arMetrics } from "../src/experiments/ar-metrics.js";
import { chooseScheduler } from "../src/schedulers.js";
import { cli, tempDir } from "./helpers.js";

const POLICIES = ["FF", "PE_B", "PE_W", "Du_B", "Du_W", "PEDu_B", "PEDu_W"];

/** runs.csv rows as {scheduler, value, seed, metric, number}. */
async function runsOf(dir: string) {
  const lines = (await readFile(join(dir, "runs.csv"), "utf8")).trimEnd().split("\n");
  return lines.slice(1).map((l) => {
    const [, scheduler, value, seed, metric, number] = l.split(",");
    return {
      scheduler: scheduler as string,
      value: Number(value),
      seed: Number(seed),
      metric: metric as string,
      number: Number(number),
    };
  });
}

describe("sched-sim reproduce ar-size / ar-load / ar-flex", () => {
  it("--list names the three studies; the 'ar' scheduler checks its policy", async () => {
    const r = await cli("reproduce", "--list");
    for (const name of ["ar-size", "ar-load", "ar-flex"]) expect(r.stdout).toContain(name);
    expect(chooseScheduler("ar", ["policy=PE_W"], "run").label).toBe("ar(policy=PE_W)");
    expect(() => chooseScheduler("ar", ["policy=best"], "run")).toThrow(
      "expected one of FF, PE_B, PE_W, Du_B, Du_W, PEDu_B, PEDu_W",
    );
  });

  it("ar-flex --quick equals a direct simulation of every policy on the generator's jobs, and is deterministic", async () => {
    const a = await tempDir();
    const r = await cli("reproduce", "ar-flex", "--quick", "--seeds", "1", "--out", a);
    expect(r.code, r.stderr).toBe(0);
    const results = (await readFile(join(a, "results.csv"), "utf8")).trimEnd().split("\n");
    expect(results[0]).toBe("scheduler,factors,metric,mean,ci95,runs");
    expect(results).toHaveLength(1 + POLICIES.length * 3 * 4);
    expect(new Set(results.slice(1).map((l) => l.split(",")[2]))).toEqual(
      new Set(["acceptanceRate", "meanSlowdown", "offeredLoad", "utilization"]),
    );

    // The oracle: the package's scheduler driven by hand on the generator's jobs, one machine of
    // 1024 PEs, each policy on the same jobs.
    const runs = await runsOf(a);
    for (const f of [1, 3, 5]) {
      const { jobs } = advanceReservationWorkload({
        jobs: 1000,
        procs: 1024,
        uMed: 7,
        arrivalFactor: 1,
        artimeFactor: f,
        deadlineFactor: f,
        seed: 1,
      });
      for (const policy of paperPolicies) {
        const trace = simulate(
          jobs,
          createPlatform({ machines: [{ cores: 1024 }] }),
          advanceReservation({ policy }),
        );
        const m = arMetrics(trace, 1024);
        const mine = runs.filter(
          (x) => x.scheduler === `ar(policy=${policy.name})` && x.value === f,
        );
        for (const key of [
          "acceptanceRate",
          "meanSlowdown",
          "offeredLoad",
          "utilization",
        ] as const) {
          // files hold 6 decimals
          expect(
            mine.find((x) => x.metric === key)?.number,
            `${policy.name} ${f} ${key}`,
          ).toBeCloseTo(m[key], 6);
        }
      }
    }

    const b = await tempDir();
    await cli("reproduce", "ar-flex", "--quick", "--seeds", "1", "--out", b);
    expect(await readFile(join(b, "results.csv"))).toEqual(await readFile(join(a, "results.csv")));
    expect(await readFile(join(b, "runs.csv"))).toEqual(await readFile(join(a, "runs.csv")));
  });

  it("ar-size --quick: acceptance falls and slowdown rises with job size (the paper's shape)", async () => {
    const dir = await tempDir();
    const r = await cli("reproduce", "ar-size", "--quick", "--seeds", "1", "--out", dir);
    expect(r.code, r.stderr).toBe(0);
    const runs = await runsOf(dir);
    for (const policy of POLICIES) {
      const series = (metric: string) =>
        [5, 7, 9].map(
          (u) =>
            runs.find(
              (x) => x.scheduler === `ar(policy=${policy})` && x.value === u && x.metric === metric,
            )?.number as number,
        );
      const acc = series("acceptanceRate");
      expect(acc[0], policy).toBeGreaterThan(acc[1] as number);
      expect(acc[1], policy).toBeGreaterThan(acc[2] as number);
      const sld = series("meanSlowdown");
      expect(sld[0], policy).toBeLessThan(sld[2] as number);
      for (const s of sld) expect(s).toBeGreaterThanOrEqual(1);
    }
  });

  it("ar-load --quick --set clip=false runs, and unclipped rectangles change what Du_B chooses", async () => {
    const clipped = await tempDir();
    const open = await tempDir();
    const common = ["--quick", "--seeds", "1", "--set", "jobs=300", "--set", "arrivalFactor=1"];
    const a = await cli("reproduce", "ar-load", ...common, "--out", clipped);
    const b = await cli("reproduce", "ar-load", ...common, "--set", "clip=false", "--out", open);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const acc = async (dir: string, policy: string) =>
      (await runsOf(dir)).find(
        (x) => x.scheduler === `ar(policy=${policy})` && x.metric === "acceptanceRate",
      )?.number;
    // First Fit never looks at rectangle ends; Du_B does.
    expect(await acc(open, "FF")).toBe(await acc(clipped, "FF"));
    expect(await acc(open, "Du_B")).not.toBe(await acc(clipped, "Du_B"));
    const plan = JSON.parse(await readFile(join(open, "experiment.json"), "utf8"));
    expect(JSON.stringify(plan)).toContain('"clip":false');
  });
});

describe("arMetrics (the paper's acceptance rate and slowdown, offered load, utilization)", () => {
  it("computes them by hand on a three-job example", () => {
    // One PE. Job 0 runs [0, 10) (deadline 10); job 1 (ready 5) runs [10, 20); job 2 needs 2 PEs.
    const jobs = [
      createJob({ id: 0, submit: 0, runtime: 10, cores: 1, deadline: 10 }),
      createJob({ id: 1, submit: 5, runtime: 10, cores: 1, ready: 5, deadline: 40 }),
      createJob({ id: 2, submit: 10, runtime: 10, cores: 2, deadline: 40 }),
    ];
    const m = arMetrics(simulate(jobs, identicalPool(1), advanceReservation()), 1);
    expect(m.acceptanceRate).toBeCloseTo(2 / 3, 12);
    expect(m.meanSlowdown).toBeCloseTo((1 + 1.5) / 2, 12);
    // requested work 10 + 10 + 20 over 1 PE during [0, 10]
    expect(m.offeredLoad).toBeCloseTo(4, 12);
    // done 20 over [0, 20]
    expect(m.utilization).toBeCloseTo(1, 12);
  });
});
