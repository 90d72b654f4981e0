import { finishMapping, type Mapping, type MappingProblem, readProblem } from "./mapping.js";

/**
 * Minimum Completion Time (MCT; Armstrong et al. 1998, Maheswaran et al. 1999): the tasks in
 * index order (their arrival order), each mapped to the machine with the smallest completion
 * time `ready[m] + etc[t][m]` at that moment. The immediate-mode heuristic: it never looks ahead.
 *
 * Ties: the lowest machine index.
 *
 * Complexity: O(n m) time, O(n + m) extra memory.
 *
 * @throws InvalidInputError when the ETC matrix or ready times are malformed.
 * @example
 * ```ts
 * mct({ tasks: 2, machines: 2, etc: [4, 8, 1, 2] }).machineOf; // Int32Array [0, 1]
 * ```
 */
export function mct(problem: MappingProblem): Mapping {
  const { n, m, etc, ready } = readProblem(problem, "@sched/elo/mct");
  const machineOf = new Int32Array(n).fill(-1);
  const start = new Float64Array(n).fill(Number.NaN);
  const end = new Float64Array(n).fill(Number.NaN);
  const order: number[] = [];
  for (let t = 0; t < n; t++) {
    let bm = -1;
    let be = Number.POSITIVE_INFINITY;
    for (let j = 0; j < m; j++) {
      const e = etc[t * m + j]!;
      if (e === Number.POSITIVE_INFINITY) continue;
      const c = ready[j]! + e;
      if (c < be) {
        be = c;
        bm = j;
      }
    }
    if (bm < 0) continue;
    machineOf[t] = bm;
    start[t] = ready[bm]!;
    end[t] = be;
    ready[bm] = be;
    order.push(t);
  }
  return finishMapping(machineOf, order, start, end, ready);
}
