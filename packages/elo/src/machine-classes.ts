import type { Platform } from "@sched/core";

/**
 * The machines of a platform by class: machines with the same told speed and the same cores are
 * alike to the one-machine-per-job mappers (a job fits all of them or none, and takes the same
 * expected time on each), so among those that are ready now only the first can be a best
 * machine. @internal
 */
export interface MachineClasses {
  /** Each machine's class. */
  readonly classOf: Int32Array;
  /** Each class's machines, ascending. */
  readonly members: readonly Int32Array[];
  /** Each machine's place in its class's `members`. */
  readonly local: Int32Array;
  /** Each class's told speed and cores. */
  readonly speed: Float64Array;
  readonly cores: Int32Array;
}

/**
 * The classes of `platform` under the told `speeds`, or null when there are more than one per
 * `perClass` machines (then they would not save a pass over the machines). O(machines).
 * @internal
 */
export function machineClasses(
  platform: Platform,
  speeds: Float64Array,
  perClass = 8,
): MachineClasses | null {
  const n = platform.machines.length;
  const key = new Map<string, number>();
  const classOf = new Int32Array(n);
  const machines = platform.machines;
  for (let j = 0; j < n; j++) {
    if (j > 0 && speeds[j] === speeds[j - 1] && machines[j]!.cores === machines[j - 1]!.cores) {
      classOf[j] = classOf[j - 1]!; // the previous machine's class (no key to make)
      continue;
    }
    // (a number's string tells every double apart; speeds are > 0, so no NaN and no -0)
    const k = `${speeds[j]} ${machines[j]!.cores}`;
    let c = key.get(k);
    if (c === undefined) {
      c = key.size;
      key.set(k, c);
      if (key.size * perClass > n) return null;
    }
    classOf[j] = c;
  }
  const count = key.size;
  const sizes = new Int32Array(count);
  for (let j = 0; j < n; j++) sizes[classOf[j]!]!++;
  const members = Array.from(sizes, (s) => new Int32Array(s));
  const speed = new Float64Array(count);
  const cores = new Int32Array(count);
  const local = new Int32Array(n);
  const filled = new Int32Array(count);
  for (let j = 0; j < n; j++) {
    const c = classOf[j]!;
    local[j] = filled[c]!;
    members[c]![filled[c]!++] = j;
    speed[c] = speeds[j]!;
    cores[c] = machines[j]!.cores;
  }
  return { classOf, members, local, speed, cores };
}
