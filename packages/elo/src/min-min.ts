import { finishMapping, type Mapping, type MappingProblem, readProblem } from "./mapping.js";

/**
 * Min-Min (Ibarra & Kim 1977; Maheswaran et al. 1999): repeatedly, among the unmapped tasks,
 * take the one whose minimum completion time `ready[m] + etc[t][m]` over machines is smallest,
 * map it to that machine, and advance the machine's ready time. Small tasks first, each on the
 * machine that finishes it earliest.
 *
 * Ties: among machines, the lowest index; among tasks, the lowest index.
 *
 * Complexity: O(n^2 + n m k) time for n tasks, m machines, where k is how many times a task's best
 * machine is taken by another task (at most n; in practice small); O(n + m) extra memory.
 *
 * @throws InvalidInputError when the ETC matrix or ready times are malformed.
 * @example
 * ```ts
 * minMin({ tasks: 2, machines: 2, etc: [4, 8, 1, 2] }).machineOf; // Int32Array [0, 0] (makespan 5)
 * ```
 */
export function minMin(problem: MappingProblem): Mapping {
  return greedyBatch(problem, "@sched/elo/minMin", false);
}

/**
 * Max-Min (Maheswaran et al. 1999): like {@link minMin}, but each step takes the unmapped task
 * whose minimum completion time is the *largest*, so long tasks are placed first and short ones
 * fill in around them.
 *
 * Ties: among machines, the lowest index; among tasks, the lowest index.
 *
 * Complexity: as {@link minMin}.
 *
 * @throws InvalidInputError when the ETC matrix or ready times are malformed.
 * @example
 * ```ts
 * maxMin({ tasks: 2, machines: 2, etc: [4, 8, 1, 2] }).machineOf; // Int32Array [0, 1] (makespan 4)
 * ```
 */
export function maxMin(problem: MappingProblem): Mapping {
  return greedyBatch(problem, "@sched/elo/maxMin", true);
}

function greedyBatch(problem: MappingProblem, where: string, largest: boolean): Mapping {
  const { n, m, etc, ready } = readProblem(problem, where);
  const machineOf = new Int32Array(n).fill(-1);
  const start = new Float64Array(n).fill(Number.NaN);
  const end = new Float64Array(n).fill(Number.NaN);
  const bestMachine = new Int32Array(n);
  const bestEnd = new Float64Array(n);
  const open = new Uint8Array(n); // 1 while unmapped and mappable
  const best = (t: number): void => {
    let bm = -1;
    let be = Number.POSITIVE_INFINITY;
    const row = t * m;
    for (let j = 0; j < m; j++) {
      const e = etc[row + j]!;
      if (e === Number.POSITIVE_INFINITY) continue;
      const c = ready[j]! + e;
      if (c < be) {
        be = c;
        bm = j;
      }
    }
    bestMachine[t] = bm;
    bestEnd[t] = be;
  };
  let left = 0;
  for (let t = 0; t < n; t++) {
    best(t);
    if (bestMachine[t]! >= 0) {
      open[t] = 1;
      left++;
    }
  }
  const order: number[] = [];
  while (left > 0) {
    let pick = -1;
    for (let t = 0; t < n; t++) {
      if (open[t] === 0) continue;
      if (pick < 0 || (largest ? bestEnd[t]! > bestEnd[pick]! : bestEnd[t]! < bestEnd[pick]!)) {
        pick = t;
      }
    }
    const j = bestMachine[pick]!;
    machineOf[pick] = j;
    start[pick] = ready[j]!;
    end[pick] = bestEnd[pick]!;
    ready[j] = bestEnd[pick]!;
    open[pick] = 0;
    left--;
    order.push(pick);
    // Only machine j got later: tasks whose best machine was j may now prefer another one.
    for (let t = 0; t < n; t++) if (open[t] === 1 && bestMachine[t] === j) best(t);
  }
  return finishMapping(machineOf, order, start, end, ready);
}
