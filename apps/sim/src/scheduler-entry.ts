import type { Scheduler } from "@sched/core";
import type { OptionValues, SchedulerOptionSpec } from "./scheduler-options.js";
import { UsageError } from "./usage-error.js";

/**
 * Why a policy cannot run on the workload of `run`, `sweep` or `demo` (jobs on a pool of
 * machines, simulated by core's engine), and the experiments it runs in instead.
 */
export interface ExperimentOnly {
  /** What it needs that a plain workload lacks, in a phrase. */
  readonly reason: string;
  /** The `sched-sim reproduce` experiments that run it. */
  readonly experiments: readonly string[];
}

/** A policy the CLI can run: its name, one line of help, its options and a factory. */
export interface SchedulerEntry {
  readonly name: string;
  readonly description: string;
  readonly options: readonly SchedulerOptionSpec[];
  /**
   * The option a policy that rolls dice takes its seed from: in `reproduce` and `sweep`, when it
   * is not set, each run passes its own seed there (see {@link createScheduler}), as a library
   * study seeds the policy per instance.
   * @defaultValue none: the policy is deterministic
   */
  readonly seedOption?: string;
  /**
   * Set when the policy is not a core scheduler of any workload: {@link chooseScheduler} then
   * refuses it with a usage error naming `--scheduler`, and `create` is never called.
   * @defaultValue none: it runs wherever a core scheduler does
   */
  readonly experimentOnly?: ExperimentOnly;
  /** A fresh scheduler; `options` holds only keys of {@link SchedulerEntry.options}, already typed. */
  create(options: OptionValues): Scheduler;
}

/**
 * An entry that runs only inside its experiments: its `create` throws a {@link UsageError}
 * ({@link chooseScheduler} refuses the name before that).
 */
export function experimentOnlyEntry(
  entry: Omit<SchedulerEntry, "create"> & { readonly experimentOnly: ExperimentOnly },
): SchedulerEntry {
  return {
    ...entry,
    create: () => {
      throw new UsageError(notRunnableMessage(entry.name, entry.experimentOnly));
    },
  };
}

/** Why `name` cannot run on a workload, and where it runs. */
export function notRunnableMessage(name: string, only: ExperimentOnly): string {
  return `scheduler '${name}' cannot run on a workload: ${only.reason}; it runs in sched-sim reproduce ${only.experiments.join(" | ")}`;
}
