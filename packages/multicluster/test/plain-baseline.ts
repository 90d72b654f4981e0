import type { Random } from "@sched/random";
import type { BaselineSelection } from "../src/space-sharing.js";

/**
 * The plain definition of the adaptive baseline's choice, the oracle of the property tests of
 * `chooseBaseline` and of the pool path: the available processors listed in index order,
 * shuffled (`"random"`: a partial Fisher-Yates shuffle drawing from `random`) or sorted
 * (`"fastest"`: by speed, then index), and the first `count` of them sorted by index.
 */
export function plainChoice(
  available: ArrayLike<number>,
  speeds: ArrayLike<number>,
  count: number,
  selection: BaselineSelection,
  random: Random,
): number[] {
  const free: number[] = [];
  for (let p = 0; p < available.length; p++) if (available[p]) free.push(p);
  if (selection === "fastest") free.sort((a, b) => speeds[b]! - speeds[a]! || a - b);
  else if (selection === "random") {
    for (let i = 0; i < count && i < free.length - 1; i++) {
      const k = random.integer(i, free.length - 1);
      const x = free[i]!;
      free[i] = free[k]!;
      free[k] = x;
    }
  }
  return free.slice(0, count).sort((a, b) => a - b);
}
