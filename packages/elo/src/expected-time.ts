import { benchmarkOf, InvalidInputError, type Job, type Platform } from "@sched/core";
import { describeValue } from "@sched/errors";

/**
 * A job's size in operations as a policy may know it: its requested time (`estimate`, never the
 * true `runtime`) times the benchmark that time refers to (`job.benchmark`, else the platform's
 * `referenceSpeed`). With speeds in Mflops this is the job's Mflop count.
 *
 * Complexity: O(1).
 *
 * @example
 * ```ts
 * // referenceSpeed 9 (Mflops), a job estimated at 100 s: 900 Mflop
 * jobSize(job, platform); // 900
 * ```
 */
export function jobSize(job: Job, platform: Platform): number {
  return job.estimate * benchmarkOf(job, platform);
}

/**
 * The expected time to compute (ETC) that the classic heterogeneous-computing heuristics plan
 * with: `jobSize(job) / speed`, where `speed` is what the heuristic is told about the machine
 * (by default its benchmark `platform.machines[machine].speed`). Equal to the engine's default
 * execution model applied to the estimate; it knows nothing of how the machine really performs.
 *
 * Complexity: O(1).
 *
 * @throws InvalidInputError when `machine` is not a machine index or `speed` is not > 0.
 * @example
 * ```ts
 * expectedTime(job, 0, platform);    // 900 Mflop on a 6 Mflops machine: 150
 * expectedTime(job, 0, platform, 9); // 100
 * ```
 */
export function expectedTime(
  job: Job,
  machine: number,
  platform: Platform,
  speed?: number,
): number {
  // an integer first: platform.machines[1n] or ["1"] would read machine 1
  const m = Number.isInteger(machine) ? platform.machines[machine] : undefined;
  if (m === undefined) {
    throw new InvalidInputError(
      "@sched/elo/expectedTime",
      "machine",
      `is ${describeValue(machine)}, expected an index in [0, ${platform.machines.length - 1}]`,
    );
  }
  const s = speed ?? m.speed;
  if (typeof s !== "number" || !(s > 0) || !Number.isFinite(s)) {
    throw new InvalidInputError(
      "@sched/elo/expectedTime",
      "speed",
      `is ${describeValue(s)}, expected a number > 0`,
    );
  }
  return jobSize(job, platform) / s;
}
