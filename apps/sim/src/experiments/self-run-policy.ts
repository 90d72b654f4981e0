import type { OptionValue, SchedulerOptionSpec } from "../scheduler-options.js";
import type { SchedulerChoice } from "../schedulers.js";
import { UsageError } from "../usage-error.js";

/**
 * A policy of an experiment that runs its policies itself (`Experiment.run`): a name, typed
 * options and the label `name(key=value,...)` (keys sorted), as the sweep plan records them.
 * It is not a core scheduler and not in the CLI's registry (`sched-sim run` cannot use it), so
 * its entry's `create` throws; the sweep runner never calls it for such an experiment.
 *
 * @example selfRunPolicy("dynamic", "Dynamic space sharing.", { platform: "homogeneous" }).label
 * // "dynamic(platform=homogeneous)"
 */
export function selfRunPolicy(
  name: string,
  description: string,
  options: Readonly<Record<string, OptionValue>> = {},
  specs: readonly SchedulerOptionSpec[] = [],
): SchedulerChoice {
  const keys = Object.keys(options).sort();
  const label =
    keys.length === 0
      ? name
      : `${name}(${keys.map((k) => `${k}=${String(options[k])}`).join(",")})`;
  return {
    entry: {
      name,
      description,
      options: specs,
      create: () => {
        throw new UsageError(
          `'${name}' is not a core scheduler: it runs only inside its experiment (sched-sim reproduce)`,
        );
      },
    },
    options,
    label,
  };
}
