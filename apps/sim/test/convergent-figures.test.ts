import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { convergentVariant } from "@sched/convergent";
import { type Scheduler, simulate } from "@sched/core";
import { mkpExact, mkpGreedy } from "@sched/knapsack";
import { convergentWorkload } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { workloadSeries } from "../src/experiments/convergent-metrics.js";
import { cli, tempDir } from "./helpers.js";

/** runs.csv of `dir` as {scheduler, point (the grid columns), seed, metric, value}. */
async function runsOf(dir: string) {
  const [head, ...lines] = (await readFile(join(dir, "runs.csv"), "utf8")).trimEnd().split("\n");
  const cols = (head as string).split(",");
  return lines.map((l) => {
    const cells = l.split(",");
    const row: Record<string, string> = {};
    cols.forEach((c, i) => {
      row[c] = cells[i] as string;
    });
    return row;
  });
}

// --quick's farm: 30 machines, 300 jobs arriving 5 times apart (the paper's load per machine).
const quickFarm = (seed: number, interArrival: number, jobs = 300) =>
  convergentWorkload({ seed, jobs, machines: 30, meanInterArrival: interArrival * 5 });

describe("sched-sim reproduce convergent-workload (Figure 3)", () => {
  it("counts the jobs in the system at each time, as workloadSeries of the same run does (oracle)", async () => {
    const dir = await tempDir();
    const r = await cli(
      ...["reproduce", "convergent-workload", "--quick", "--seeds", "1", "--set", "jobs=120"],
      ...["--vary", "interArrival=4,12", "--vary", "time=0,500,1500,4000", "--out", dir, "--quiet"],
    );
    expect(r.code, r.stderr).toBe(0);
    const runs = await runsOf(dir);
    expect(runs.map((x) => x.scheduler).filter((s, i, a) => a.indexOf(s) === i)).toEqual([
      "cs-ip",
      "easy",
    ]);
    for (const ta of [4, 12]) {
      const { jobs, platform } = quickFarm(1, ta, 120);
      const series = workloadSeries(simulate(jobs, platform, convergentVariant("CS_ip")));
      const at = (t: number) => series.filter((p) => p.time <= t).at(-1)?.jobs ?? 0;
      for (const t of [0, 500, 1500, 4000]) {
        const row = runs.find(
          (x) => x.scheduler === "cs-ip" && Number(x.interArrival) === ta && Number(x.time) === t,
        );
        expect(Number(row?.value), `${ta} ${t}`).toBe(at(t));
      }
      expect(at(1500)).toBeGreaterThan(0);
    }
  }, 60_000);
});

describe("sched-sim reproduce convergent-scaling (Figure 8)", () => {
  it("bins the scheduling calls by the jobs in the system: the counts of a direct run (oracle)", async () => {
    const dir = await tempDir();
    const r = await cli(
      ...["reproduce", "convergent-scaling", "--quick", "--seeds", "1", "--set", "jobs=150"],
      ...["--vary", "jobsInSystem=20,60,100", "--out", dir, "--quiet"],
    );
    expect(r.code, r.stderr).toBe(0);
    const runs = await runsOf(dir);
    const { jobs, platform } = quickFarm(1, 4, 150);
    const sizes: number[] = [];
    const inner = convergentVariant("CS_nip");
    const counting: Scheduler = {
      name: inner.name,
      reset: (p) => inner.reset?.(p),
      schedule(ctx) {
        sizes.push(ctx.view.running.length + ctx.view.waiting.length);
        inner.schedule(ctx);
      },
    };
    simulate(jobs, platform, counting);
    for (const centre of [20, 60, 100]) {
      const calls = runs.find(
        (x) =>
          x.scheduler === "cs-nip" && Number(x.jobsInSystem) === centre && x.metric === "calls",
      );
      const expected = sizes.filter((n) => n >= centre - 10 && n < centre + 10).length;
      expect(Number(calls?.value), `${centre}`).toBe(expected);
      const ms = runs.find(
        (x) =>
          x.scheduler === "cs-nip" && Number(x.jobsInSystem) === centre && x.metric === "planMs",
      );
      if (expected > 0) expect(Number(ms?.value)).toBeGreaterThan(0);
    }
    expect(sizes.some((n) => n >= 90)).toBe(true);
  }, 60_000);
});

describe("sched-sim reproduce mkp (Table 1)", () => {
  it("solves the knapsacks CS meets with the greedy and exactly: every one proven optimal, the gap as solved by hand (oracle)", async () => {
    const dir = await tempDir();
    const r = await cli(
      ...["reproduce", "mkp", "--quick", "--seeds", "1", "--set", "events=2"],
      ...["--vary", "licenseRatioMin=0.4", "--out", dir, "--quiet"],
    );
    expect(r.code, r.stderr).toBe(0);
    const runs = await runsOf(dir);
    const value = (s: string, m: string) =>
      Number(runs.find((x) => x.scheduler === s && x.metric === m)?.value);
    expect(value("exact", "optimal")).toBe(1);
    expect(value("greedy", "optimal")).toBe(1);
    expect(value("exact", "gapPct")).toBe(0);
    expect(value("exact", "timePct")).toBe(100);
    expect(value("greedy", "gapPct")).toBeGreaterThanOrEqual(0);
    // By hand: the stream (30 machines, 40 licences, 300 jobs, ratios 0.40-0.45, arrivals
    // every 100/3 s), CS_nip with its greedy pre-matching, the first knapsacks at or after
    // 1/4 and 3/4 of the arrivals.
    const { jobs, platform } = convergentWorkload({
      seed: 1,
      jobs: 300,
      machines: 30,
      licenses: 40,
      meanInterArrival: 100 / 3,
      licenseRatio: [0.4, 0.45],
    });
    const span = 300 * (100 / 3);
    const times = [span / 4, (3 * span) / 4];
    const instances: Parameters<typeof mkpGreedy>[0][][] = [];
    simulate(
      jobs,
      platform,
      convergentVariant("CS_nip", {
        onPreMatch: ({ now, result }) => {
          const next = times[instances.length];
          if (next === undefined || now < next || result.clusters.length === 0) return;
          instances.push(result.clusters.map((c) => c.instance));
        },
      }),
      { until: span },
    );
    expect(instances).toHaveLength(2);
    const gaps = instances.map((insts) => {
      let g = 0;
      let e = 0;
      for (const inst of insts) {
        g += mkpGreedy(inst).value;
        const exact = mkpExact(inst);
        expect(exact.optimal).toBe(true);
        e += exact.value;
      }
      return e > 0 ? 100 * (1 - g / e) : 0;
    });
    expect(value("greedy", "gapPct")).toBeCloseTo((gaps[0]! + gaps[1]!) / 2, 5); // runs.csv: 6 decimals
    expect(value("greedy", "sampledEvents")).toBe(2);
    for (const s of ["greedy", "exact"]) {
      expect(value(s, "usagePct")).toBeGreaterThan(0);
      expect(value(s, "usagePct")).toBeLessThanOrEqual(100);
      expect(value(s, "usageMinPct")).toBeLessThanOrEqual(value(s, "usagePct"));
      expect(value(s, "usageMaxPct")).toBeGreaterThanOrEqual(value(s, "usagePct"));
    }
  }, 120_000);
});
