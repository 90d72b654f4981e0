import { cp, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { easy, edf, flexible } from "@sched/backfill";
import { convergentPriority, convergentVariant } from "@sched/convergent";
import { simulate } from "@sched/core";
import { convergentWorkload } from "@sched/workload";
import { beforeAll, describe, expect, it } from "vitest";
import { CONVERGENT_SCHEDULERS, convergentReproduction } from "../src/experiments/convergent.js";
import { paperMetrics } from "../src/experiments/convergent-metrics.js";
import { defaultParams } from "../src/experiments/resolve.js";
import { chooseScheduler } from "../src/schedulers.js";
import { cli, tempDir } from "./helpers.js";

const METRICS = ["latePct", "slowdownNoDeadline", "machineUsage", "licenseUsage"];

/** The two points these tests run (of --quick's seven), one seed. */
const POINTS = [4, 16];
const QUICK = ["--quick", "--seeds", "1", "--vary", `interArrival=${POINTS.join(",")}`];

/** runs.csv rows as {key, scheduler, interArrival, seed, metric, value}. */
async function runsOf(dir: string) {
  const lines = (await readFile(join(dir, "runs.csv"), "utf8")).trimEnd().split("\n");
  expect(lines[0]).toBe("key,scheduler,interArrival,seed,metric,value,events,decisions");
  return lines.slice(1).map((l) => {
    const [key, scheduler, interArrival, seed, metric, value] = l.split(",");
    return {
      key: key as string,
      scheduler: scheduler as string,
      interArrival: Number(interArrival),
      seed: Number(seed),
      metric: metric as string,
      value: Number(value),
    };
  });
}

describe("sched-sim reproduce convergent", () => {
  let dir: string;
  let first: { code: number; stdout: string; stderr: string };

  beforeAll(async () => {
    dir = await tempDir();
    first = await cli("reproduce", "convergent", ...QUICK, "--out", dir);
  }, 120_000);

  it("is listed, and its policies are in the registry with the paper's names", async () => {
    const r = await cli("reproduce", "--list");
    expect(r.stdout).toMatch(/convergent\s+Convergent scheduling/);
    expect(convergentReproduction.grid(false)).toEqual([
      { name: "interArrival", values: [4, 6, 8, 10, 12, 16, 20] },
    ]);
    expect(
      convergentReproduction
        .schedulers(defaultParams(convergentReproduction, false))
        .map((s) => s.label),
    ).toEqual(["cs-ip", "cs-inp", "cs-nip", "cs-ninp", "easy", "bf-rm", "bf-unrm", "edf"]);
    expect(chooseScheduler("bf-unrm", ["machineOrder=speed"], "run").label).toBe(
      "bf-unrm(machineOrder=speed)",
    );
    expect(() => chooseScheduler("cs-ip", ["matcher=mis"], "run")).toThrow(
      /scheduler 'cs-ip' has no option 'matcher'; it has base, deadlineMax, .*antiAging, deadlineLate, deadlineAllLate, waitSup, knapsack, refreshTolerance/,
    );
    expect(chooseScheduler("cs-ninp", ["antiAging=0"], "run").options).toEqual({ antiAging: 0 });
    const help = await cli("run", "--help");
    for (const name of ["cs-ip", "cs-inp", "cs-nip", "cs-ninp", "bf-rm", "bf-unrm"]) {
      expect(help.stdout).toContain(`  ${name} `);
    }
  });

  it("--quick at two points, one seed, writes a tidy results.csv: 8 policies x 2 points x 4 metrics", async () => {
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /scheduler\s+interArrival\s+late deadline jobs \(%\)\s+slowdown, no deadline\s+machine usage \(%\)\s+license usage \(%\)\s+runs/,
    );
    const lines = (await readFile(join(dir, "results.csv"), "utf8")).trimEnd().split("\n");
    expect(lines[0]).toBe("scheduler,interArrival,metric,mean,ci95,runs");
    const rows = lines.slice(1).map((l) => l.split(","));
    expect(rows).toHaveLength(CONVERGENT_SCHEDULERS.length * 2 * METRICS.length);
    let i = 0;
    for (const s of CONVERGENT_SCHEDULERS) {
      for (const ta of POINTS) {
        for (const m of METRICS) {
          const [scheduler, interArrival, metric, mean, ci95, runs] = rows[i++] as string[];
          expect([scheduler, Number(interArrival), metric, ci95, runs]).toEqual([
            s,
            ta,
            m,
            "",
            "1",
          ]);
          expect(Number.isFinite(Number(mean)), `${s} ${ta} ${m}`).toBe(true);
        }
      }
    }
  });

  it("equals the packages' functions run by hand (oracle): convergentWorkload at seed 1 with --quick's sizes, simulate, paperMetrics", async () => {
    const ta = POINTS[0] as number;
    const runs = await runsOf(dir);
    const stored = (scheduler: string, metric: string) =>
      runs.find((r) => r.scheduler === scheduler && r.interArrival === ta && r.metric === metric)
        ?.value;
    // seed 1 of the experiment is the workload's seed 1; --quick: 300 jobs on 30 machines,
    // arriving 5 times apart
    const { platform, jobs } = convergentWorkload({
      seed: 1,
      meanInterArrival: ta * 5,
      jobs: 300,
      machines: 30,
    });
    const direct = {
      "cs-ip": paperMetrics(simulate(jobs, platform, convergentVariant("CS_ip"))),
      "cs-ninp": paperMetrics(simulate(jobs, platform, convergentVariant("CS_ninp"))),
      easy: paperMetrics(
        simulate(jobs, platform, easy({ exclusive: true, machineOrder: "speed" })),
      ),
      "bf-rm": paperMetrics(
        simulate(
          jobs,
          platform,
          flexible({
            priority: convergentPriority(),
            variant: "rm",
            exclusive: true,
            machineOrder: "speed",
          }),
        ),
      ),
      edf: paperMetrics(simulate(jobs, platform, edf({ exclusive: true }))),
    };
    for (const [scheduler, m] of Object.entries(direct)) {
      expect(stored(scheduler, "latePct"), scheduler).toBeCloseTo(m.latePct, 6);
      expect(stored(scheduler, "slowdownNoDeadline"), scheduler).toBeCloseTo(
        m.slowdownNoDeadline,
        6,
      );
      expect(stored(scheduler, "machineUsage"), scheduler).toBeCloseTo(m.machineUsage, 6);
      expect(stored(scheduler, "licenseUsage"), scheduler).toBeCloseTo(m.licenseUsage, 6);
    }
  });

  it("runs the baselines one job per machine (exclusive), so no policy's machine usage exceeds 100%", async () => {
    // The paper's model (section 3): "each machine m in M is executing only a single job at a
    // time", for CS (a matching) and the baselines alike.
    for (const s of convergentReproduction.schedulers(
      defaultParams(convergentReproduction, true),
    )) {
      if (!s.label.startsWith("cs-")) expect(s.options.exclusive, s.label).toBe(true);
    }
    const runs = await runsOf(dir);
    const usage = runs.filter((r) => r.metric === "machineUsage");
    expect(usage).toHaveLength(CONVERGENT_SCHEDULERS.length * POINTS.length);
    for (const r of usage) {
      expect(r.value, `${r.scheduler} at ${r.interArrival}`).toBeGreaterThan(0);
      expect(r.value, `${r.scheduler} at ${r.interArrival}`).toBeLessThanOrEqual(100 + 1e-9);
    }
  });

  it("--quick has the paper's contention: EASY misses more than 20% of the deadlines at interArrival 4, and every policy fewer at 16 than at 4", async () => {
    const runs = await runsOf(dir);
    const late = (s: string, ta: number) =>
      runs.find((r) => r.scheduler === s && r.interArrival === ta && r.metric === "latePct")
        ?.value as number;
    expect(late("easy", 4)).toBeGreaterThan(20);
    for (const s of CONVERGENT_SCHEDULERS) expect(late(s, 16), s).toBeLessThan(late(s, 4));
  });

  it("keeps the wall-clock scheduling time apart: records are deterministic, a resumed run gives the same bytes", async () => {
    const names = (await readdir(join(dir, "runs"))).sort();
    expect(names).toHaveLength(CONVERGENT_SCHEDULERS.length * 2);
    for (const name of names) {
      const doc = JSON.parse(await readFile(join(dir, "runs", name), "utf8"));
      expect(doc.metrics.schedTimeMs).toBeUndefined();
      expect(doc.decisions).toBeGreaterThan(0);
      expect(doc.timing.schedulerMs).toBeGreaterThanOrEqual(0);
      expect(doc.metrics.deadlineJobs).toBeGreaterThan(0);
      expect(doc.metrics.latePct).toBeCloseTo(
        (100 * doc.metrics.lateJobs) / doc.metrics.deadlineJobs,
        4,
      );
    }
    // drop the runs at the busier point and run again: they are simulated anew
    const again = await tempDir();
    await cp(dir, again, { recursive: true });
    const ta = POINTS[0] as number;
    const dropped = names.filter((n) => n.includes(`.interArrival=${ta}.`));
    expect(dropped).toHaveLength(CONVERGENT_SCHEDULERS.length);
    for (const n of dropped) await rm(join(again, "runs", n));
    await rm(join(again, "results.csv"));
    await rm(join(again, "runs.csv"));
    const r = await cli("reproduce", "convergent", ...QUICK, "--out", again);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`(${CONVERGENT_SCHEDULERS.length} already done)`);
    expect(await readFile(join(again, "results.csv"))).toEqual(
      await readFile(join(dir, "results.csv")),
    );
    expect(await readFile(join(again, "runs.csv"))).toEqual(await readFile(join(dir, "runs.csv")));
    for (const n of dropped) {
      const a = JSON.parse(await readFile(join(dir, "runs", n), "utf8"));
      const b = JSON.parse(await readFile(join(again, "runs", n), "utf8"));
      expect({ ...b, timing: null }).toEqual({ ...a, timing: null });
    }
    // `report` simulates a run again and compares every stored metric
    const html = join(again, "page.html");
    const rep = await cli("report", dir, "--out", html);
    expect(rep.code, rep.stderr).toBe(0);
    expect(await readFile(html, "utf8")).toContain("its metrics equal the stored result");
  });
});
