import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createInstanceCache, executeTask, type RunRecord } from "../src/sweep/execute.js";
import {
  type PlannedScheduler,
  planTasks,
  type RunTask,
  type SweepPlan,
} from "../src/sweep/plan.js";
import { inlineExecutor, type RunExecutor } from "../src/sweep/pool.js";
import { asWritten, readSweepDir } from "../src/sweep/results.js";
import { seedFreeClasses, seedFreeLabels } from "../src/sweep/seed-free.js";
import { runSweep } from "../src/sweep/sweep.js";
import { cli, fixture, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

// A run of a trace whose policy takes no seed from the run gives the same record for every seed:
// a sweep makes it once per grid point and policy and copies its record to the other seeds.

const SCHEDULERS: readonly PlannedScheduler[] = [
  { name: "easy", opts: [], label: "easy" },
  { name: "random", opts: [], label: "random" },
  { name: "random", opts: ["seed=7"], label: "random7" },
  { name: "fcfs", opts: [], label: "fcfs" },
];

function swfPlan(path: string, seeds: readonly number[]): SweepPlan {
  return {
    name: "seed-free",
    title: "",
    description: "",
    source: {
      kind: "file",
      workload: { type: "swf", path, clean: false, estimate: "requested" },
    },
    params: ["procs"],
    points: [[100], [128]],
    seeds,
    schedulers: SCHEDULERS,
    metrics: ["meanWait"],
  };
}

/** An inline executor that lists the tasks it ran. */
function counting(plan: SweepPlan, ran: RunTask[]): () => RunExecutor {
  return () => {
    const inner = inlineExecutor(plan);
    return {
      parallelism: inner.parallelism,
      run: (task) => {
        ran.push(task);
        return inner.run(task);
      },
      close: () => inner.close(),
    };
  };
}

const KTH = fixture("kth-sp2-head.swf");

describe("seed-free runs of a sweep", () => {
  it("are the runs of a trace whose policy takes no seed from the run", () => {
    const p = swfPlan(KTH, [1, 2, 3]);
    expect(seedFreeLabels(p)).toEqual(["easy", "random7", "fcfs"]);
    const classOf = seedFreeClasses(p);
    const tasks = planTasks(p);
    const of = (label: string, procs: number, seed: number) =>
      classOf(
        tasks.find(
          (t) =>
            p.schedulers[t.scheduler]?.label === label &&
            t.params.procs === procs &&
            t.seed === seed,
        ) as RunTask,
      );
    expect(of("easy", 100, 1)).toBe(of("easy", 100, 3));
    expect(of("easy", 100, 1)).not.toBe(of("easy", 128, 1));
    expect(of("easy", 100, 1)).not.toBe(of("fcfs", 100, 1));
    expect(of("random", 100, 1)).toBeUndefined();
    // one seed: nothing to share; a generated workload: drawn from the seed
    expect(seedFreeLabels(swfPlan(KTH, [4]))).toEqual([]);
    const synthetic: SweepPlan = {
      ...p,
      source: { kind: "file", workload: { type: "synthetic", jobs: 50, load: 0.5, procs: 16 } },
    };
    expect(seedFreeLabels(synthetic)).toEqual([]);
  });

  it("include the runs of a native trace, each record the one its own run gives", async () => {
    const p: SweepPlan = {
      ...swfPlan(KTH, [1, 2]),
      source: { kind: "file", workload: { type: "native", path: fixture("small.jsonl") } },
      params: [],
      points: [[]],
    };
    expect(seedFreeLabels(p)).toEqual(["easy", "random7", "fcfs"]);
    const ran: RunTask[] = [];
    const outcome = await runSweep(p, counting(p, ran));
    expect(ran).toHaveLength(3 + 2);
    expect(outcome.copied).toBe(3);
    const cache = createInstanceCache();
    for (const task of planTasks(p)) {
      const own = asWritten((await executeTask(p, task, cache)).record);
      expect(outcome.records.find((r) => r.key === task.key)).toEqual(own);
    }
  });

  it("run once per point and policy; every record is the one its own run gives", async () => {
    const p = swfPlan(KTH, [1, 2, 3]);
    const out = await tempDir();
    const ran: RunTask[] = [];
    const outcome = await runSweep(p, counting(p, ran), { out });
    const label = (t: RunTask) => p.schedulers[t.scheduler]?.label;
    // random rolls the run's seed: all 6 of its runs; the others once per point, for seed 1
    expect(ran.filter((t) => label(t) === "random")).toHaveLength(6);
    expect(ran.filter((t) => label(t) !== "random").map((t) => t.seed)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(outcome.copied).toBe(12);
    expect(outcome.records).toHaveLength(24);
    const cache = createInstanceCache();
    for (const task of planTasks(p)) {
      const own = asWritten((await executeTask(p, task, cache)).record);
      expect(outcome.records.find((r) => r.key === task.key)).toEqual(own);
    }
    // random's seeds differ on this trace (the test would not see a wrong copy otherwise)
    const waits = outcome.records
      .filter((r) => r.scheduler === "random" && r.params.procs === 100)
      .map((r) => r.metrics.meanWait);
    expect(new Set(waits).size).toBeGreaterThan(1);
    // a copy names its run and has no timing block; the timing summary counts timed runs only
    const copy = planTasks(p).find((t) => label(t) === "easy" && t.seed === 2) as RunTask;
    const first = planTasks(p).find(
      (t) => label(t) === "easy" && t.seed === 1 && t.params.procs === copy.params.procs,
    ) as RunTask;
    const doc = JSON.parse(await readFile(join(out, "runs", `${copy.key}.json`), "utf8"));
    expect(doc.copyOf).toBe(first.key);
    expect(doc.timing).toBeUndefined();
    expect(doc.seed).toBe(2);
    const timing = await readFile(join(out, "timing.csv"), "utf8");
    expect(timing).toMatch(/^easy,100,wallMs,[0-9.]+,,1$/m);
    expect(timing).toMatch(/^random,100,wallMs,[0-9.]+,[0-9.]+,3$/m);
  });

  it("give the same results.csv and runs.csv as a sweep of one seed at a time", async () => {
    const p = swfPlan(KTH, [1, 2]);
    const together = await tempDir();
    await runSweep(p, () => inlineExecutor(p), { out: together });
    const sweep = await readSweepDir(together, "sweep");
    // each seed alone has nothing to copy: every run is made
    const records: RunRecord[] = [];
    for (const seed of p.seeds) {
      const alone = { ...p, seeds: [seed] };
      const ran: RunTask[] = [];
      const o = await runSweep(alone, counting(alone, ran));
      expect(ran).toHaveLength(8);
      records.push(...o.records);
    }
    const byKey = new Map(records.map((r) => [r.key, r]));
    expect(sweep.records.map((r) => byKey.get(r.key))).toEqual(sweep.records);
  });

  it("resume from whichever seed's run is finished, without running it again", async () => {
    const p = swfPlan(KTH, [1, 2, 3]);
    const out = await tempDir();
    await runSweep(p, () => inlineExecutor(p), { out });
    const runsCsv = await readFile(join(out, "runs.csv"), "utf8");
    const files = await readdir(join(out, "runs"));
    // the first seed's easy runs and the third seed's fcfs runs are gone
    const gone = files.filter((f) => /^easy\..*\.s1-/.test(f) || /^fcfs\..*\.s3-/.test(f));
    expect(gone).toHaveLength(4);
    for (const f of gone) await rm(join(out, "runs", f));
    const ran: RunTask[] = [];
    const outcome = await runSweep(p, counting(p, ran), { out });
    expect(ran).toEqual([]);
    expect(outcome.copied).toBe(4);
    expect(await readFile(join(out, "runs.csv"), "utf8")).toBe(runsCsv);
  });

  it("share a failure: the one run's error is every seed's", async () => {
    const p = swfPlan(fixture("malformed.swf"), [1, 2]);
    const out = await tempDir();
    const ran: RunTask[] = [];
    const outcome = await runSweep(p, counting(p, ran), { out });
    // random's runs each fail on their own; the others once per point
    expect(ran).toHaveLength(4 + 6);
    expect(outcome.failures).toHaveLength(16);
    const easy = outcome.failures.filter((f) => f.scheduler === "easy");
    expect(easy.map((f) => f.seed)).toEqual([1, 2, 1, 2]);
    expect(easy[1]?.error).toBe(easy[0]?.error);
    expect(easy[0]?.error).toMatch(/malformed\.swf:\d+/);
    expect(await readdir(join(out, "failed"))).toHaveLength(16);
  });

  it("are said on stderr by the CLI, with the count of copied runs", async () => {
    const dir = await tempDir();
    const file = await writeExperiment(
      {
        name: "sf",
        workload: { type: "swf", path: KTH },
        schedulers: ["easy", "random"],
        seeds: 2,
      },
      "sf.json",
    );
    const r = await cli("sweep", file, "--out", join(dir, "out"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `note: easy takes no seed, and the trace is the same for every seed: each runs once per grid point, and the other seeds' run files copy its result ("copyOf": its key)`,
    );
    expect(r.stderr).toContain("4 runs in ");
    expect(r.stderr).toContain(
      " s (1 of them copied from another seed's run: their result cannot depend on the seed); wrote",
    );
  });
});
