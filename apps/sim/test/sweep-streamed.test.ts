import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTraceNoLostJobs } from "../src/lost-jobs.js";
import {
  createInstanceCache,
  executeTask,
  measureRun,
  type RunRecord,
  simulateTask,
} from "../src/sweep/execute.js";
import {
  type PlannedScheduler,
  planTasks,
  type SweepPlan,
  type WorkloadSpec,
} from "../src/sweep/plan.js";
import { userMessage } from "../src/user-message.js";
import { fixture, tempDir } from "./helpers.js";

// A file sweep simulates each run without its trace: an SWF trace streamed from its file (`easy`
// and `fcfs` with default options on the pooled kernel), a generated workload from memory. Its
// records must be those of the whole-trace path (`simulateTask`, which `report` draws, then core's
// `computeMetrics`), to the bit.

const SCHEDULERS: readonly PlannedScheduler[] = [
  { name: "fcfs", opts: [], label: "fcfs" },
  { name: "easy", opts: [], label: "easy" },
  { name: "conservative", opts: [], label: "conservative" },
  { name: "easy", opts: ["order=sjf"], label: "easy(order=sjf)" },
  { name: "random", opts: [], label: "random" },
  { name: "bf-rm", opts: [], label: "bf-rm" },
];

function plan(workload: WorkloadSpec, grid: Readonly<Record<string, number[]>> = {}): SweepPlan {
  const params = Object.keys(grid);
  let points: number[][] = [[]];
  for (const values of Object.values(grid)) {
    points = points.flatMap((p) => values.map((v) => [...p, v]));
  }
  return {
    name: "streamed",
    title: "",
    description: "",
    source: { kind: "file", workload },
    params,
    points,
    seeds: [1, 2],
    schedulers: SCHEDULERS,
    metrics: ["meanWait"],
  };
}

/** The record of the whole-trace path: `simulateTask`, the lost-jobs check, `measureRun`. */
async function wholeTraceRecord(p: SweepPlan, task: ReturnType<typeof planTasks>[number]) {
  const cache = createInstanceCache();
  const trace = await simulateTask(p, task, cache);
  checkTraceNoLostJobs("run", trace);
  const metrics = await measureRun(p, task, trace, cache);
  return { metrics, events: trace.stats.events, decisions: trace.stats.decisions };
}

/** What a record says, as JSON would keep it (NaN and -0 told apart by `Object.is`). */
function numbersOf(r: Pick<RunRecord, "metrics" | "events" | "decisions">): unknown[] {
  return [...Object.entries(r.metrics).sort(), r.events, r.decisions];
}

async function expectSameRecords(p: SweepPlan): Promise<void> {
  const cache = createInstanceCache();
  for (const task of planTasks(p)) {
    const { record } = await executeTask(p, task, cache);
    const whole = await wholeTraceRecord(p, task);
    const got = numbersOf(record);
    const want = numbersOf(whole);
    expect(got.length).toBe(want.length);
    for (let k = 0; k < got.length; k++) {
      expect(Object.is(JSON.stringify(got[k]), JSON.stringify(want[k])), `${task.key} #${k}`).toBe(
        true,
      );
    }
  }
}

function swf(
  path: string,
  more: Partial<Extract<WorkloadSpec, { type: "swf" }>> = {},
): WorkloadSpec {
  return { type: "swf", path, clean: false, estimate: "requested", ...more };
}

describe("sweep: a file sweep's runs, streamed, equal the whole trace's", () => {
  it("an SWF excerpt (KTH-SP2, 1000 jobs), cleaned, on its header's size and two others", async () => {
    await expectSameRecords(plan(swf(fixture("kth-sp2-head.swf"), { clean: true })));
    await expectSameRecords(
      plan(swf(fixture("kth-sp2-head.swf"), { clean: true, estimate: "runtime" }), {
        procs: [100, 48],
      }),
    );
  }, 30_000);

  it("a gzipped trace (read by the general reader, easy and fcfs still on the kernel)", async () => {
    await expectSameRecords(plan(swf(fixture("nasa-ipsc-head.swf.gz"), { clean: true })));
  }, 30_000);

  it("generated workloads (synthetic, a model), simulated from memory", async () => {
    await expectSameRecords(
      plan({ type: "synthetic", jobs: 300, load: 0.9, procs: 32 }, { load: [0.5, 0.95] }),
    );
    await expectSameRecords(plan({ type: "model", model: "lublin", options: { jobs: "300" } }));
  }, 30_000);

  it("does not keep a sorted trace in memory between runs; an unsorted one is read whole once, and sorted as run sorts it", async () => {
    const dir = await tempDir();
    const sorted = join(dir, "kth.swf");
    await copyFile(fixture("kth-sp2-head.swf"), sorted);
    const p = plan(swf(sorted, { clean: true }));
    const cache = createInstanceCache();
    for (const task of planTasks(p).slice(0, 6)) await executeTask(p, task, cache);
    expect(cache.swf.size).toBe(0);

    // Jobs 20 and 21 swapped (submitted at 605396 and 605397): not sorted by submit time any more.
    const lines = (await readFile(sorted, "utf8")).split("\n");
    const at = lines.findIndex((l) => /^\s*20\s/.test(l));
    expect(lines[at + 1]).toMatch(/^\s*21\s/);
    [lines[at], lines[at + 1]] = [lines[at + 1]!, lines[at]!];
    const unsorted = join(dir, "unsorted.swf");
    await writeFile(unsorted, lines.join("\n"));
    const q = plan(swf(unsorted, { clean: true }));
    const again = createInstanceCache();
    const tasks = planTasks(q);
    const records = [];
    for (const task of tasks) records.push((await executeTask(q, task, again)).record);
    expect(again.swf.size).toBe(1);
    // The same runs as on the sorted file (the two jobs' order there is submit, then id).
    const cacheSorted = createInstanceCache();
    for (const [k, task] of tasks.entries()) {
      const { record } = await executeTask(p, planTasks(p)[k]!, cacheSorted);
      expect(numbersOf(records[k]!), task.key).toEqual(numbersOf(record));
    }
    await expectSameRecords(q);
  }, 30_000);

  it("a bad trace fails each run with the whole-trace path's message, in the experiment file's words", async () => {
    for (const [name, more] of [
      ["malformed.swf", {}],
      ["no-size.swf", {}],
      ["nasa-ipsc-head.swf.gz", {}], // run times of 0: the clean-up is not asked for
    ] as const) {
      const p = plan(swf(fixture(name), more));
      for (const task of planTasks(p).slice(0, 3)) {
        const streamed = await executeTask(p, task, createInstanceCache()).then(
          () => "no error",
          (e: unknown) => userMessage(e),
        );
        const whole = await wholeTraceRecord(p, task).then(
          () => "no error",
          (e: unknown) => userMessage(e),
        );
        expect(streamed).not.toBe("no error");
        expect(streamed, `${name} ${task.key}`).toBe(whole);
      }
    }
    const p = plan(swf(fixture("nasa-ipsc-head.swf.gz"), { estimate: "runtime" }));
    await expect(executeTask(p, planTasks(p)[1]!, createInstanceCache())).rejects.toThrow(
      /nasa-ipsc-head\.swf\.gz:\d+: \(job \d+\) run time \(field 4\) is 0, expected > 0 \(or set "clean": true in "workload" to drop such jobs\)/,
    );
  }, 30_000);
});
