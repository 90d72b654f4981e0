import { readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { describeFsError, makeDirs, uuidMaker, writeFileAtomicSync } from "../atomic.js";
import { stableJson } from "../format.js";
import { UsageError } from "../usage-error.js";
import { userMessage } from "../user-message.js";
import type { RunRecord, RunTiming } from "./execute.js";
import { planTasks, type RunTask, type SweepPlan } from "./plan.js";
import type { RunExecutor } from "./pool.js";
import {
  copiedRunJson,
  experimentJson,
  jsonFiles,
  legacyExperimentJson,
  orderRecords,
  parseRunFile,
  type RunFailure,
  type RunFile,
  readRunFiles,
  readSweepDir,
  resultsCsv,
  runJson,
  runsCsv,
  runsTimingCsv,
  SWEEP_FORMAT,
  summarizeSweep,
  summarizeTiming,
} from "./results.js";
import { copyRecord, seedFreeLabels, splitSeedFree } from "./seed-free.js";
import { type Shard, shardTasks, writeShardStatus, writeShared } from "./shard.js";

/** Where a sweep stands, for a progress line. */
export interface SweepProgress {
  /** Runs finished (this session and earlier ones) or failed this session. */
  readonly done: number;
  readonly total: number;
  /** Runs found finished in the directory at start. */
  readonly skipped: number;
  readonly failed: number;
  /** Wall time since the start of this session, ms. */
  readonly elapsedMs: number;
  /** Estimated time to finish, ms (from this session's rate); undefined before the first run. */
  readonly remainingMs: number | undefined;
}

/** Options of {@link runSweep}. */
export interface SweepOptions {
  /** Results directory (resumable); absent: results are only returned. @defaultValue none */
  readonly out?: string;
  /** Called after each run and once at the start. @defaultValue none */
  readonly onProgress?: (progress: SweepProgress) => void;
  /** Called after each run's result file is written (tests use it to interrupt). @defaultValue none */
  readonly onRunWritten?: (key: string) => void;
  /** Stops dispatching runs; in-flight runs are abandoned, nothing is written for them. @defaultValue none */
  readonly signal?: AbortSignal;
  /** Clock for the progress estimate. @defaultValue Date.now */
  readonly now?: () => number;
  /**
   * The command whose words the directory's usage errors take (`reproduce: --out DIR is not
   * empty …`). @defaultValue `"sweep"`
   */
  readonly command?: string;
  /**
   * Run only this shard's runs (see {@link shardTasks}); `out` is then shared with the other
   * shards, possibly running at the same time on other machines. @defaultValue all runs
   */
  readonly shard?: Shard;
  /**
   * Called with a line (no newline) that the sweep has something to say about the directory
   * before it starts: that it started over in a directory of failed runs only, or that run files
   * listed in `runs.csv` are missing and those runs are done again. @defaultValue none
   */
  readonly onNote?: (line: string) => void;
}

/** What a sweep produced. */
export interface SweepOutcome {
  /** Every finished run (earlier sessions included), plan order, as written. */
  readonly records: readonly RunRecord[];
  /** Runs that failed in this session, in the order they failed. */
  readonly failures: readonly RunFailure[];
  readonly total: number;
  /** Runs already finished in the directory at start. */
  readonly skipped: number;
  /** True when stopped by the signal before every run was tried. */
  readonly interrupted: boolean;
  /**
   * Runs of this session whose record was copied from the run of another seed, not run: their
   * result cannot depend on the seed (see seed-free.ts). @defaultValue 0
   */
  readonly copied?: number;
  /**
   * True when `results.csv`, `runs.csv` and `timing.csv` were written. A whole sweep writes them
   * once every run was tried; a shard only when, at its end, every run of every shard was tried.
   */
  readonly summarized: boolean;
  /** With a shard: every finished run in the shared directory at the end (plan order). */
  readonly merged?: readonly RunRecord[];
  /**
   * The timing block (wall clock, as written in the run files) of every run of `records` and
   * `merged` that has one, by key.
   */
  readonly timings: ReadonlyMap<string, RunTiming>;
}

/**
 * Run every task of `plan` not yet finished in `options.out` on `executor`. Each run's record is
 * written atomically to `out/runs/KEY.json` as it finishes (a failure to `out/failed/KEY.json`),
 * so a sweep killed at any moment and started again skips the finished runs and loses nothing;
 * `out/experiment.json` pins the plan (a different plan in the same directory is a
 * {@link UsageError}). When all runs were tried, `out/results.csv` and `out/runs.csv` summarize
 * every finished run, and `out/timing.csv` their timing blocks (see {@link writeSummaries}).
 * Summaries depend only on the records, never on the order runs finished in.
 *
 * A run whose result cannot depend on its seed (a trace, and a policy that takes no seed from
 * the run: {@link seedFreeClasses}) is made once per grid point and policy, for its lowest
 * pending seed (or not at all when another seed's run is already finished); the other seeds'
 * files hold its record with their own key and seed, `copyOf` its key, and no timing block. A
 * failure of that run is theirs too.
 *
 * @throws UsageError when `out` holds another experiment; an Error when a file cannot be written.
 */
export async function runSweep(
  plan: SweepPlan,
  makeExecutor: (pending: number) => RunExecutor,
  options: SweepOptions = {},
): Promise<SweepOutcome> {
  const now = options.now ?? Date.now;
  const started = now();
  const { out, shard } = options;
  const tasks = shardTasks(plan, shard);
  const finished = new Map<string, RunRecord>();
  const timings = new Map<string, RunTiming>();
  if (out !== undefined) {
    const prepared = await prepareDir(
      out,
      plan,
      shard !== undefined,
      options.onNote,
      options.command,
    );
    for (const f of prepared) keep(finished, timings, f);
  }
  const pending = tasks.filter((t) => !finished.has(t.key));
  const skipped = tasks.length - pending.length;
  const failures: RunFailure[] = [];
  let doneThisSession = 0;
  let copied = 0;
  // Seed-free runs: copied from a finished run of their class, else from the one run made.
  const { dispatched, toCopy, followers } = splitSeedFree(plan, pending, finished);
  const progress = (): void => {
    const elapsedMs = now() - started;
    const left = pending.length - doneThisSession;
    options.onProgress?.({
      done: skipped + doneThisSession,
      total: tasks.length,
      skipped,
      failed: failures.length,
      elapsedMs,
      remainingMs: doneThisSession === 0 ? undefined : (elapsedMs / doneThisSession) * left,
    });
  };
  progress();
  if (out !== undefined && shard !== undefined) {
    await writeShardStatus(out, {
      shard: shard.index,
      shards: shard.count,
      runs: tasks.length,
      finished: false,
      done: skipped,
      failed: 0,
    });
  }

  if (toCopy.length + pending.length - dispatched.length > 0) {
    options.onNote?.(
      `note: ${seedFreeLabels(plan).join(", ")} take${seedFreeLabels(plan).length === 1 ? "s" : ""} no seed, and the trace is the same for every seed: each runs once per grid point, and the other seeds' run files copy its result ("copyOf": its key)`,
    );
  }
  const ran = (): void => {
    doneThisSession++;
    progress();
  };
  // The runs whose failure file a result replaces (a run fails at most once in a session, and
  // its shard, or this sweep, is the only writer of its files).
  const failedAtStart = new Set(
    out === undefined
      ? []
      : (await jsonFiles(join(out, "failed"))).map((f) => f.slice(0, -".json".length)),
  );
  const uuid = await uuidMaker();
  /** Write `task`'s run file from `from`, the record of a run of its seed-free class. */
  const copy = async (task: RunTask, from: RunRecord): Promise<void> => {
    const record = copyRecord(from, task);
    if (out !== undefined) {
      writeFileAtomicSync(
        join(out, "runs", `${task.key}.json`),
        copiedRunJson(record, from.key),
        uuid,
      );
      if (failedAtStart.has(task.key)) {
        await rm(join(out, "failed", `${task.key}.json`), { force: true });
      }
    }
    keep(finished, timings, { record, timing: undefined });
    copied++;
    if (out !== undefined) options.onRunWritten?.(task.key);
    ran();
  };
  /** Record and write `task`'s failure. */
  const fail = async (task: RunTask, error: string): Promise<void> => {
    const label = (plan.schedulers[task.scheduler] as { label: string }).label;
    const failure: RunFailure = {
      key: task.key,
      scheduler: label,
      params: task.params,
      seed: task.seed,
      error,
    };
    failures.push(failure);
    if (out !== undefined) {
      await writeShared(
        new Map([
          [
            join(out, "failed", `${task.key}.json`),
            stableJson({ ...failure, params: { ...failure.params } }),
          ],
        ]),
      );
      options.onRunWritten?.(task.key);
    }
    ran();
  };
  for (const [task, from] of toCopy) await copy(task, from);

  let interrupted = false;
  if (dispatched.length > 0) {
    const executor = makeExecutor(dispatched.length);
    try {
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < dispatched.length) {
          if (options.signal?.aborted) {
            interrupted = true;
            return;
          }
          const task = dispatched[next++] as RunTask;
          let outcome: Awaited<ReturnType<RunExecutor["run"]>> | undefined;
          let error: string | undefined;
          try {
            outcome = await executor.run(task);
          } catch (e) {
            error = userMessage(e);
          }
          if (options.signal?.aborted) {
            interrupted = true;
            return;
          }
          if (outcome !== undefined) {
            const text = runJson(outcome.record, outcome.timing);
            const written = parseRunFile(text);
            if (out !== undefined) {
              // synchronous: a promise per file system call cost more than the calls (16,000 runs)
              writeFileAtomicSync(join(out, "runs", `${task.key}.json`), text, uuid);
              if (failedAtStart.has(task.key)) {
                await rm(join(out, "failed", `${task.key}.json`), { force: true });
              }
            }
            keep(finished, timings, written);
            if (out !== undefined) options.onRunWritten?.(task.key);
            ran();
            for (const f of followers.get(task.key) ?? []) await copy(f, written.record);
          } else {
            await fail(task, error ?? "unknown error");
            for (const f of followers.get(task.key) ?? []) await fail(f, error ?? "unknown error");
          }
        }
      };
      await Promise.all(Array.from({ length: executor.lanes ?? executor.parallelism }, lane));
    } finally {
      await executor.close();
    }
  }

  const records = orderRecords(plan, [...finished.values()]);
  const base = { records, failures, total: tasks.length, skipped, interrupted, timings, copied };
  if (out === undefined || interrupted) return { ...base, summarized: false };
  if (shard === undefined) {
    await writeSummaries(out, plan, records, timings);
    return { ...base, summarized: true };
  }
  await writeShardStatus(out, {
    shard: shard.index,
    shards: shard.count,
    runs: tasks.length,
    finished: true,
    done: tasks.filter((t) => finished.has(t.key)).length,
    failed: failures.length,
  });
  // This shard's files are written; whichever shard reads the folder after the last run of every
  // shard was written sees them all and writes the summaries (the same bytes, if several do).
  // The run files only: a folder whose runs/ is gone still has the runs.csv of an earlier
  // completion, which does not say which runs were tried this time (nor their timing).
  const merged = await readSweepDir(out, "sweep", { runsCsv: false });
  const tried = new Set([...merged.records, ...merged.failures].map((r) => r.key));
  const summarized = planTasks(plan).every((t) => tried.has(t.key));
  const mine = new Set(tasks.map((t) => t.key));
  if (summarized) await writeSummaries(out, plan, merged.records, merged.timings);
  return {
    records: records.filter((r) => mine.has(r.key)),
    failures,
    total: tasks.length,
    skipped,
    interrupted,
    copied,
    summarized,
    merged: merged.records,
    timings: merged.timings,
  };
}

/** Record a finished run file in `records` and (when it has one) its timing in `timings`. */
export function keep(
  records: Map<string, RunRecord>,
  timings: Map<string, RunTiming>,
  file: RunFile,
): void {
  records.set(file.record.key, file.record);
  if (file.timing === undefined) timings.delete(file.record.key);
  else timings.set(file.record.key, file.timing);
}

/**
 * Write `out/results.csv` and `out/runs.csv` from `records` (in their written form), and
 * `out/timing.csv` from their timing blocks (`timings`, as written in the run files): the shape
 * and rows of `results.csv` with the wall-clock metrics of results.ts' `TIMING_METRICS`, whose
 * numbers (unlike every other byte) differ between two executions of the same sweep; and
 * `out/runs-timing.csv`, each run's timing block (the rows of `runs.csv`, one per run), wall
 * clock too.
 */
export async function writeSummaries(
  out: string,
  plan: SweepPlan,
  records: readonly RunRecord[],
  timings: ReadonlyMap<string, RunTiming>,
): Promise<void> {
  const ordered = orderRecords(plan, records);
  await writeShared(
    new Map([
      [join(out, "results.csv"), resultsCsv(plan, summarizeSweep(plan, ordered))],
      [join(out, "runs.csv"), runsCsv(plan, ordered)],
      [join(out, "timing.csv"), resultsCsv(plan, summarizeTiming(plan, ordered, timings))],
      [join(out, "runs-timing.csv"), runsTimingCsv(plan, ordered, timings)],
    ]),
  );
}

/** Temporaries younger than this may belong to a writer still running elsewhere (shared folder). */
const STALE_TEMP_MS = 10 * 60_000;

/**
 * Make `out` a results directory for `plan`: check or write `experiment.json`, remove leftover
 * temporaries of killed writes, and return the records already finished. `shared`: other
 * processes (shards) may be preparing or writing the same folder at the same time, so a
 * concurrent `experiment.json` is accepted when it is the same, and only temporaries older than
 * ten minutes are removed (a writer holds one for milliseconds).
 *
 * A directory of another experiment is refused, unless (not `shared`) it holds no finished run:
 * nothing in `runs/`, no run in `runs.csv`, nothing but what a sweep writes. That one is started
 * over in place (its failures and empty summaries removed, `experiment.json` replaced), said in
 * one line to `note`. So is a resumed directory whose `runs.csv` lists runs that have no file in
 * `runs/` (they are run again).
 */
export async function prepareDir(
  out: string,
  plan: SweepPlan,
  shared = false,
  note?: (line: string) => void,
  command = "sweep",
): Promise<RunFile[]> {
  const wanted = experimentJson(plan);
  const path = join(out, "experiment.json");
  const read = async (): Promise<string | undefined> => {
    try {
      return await readFile(path, "utf8");
    } catch {
      return undefined;
    }
  };
  let existing = await read();
  if (existing === undefined) {
    try {
      makeDirs(out);
    } catch (error) {
      throw new UsageError(
        `${command}: --out ${out}: cannot create it: ${describeFsError(error)}`,
        command,
      );
    }
    const entries = await readdir(out);
    // Another shard may have created the folder between our read and readdir.
    if (entries.includes("experiment.json")) existing = await read();
    else if (entries.some((e) => !e.startsWith("."))) {
      throw new UsageError(
        `${command}: --out ${out} is not empty and holds no experiment.json; give a new or empty directory`,
        command,
      );
    }
  }
  if (existing === undefined) {
    await writeShared(new Map([[path, wanted]]));
  } else if (existing !== wanted && existing !== legacyExperimentJson(plan)) {
    const failed = shared ? undefined : await failedOnly(out);
    if (failed === undefined) {
      throw new UsageError(
        `${command}: --out ${out} holds results of a different experiment (its experiment.json differs); give another directory, or remove it to start over`,
        command,
      );
    }
    await Promise.all(
      [...SUMMARY_FILES, "failed", "runs", "shards"].map((e) =>
        rm(join(out, e), { recursive: true, force: true }),
      ),
    );
    await writeShared(new Map([[path, wanted]]));
    note?.(
      `note: ${out} held no finished run of its experiment${failed.name === undefined ? "" : ` '${failed.name}'`} (${failed.count} failed); replaced its experiment.json${failed.count > 0 ? ` and failed/` : ""} with this one's and started over`,
    );
  }
  for (const sub of ["runs", "failed"]) {
    let names: string[] = [];
    try {
      names = await readdir(join(out, sub));
    } catch {
      names = [];
    }
    const now = Date.now();
    await Promise.all(
      names
        .filter((n) => n.startsWith(".") && n.endsWith(".tmp"))
        .map(async (n) => {
          const file = join(out, sub, n);
          if (shared) {
            const info = await stat(file).catch(() => undefined);
            if (info === undefined || now - info.mtimeMs < STALE_TEMP_MS) return;
          }
          await rm(file, { force: true });
        }),
    );
  }
  // an unreadable file's run is done again and the file replaced
  const records = readRunFiles(join(out, "runs"));
  if (note !== undefined) {
    const have = new Set(records.map((r) => r.record.key));
    const planned = planTasks(plan).map((t) => t.key);
    // every planned run has its file (a finished sweep resumed): none can be missing
    const gone = planned.every((k) => have.has(k))
      ? []
      : [...(await runsCsvKeys(out, new Set(planned)))].filter((k) => !have.has(k));
    if (gone.length > 0) {
      note(
        `note: ${join(out, "runs.csv")} lists ${gone.length} finished run${gone.length === 1 ? "" : "s"} with no file in ${join(out, "runs")}/ (deleted?); ${gone.length === 1 ? "it is" : "they are"} run again, and the summaries rewritten once every run was tried`,
      );
    }
  }
  return records;
}

/** What a sweep writes at the end, beside `runs/` and `failed/`. */
const SUMMARY_FILES = ["results.csv", "runs.csv", "timing.csv", "runs-timing.csv"];

/**
 * The keys of `planned` that `out/runs.csv` lists (none when it is absent or unreadable): the
 * first field of each row. A run key has no comma, quote or line break (see `runKey`), so the
 * text up to a line's first comma is its key, and a line that is not a row of the file (inside
 * a quoted field of a hand-edited one) matches no key.
 */
async function runsCsvKeys(out: string, planned: ReadonlySet<string>): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(join(out, "runs.csv"), "utf8");
  } catch {
    return new Set();
  }
  const keys = new Set<string>();
  let start = text.indexOf("\n") + 1; // after the header
  while (start > 0 && start < text.length) {
    const end = text.indexOf("\n", start);
    const line = text.slice(start, end < 0 ? text.length : end);
    const comma = line.indexOf(",");
    const key = (comma < 0 ? line : line.slice(0, comma)).replace(/\r$/, "");
    if (planned.has(key)) keys.add(key);
    start = end + 1;
  }
  return keys;
}

/**
 * When `out` holds no finished run, only what a sweep writes (a sweep's experiment.json, failed/,
 * an empty runs/ and shards/, summaries without a run): the name of its experiment and how many
 * failures it holds. Undefined when anything there may be a result (a run file, a run in runs.csv, a file
 * a sweep does not write).
 */
async function failedOnly(
  out: string,
): Promise<{ readonly name: string | undefined; readonly count: number } | undefined> {
  const known = new Set(["experiment.json", "failed", "runs", "shards", ...SUMMARY_FILES]);
  const entries = (await readdir(out)).filter((e) => !e.startsWith("."));
  if (entries.some((e) => !known.has(e))) return undefined;
  if ((await readdir(join(out, "runs")).catch(() => [])).some((e) => !e.startsWith("."))) {
    return undefined;
  }
  const runsCsv = await readFile(join(out, "runs.csv"), "utf8").catch(() => "");
  if (runsCsv.trimEnd().split("\n").length > 1) return undefined;
  let doc: { format?: unknown; plan?: { name?: unknown } };
  try {
    doc = JSON.parse(await readFile(join(out, "experiment.json"), "utf8")) as typeof doc;
  } catch {
    return undefined;
  }
  // Not what a sweep writes (an experiment file of the user's, say): never replaced.
  if (doc?.format !== SWEEP_FORMAT) return undefined;
  const name = typeof doc.plan?.name === "string" ? doc.plan.name : undefined;
  return { name, count: (await jsonFiles(join(out, "failed"))).length };
}
