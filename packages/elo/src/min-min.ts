import { finishMapping, type Mapping, type MappingProblem, readProblem } from "./mapping.js";

/**
 * Min-Min (Ibarra & Kim 1977; Maheswaran et al. 1999): repeatedly, among the unmapped tasks,
 * take the one whose minimum completion time `ready[m] + etc[t][m]` over machines is smallest,
 * map it to that machine, and advance the machine's ready time. Small tasks first, each on the
 * machine that finishes it earliest.
 *
 * Ties: among machines, the lowest index; among tasks, the lowest index.
 *
 * Complexity: O(n m k + n k log(n k)) time for n tasks, m machines, where k is how many times a
 * task's best machine is taken by another task (at most n; in practice small): the next task
 * comes from a heap, and only the tasks whose best machine was just taken are looked at again;
 * O(n k + m) extra memory.
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
  const g = greedyPicks(n, m, etc, ready, largest, null);
  return finishMapping(g.machineOf, g.order, g.start, g.end, ready);
}

/**
 * The first tasks Min-Min (or, `largest`, Max-Min) maps, in its order, up to the pick that
 * gives the last machine flagged in `wanted` its first task (every task when some flagged
 * machine never gets one): what an online batch scheduler starts, since only the first task
 * mapped onto an idle machine may start. `etc` and `ready` as in {@link MappingProblem},
 * unchecked (the scheduler builds them); `ready` is advanced as tasks are mapped. @internal
 */
export function firstMapped(
  n: number,
  m: number,
  etc: Float64Array,
  ready: Float64Array,
  largest: boolean,
  wanted: Uint8Array,
): { order: number[]; machineOf: Int32Array } {
  return greedyPicks(n, m, etc, ready, largest, wanted);
}

/**
 * The greedy of {@link minMin} and {@link maxMin}. The next task comes from a binary heap on
 * (best completion, index), smallest first (`largest`: latest completion first, then lowest
 * index), which picks what a scan of every unmapped task picks; entries made stale by a re-best
 * are skipped when they surface. The tasks whose best machine was the one just taken are found
 * in that machine's bucket, not by a scan. With `wanted`, stops as {@link firstMapped} says.
 *
 * Complexity: O(n m + (n + r) log(n + r) + r m) for r re-bests.
 */
function greedyPicks(
  n: number,
  m: number,
  etc: Float64Array | readonly number[],
  ready: Float64Array,
  largest: boolean,
  wanted: Uint8Array | null,
): { machineOf: Int32Array; order: number[]; start: Float64Array; end: Float64Array } {
  const machineOf = new Int32Array(n).fill(-1);
  const start = new Float64Array(n).fill(Number.NaN);
  const end = new Float64Array(n).fill(Number.NaN);
  const bestMachine = new Int32Array(n);
  const bestEnd = new Float64Array(n);
  const open = new Uint8Array(n); // 1 while unmapped and mappable
  const version = new Int32Array(n); // of the task's heap entry that is current
  const buckets: number[][] = Array.from({ length: m }, () => []);
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
    if (bm >= 0) buckets[bm]!.push(t);
  };
  // the heap: parallel arrays of (key, task, version); `before` is the order of the picks. Not
  // heap-js (core's event queue): an object per entry made the overloaded 2,000-job Elo run
  // (`max-min`) take 0.93-1.53 s of CPU against 0.83-0.95 s with these arrays (3 interleaved runs)
  const key: number[] = [];
  const task: number[] = [];
  const ver: number[] = [];
  const before = (a: number, b: number): boolean =>
    key[a] === key[b] ? task[a]! < task[b]! : largest ? key[a]! > key[b]! : key[a]! < key[b]!;
  const swap = (a: number, b: number): void => {
    const k = key[a]!;
    key[a] = key[b]!;
    key[b] = k;
    const t = task[a]!;
    task[a] = task[b]!;
    task[b] = t;
    const v = ver[a]!;
    ver[a] = ver[b]!;
    ver[b] = v;
  };
  const push = (t: number): void => {
    let i = key.length;
    key.push(bestEnd[t]!);
    task.push(t);
    ver.push(version[t]!);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(i, p)) break;
      swap(i, p);
      i = p;
    }
  };
  const pop = (): void => {
    const last = key.length - 1;
    swap(0, last);
    key.pop();
    task.pop();
    ver.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= key.length) break;
      const r = l + 1;
      const c = r < key.length && before(r, l) ? r : l;
      if (!before(c, i)) break;
      swap(i, c);
      i = c;
    }
  };
  let left = 0;
  for (let t = 0; t < n; t++) {
    best(t);
    if (bestMachine[t]! >= 0) {
      open[t] = 1;
      left++;
      push(t);
    }
  }
  let waitingFor = 0;
  if (wanted !== null) for (let j = 0; j < m; j++) if (wanted[j] === 1) waitingFor++;
  const taken = wanted === null ? null : new Uint8Array(m);
  const order: number[] = [];
  while (left > 0) {
    const pick = task[0]!;
    if (open[pick] === 0 || ver[0] !== version[pick]) {
      pop();
      continue;
    }
    pop();
    const j = bestMachine[pick]!;
    machineOf[pick] = j;
    start[pick] = ready[j]!;
    end[pick] = bestEnd[pick]!;
    ready[j] = bestEnd[pick]!;
    open[pick] = 0;
    left--;
    order.push(pick);
    if (taken !== null && wanted![j] === 1 && taken[j] === 0) {
      taken[j] = 1;
      if (--waitingFor === 0) break;
    }
    // Only machine j got later: tasks whose best machine was j may now prefer another one.
    // (j is -1 only if every completion time overflowed: then no ready time changed.)
    const moved = j >= 0 ? buckets[j]! : [];
    if (j >= 0) buckets[j] = [];
    for (const t of moved) {
      if (open[t] === 1 && bestMachine[t] === j) {
        best(t);
        version[t]! += 1;
        push(t);
      }
    }
  }
  return { machineOf, order, start, end };
}
