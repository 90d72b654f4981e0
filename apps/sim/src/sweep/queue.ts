import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import type { Job, Queue, Worker } from "bullmq";
import { stableJson } from "../format.js";
import { UsageError } from "../usage-error.js";
import type { RunRecord, RunTiming } from "./execute.js";
import { planTasks, type RunTask, type SweepPlan } from "./plan.js";
import { inlineExecutor, type RunExecutor, workerExecutor } from "./pool.js";
import {
  copiedRunJson,
  experimentJson,
  orderRecords,
  parseRunFile,
  parseRunJson,
  type RunFailure,
  runJson,
  SWEEP_FORMAT,
} from "./results.js";
import { copyRecord, splitSeedFree } from "./seed-free.js";
import { writeShared } from "./shard.js";
import { keep, prepareDir, type SweepOutcome, writeSummaries } from "./sweep.js";

/** Where the queue lives: a parsed `redis://[user:password@]host:port[/db]` (or `rediss://`). */
export interface RedisTarget {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
  /** The URL without its password, for messages. */
  readonly shown: string;
}

/** Default BullMQ queue name. */
export const DEFAULT_QUEUE_NAME = "sched-sim";

/**
 * Parse `--queue URL`: `redis://host:port[/db]`, with optional `user:password@` and `rediss://`
 * for TLS. Port defaults to 6379, db to 0.
 *
 * @throws UsageError naming the option and what was expected.
 */
export function parseRedisUrl(command: string, text: string): RedisTarget {
  const bad = (why: string): UsageError =>
    new UsageError(
      `${command}: option --queue must be redis://host:port[/db] (${why}), got '${text}'`,
      command,
    );
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad("not a URL");
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw bad(`scheme ${url.protocol.replace(":", "")} is not redis or rediss`);
  }
  if (url.hostname === "") throw bad("no host");
  const port = url.port === "" ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\//, "");
  if (!/^\d*$/.test(path)) throw bad(`database '${path}' is not a number`);
  const db = path === "" ? 0 : Number(path);
  if (db > 15) throw bad(`database ${db} is out of range 0..15`);
  if (url.search !== "" || url.hash !== "") throw bad("no query or fragment expected");
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return {
    host,
    port,
    db,
    ...(username === "" ? {} : { username }),
    ...(password === "" ? {} : { password }),
    tls: url.protocol === "rediss:",
    shown: `${url.protocol}//${url.hostname}:${port}/${db}`,
  };
}

/** ioredis connection options of `target` (BullMQ needs `maxRetriesPerRequest: null`). */
function connectionOptions(target: RedisTarget): Record<string, unknown> {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.tls ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

/**
 * Fail early, with a clear message, when nothing listens at the target (ioredis would otherwise
 * retry silently for ever).
 */
export async function checkReachable(target: RedisTarget, timeoutMs = 5000): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: target.host, port: target.port });
    const fail = (why: string): void => {
      socket.destroy();
      reject(new Error(`cannot reach Redis at ${target.shown}: ${why}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer in ${timeoutMs / 1000} s`));
    socket.once("error", (e: NodeJS.ErrnoException) => fail(e.code ?? e.message));
    socket.once("connect", () => {
      socket.end();
      resolve();
    });
  });
}

/** The identity of a plan in Redis: 16 hex digits of the SHA-256 of its `experiment.json`. */
export function planId(plan: SweepPlan): string {
  return createHash("sha256").update(experimentJson(plan)).digest("hex").slice(0, 16);
}

/** BullMQ job id of a run: `PLANID.KEY` (one job per run, so enqueueing twice adds nothing). */
export function jobIdOf(id: string, key: string): string {
  return `${id}.${key}`;
}

/** Redis keys of the data sched-sim keeps beside BullMQ's, per queue and plan. */
export function redisKeys(queueName: string, id: string) {
  const base = `sched-sim:${queueName}`;
  return {
    /** String: the plan's `experiment.json`, read by workers. */
    plan: `${base}:plan:${id}`,
    /** List: `runs/KEY.json` texts of finished runs, appended by workers, read by the submitter. */
    results: `${base}:results:${id}`,
    /** String, present while the sweep is cancelled: workers skip its remaining jobs. */
    cancelled: `${base}:cancelled:${id}`,
  };
}

/** The data of a run's job. */
export interface RunJobData {
  readonly plan: string;
  readonly key: string;
  /** Position in the canonical order ({@link planTasks}). */
  readonly position: number;
}

type Bullmq = typeof import("bullmq");
let bullmqModule: Promise<Bullmq> | undefined;

/** BullMQ, loaded on first use (the CLI starts without it). */
export function loadBullmq(): Promise<Bullmq> {
  bullmqModule ??= import("bullmq").catch((error: unknown) => {
    bullmqModule = undefined;
    throw new Error(
      `the Redis queue needs the bullmq package, which could not be loaded (${error instanceof Error ? error.message : String(error)}); install sched-sim with its dependencies`,
    );
  });
  return bullmqModule;
}

/** Redis commands used here (a subset of ioredis' client, which BullMQ exposes). */
interface Redis {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  del(...keys: string[]): Promise<number>;
  rpush(key: string, ...values: string[]): Promise<number>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
}

async function openQueue(
  target: RedisTarget,
  name: string,
): Promise<{ queue: Queue; redis: Redis }> {
  await checkReachable(target);
  const { Queue } = await loadBullmq();
  const queue = new Queue(name, { connection: connectionOptions(target) });
  queue.on("error", () => {
    // reconnects are ioredis' business; commands that fail reject on their own
  });
  const redis = (await queue.client) as unknown as Redis;
  return { queue, redis };
}

/** Job counts of the whole queue (every plan in it). */
interface Counts {
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
}

async function counts(queue: Queue): Promise<Counts> {
  const c = await queue.getJobCounts(
    "waiting",
    "active",
    "delayed",
    "prioritized",
    "paused",
    "failed",
  );
  return {
    waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.paused ?? 0),
    active: c.active ?? 0,
    delayed: c.delayed ?? 0,
    failed: c.failed ?? 0,
  };
}

/** The failed jobs of plan `id`, by run key, with the reason of their last attempt. */
async function failedRuns(queue: Queue, id: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const page = 500;
  for (let start = 0; ; start += page) {
    const jobs = await queue.getFailed(start, start + page - 1);
    for (const job of jobs) {
      if (job?.id?.startsWith(`${id}.`) === true) {
        out.set(job.id.slice(id.length + 1), job.failedReason ?? "failed");
      }
    }
    if (jobs.length < page) break;
  }
  return out;
}

/** Remove this plan's jobs in `types` from the queue; returns how many. */
async function removeJobs(
  queue: Queue,
  id: string,
  types: ("waiting" | "delayed" | "prioritized" | "paused" | "failed")[],
): Promise<number> {
  let removed = 0;
  for (;;) {
    const jobs = (await queue.getJobs(types, 0, 999)).filter(
      (j): j is Job => j?.id?.startsWith(`${id}.`) === true,
    );
    if (jobs.length === 0) return removed;
    let progress = 0;
    for (const job of jobs) {
      try {
        await job.remove();
        progress++;
      } catch {
        // taken by a worker meanwhile: it will finish
      }
    }
    removed += progress;
    if (progress === 0) return removed;
  }
}

/** Results in the Redis list of a plan: the texts by key (one per run; duplicates dropped). */
function parseResults(plan: SweepPlan, texts: readonly string[], into: Map<string, string>): void {
  const keys = new Set(planTasks(plan).map((t) => t.key));
  for (const text of texts) {
    try {
      const record = parseRunJson(text);
      if (keys.has(record.key) && !into.has(record.key)) into.set(record.key, text);
    } catch {
      // not a run record: ignored
    }
  }
}

/** How a queue sweep is submitted and followed. */
export interface QueueSweepOptions {
  readonly out: string;
  readonly queueName: string;
  /** Tries per run (BullMQ `attempts`), exponential back-off from 1 s. @defaultValue 3 */
  readonly attempts: number;
  /** Enqueue and return, without waiting. */
  readonly detach: boolean;
  /** Poll period of the submitter, ms. @defaultValue 500 */
  readonly pollMs?: number;
  readonly onProgress?: (line: string) => void;
  readonly signal?: AbortSignal;
  /** Notes for the user (stderr), e.g. re-enqueued runs. */
  readonly note?: (text: string) => void;
}

/** What a queue sweep submission ended with. */
export interface QueueSweepOutcome extends SweepOutcome {
  /** Runs added to the queue by this submission. */
  readonly enqueued: number;
  readonly detached: boolean;
  readonly cancelled: boolean;
}

/**
 * Submit `plan` to the queue and, unless detached, wait for its runs: every run without a result
 * in `out` (or in Redis) is enqueued as job `PLANID.KEY` (so submitting twice, or resuming, adds
 * nothing twice); workers append each finished run's `runs/KEY.json` text to a Redis list, which
 * the submitter copies into `out/runs/` (atomically, the same bytes a local sweep writes), so
 * `results.csv` and `runs.csv` are those of a local sweep (and `timing.csv` has its rows, with
 * the wall-clock numbers of these executions). A run whose attempts are all used is
 * written to `out/failed/KEY.json`. Seed-free runs are made once per class, as in a local sweep
 * (see `runSweep`): only the first pending run of each class is enqueued, and the submitter
 * copies its collected record (or its failure) to the others. Stopping the submitter (signal) loses nothing: the runs go on,
 * and the same command collects them later.
 */
export async function submitQueueSweep(
  plan: SweepPlan,
  target: RedisTarget,
  options: QueueSweepOptions,
): Promise<QueueSweepOutcome> {
  const id = planId(plan);
  const keys = redisKeys(options.queueName, id);
  const tasks = planTasks(plan);
  const positions = new Map(tasks.map((t, i) => [t.key, i]));
  const { out } = options;
  const finished = new Map<string, RunRecord>();
  const timings = new Map<string, RunTiming>();
  for (const f of await prepareDir(out, plan, true)) keep(finished, timings, f);
  const skipped = tasks.filter((t) => finished.has(t.key)).length;
  // Seed-free runs: one run enqueued per class; the others copy its record (or its failure).
  const seedFree = splitSeedFree(
    plan,
    tasks.filter((t) => !finished.has(t.key)),
    finished,
  );
  const enqueueable = new Set(seedFree.dispatched.map((t) => t.key));
  const followersOf = new Map<string, readonly RunTask[]>(seedFree.followers);
  const copyTo = async (list: readonly RunTask[], from: RunRecord): Promise<void> => {
    const files = new Map<string, string>();
    for (const t of list) {
      if (finished.has(t.key)) continue;
      const record = copyRecord(from, t);
      keep(finished, timings, { record, timing: undefined });
      files.set(join(out, "runs", `${t.key}.json`), copiedRunJson(record, from.key));
    }
    if (files.size === 0) return;
    await writeShared(files);
    await Promise.all(list.map((t) => rm(join(out, "failed", `${t.key}.json`), { force: true })));
  };
  for (const [t, from] of seedFree.toCopy) await copyTo([t], from);
  const { queue, redis } = await openQueue(target, options.queueName);
  try {
    await redis.set(keys.plan, experimentJson(plan));
    await redis.del(keys.cancelled);
    let offset = 0;
    const collect = async (): Promise<void> => {
      const texts = await redis.lrange(keys.results, offset, -1);
      offset += texts.length;
      const fresh = new Map<string, string>();
      parseResults(plan, texts, fresh);
      const files = new Map<string, string>();
      for (const [key, text] of fresh) {
        if (finished.has(key)) continue;
        keep(finished, timings, parseRunFile(text));
        files.set(join(out, "runs", `${key}.json`), text);
      }
      if (files.size > 0) {
        await writeShared(files);
        await Promise.all(
          [...fresh.keys()].map((k) => rm(join(out, "failed", `${k}.json`), { force: true })),
        );
      }
      for (const k of fresh.keys()) {
        const list = followersOf.get(k);
        const from = finished.get(k);
        if (list !== undefined && from !== undefined) await copyTo(list, from);
      }
    };
    await collect();
    // A resubmission retries the runs whose attempts were all used (as a local resume does).
    const oldFailures = await failedRuns(queue, id);
    if (oldFailures.size > 0) await removeJobs(queue, id, ["failed"]);
    const enqueue = async (list: readonly RunTask[]): Promise<void> => {
      for (let i = 0; i < list.length; i += 1000) {
        await queue.addBulk(
          list.slice(i, i + 1000).map((t) => ({
            name: "run",
            data: { plan: id, key: t.key, position: positions.get(t.key) as number },
            opts: {
              jobId: jobIdOf(id, t.key),
              attempts: options.attempts,
              backoff: { type: "exponential", delay: 1000 },
              removeOnComplete: true,
              removeOnFail: false,
            },
          })),
        );
      }
    };
    const pending = tasks.filter((t) => !finished.has(t.key) && enqueueable.has(t.key));
    await enqueue(pending);
    const enqueued = pending.length;
    const failures = new Map<string, RunFailure>();
    const outcome = (
      interrupted: boolean,
      extra: { detached?: boolean; cancelled?: boolean } = {},
    ): QueueSweepOutcome => ({
      records: orderRecords(plan, [...finished.values()]),
      failures: [...failures.values()],
      total: tasks.length,
      skipped,
      interrupted,
      summarized: false,
      timings,
      enqueued,
      detached: extra.detached ?? false,
      cancelled: extra.cancelled ?? false,
    });
    if (options.detach) return outcome(true, { detached: true });

    const started = Date.now();
    const doneAtStart = finished.size;
    let lastFailedCount = -1;
    let emptyPolls = 0;
    for (;;) {
      if (options.signal?.aborted) return outcome(true);
      if ((await redis.get(keys.cancelled)) !== null) return outcome(true, { cancelled: true });
      const c = await counts(queue);
      await collect();
      if (c.failed !== lastFailedCount) {
        lastFailedCount = c.failed;
        for (const [key, error] of await failedRuns(queue, id)) {
          if (finished.has(key) || failures.has(key)) continue;
          const task = tasks[positions.get(key) as number] as RunTask;
          const failure: RunFailure = {
            key,
            scheduler: (plan.schedulers[task.scheduler] as { label: string }).label,
            params: task.params,
            seed: task.seed,
            error,
          };
          // a seed-free run's failure is its followers' too
          const also = (followersOf.get(key) ?? []).filter(
            (f) => !finished.has(f.key) && !failures.has(f.key),
          );
          const files = new Map<string, string>();
          for (const t of [task, ...also]) {
            const one: RunFailure = { ...failure, key: t.key, seed: t.seed };
            failures.set(t.key, one);
            files.set(
              join(out, "failed", `${t.key}.json`),
              stableJson({ ...one, params: { ...one.params } }),
            );
          }
          await writeShared(files);
        }
      }
      const left = tasks.filter((t) => !finished.has(t.key) && !failures.has(t.key));
      if (left.length === 0) break;
      // Nothing queued, running or waiting to be retried anywhere, yet runs are missing: their
      // jobs were lost (removed by hand, or Redis restarted without persistence). Enqueue again.
      if (c.waiting + c.active + c.delayed === 0) {
        emptyPolls++;
        const lost = left.filter((t) => enqueueable.has(t.key));
        if (emptyPolls >= 2 && lost.length > 0) {
          await enqueue(lost);
          options.note?.(`re-enqueued ${lost.length} runs that were no longer in the queue\n`);
          emptyPolls = 0;
        }
      } else emptyPolls = 0;
      if (options.onProgress !== undefined) {
        const workers = await queue.getWorkersCount().catch(() => Number.NaN);
        const done = finished.size;
        const rate = (done - doneAtStart) / Math.max(1, Date.now() - started);
        const eta = rate > 0 ? ` ~${Math.round(left.length / rate / 1000)}s left,` : "";
        options.onProgress(
          `${plan.name}: ${done}/${tasks.length} runs, ${left.length} to go,${eta} ${failures.size} failed | queue: ${c.waiting} waiting, ${c.active} running, ${c.delayed} retrying; ${workers} workers`,
        );
      }
      await sleep(options.pollMs ?? 500, options.signal);
    }
    const records = orderRecords(plan, [...finished.values()]);
    await writeSummaries(out, plan, records, timings);
    if (failures.size === 0) await redis.del(keys.results);
    return { ...outcome(false), records, summarized: true };
  } finally {
    await queue.close();
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Where a plan's runs stand in Redis (for `sweep --status`). */
export interface QueueStatus {
  readonly total: number;
  /** Runs with a result in Redis not yet collected into a folder, or collected this session. */
  readonly inRedis: number;
  readonly failed: number;
  readonly cancelled: boolean;
  readonly queue: Counts;
  readonly workers: number;
  /** False when Redis does not know the plan (never submitted, or finished and cleaned). */
  readonly known: boolean;
}

/** Read where `plan` stands in the queue, without changing anything. */
export async function queueStatus(
  plan: SweepPlan,
  target: RedisTarget,
  queueName: string,
): Promise<QueueStatus> {
  const id = planId(plan);
  const keys = redisKeys(queueName, id);
  const { queue, redis } = await openQueue(target, queueName);
  try {
    const results = new Map<string, string>();
    parseResults(plan, await redis.lrange(keys.results, 0, -1), results);
    return {
      total: planTasks(plan).length,
      inRedis: results.size,
      failed: (await failedRuns(queue, id)).size,
      cancelled: (await redis.get(keys.cancelled)) !== null,
      queue: await counts(queue),
      workers: await queue.getWorkersCount(),
      known: (await redis.get(keys.plan)) !== null,
    };
  } finally {
    await queue.close();
  }
}

/**
 * Cancel `plan`'s sweep: mark it cancelled (workers skip its jobs; a waiting submitter stops),
 * and remove its queued, retrying and failed jobs. Runs being executed finish, and their results
 * stay in Redis; submitting again resumes. Returns the number of jobs removed.
 */
export async function cancelQueueSweep(
  plan: SweepPlan,
  target: RedisTarget,
  queueName: string,
): Promise<number> {
  const id = planId(plan);
  const { queue, redis } = await openQueue(target, queueName);
  try {
    await redis.set(redisKeys(queueName, id).cancelled, "1");
    return await removeJobs(queue, id, ["waiting", "prioritized", "paused", "delayed", "failed"]);
  } finally {
    await queue.close();
  }
}

/** How a queue worker runs. */
export interface QueueWorkerOptions {
  readonly queueName: string;
  /** Runs at a time (worker threads, or runs on this thread without `script`). */
  readonly jobs: number;
  /** The CLI bundle, started as worker threads; absent: runs on this thread. */
  readonly script?: URL;
  /**
   * Seconds a run's lock lasts without renewal (BullMQ `lockDuration`, renewed every half of it
   * while the run goes on) and period of the stalled-job check (`stalledInterval`): a killed
   * worker's runs are back in the queue after one to two of these. @defaultValue 30
   */
  readonly stallSeconds: number;
  /** Exit once the queue has had no queued, running or retrying job for this many seconds. */
  readonly idleExitSeconds?: number;
  readonly signal?: AbortSignal;
  /** One line per run started, finished or failed (stderr). */
  readonly log?: (line: string) => void;
}

/** What a worker did. */
export interface QueueWorkerSummary {
  readonly done: number;
  readonly failed: number;
}

/**
 * Take runs from the queue until the signal (or the queue stays empty for `idleExitSeconds`):
 * each job's plan is read from Redis (once per plan), the run is executed on this worker's
 * threads, and its `runs/KEY.json` text is appended to the plan's result list before the job
 * completes. A run that throws is retried by BullMQ (its attempts, with back-off); a worker that
 * dies holds its runs' locks until they expire, then the stalled-job check of any other worker
 * puts them back in the queue (BullMQ `maxStalledCount` 2: a run that kills its worker three
 * times fails). On the signal the worker stops taking runs and finishes those it holds.
 */
export async function runQueueWorker(
  target: RedisTarget,
  options: QueueWorkerOptions,
): Promise<QueueWorkerSummary> {
  await checkReachable(target);
  const { Worker: WorkerClass, Queue: QueueClass, UnrecoverableError } = await loadBullmq();
  const plans = new Map<
    string,
    Promise<{ plan: SweepPlan; tasks: RunTask[]; executor: RunExecutor }>
  >();
  const log = options.log ?? (() => {});
  let done = 0;
  let failed = 0;
  let redis: Redis | undefined;
  const planFor = (id: string) => {
    let entry = plans.get(id);
    if (entry === undefined) {
      entry = (async () => {
        const text = await (redis as Redis).get(redisKeys(options.queueName, id).plan);
        if (text === null) throw new UnrecoverableError(`plan ${id} is not in Redis`);
        const doc = JSON.parse(text) as { format?: string; plan: SweepPlan };
        if (doc.format !== SWEEP_FORMAT) {
          throw new UnrecoverableError(
            `plan ${id}: format ${doc.format}, expected ${SWEEP_FORMAT}`,
          );
        }
        const plan = doc.plan;
        const executor =
          options.script === undefined
            ? inlineExecutor(plan)
            : workerExecutor(plan, options.script, options.jobs);
        return { plan, tasks: planTasks(plan), executor };
      })();
      entry.catch(() => plans.delete(id));
      plans.set(id, entry);
    }
    return entry;
  };
  const lockMs = options.stallSeconds * 1000;
  const worker: Worker<RunJobData, string> = new WorkerClass<RunJobData, string>(
    options.queueName,
    async (job) => {
      const { plan: id, key, position } = job.data;
      const keys = redisKeys(options.queueName, id);
      if ((await (redis as Redis).get(keys.cancelled)) !== null) return "cancelled";
      const { plan, tasks, executor } = await planFor(id);
      const task = tasks[position];
      if (task === undefined || task.key !== key) {
        throw new UnrecoverableError(`run ${key} is not run #${position} of plan ${id}`);
      }
      log(`start ${key} (attempt ${job.attemptsMade + 1})`);
      const started = Date.now();
      try {
        const outcome = await executor.run(task);
        await (redis as Redis).rpush(keys.results, runJson(outcome.record, outcome.timing));
        done++;
        log(`done ${key} (${Date.now() - started} ms)`);
      } catch (error) {
        failed++;
        log(`failed ${key}: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
      void plan;
      return "done";
    },
    {
      connection: connectionOptions(target),
      concurrency: options.jobs,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: 2,
      autorun: false,
    },
  );
  worker.on("error", () => {
    // connection trouble: ioredis reconnects; BullMQ retries
  });
  // This worker's stalled-job check put a run back in the queue: the lock of the worker that
  // held it expired (that worker died, or was starved of CPU past the lock period). The run is
  // delivered again, so it may be done twice (same result, kept once): say so in the log.
  worker.on("stalled", (jobId) => {
    log(
      `stalled ${jobId.slice(jobId.indexOf(".") + 1)} (its lock expired: the worker holding it died or was starved of CPU; the queue delivers it again)`,
    );
  });
  redis = (await worker.client) as unknown as Redis;
  const probe = new QueueClass(options.queueName, { connection: connectionOptions(target) });
  probe.on("error", () => {});
  const running = worker.run();
  try {
    let idleSince = Date.now();
    for (;;) {
      await sleep(500, options.signal);
      if (options.signal?.aborted) break;
      if (options.idleExitSeconds !== undefined) {
        const c = await counts(probe);
        if (c.waiting + c.active + c.delayed > 0) idleSince = Date.now();
        else if (Date.now() - idleSince >= options.idleExitSeconds * 1000) break;
      }
    }
  } finally {
    await worker.close();
    await running.catch(() => {});
    await probe.close();
    for (const entry of plans.values()) {
      await entry.then(
        (p) => p.executor.close(),
        () => {},
      );
    }
  }
  return { done, failed };
}
