import { copyFile, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readExperimentFile } from "../src/sweep/experiment-file.js";
import { planTasks } from "../src/sweep/plan.js";
import {
  cancelQueueSweep,
  jobIdOf,
  parseRedisUrl,
  planId,
  queueStatus,
  runQueueWorker,
  submitQueueSweep,
} from "../src/sweep/queue.js";
import { cli, tempDir } from "./helpers.js";
import {
  buildCli,
  expectDeliveredOnceUnlessStalled,
  type Proc,
  runFiles,
  startCli,
  startRedis,
  type TestRedis,
  waitFor,
  workerLog,
} from "./queue-helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";
import { timingKeys, timingMeans } from "./timing-helpers.js";

let redis: TestRedis = { stop: async () => {} };
let built: { cli: string; remove: () => Promise<void> } | undefined;

beforeAll(async () => {
  redis = await startRedis();
  if (redis.skipReason !== undefined) {
    console.warn(`queue.test.ts: SKIPPED: ${redis.skipReason}`);
    return;
  }
  built = await buildCli();
}, 90_000);

afterAll(async () => {
  await redis.stop();
  await built?.remove();
});

/** The Redis URL, or skip the test (with the reason printed once in beforeAll). */
function url(ctx: { skip: () => void }): string {
  if (redis.url === undefined) ctx.skip();
  return redis.url as string;
}

async function expectSameAsLocal(file: string, dir: string): Promise<void> {
  const local = await tempDir();
  const r = await cli("sweep", file, "--out", local, "--quiet");
  expect(r.code, r.stderr).toBe(0);
  for (const f of ["results.csv", "runs.csv", "experiment.json"]) {
    expect(await readFile(join(dir, f), "utf8"), f).toBe(await readFile(join(local, f), "utf8"));
  }
  expect(await runFiles(dir)).toEqual(await runFiles(local));
  // timing.csv: written by the submitter from the collected run files; other numbers, same rows
  expect(await timingKeys(dir)).toEqual(await timingKeys(local));
  for (const m of await timingMeans(dir)) expect(Number.isFinite(m)).toBe(true);
}

async function stopWorker(p: Proc): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGTERM");
  const { code } = await p.exited;
  expect(code, p.stderr).toBe(0);
}

describe("sweep --queue redis://... and sched-sim worker (real redis-server, built CLI)", () => {
  it("two worker processes: every run done, delivered again only by a logged stalled-job check, results byte-identical to a local sweep", async (ctx) => {
    const redisUrl = url(ctx);
    const cliPath = (built as { cli: string }).cli;
    const file = await writeExperiment(smallExperiment([0.3, 0.5, 0.7], 4));
    const plan = await readExperimentFile(file);
    const keys = planTasks(plan).map((t) => t.key);
    const out = await tempDir();
    const common = ["--queue", redisUrl, "--queue-name", "two-workers"];
    const workers = [0, 1].map(() =>
      startCli(cliPath, ["worker", ...common, "--jobs", "1", "--stall-timeout", "5"]),
    );
    const submit = startCli(cliPath, ["sweep", file, "--out", out, ...common]);
    const { code } = await submit.exited;
    expect(code, submit.stderr).toBe(0);
    expect(submit.stderr).toContain(`queue: ${keys.length} runs in`);
    for (const w of workers) await stopWorker(w);
    const logs = workers.map((w) => workerLog(w.stderr));
    const done = logs.flatMap((l) => l.done);
    // Every run done, each once unless a stalled-job check put it back (a worker starved of CPU
    // past the 5 s lock on a busy machine): then once more per time, and never otherwise.
    expect(new Set(done)).toEqual(new Set(keys));
    expectDeliveredOnceUnlessStalled(logs);
    if (logs.every((l) => l.stalled.length === 0)) expect(done).toHaveLength(keys.length);
    expect((await readdir(join(out, "runs"))).filter((f) => !f.startsWith("."))).toHaveLength(
      keys.length,
    );
    await expectSameAsLocal(file, out);
  }, 60_000);

  it("a worker SIGKILLed mid-run: its run goes back to the queue and finishes on the other worker", async (ctx) => {
    const redisUrl = url(ctx);
    const cliPath = (built as { cli: string }).cli;
    const file = await writeExperiment({
      name: "kill",
      workload: { type: "synthetic", jobs: 2500 },
      platform: { procs: 32 },
      schedulers: ["fcfs", "easy"],
      grid: { load: [0.6, 0.8] },
      seeds: 3,
      metrics: ["meanWait", "utilization"],
    });
    const plan = await readExperimentFile(file);
    const keys = planTasks(plan).map((t) => t.key);
    const out = await tempDir();
    const common = ["--queue", redisUrl, "--queue-name", "kill"];
    // Locks of 3 s, renewed every 1.5 s: a run's lock must not expire while its worker runs it
    // (a worker starved of CPU that long on a busy machine loses the lock, and the run is
    // delivered again: at least once, as the queue promises, but then done twice, which this
    // test counts). A killed worker's run is back in the queue 3 to 6 s after the kill.
    const worker = ["worker", ...common, "--jobs", "1", "--stall-timeout", "3"];
    const detach = await cli("sweep", file, "--out", out, ...common, "--detach");
    expect(detach.code, detach.stderr).toBe(0);
    expect(detach.stderr).toContain(`enqueued ${keys.length} runs`);
    // The kill must land inside a run. On a busy machine it can land between two runs (the
    // victim's run ended and the next one had not started): then nothing is lost, and another
    // victim is started, at most three in all.
    const victims: ReturnType<typeof workerLog>[] = [];
    let lost: string[] = [];
    for (let attempt = 0; attempt < 3 && lost.length === 0; attempt++) {
      const victim = startCli(cliPath, worker);
      await waitFor(() => workerLog(victim.stderr).started.length > 0, 20_000, "a run to start");
      victim.child.kill("SIGKILL");
      expect((await victim.exited).signal).toBe("SIGKILL");
      const log = workerLog(victim.stderr);
      victims.push(log);
      lost = log.started.filter((k) => !log.done.includes(k));
    }
    expect(lost.length).toBeGreaterThan(0);

    const survivor = startCli(cliPath, worker);
    const submit = startCli(cliPath, ["sweep", file, "--out", out, ...common]);
    const { code } = await submit.exited;
    expect(code, submit.stderr).toBe(0);
    await stopWorker(survivor);
    const kept = workerLog(survivor.stderr);
    const saved = kept.done;
    // The lost runs: put back by the survivor's stalled-job check (it says so), then done there.
    for (const k of lost) {
      expect(kept.stalled).toContain(k);
      expect(saved).toContain(k);
    }
    // Every run finished. A run is delivered once, and again only when a stalled-job check put
    // it back (logged): the lost runs; a victim's last reported run, whose result was stored
    // just before the kill, before the queue took it as finished; and any run whose lock expired
    // because its worker was starved of CPU on a busy machine. Those may be done twice (the
    // result is the same bytes, and the submitter keeps one); nothing else may.
    const byVictims = victims.flatMap((v) => v.done);
    expect(new Set([...byVictims, ...saved])).toEqual(new Set(keys));
    expectDeliveredOnceUnlessStalled([...victims, kept]);
    await expectSameAsLocal(file, out);
  }, 60_000);

  it("resume, status, cancel and bounded retries (in-process worker and submitter)", async (ctx) => {
    const redisUrl = url(ctx);
    const target = parseRedisUrl("test", redisUrl);
    const file = await writeExperiment(smallExperiment([0.4, 0.8], 2));
    const plan = await readExperimentFile(file);
    const total = planTasks(plan).length;
    const queueName = "resume";
    const out = await tempDir();
    const base = { out, queueName, attempts: 3, pollMs: 50 };

    // enqueue twice: the job ids are the run keys, so nothing is queued twice
    const first = await submitQueueSweep(plan, target, { ...base, detach: true });
    expect(first.enqueued).toBe(total);
    await submitQueueSweep(plan, target, { ...base, detach: true });
    let status = await queueStatus(plan, target, queueName);
    expect(status.queue.waiting).toBe(total);
    expect(status.known).toBe(true);

    // cancel: the queued runs are removed, a worker would skip any left, status says so
    expect(await cancelQueueSweep(plan, target, queueName)).toBe(total);
    status = await queueStatus(plan, target, queueName);
    expect(status.queue.waiting).toBe(0);
    expect(status.cancelled).toBe(true);
    expect(
      await cli("sweep", file, "--queue", redisUrl, "--queue-name", queueName, "--status"),
    ).toMatchObject({ code: 0 });

    // resume: submitting again clears the cancel and enqueues every run without a result
    const lines: string[] = [];
    const worker = runQueueWorker(target, {
      queueName,
      jobs: 1,
      stallSeconds: 2,
      idleExitSeconds: 1,
      log: (l) => lines.push(l),
    });
    const done = await submitQueueSweep(plan, target, { ...base, detach: false });
    expect(done.summarized).toBe(true);
    expect(done.records).toHaveLength(total);
    expect((await worker).done).toBe(total);
    await expectSameAsLocal(file, out);
    // a finished sweep submitted again enqueues nothing and writes the same files
    const again = await submitQueueSweep(plan, target, { ...base, detach: false });
    expect(again.enqueued).toBe(0);
    expect(again.skipped).toBe(total);
    await expectSameAsLocal(file, out);

    // bounded retries: a run that always throws is tried --attempts times, then failed/KEY.json.
    // The experiment file is valid when read (its trace exists); the trace is deleted before the
    // workers run, so the one run made fails on every attempt; seed-free, seed 2's run takes its
    // failure without being enqueued.
    const trace = join(await tempDir(), "gone.swf");
    await copyFile(join(import.meta.dirname, "fixtures", "small.swf"), trace);
    const badFile = await writeExperiment({
      name: "bad",
      workload: { type: "swf", path: trace },
      schedulers: ["fcfs"],
      seeds: 2,
      metrics: ["makespan"],
    });
    const bad = await readExperimentFile(badFile);
    await rm(trace);
    const badOut = await tempDir();
    const badLines: string[] = [];
    const badWorker = runQueueWorker(target, {
      queueName: "bad",
      jobs: 1,
      stallSeconds: 2,
      idleExitSeconds: 1,
      log: (l) => badLines.push(l),
    });
    const r = await submitQueueSweep(bad, target, {
      out: badOut,
      queueName: "bad",
      attempts: 2,
      pollMs: 50,
      detach: false,
    });
    await badWorker;
    expect(r.records).toHaveLength(0);
    expect(r.enqueued).toBe(1);
    expect(r.failures.map((f) => f.seed)).toEqual([1, 2]);
    const [failedKey, followerKey] = r.failures.map((f) => f.key) as [string, string];
    expect(badLines.filter((l) => l.startsWith(`failed ${failedKey}`))).toHaveLength(2);
    expect(badLines.filter((l) => l.includes(followerKey))).toEqual([]);
    expect(r.failures[1]?.error).toBe(r.failures[0]?.error);
    expect((await readdir(join(badOut, "failed"))).sort()).toEqual(
      [`${failedKey}.json`, `${followerKey}.json`].sort(),
    );
    expect(jobIdOf(planId(bad), failedKey)).not.toContain(":");
  }, 60_000);

  it("seed-free runs: one run enqueued per class, its record copied to the other seeds, as a local sweep does", async (ctx) => {
    const redisUrl = url(ctx);
    const target = parseRedisUrl("test", redisUrl);
    const trace = join(await tempDir(), "kth.swf");
    await copyFile(join(import.meta.dirname, "fixtures", "kth-sp2-head.swf"), trace);
    const file = await writeExperiment({
      name: "seed-free",
      workload: { type: "swf", path: trace },
      schedulers: ["easy", "random"],
      seeds: 3,
      metrics: ["meanWait"],
    });
    const plan = await readExperimentFile(file);
    const queueName = "seed-free";
    const out = await tempDir();
    const worker = runQueueWorker(target, {
      queueName,
      jobs: 1,
      stallSeconds: 2,
      idleExitSeconds: 1,
      log: () => {},
    });
    const done = await submitQueueSweep(plan, target, {
      out,
      queueName,
      attempts: 2,
      pollMs: 50,
      detach: false,
    });
    // easy once (seed 1), random for each of its 3 seeds
    expect(done.enqueued).toBe(4);
    expect((await worker).done).toBe(4);
    expect(done.records).toHaveLength(6);
    await expectSameAsLocal(file, out);
    const copy = JSON.parse(
      await readFile(
        join(
          out,
          "runs",
          `${planTasks(plan).find((t) => t.seed === 3 && t.scheduler === 0)?.key}.json`,
        ),
        "utf8",
      ),
    );
    expect(copy.copyOf).toBe(planTasks(plan).find((t) => t.seed === 1 && t.scheduler === 0)?.key);
    expect(copy.timing).toBeUndefined();
  }, 60_000);
});
