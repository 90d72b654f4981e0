import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ArStudy, arStudies, runArExperiment } from "@sched/advance-reservation";
import { advanceReservationWorkload } from "@sched/workload";
import { describe, expect, it } from "vitest";
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

  it("ar-flex --quick equals @sched/advance-reservation's runArExperiment run by run, and is deterministic", async () => {
    const a = await tempDir();
    const r = await cli("reproduce", "ar-flex", "--quick", "--seeds", "1", "--out", a);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scheduler\s+factors\s+acceptance rate\s+mean slowdown\s+runs/);
    const results = (await readFile(join(a, "results.csv"), "utf8")).trimEnd().split("\n");
    expect(results[0]).toBe("scheduler,factors,metric,mean,ci95,runs");
    expect(results).toHaveLength(1 + POLICIES.length * 3 * 2);

    // The oracle: the package's own driver on the same points, generator, seed and machine.
    const flexibility = arStudies.find((s) => s.id === "flexibility") as ArStudy;
    const study: ArStudy = {
      ...flexibility,
      points: flexibility.points.filter((p) => [1, 3, 5].includes(p.artimeFactor)),
    };
    const rows = runArExperiment(
      (p) =>
        advanceReservationWorkload({
          jobs: p.jobs,
          procs: p.pes,
          uMed: p.umed,
          arrivalFactor: p.arrivalFactor,
          artimeFactor: p.artimeFactor,
          deadlineFactor: p.deadlineFactor,
          seed: p.seed,
        }).jobs,
      { studies: [study], runs: 1, jobs: 1000, seed: 1 },
    );
    expect(rows).toHaveLength(POLICIES.length * 3);
    const runs = await runsOf(a);
    for (const row of rows) {
      const mine = runs.filter(
        (x) => x.scheduler === `ar(policy=${row.policy})` && x.value === row.point.artimeFactor,
      );
      const acc = mine.find((x) => x.metric === "acceptanceRate")?.number;
      const sld = mine.find((x) => x.metric === "meanSlowdown")?.number;
      // files hold 6 decimals
      expect(acc, `${row.policy} ${row.point.label}`).toBeCloseTo(
        row.acceptanceRate.mean as number,
        6,
      );
      expect(sld, `${row.policy} ${row.point.label}`).toBeCloseTo(row.meanSlowdown.mean, 6);
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
});
