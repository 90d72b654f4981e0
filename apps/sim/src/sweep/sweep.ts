import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { writeFilesAtomic } from "../atomic.js";
import { stableJson } from "../format.js";
import { UsageError } from "../usage-error.js";
import type { RunRecord } from "./execute.js";
import { planTasks, type RunTask, type SweepPlan } from "./plan.js";
import type { RunExecutor } from "./pool.js";
import {
  asWritten,
  experimentJson,
  jsonFiles,
  orderRecords,
  parseRunJson,
  type RunFailure,
  resultsCsv,
  runJson,
  runsCsv,
  summarizeSweep,
} from "./results.js";

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
}

/**
 * Run every task of `plan` not yet finished in `options.out` on `executor`. Each run's record is
 * written atomically to `out/runs/KEY.json` as it finishes (a failure to `out/failed/KEY.json`),
 * so a sweep killed at any moment and started again skips the finished runs and loses nothing;
 * `out/experiment.json` pins the plan (a different plan in the same directory is a
 * {@link UsageError}). When all runs were tried, `out/results.csv` and `out/runs.csv` summarize
 * every finished run. Summaries depend only on the records, never on the order runs finished in.
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
  const tasks = planTasks(plan);
  const { out } = options;
  const finished = new Map<string, RunRecord>();
  if (out !== undefined) {
    for (const r of await prepareDir(out, plan)) finished.set(r.key, r);
  }
  const pending = tasks.filter((t) => !finished.has(t.key));
  const skipped = tasks.length - pending.length;
  const failures: RunFailure[] = [];
  let doneThisSession = 0;
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

  let interrupted = false;
  if (pending.length > 0) {
    const executor = makeExecutor(pending.length);
    try {
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < pending.length) {
          if (options.signal?.aborted) {
            interrupted = true;
            return;
          }
          const task = pending[next++] as RunTask;
          const label = (plan.schedulers[task.scheduler] as { label: string }).label;
          let outcome: Awaited<ReturnType<RunExecutor["run"]>> | undefined;
          let error: string | undefined;
          try {
            outcome = await executor.run(task);
          } catch (e) {
            error = e instanceof Error ? e.message : String(e);
          }
          if (options.signal?.aborted) {
            interrupted = true;
            return;
          }
          if (outcome !== undefined) {
            const record = asWritten(outcome.record);
            if (out !== undefined) {
              await writeFilesAtomic(
                new Map([
                  [join(out, "runs", `${task.key}.json`), runJson(outcome.record, outcome.timing)],
                ]),
              );
              await rm(join(out, "failed", `${task.key}.json`), { force: true });
            }
            finished.set(task.key, record);
          } else {
            const failure: RunFailure = {
              key: task.key,
              scheduler: label,
              params: task.params,
              seed: task.seed,
              error: error ?? "unknown error",
            };
            failures.push(failure);
            if (out !== undefined) {
              await writeFilesAtomic(
                new Map([
                  [
                    join(out, "failed", `${task.key}.json`),
                    stableJson({ ...failure, params: { ...failure.params } }),
                  ],
                ]),
              );
            }
          }
          doneThisSession++;
          if (out !== undefined) options.onRunWritten?.(task.key);
          progress();
        }
      };
      await Promise.all(Array.from({ length: executor.parallelism }, lane));
    } finally {
      await executor.close();
    }
  }

  const records = orderRecords(plan, [...finished.values()]);
  if (out !== undefined && !interrupted) {
    await writeFilesAtomic(
      new Map([
        [join(out, "results.csv"), resultsCsv(plan, summarizeSweep(plan, records))],
        [join(out, "runs.csv"), runsCsv(plan, records)],
      ]),
    );
  }
  return { records, failures, total: tasks.length, skipped, interrupted };
}

/**
 * Make `out` a results directory for `plan`: check or write `experiment.json`, remove leftover
 * temporaries of killed writes, and return the records already finished.
 */
async function prepareDir(out: string, plan: SweepPlan): Promise<RunRecord[]> {
  const wanted = experimentJson(plan);
  const path = join(out, "experiment.json");
  let existing: string | undefined;
  try {
    existing = await readFile(path, "utf8");
  } catch {
    existing = undefined;
  }
  if (existing === undefined) {
    await mkdir(out, { recursive: true });
    const entries = await readdir(out);
    if (entries.some((e) => !e.startsWith("."))) {
      throw new UsageError(
        `sweep: --out ${out} is not empty and holds no experiment.json; give a new or empty directory`,
        "sweep",
      );
    }
    await writeFilesAtomic(new Map([[path, wanted]]));
  } else if (existing !== wanted) {
    throw new UsageError(
      `sweep: --out ${out} holds results of a different experiment (its experiment.json differs); give another directory, or remove it to start over`,
      "sweep",
    );
  }
  for (const sub of ["runs", "failed"]) {
    let names: string[] = [];
    try {
      names = await readdir(join(out, sub));
    } catch {
      names = [];
    }
    await Promise.all(
      names
        .filter((n) => n.startsWith(".") && n.endsWith(".tmp"))
        .map((n) => rm(join(out, sub, n), { force: true })),
    );
  }
  const records: RunRecord[] = [];
  for (const f of await jsonFiles(join(out, "runs"))) {
    try {
      records.push(parseRunJson(await readFile(join(out, "runs", f), "utf8")));
    } catch {
      // unreadable: the run is done again and the file replaced
    }
  }
  return records;
}
