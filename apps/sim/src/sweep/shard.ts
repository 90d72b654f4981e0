import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFilesAtomic } from "../atomic.js";
import { stableJson } from "../format.js";
import { UsageError } from "../usage-error.js";
import type { RunRecord } from "./execute.js";
import { planTasks, type RunTask, type SweepPlan } from "./plan.js";
import { jsonFiles, type RunFailure } from "./results.js";

/** One shard of a sweep: `index` in `0 .. count-1`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Largest accepted shard count (a sweep with more shards than runs has empty shards; allowed). */
export const MAX_SHARDS = 100_000;

/**
 * Parse `--shard i/n`: shards are numbered from 0 (like Slurm's `SLURM_ARRAY_TASK_ID` with
 * `--array=0-(n-1)` and Kubernetes' `JOB_COMPLETION_INDEX`), so `i` is in `0 .. n-1`.
 *
 * @throws UsageError naming the option and what was expected.
 */
export function parseShard(command: string, text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (m === null) {
    throw new UsageError(
      `${command}: option --shard must be i/n (shard i of n, numbered from 0, e.g. 0/4 .. 3/4), got '${text}'`,
      command,
    );
  }
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_SHARDS) {
    throw new UsageError(
      `${command}: option --shard: the number of shards must be in [1, ${MAX_SHARDS}], got ${m[2]} in '${text}'`,
      command,
    );
  }
  if (!Number.isSafeInteger(index) || index >= count) {
    throw new UsageError(
      `${command}: option --shard: shard ${m[1]} does not exist; shards are numbered from 0, so i must be in [0, ${count - 1}] for ${count} shards (got '${text}')`,
      command,
    );
  }
  return { index, count };
}

/**
 * The shard of the run at position `position` of the canonical run order ({@link planTasks}:
 * points, then seeds, then schedulers): `position mod count`. Round-robin gives every shard
 * `floor(N/n)` or `ceil(N/n)` runs and mixes cheap and expensive grid points in every shard.
 */
export function shardOf(position: number, count: number): number {
  return position % count;
}

/** The runs of `plan` that belong to `shard`, in the canonical order. */
export function shardTasks(plan: SweepPlan, shard: Shard | undefined): RunTask[] {
  const tasks = planTasks(plan);
  if (shard === undefined) return tasks;
  return tasks.filter((_, j) => shardOf(j, shard.count) === shard.index);
}

/**
 * Write every file of `files` atomically, safely when several processes on several machines
 * write into the same folder: each goes to a dot-prefixed temporary with a random name (process
 * ids repeat across machines and containers) and is renamed over its target. Concurrent writers
 * of the same file (two shards writing the same `results.csv`) both succeed; the last rename wins,
 * and since every writer writes the same bytes the result is the same.
 *
 * @throws Error naming the file that could not be written.
 */
export async function writeShared(files: ReadonlyMap<string, string>): Promise<void> {
  await writeFilesAtomic(files);
}

/** What `DIR/shards/I-of-N.json` says about one shard. */
export interface ShardStatus {
  readonly shard: number;
  readonly shards: number;
  /** Runs of the shard. */
  readonly runs: number;
  /** True once the shard tried every one of its runs. */
  readonly finished: boolean;
  /** Runs of the shard with a result when it stopped (or started). */
  readonly done: number;
  readonly failed: number;
}

/** Path of a shard's status file. */
export function shardStatusPath(out: string, shard: Shard): string {
  return join(out, "shards", `${shard.index}-of-${shard.count}.json`);
}

/** Write a shard's status file (deterministic text: no clock, no host). */
export async function writeShardStatus(out: string, status: ShardStatus): Promise<void> {
  await writeShared(
    new Map([
      [
        shardStatusPath(out, { index: status.shard, count: status.shards }),
        stableJson({ ...status }),
      ],
    ]),
  );
}

/** Every shard status file of `dir` (unreadable ones ignored), by shard count then index. */
export async function readShardStatuses(dir: string): Promise<ShardStatus[]> {
  const out: ShardStatus[] = [];
  for (const f of await jsonFiles(join(dir, "shards"))) {
    try {
      const doc = JSON.parse(await readFile(join(dir, "shards", f), "utf8")) as ShardStatus;
      if (Number.isSafeInteger(doc.shard) && Number.isSafeInteger(doc.shards)) out.push(doc);
    } catch {
      // a stray file: ignored
    }
  }
  return out.sort((a, b) => a.shards - b.shards || a.shard - b.shard);
}

/** A run of the plan with no result in a directory. */
export interface MissingRun {
  readonly task: RunTask;
  readonly scheduler: string;
  /** Its position in the canonical order (the shard is `position mod n`). */
  readonly position: number;
  /** The error of its last attempt, when it failed. */
  readonly error?: string;
}

/**
 * The runs of `plan` with no record in `records`, in the canonical order; those with a failure
 * file carry its error. Records are matched by key, so a run stored twice counts once.
 */
export function missingRuns(
  plan: SweepPlan,
  records: readonly RunRecord[],
  failures: readonly RunFailure[],
): MissingRun[] {
  const done = new Set(records.map((r) => r.key));
  const failed = new Map(failures.map((f) => [f.key, f.error]));
  const out: MissingRun[] = [];
  planTasks(plan).forEach((task, position) => {
    if (done.has(task.key)) return;
    const error = failed.get(task.key);
    out.push({
      task,
      scheduler: (plan.schedulers[task.scheduler] as { label: string }).label,
      position,
      ...(error === undefined ? {} : { error }),
    });
  });
  return out;
}

/** `easy(order=sjf), load=0.5, seed 3`. */
export function describeRun(plan: SweepPlan, m: MissingRun): string {
  return [
    m.scheduler,
    ...plan.params.map((p) => `${p}=${m.task.params[p]}`),
    `seed ${m.task.seed}`,
  ].join(", ");
}

/**
 * The shard count the directory was run with, when its status files name exactly one (so
 * missing runs can be attributed to the shard that should have done them).
 */
export function shardCountOf(statuses: readonly ShardStatus[]): number | undefined {
  const counts = [...new Set(statuses.map((s) => s.shards))];
  return counts.length === 1 ? counts[0] : undefined;
}

/**
 * The stderr note of `compare`/`report` on a directory with runs missing: how many, which shards
 * they belong to (and whether those shards finished), and the first few runs by key and
 * parameters. Empty when nothing is missing.
 */
export function missingNote(
  plan: SweepPlan,
  dir: string,
  missing: readonly MissingRun[],
  statuses: readonly ShardStatus[],
  limit = 10,
): string {
  if (missing.length === 0) return "";
  const total = planTasks(plan).length;
  const failed = missing.filter((m) => m.error !== undefined).length;
  const lines = [
    `note: ${missing.length} of ${total} runs have no result${failed > 0 ? ` (${failed} failed)` : ""}; run the sweep again to finish them`,
  ];
  const n = shardCountOf(statuses);
  if (n !== undefined && n > 1) {
    const perShard = new Map<number, number>();
    for (const m of missing) {
      const s = shardOf(m.position, n);
      perShard.set(s, (perShard.get(s) ?? 0) + 1);
    }
    for (const [s, count] of [...perShard].sort((a, b) => a[0] - b[0])) {
      const status = statuses.find((x) => x.shard === s && x.shards === n);
      const state =
        status === undefined
          ? "never started"
          : !status.finished
            ? "started, did not finish"
            : status.failed > 0
              ? `finished with ${status.failed} failed runs`
              : "finished, but these results are not in the folder";
      lines.push(
        `  shard ${s}/${n}: ${count} missing (${state}); rerun: sched-sim sweep FILE --shard ${s}/${n} --out ${dir}`,
      );
    }
  }
  for (const m of missing.slice(0, limit)) {
    lines.push(
      `  ${m.task.key}: ${describeRun(plan, m)}${m.error === undefined ? "" : ` (failed: ${m.error})`}`,
    );
  }
  if (missing.length > limit) {
    lines.push(`  ... and ${missing.length - limit} more ('compare ${dir} --missing' lists all)`);
  }
  return `${lines.join("\n")}\n`;
}
