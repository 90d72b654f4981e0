import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
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
import { cli, fixture, tempDir } from "./helpers.js";

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

/** What `run` failed with, in the user's words, or "no error". */
function errorOf(run: Promise<unknown>): Promise<string> {
  return run.then(
    () => "no error",
    (e: unknown) => userMessage(e),
  );
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

  it("an SWF excerpt on a platform file (128 machines of 4 speeds: the general engine for every policy)", async () => {
    const dir = await tempDir();
    const { platform } = await gen(
      dir,
      "big",
      [
        ...["multicluster", "--jobs", "1", "--clusters", "4", "--processorsPerCluster", "32"],
        ...["--speeds", "heterogeneous"],
      ],
      true,
    );
    const onFile = plan(swf(fixture("kth-sp2-head.swf"), { clean: true, platform }));
    await expectSameRecords(onFile);
    // The platform file's machines are the ones simulated, as run --platform simulates them.
    const easy = planTasks(onFile).find((t) => t.scheduler === 1 && t.seed === 1)!;
    const { record } = await executeTask(onFile, easy, createInstanceCache());
    const run = await cli(
      ...["run", "-w", fixture("kth-sp2-head.swf"), "--clean", "--platform", platform],
      ...["-s", "easy", "--format", "json"],
    );
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as Record<string, number>;
    for (const k of ["meanWait", "makespan", "utilization", "events", "decisions"]) {
      // run's JSON has 6 decimals
      expect(k in record.metrics ? record.metrics[k] : record[k as "events"], k).toBeCloseTo(
        json[k] as number,
        6,
      );
    }
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
        const streamed = await errorOf(executeTask(p, task, createInstanceCache()));
        const whole = await errorOf(wholeTraceRecord(p, task));
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

function native(
  path: string,
  more: Partial<Extract<WorkloadSpec, { type: "native" }>> = {},
): WorkloadSpec {
  return { type: "native", path, ...more };
}

/** `sched-sim gen MODEL ARGS --out DIR/NAME.jsonl [--platform DIR/NAME.json]`: the files' paths. */
async function gen(
  dir: string,
  name: string,
  args: readonly string[],
  withPlatform = false,
): Promise<{ jobs: string; platform: string }> {
  const jobs = join(dir, `${name}.jsonl`);
  const platform = join(dir, `${name}.json`);
  const out = await cli(
    "gen",
    ...args,
    "--out",
    jobs,
    ...(withPlatform ? ["--platform", platform] : []),
  );
  expect(out.code, out.stderr).toBe(0);
  return { jobs, platform };
}

/** The records of every run of `p`, in task order. */
async function recordsOf(p: SweepPlan, cache = createInstanceCache()): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for (const task of planTasks(p)) out.push(numbersOf((await executeTask(p, task, cache)).record));
  return out;
}

describe("sweep: a native (JSON Lines) workload's runs, streamed, equal the whole file's", () => {
  it("an advance-reservation file from gen (ready times, deadlines), on its header's meta.procs and on a grid of procs", async () => {
    const dir = await tempDir();
    const { jobs } = await gen(dir, "ar", [
      "advance-reservation",
      "--jobs",
      "150",
      "--procs",
      "128",
    ]);
    const text = await readFile(jobs, "utf8");
    expect(text).toMatch(/"ready":/);
    expect(text).toMatch(/"deadline":/);
    expect(text).toMatch(/"procs":128/);
    await expectSameRecords(plan(native(jobs)));
    await expectSameRecords(plan(native(jobs, { procs: 256 }), { procs: [64, 128] }));
    // Gzipped: the same records as the plain file.
    const gz = join(dir, "ar.jsonl.gz");
    await writeFile(gz, gzipSync(text));
    await expectSameRecords(plan(native(gz)));
    expect(await recordsOf(plan(native(gz)))).toEqual(await recordsOf(plan(native(jobs))));
  }, 30_000);

  it("a multicluster file from gen on its platform file (heterogeneous speeds: not meta.procs' identical processors)", async () => {
    const dir = await tempDir();
    const { jobs, platform } = await gen(
      dir,
      "mc",
      ["multicluster", "--jobs", "150", "--load", "3", "--speeds", "heterogeneous", "--seed", "2"],
      true,
    );
    await expectSameRecords(plan(native(jobs, { platform })));
    await expectSameRecords(plan(native(jobs)));
    // The platform file's machines are the ones simulated: faster machines, shorter responses.
    const onFile = await recordsOf(plan(native(jobs, { platform })));
    const onPool = await recordsOf(plan(native(jobs)));
    expect(onFile).not.toEqual(onPool);
  }, 30_000);

  it("does not keep a sorted file in memory between runs; an unsorted one is read whole once, and sorted as run sorts it", async () => {
    const dir = await tempDir();
    const { jobs } = await gen(dir, "l", [
      "lublin",
      "--jobs",
      "300",
      "--procs",
      "64",
      "--seed",
      "3",
    ]);
    const p = plan(native(jobs));
    const cache = createInstanceCache();
    const sorted = await recordsOf(p, cache);
    expect(cache.native.size).toBe(0);

    // Two job lines of different submit times swapped: not sorted by submit time any more.
    const lines = (await readFile(jobs, "utf8")).split("\n");
    const submit = (l: string) => (JSON.parse(l) as { submit: number }).submit;
    const at = lines.findIndex((l, i) => i > 1 && l !== "" && submit(l) > submit(lines[i - 1]!));
    [lines[at - 1], lines[at]] = [lines[at]!, lines[at - 1]!];
    const unsorted = join(dir, "unsorted.jsonl");
    await writeFile(unsorted, lines.join("\n"));
    const q = plan(native(unsorted));
    const again = createInstanceCache();
    expect(await recordsOf(q, again)).toEqual(sorted);
    expect(again.native.size).toBe(1);
    await expectSameRecords(q);
  }, 30_000);

  it("a bad line fails each run with the whole-file path's message, naming the file and line", async () => {
    const dir = await tempDir();
    const { jobs } = await gen(dir, "l", ["lublin", "--jobs", "50", "--procs", "64"]);
    const lines = (await readFile(jobs, "utf8")).split("\n");
    lines.splice(4, 0, '{"id":999,"submit":5,"runtime":-1,"cores":1}');
    const bad = join(dir, "bad.jsonl");
    await writeFile(bad, lines.join("\n"));
    const p = plan(native(bad));
    for (const task of planTasks(p).slice(0, 3)) {
      const streamed = await errorOf(executeTask(p, task, createInstanceCache()));
      const whole = await errorOf(wholeTraceRecord(p, task));
      expect(streamed, task.key).toBe(
        `sweep: ${bad}:5 runtime: is -1, expected a finite number > 0`,
      );
      expect(whole, task.key).toBe(streamed);
    }
  }, 30_000);
});
