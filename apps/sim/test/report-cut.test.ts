import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ScheduleTrace } from "@sched/core";
import { describe, expect, it, vi } from "vitest";
import { ganttLayout } from "../src/report/gantt.js";
import { createInstanceCache, simulateTask, simulateTaskPart } from "../src/sweep/execute.js";
import { planTasks } from "../src/sweep/plan.js";
import { readPlan } from "../src/sweep/results.js";
import { cli, tempDir } from "./helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

// A run of more than 40 jobs is drawn in its first part (the real bound is 50,000).
vi.mock("../src/report/limits.js", () => ({ GANTT_MAX_JOBS: 40 }));

/** Sweep `doc` into a fresh folder, report it; the folder, the page and report's stderr. */
async function sweepAndReport(doc: unknown): Promise<{ dir: string; html: string; err: string }> {
  const dir = await tempDir();
  const s = await cli("sweep", await writeExperiment(doc), "--out", dir, "--quiet");
  expect(s.code, s.stderr).toBe(0);
  const r = await cli("report", dir);
  expect(r.code, r.stderr).toBe(0);
  return { dir, html: await readFile(join(dir, "report.html"), "utf8"), err: r.stderr };
}

/** The first part equals the whole run up to the cut: same jobs started, same starts and machines. */
function expectFirstPartOf(part: ScheduleTrace, whole: ScheduleTrace, before: number): void {
  const started = (t: ScheduleTrace) =>
    t.records
      .filter((r) => r.intervals.length > 0 && (r.intervals[0]?.start as number) < before)
      .map((r) => JSON.stringify([r.job.id, r.intervals[0]?.start, r.intervals[0]?.allocation]));
  expect(started(part).length).toBeGreaterThan(0);
  expect(started(part)).toEqual(started(whole));
  let completed = 0;
  for (const r of part.records) {
    if (r.outcome !== "completed") continue;
    expect(r).toEqual(whole.records.find((w) => w.job.id === r.job.id));
    completed++;
  }
  expect(completed).toBeGreaterThan(0);
}

describe("sched-sim report on a run of more jobs than the Gantt chart draws", () => {
  it("draws the first part of an SWF trace, says so, and checks the whole run's metrics streamed", async () => {
    const swf = join(await tempDir(), "l.swf");
    const g = await cli("gen", "lublin", "--jobs", "300", "--seed", "2", "--out", swf);
    expect(g.code, g.stderr).toBe(0);
    const doc = {
      name: "cut",
      workload: { type: "swf", path: swf },
      platform: { procs: 64 },
      // easy: the pooled kernel streams the check; conservative: the general engine.
      schedulers: ["easy", "conservative"],
    };
    const { dir, html, err } = await sweepAndReport(doc);
    expect(err).toBe(`wrote ${join(dir, "report.html")}\n`);
    const plan = await readPlan(dir, "report");
    const task = planTasks(plan)[0] as NonNullable<ReturnType<typeof planTasks>[0]>;
    const { trace, cut } = await simulateTaskPart(plan, task, createInstanceCache("report"), 40);
    expect(cut).not.toBeNull();
    const { jobs, before } = cut as { jobs: number; before: number };
    expect(jobs).toBeLessThanOrEqual(40);
    expect(trace.records).toHaveLength(jobs);
    // Nothing is drawn at or after the arrival of the first job left out (it would take part).
    expect(trace.horizon).toBeLessThan(before);
    for (const r of trace.records)
      for (const iv of r.intervals) expect(iv.end).toBeLessThan(before);
    expectFirstPartOf(trace, await simulateTask(plan, task), before);
    expect(html).toContain(
      `the first ${jobs} of 300 jobs (those submitted before t = ${before}, when the next one arrives)`,
    );
    expect(html).toContain(
      "The metrics check covers the whole run simulated again in a streamed pass (its trace not kept): its metrics equal the stored result.",
    );
    expect(html).toContain(`data-bars="${ganttLayout(trace).bars.length}"`);
    // Same bytes again; the other scheduler on the general engine is cut and checked too.
    const again = join(await tempDir(), "again.html");
    expect((await cli("report", dir, "--out", again)).code).toBe(0);
    expect(await readFile(again, "utf8")).toBe(html);
    const other = planTasks(plan)[1] as { key: string };
    const cons = join(await tempDir(), "cons.html");
    expect((await cli("report", dir, "--run", other.key, "--out", cons)).code).toBe(0);
    const consHtml = await readFile(cons, "utf8");
    expect(consHtml).toContain(`of 300 jobs (those submitted before t = `);
    expect(consHtml).toContain("streamed pass (its trace not kept): its metrics equal");
  });

  it("draws the first part of a native file, streamed (on its platform file when it has one)", async () => {
    const gen = join(await tempDir(), "g");
    const files = {
      ar: [`${gen}-ar.jsonl`, undefined],
      mc: [`${gen}-mc.jsonl`, `${gen}-mc.json`],
    } as const;
    for (const args of [
      ["advance-reservation", "--jobs", "300", "--procs", "64", "--out", files.ar[0]],
      [
        ...["multicluster", "--jobs", "300", "--load", "3", "--speeds", "heterogeneous"],
        ...["--out", files.mc[0], "--platform", files.mc[1]],
      ],
    ]) {
      const g = await cli("gen", ...args);
      expect(g.code, g.stderr).toBe(0);
    }
    for (const [path, platform] of Object.values(files)) {
      const { dir, html } = await sweepAndReport({
        name: "cut",
        workload: { type: "native", path },
        ...(platform === undefined ? {} : { platform }),
        schedulers: ["easy", "conservative"],
      });
      const plan = await readPlan(dir, "report");
      for (const task of planTasks(plan)) {
        const cache = createInstanceCache("report");
        const { trace, cut } = await simulateTaskPart(plan, task, cache, 40);
        // The first jobs only, streamed: the file is not read whole.
        expect(cache.native.size, path).toBe(0);
        const { jobs, before } = cut as { jobs: number; before: number };
        expect(jobs).toBeLessThanOrEqual(40);
        expect(trace.records).toHaveLength(jobs);
        expectFirstPartOf(trace, await simulateTask(plan, task), before);
      }
      expect(html).toMatch(/the first \d+ of 300 jobs \(those submitted before t = /);
      expect(html).toContain("its metrics equal the stored result");
    }
  });

  it("cuts a generated workload too, and warns when the whole run's metrics differ", async () => {
    const { dir, html } = await sweepAndReport(smallExperiment([0.7], 1));
    expect(html).toMatch(/the first \d+ of 60 jobs \(those submitted before t = /);
    expect(html).toContain("its metrics equal the stored result");
    const plan = await readPlan(dir, "report");
    const task = planTasks(plan)[0] as { key: string };
    const file = join(dir, "runs", `${task.key}.json`);
    const stored = JSON.parse(await readFile(file, "utf8"));
    stored.metrics.meanWait += 1;
    await writeFile(file, JSON.stringify(stored, null, 2));
    const out = join(await tempDir(), "w.html");
    expect((await cli("report", dir, "--out", out)).code).toBe(0);
    expect(await readFile(out, "utf8")).toContain(
      "WARNING: the whole run simulated again in a streamed pass (its trace not kept): meanWait differ from the stored result",
    );
  });

  it("has no first part to draw when the first 41 jobs all arrive at one time, and says so", async () => {
    // 45 jobs at t = 0, 5 more later: no part of the run ends before job 41 arrives.
    const path = join(await tempDir(), "burst.jsonl");
    const job = (id: number, submit: number) =>
      `{"id":${id},"submit":${submit},"runtime":10,"estimate":10,"cores":1}`;
    const lines = [
      '{"format":"@sched/jobs","version":1,"meta":{"procs":8}}',
      ...Array.from({ length: 45 }, (_, i) => job(i + 1, 0)),
      ...Array.from({ length: 5 }, (_, i) => job(46 + i, 100)),
    ];
    await writeFile(path, `${lines.join("\n")}\n`);
    const dir = await tempDir();
    const doc = { name: "burst", workload: { type: "native", path }, schedulers: ["fcfs"] };
    const s = await cli("sweep", await writeExperiment(doc), "--out", dir, "--quiet");
    expect(s.code, s.stderr).toBe(0);
    const plan = await readPlan(dir, "report");
    const task = planTasks(plan)[0] as NonNullable<ReturnType<typeof planTasks>[0]>;
    await expect(simulateTaskPart(plan, task, createInstanceCache("report"), 40)).rejects.toThrow(
      "its first 41 jobs all arrive at t = 0: no first part of the run to draw",
    );
  });

  it("draws a run of at most that many jobs whole, as before", async () => {
    const { html } = await sweepAndReport({
      ...smallExperiment([0.5], 1),
      workload: { type: "synthetic", jobs: 40 },
    });
    expect(html).not.toContain("first part");
    expect(html).toContain(": 40 jobs on 16 machines (16 cores).");
    expect(html).toContain("Simulated again for this chart: its metrics equal the stored result.");
  });
});
