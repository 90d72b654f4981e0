import { createHash } from "node:crypto";
import type { ParamValue } from "../experiments/parameters.js";

/**
 * The workload of a sweep defined in an experiment file, after validation: plain data, so it
 * can be sent to worker threads and written to `experiment.json`.
 */
export type WorkloadSpec =
  | {
      /** The CLI's seeded synthetic generator (`src/synthetic.ts`) on `procs` identical processors. */
      readonly type: "synthetic";
      readonly jobs: number;
      readonly load: number;
      readonly procs: number;
    }
  | {
      /**
       * An SWF trace (absolute path), on the machines of the platform file `platform` (absolute
       * path, what `gen --platform` writes), else on `procs` processors (default: the header's).
       */
      readonly type: "swf";
      readonly path: string;
      readonly clean: boolean;
      readonly estimate: "requested" | "runtime";
      readonly platform?: string;
      readonly procs?: number;
    }
  | {
      /**
       * A native JSON Lines workload (absolute path; what `gen` and `convert` write), on the
       * machines of the platform file `platform` (absolute path, what `gen --platform` writes),
       * else on `procs` identical processors (default: the header's `meta.procs`).
       */
      readonly type: "native";
      readonly path: string;
      readonly platform?: string;
      readonly procs?: number;
    }
  | {
      /** A generator of @sched/workload's `WORKLOAD_MODELS`; options as command-line text. */
      readonly type: "model";
      readonly model: string;
      readonly options: Readonly<Record<string, string>>;
    }
  | {
      /** The elo paper's jobs and machines with hidden true speeds (`src/experiments/elo-instance.ts`). */
      readonly type: "elo";
      readonly machines: number;
      readonly jobs: number;
      readonly fluctuation: number;
      /** Offered load; 0: every job at time 0. */
      readonly load: number;
    };

/** Where the runs of a sweep come from: a named experiment of the registry, or a file's workload. */
export type RunSource =
  | {
      readonly kind: "registry";
      readonly experiment: string;
      readonly quick: boolean;
      /**
       * The value of every parameter that is not a grid axis: defaults, `--set` values, and set
       * scheduler options (`LABEL.key`). With the grid point, a run's complete parameters.
       */
      readonly parameters: Readonly<Record<string, ParamValue>>;
    }
  | { readonly kind: "file"; readonly workload: WorkloadSpec };

/** A policy of a sweep: registry name, `--opt` words (`key=value`), display label. */
export interface PlannedScheduler {
  readonly name: string;
  readonly opts: readonly string[];
  readonly label: string;
}

/**
 * A whole sweep: the grid (`points`, each a value per name of `params`) x `seeds` x
 * `schedulers`. Plain data; `experiment.json` holds it, so a restarted sweep can check that the
 * directory belongs to the same experiment, and `compare`/`report` know the grid.
 */
export interface SweepPlan {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly source: RunSource;
  /** Swept parameter names, in the file's order. */
  readonly params: readonly string[];
  /** Grid points: the cartesian product of the values, first parameter outermost. */
  readonly points: readonly (readonly ParamValue[])[];
  readonly seeds: readonly number[];
  readonly schedulers: readonly PlannedScheduler[];
  /** Metric keys reported (all deterministic metrics are recorded per run anyway). */
  readonly metrics: readonly string[];
}

/** One run of a sweep: a point, a seed and a scheduler (index into `plan.schedulers`). */
export interface RunTask {
  /** Stable file-name-safe identifier, see {@link runKey}. */
  readonly key: string;
  /** The grid point: a value per swept parameter. */
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly seed: number;
  readonly scheduler: number;
}

/**
 * The run key: a readable part (scheduler label, each `param=value`, `s<seed>`, with characters
 * other than letters, digits, `.`, `=`, `-` replaced by `_`) and the first 8 hex digits of the
 * SHA-256 of the canonical `[label, [[param, value]...], seed]`, so two different runs never
 * share a key and the same run always has the same key.
 *
 * @example runKey("easy(order=sjf)", { load: 0.5 }, 3) // "easy_order=sjf_.load=0.5.s3-…"
 */
export function runKey(
  label: string,
  params: Readonly<Record<string, ParamValue>>,
  seed: number,
): string {
  const entries = Object.entries(params);
  const readable = [label, ...entries.map(([k, v]) => `${k}=${v}`), `s${seed}`]
    .join(".")
    .replace(/[^A-Za-z0-9.=-]/g, "_");
  const hash = createHash("sha256")
    .update(JSON.stringify([label, entries, seed]))
    .digest("hex")
    .slice(0, 8);
  return `${readable}-${hash}`;
}

/** The cartesian product of `values` (first list outermost), e.g. [[1,2],[3]] -> [[1,3],[2,3]]. */
export function gridPoints(values: readonly (readonly ParamValue[])[]): ParamValue[][] {
  let points: ParamValue[][] = [[]];
  for (const list of values) points = points.flatMap((p) => list.map((v) => [...p, v]));
  return points;
}

/**
 * Every run of `plan`, points outermost, then seeds, then schedulers (so runs that share a
 * workload instance are adjacent).
 */
export function planTasks(plan: SweepPlan): RunTask[] {
  const tasks: RunTask[] = [];
  for (const point of plan.points) {
    const params: Record<string, ParamValue> = {};
    plan.params.forEach((p, i) => {
      params[p] = point[i] as ParamValue;
    });
    for (const seed of plan.seeds) {
      plan.schedulers.forEach((s, scheduler) => {
        tasks.push({ key: runKey(s.label, params, seed), params, seed, scheduler });
      });
    }
  }
  return tasks;
}
