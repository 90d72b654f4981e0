import { type ModelOption, parseModelOption, type WorkloadModel } from "@sched/workload";
import { MAX_PROCS } from "./limits.js";

/**
 * The bounds of a workload model's options that size its platform (machines, clusters, nodes,
 * license types): a simulated machine has at most {@link MAX_PROCS} processors (README, Limits);
 * without them `--machines 99999999999` ended in a heap abort or `Invalid array length`. `gen`
 * checks its flags against them, `sweep` an experiment file's `workload.options` and grid.
 */
export const PLATFORM_SIZE_BOUNDS: ReadonlyMap<string, readonly [min: number, max: number]> =
  new Map([
    ["machines", [1, MAX_PROCS]],
    ["clusters", [1, MAX_PROCS]],
    ["processorsPerCluster", [1, MAX_PROCS]],
    ["nodesPerCluster", [1, MAX_PROCS]],
    ["licenses", [0, MAX_PROCS]],
  ]);

/**
 * The options whose product is the number of machines a model builds (`oas`: one cluster per
 * power): checked against {@link MAX_PROCS} together, given or default.
 */
const PLATFORM_FACTORS = ["clusters", "processorsPerCluster", "powers", "nodesPerCluster"];

/**
 * Why the options `typed` (typed values of the given options; the others take their default)
 * make `model`'s platform larger than {@link MAX_PROCS} processors, or undefined when they do
 * not: `A x B give N processors, more than the M a simulated platform may have`, each factor
 * said by `say(option, size, items)` (`items`: the option is a list, one machine per item), in
 * the caller's words (`--clusters 2000`, `workload.options.clusters 2000`).
 */
export function platformSizeExcess(
  model: WorkloadModel,
  typed: Readonly<Record<string, unknown>>,
  say: (option: ModelOption, size: number, items: boolean) => string,
): string | undefined {
  const factors = model.options.filter((o) => PLATFORM_FACTORS.includes(o.name));
  if (factors.length < 2) return undefined;
  let product = 1;
  const said: string[] = [];
  for (const o of factors) {
    const value = typed[o.name] ?? parseModelOption(model.name, o.name, o.default);
    const factor = Array.isArray(value) ? value.length : Number(value);
    product *= factor;
    said.push(say(o, factor, Array.isArray(value)));
  }
  if (product <= MAX_PROCS) return undefined;
  return `${said.join(" x ")} give ${product} processors, more than the ${MAX_PROCS} a simulated platform may have`;
}

/**
 * The index of the first number of `values` (a `range` or `list` option's) that is not a whole
 * number when `option.element` is `"integer"` (cores, tasks, parallelism: the generator refuses
 * a fraction), else -1.
 */
export function fractionalElement(option: ModelOption, values: readonly number[]): number {
  if (option.element !== "integer") return -1;
  return values.findIndex((v) => !Number.isSafeInteger(v));
}
