import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { advanceReservation, paperPolicies } from "@sched/advance-reservation";
import { createJob, createPlatform, identicalPool, simulate } from "@sched/core";
import { advanceReservationWorkload } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { arMetrics } from "../src/experiments/ar-metrics.js";
import { EXPERIMENTS } from "../src/experiments/registry.js";
import { defaultParams } from "../src/experiments/resolve.js";
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

describe("which PEs a reservation takes (peSelection, Interpretation 5)", () => {
  it("--set, --vary and --opt refuse a reading that does not exist, in the command's words; --params lists it", async () => {
    const a = await cli("reproduce", "ar-size", "--quick", "--set", "peSelection=lowest");
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(
      "option --set peSelection=lowest: expected one of lowest-index, highest-index, soonest-reserved, latest-released, got 'lowest'",
    );
    const b = await cli(
      "reproduce",
      "ar-flex",
      "--quick",
      "--vary",
      "peSelection=lowest-index,best",
    );
    expect(b.code).toBe(2);
    expect(b.stderr).toContain("option --vary peSelection=lowest-index,best: expected one of");
    expect(() => chooseScheduler("ar", ["peSelection=best"], "run")).toThrow(
      "expected one of lowest-index, highest-index, soonest-reserved, latest-released",
    );
    const p = await cli("reproduce", "ar-load", "--params");
    expect(p.stdout).toMatch(/peSelection\s+Which n of the chosen rectangle's free PEs/);
  });

  it("--set peSelection=latest-released changes what a policy books, and experiment.json records it", async () => {
    const common = ["--quick", "--seeds", "1", "--set", "jobs=300", "--set", "uMed=7"];
    const lowest = await tempDir();
    const latest = await tempDir();
    const a = await cli("reproduce", "ar-size", ...common, "--out", lowest);
    const b = await cli(
      "reproduce",
      "ar-size",
      ...common,
      "--set",
      "peSelection=latest-released",
      "--out",
      latest,
    );
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const arSize = EXPERIMENTS.find((e) => e.name === "ar-size")!;
    const { jobs, platform } = arSize.instance(
      { ...defaultParams(arSize, true), jobs: 300, uMed: 7 },
      1,
    );
    const acceptance = async (dir: string, policy: string) =>
      (await runsOf(dir)).find(
        (x) => x.scheduler === `ar(policy=${policy})` && x.metric === "acceptanceRate",
      )?.number;
    // Each run is the package's scheduler with that reading (runs.csv holds 6 decimals).
    const differ: string[] = [];
    for (const policy of paperPolicies) {
      const direct = (peSelection: "lowest-index" | "latest-released") =>
        arMetrics(simulate(jobs, platform, advanceReservation({ policy, peSelection })), 1024)
          .acceptanceRate;
      const [x, y] = [direct("lowest-index"), direct("latest-released")];
      expect(Math.abs((await acceptance(lowest, policy.name))! - x)).toBeLessThanOrEqual(5e-7);
      expect(Math.abs((await acceptance(latest, policy.name))! - y)).toBeLessThanOrEqual(5e-7);
      if (x !== y) differ.push(policy.name);
    }
    expect(differ.length).toBeGreaterThan(0);
    const plan = JSON.parse(await readFile(join(latest, "experiment.json"), "utf8"));
    expect(JSON.stringify(plan)).toContain('"peSelection":"latest-released"');
  });
});

describe("the workload readings of Interpretation 15 (arrivals, runtimeMapping)", () => {
  const arSize = EXPERIMENTS.find((e) => e.name === "ar-size")!;

  it("--set and --vary refuse a reading that does not exist, in the command's words", async () => {
    const a = await cli("reproduce", "ar-size", "--quick", "--set", "arrivals=lanl");
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(
      "option --set arrivals=lanl: expected one of lanl-cm5-rate, generic, got 'lanl'",
    );
    const b = await cli("reproduce", "ar-flex", "--quick", "--vary", "runtimeMapping=up,near");
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(
      "option --vary runtimeMapping=up,near: expected one of up, nearest-log, nearest, got 'near'",
    );
    const p = await cli("reproduce", "ar-load", "--params");
    expect(p.stdout).toMatch(/arrivals\s+The paper's 'arrival process/);
    expect(p.stdout).toMatch(/runtimeMapping\s+How a model run time/);
  });

  it("the experiment's instance is the generator's workload under each reading", () => {
    const params = defaultParams(arSize, true);
    for (const [arrivals, runtimeMapping] of [
      ["lanl-cm5-rate", "up"],
      ["generic", "nearest-log"],
      ["generic", "nearest"],
    ] as const) {
      const { jobs } = arSize.instance({ ...params, arrivals, runtimeMapping }, 2);
      expect(jobs).toEqual(
        advanceReservationWorkload({ jobs: 1000, uMed: 7, arrivals, runtimeMapping, seed: 2 }).jobs,
      );
    }
  });

  it("--set runtimeMapping=nearest-log changes what every policy faces, and experiment.json records it", async () => {
    const common = ["--quick", "--seeds", "1", "--set", "jobs=300", "--set", "uMed=7"];
    const up = await tempDir();
    const near = await tempDir();
    const a = await cli("reproduce", "ar-size", ...common, "--out", up);
    const b = await cli(
      "reproduce",
      "ar-size",
      ...common,
      "--set",
      "runtimeMapping=nearest-log",
      "--out",
      near,
    );
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const load = async (dir: string) =>
      (await runsOf(dir)).find((x) => x.scheduler === "ar(policy=FF)" && x.metric === "offeredLoad")
        ?.number as number;
    // nearest in log scale sends fewer jobs to 10800 s than rounding up: less work offered
    expect(await load(near)).toBeLessThan(await load(up));
    const plan = JSON.parse(await readFile(join(near, "experiment.json"), "utf8"));
    expect(JSON.stringify(plan)).toContain('"runtimeMapping":"nearest-log"');
  });

  it("the defaults reproduce the committed ar-size results (FF at UMed 5, 5 seeds of 10^4 jobs)", async () => {
    const csv = await readFile(
      join(
        dirname(fileURLToPath(import.meta.url)),
        "../../../packages/advance-reservation/reproduction/ar-size.csv",
      ),
      "utf8",
    );
    const committed = (metric: string) =>
      Number(
        csv
          .split("\n")
          .find((l) => l.startsWith(`ar(policy=FF),5,true,${metric},`))
          ?.split(",")[4],
      );
    const params = { ...defaultParams(arSize, false), uMed: 5 };
    const acceptance: number[] = [];
    const slowdown: number[] = [];
    for (const seed of [1, 2, 3, 4, 5]) {
      const { jobs, platform } = arSize.instance(params, seed);
      const m = arMetrics(simulate(jobs, platform, advanceReservation()), 1024);
      acceptance.push(m.acceptanceRate);
      slowdown.push(m.meanSlowdown);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(committed("acceptanceRate")).toBeGreaterThan(0);
    // the file holds 6 decimals (rounded from a mean summed in another order)
    expect(Math.abs(mean(acceptance) - committed("acceptanceRate"))).toBeLessThanOrEqual(1e-6);
    expect(Math.abs(mean(slowdown) - committed("meanSlowdown"))).toBeLessThanOrEqual(1e-6);
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
