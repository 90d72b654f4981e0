import { type ModelOutput, WORKLOAD_MODELS } from "@sched/workload";
import type { ExperimentWorkload } from "./experiment.js";

/**
 * The jobs and platform that `sched-sim gen` writes for `workload` and `seed`: the model of
 * @sched/workload run with the options and the seed. Experiments build their instances with it,
 * so `gen` and `reproduce` call the same generator.
 *
 * @throws Error when the model does not exist (a bug of the experiment's declaration), or what
 *   the model throws on an invalid option.
 */
export function generateWorkload(workload: ExperimentWorkload, seed: number): ModelOutput {
  const model = WORKLOAD_MODELS.find((m) => m.name === workload.model);
  if (model === undefined) throw new Error(`@sched/workload has no model '${workload.model}'`);
  return model.generate({ ...workload.options, seed });
}
