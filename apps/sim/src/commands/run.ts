import type { Command } from "../command.js";
import { schedulersHelp } from "../schedulers.js";
import { RUN_SPEC, runRun } from "./run-core.js";

/**
 * `sched-sim run`, with the list of schedulers in its help. `sched-sim run …` itself loads
 * `./run-core.ts` alone (see `cli.ts`): the list needs the registry of every policy.
 */
export const runCommand: Command = {
  spec: { ...RUN_SPEC, description: `${RUN_SPEC.description}\n\n${schedulersHelp()}` },
  run: runRun,
};
