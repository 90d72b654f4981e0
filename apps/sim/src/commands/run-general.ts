import { createSimulation, identicalPool } from "@sched/core";
import type { SchedulerChoice } from "../schedulers.js";
import type { RunPolicy } from "./run-runner.js";

// `run` on the general engine: loaded by ./run-core.ts only for a run that needs it, so a run on
// the pooled kernel does not compile the engine.

/**
 * The general engine's {@link RunPolicy} of a chosen policy: `createSimulation` on
 * `identicalPool(procs)` with the engine's guards when given.
 */
export function generalRunPolicy(choice: SchedulerChoice): RunPolicy {
  return {
    name: choice.entry.name,
    options: choice.options,
    label: choice.label,
    pooled: false,
    simulation: (procs, onRecord, guards) =>
      createSimulation(identicalPool(procs), choice.entry.create(choice.options), {
        ...(onRecord === null ? {} : { onRecord }),
        ...(guards.maxStalledEvents === undefined
          ? {}
          : { maxStalledEvents: guards.maxStalledEvents }),
        ...(guards.maxEvents === undefined ? {} : { maxEvents: guards.maxEvents }),
      }),
  };
}
