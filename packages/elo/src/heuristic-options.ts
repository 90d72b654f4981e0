import { InvalidInputError, type Platform } from "@sched/core";
import { describeValue, optionKeys } from "@sched/errors";

/** Options shared by the heterogeneous-computing baselines (Min-Min, Max-Min, MCT). */
export interface HeuristicOptions {
  /**
   * The speed the heuristic is told for each machine (index = machine id), the basis of its
   * expected times ({@link expectedTime}). By default the machines' benchmarks
   * (`platform.machines[m].speed`). Give other figures to model a stale or wrong performance
   * model; the engine's execution model decides what really happens.
   * @defaultValue each machine's `speed`
   */
  readonly speeds?: readonly number[];
}

/** The keys of {@link HeuristicOptions}, all of them (checked by the compiler). Internal. */
export const HEURISTIC_KEYS = optionKeys<HeuristicOptions>({
  speeds: true,
});

/** The told speeds for `platform`, validated. @internal */
export function toldSpeeds(
  options: HeuristicOptions,
  platform: Platform,
  where: string,
): Float64Array {
  const n = platform.machines.length;
  const speeds = options.speeds;
  if (speeds === undefined) return Float64Array.from(platform.machines, (m) => m.speed);
  if (!Array.isArray(speeds) && !(speeds instanceof Float64Array)) {
    throw new InvalidInputError(
      where,
      "options.speeds",
      `is ${describeValue(speeds)}, expected an array of speeds`,
    );
  }
  if (speeds.length !== n) {
    throw new InvalidInputError(
      where,
      "options.speeds",
      `has length ${speeds.length}, expected one speed per machine (${n})`,
    );
  }
  for (let i = 0; i < n; i++) {
    const s: unknown = speeds[i];
    if (typeof s !== "number" || !(s > 0) || !Number.isFinite(s)) {
      throw new InvalidInputError(
        where,
        `options.speeds[${i}]`,
        `is ${describeValue(s)}, expected a number > 0`,
      );
    }
  }
  return Float64Array.from(speeds);
}
