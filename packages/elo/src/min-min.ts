import { finishMapping, type Mapping, type MappingProblem, readProblem } from "./mapping.js";

/**
 * Min-Min (Ibarra & Kim 1977; Maheswaran et al. 1999): repeatedly, among the unmapped tasks,
 * take the one whose minimum completion time `ready[m] + etc[t][m]` over machines is smallest,
 * map it to that machine, and advance the machine's ready time. Small tasks first, each on the
 * machine that finishes it earliest.
 *
 * Ties: among machines, the lowest index; among tasks, the lowest index.
 *
 * Complexity: O(n m + n log n + r log n + s e) time for n tasks and m machines, where r
 * is how many times a task is looked at again because its best machine was taken (at most n per
 * task; here only when its outdated entry reaches the top of the heap), s how many of those r
 * scan the task's finite times again (its first two, then only when both machines it remembers
 * were overtaken) and e the finite times per task (at most m); O(n m) extra memory for the
 * finite times, O(n + m) besides.
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
 * Complexity: as {@link minMin}, but every task whose best machine was taken is looked at
 * again at once (a lower bound of a completion time cannot tell which task is largest).
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
  const g = greedyOnLists(n, m, etcLists(n, m, etc), ready, largest, null);
  return finishMapping(g.machineOf, g.order, g.start, g.end, ready);
}

/**
 * Each task's expected times as a list of its finite entries: task `t`'s are
 * `cols[k]` (a machine) and `vals[k]` (its expected time there) for `k` from `offs[t]` to
 * `offs[t + 1] - 1`, machines ascending (`cols` and `vals` may be longer: what lies past
 * `offs[n]` is not read). The greedy scans only these, so a task that fits few machines costs
 * little (on the convergent farm a job fits about a quarter of them). @internal
 */
export interface EtcLists {
  readonly offs: Int32Array;
  readonly cols: Int32Array;
  readonly vals: Float64Array;
}

/** The lists of a row-major `n x m` ETC matrix (`Infinity` = ineligible, left out). @internal */
export function etcLists(n: number, m: number, etc: Float64Array | readonly number[]): EtcLists {
  let count = 0;
  for (let i = 0; i < n * m; i++) if (etc[i] !== Number.POSITIVE_INFINITY) count++;
  const offs = new Int32Array(n + 1);
  const cols = new Int32Array(count);
  const vals = new Float64Array(count);
  let k = 0;
  for (let t = 0; t < n; t++) {
    const row = t * m;
    for (let j = 0; j < m; j++) {
      const e = etc[row + j]!;
      if (e === Number.POSITIVE_INFINITY) continue;
      cols[k] = j;
      vals[k] = e;
      k++;
    }
    offs[t + 1] = k;
  }
  return { offs, cols, vals };
}

/**
 * The first tasks Min-Min (or, `largest`, Max-Min) maps, in its order, up to the pick that
 * gives the last machine flagged in `wanted` its first task (every task when some flagged
 * machine never gets one): what an online batch scheduler starts, since only the first task
 * mapped onto an idle machine may start. `etc` as {@link EtcLists} and `ready` as in
 * {@link MappingProblem}, unchecked (the scheduler builds them); `ready` is advanced as tasks
 * are mapped. `wantedCount`, when given, replaces the count of flagged machines (a caller that
 * passes only some machines counts the flagged machines left out too: the mapping then never
 * stops early, as it never maps onto those). @internal
 */
export function firstMapped(
  n: number,
  m: number,
  etc: EtcLists,
  ready: Float64Array,
  largest: boolean,
  wanted: Uint8Array,
  wantedCount?: number,
): { order: number[]; machineOf: Int32Array } {
  return greedyOnLists(n, m, etc, ready, largest, wanted, wantedCount);
}

/**
 * The greedy of {@link minMin} and {@link maxMin}: at every step, the unmapped task with the
 * smallest (`largest`: the largest) best completion time, ties to the lowest task index, on the
 * machine of that best completion (ties to the lowest machine index). With `wanted`, stops as
 * {@link firstMapped} says. It picks exactly what a scan of every unmapped task at every step
 * picks (the test suite checks it against that scan and against the previous implementation),
 * using that ready times only grow during the greedy:
 *
 * - A task's best machine comes from a scan of its finite times ({@link EtcLists}). A
 *   remembering scan also keeps its two best machines and, as a bound, the first of the others
 *   in (completion, index) order, which stays ahead of every other machine since their
 *   completion times only grow. A re-best (the task's best machine was taken) of a task that
 *   remembers looks at the two remembered machines only: if the better of them comes before the
 *   bound, it is the best of all (no other machine can do better, nor tie with a lower index);
 *   otherwise the task's times are scanned again, remembering anew. O(1) instead of O(e) per
 *   re-best, e the task's finite times, most of the time. Under Min-Min the first scan and the
 *   first re-best are plain (most tasks of an online call are looked at again once at most) and
 *   the second re-best remembers; under Max-Min, which looks at nearly every task again, most
 *   of them several times (on the t4 farm below, 4.4 million re-bests for 700,900 tasks), the
 *   first scan remembers already (user CPU on an overloaded 2,000-job Elo stream on 60 machines
 *   0.82-0.86 s against 0.88-0.91 s, three pairs; level on t4).
 *   (Until 2026-11-28 a task remembered an eighth of the machines, from 4 to 16, sorted by
 *   insertion, and only under Min-Min; on the lists that insertion cost more than the rescans it
 *   saved. On the convergent paper's farm, t4: 1,500 jobs, 150 machines, user CPU of `sched-sim
 *   run -s min-min` with 2, 4, 8 and 16 remembered: 1.48-1.51, 1.45-1.52, 1.57-1.63 and
 *   1.75-1.78 s, two runs each; Max-Min, plain scans against two remembered, 1.69-1.82 against
 *   1.72-1.95 s over three pairs, and 0.96-1.08 against 0.90-0.97 s on the Elo stream: level,
 *   so one path serves both.)
 * - Min-Min: a task whose best machine was taken keeps its old key, which is a lower bound of
 *   its true best completion. The tasks sit in a binary heap on (key, index); when the top one's
 *   key is stale, it is re-bested and sifted down, and when it is fresh it is the true minimum
 *   (every other key bounds its task's completion from below). Only the tasks that surface are
 *   re-bested, not every task whose best machine was taken.
 * - Max-Min: a lower bound says nothing about which task is largest, so every task whose best
 *   machine was just taken (its machine's bucket, a linked list in two typed arrays) is
 *   re-bested at once and sifted up. (The mirror image, the completion on the taken machine as
 *   an upper bound and a re-best when it surfaces, picks the same but was no faster on the
 *   convergent farm with 2,500 jobs: 14.7 s of CPU against 12.9-13.2 s, one run, with whole-row
 *   scans: the tasks that surface are the ones a re-best would touch anyway.)
 *
 * Complexity: O(n m + n log n) for the dense matrix's lists, the first scans and the heap, plus
 * O(1 + log n) per re-best and O(e) per rescan (a task's first two re-bests, and a re-best whose
 * remembered machines were both overtaken), e the task's finite times. Memory O(n m) for the
 * lists, O(n + m) besides. @internal
 */
export function greedyPicks(
  n: number,
  m: number,
  etc: Float64Array | readonly number[],
  ready: Float64Array,
  largest: boolean,
  wanted: Uint8Array | null,
): { machineOf: Int32Array; order: number[]; start: Float64Array; end: Float64Array } {
  return greedyOnLists(n, m, etcLists(n, m, etc), ready, largest, wanted);
}

/**
 * {@link greedyPicks} on the lists of finite expected times ({@link EtcLists}): every scan
 * walks a task's list instead of its whole row, in the same machine order, so it sees the same
 * completion times in the same order and picks the same (Infinity entries of a row could never
 * be a best). O(n + sum of list lengths + n log n) for the first scans and the heap, the rest as
 * {@link greedyPicks} says. @internal
 */
export function greedyOnLists(
  n: number,
  m: number,
  etc: EtcLists,
  ready: Float64Array,
  largest: boolean,
  wanted: Uint8Array | null,
  wantedCount?: number,
): { machineOf: Int32Array; order: number[]; start: Float64Array; end: Float64Array } {
  const { offs, cols, vals } = etc;
  const machineOf = new Int32Array(n).fill(-1);
  const start = new Float64Array(n).fill(Number.NaN);
  const end = new Float64Array(n).fill(Number.NaN);
  const bestMachine = new Int32Array(n);
  const bestEnd = new Float64Array(n);
  // each task's two remembered machines (their places in the lists, the best first; -1 for
  // none) and the first of the others in (completion, index) order at its last remembering scan:
  // their completion times only grow, so (bound, boundJ) comes before every other machine's
  // (completion, index) from then on; bound is -Infinity while nothing is remembered
  const candA = new Int32Array(n);
  const candB = new Int32Array(n);
  const bound = new Float64Array(n);
  const boundJ = new Int32Array(n);
  const plain = new Uint8Array(n); // 1 once the task had a re-best by a plain scan
  // Min-Min: how many times each machine was taken, and that count for the task's best machine
  // when its key was computed (the key is stale when they differ)
  const taken = new Int32Array(m);
  const seen = new Int32Array(n);
  // Max-Min: the open tasks whose best machine is j, by machine, as linked lists (the first at
  // head[j], the next after t at next[t], -1 ends); the tasks mapped since stay in them
  const head = largest ? new Int32Array(m).fill(-1) : null;
  const next = largest ? new Int32Array(n) : null;

  // Scans task t's list: its best machine (-1 when no completion time is finite: ineligible
  // everywhere, or every sum overflowed), remembering its two best and the third as the bound,
  // all in (completion, index) order (the list is in index order: a later equal time is after).
  const scan = (t: number): void => {
    let b0 = Number.POSITIVE_INFINITY;
    let j0 = -1;
    let k0 = -1;
    let b1 = Number.POSITIVE_INFINITY;
    let j1 = m;
    let k1 = -1;
    let b2 = Number.POSITIVE_INFINITY;
    let j2 = m;
    const stop = offs[t + 1]!;
    for (let k = offs[t]!; k < stop; k++) {
      const j = cols[k]!;
      const c = ready[j]! + vals[k]!;
      if (!(c < b2)) continue; // (an infinite time never enters)
      if (c < b1) {
        b2 = b1;
        j2 = j1;
        if (c < b0) {
          b1 = b0;
          j1 = j0;
          k1 = k0;
          b0 = c;
          j0 = j;
          k0 = k;
        } else {
          b1 = c;
          j1 = j;
          k1 = k;
        }
      } else {
        b2 = c;
        j2 = j;
      }
    }
    candA[t] = k0;
    candB[t] = k1;
    bound[t] = b2;
    boundJ[t] = j2;
    bestMachine[t] = j0;
    bestEnd[t] = b0;
  };
  // Task t's best machine by a plain scan, remembering nothing (the other machines are
  // remembered at its second re-best, if it has one: most tasks of an online call have none).
  const first = (t: number): void => {
    let bm = -1;
    let be = Number.POSITIVE_INFINITY;
    const stop = offs[t + 1]!;
    for (let k = offs[t]!; k < stop; k++) {
      const c = ready[cols[k]!]! + vals[k]!;
      if (c < be) {
        be = c;
        bm = cols[k]!;
      }
    }
    bestMachine[t] = bm;
    bestEnd[t] = be;
    bound[t] = Number.NEGATIVE_INFINITY; // candCount[t] is 0: a re-best scans the row
  };
  // Min-Min: task t's best machine now, after its best machine was taken.
  const rebest = (t: number): void => {
    if (bound[t] === Number.NEGATIVE_INFINITY) {
      // nothing remembered yet: a plain scan the first time (most tasks of an online call are
      // looked at again once at most), the remembering scan the second
      if (plain[t] === 0) {
        plain[t] = 1;
        first(t);
      } else scan(t);
      return;
    }
    let bm = -1;
    let be = Number.POSITIVE_INFINITY;
    const ka = candA[t]!;
    if (ka >= 0) {
      const j = cols[ka]!;
      const c = ready[j]! + vals[ka]!;
      if (c < be) {
        be = c;
        bm = j;
      }
    }
    const kb = candB[t]!;
    if (kb >= 0) {
      const j = cols[kb]!;
      const c = ready[j]! + vals[kb]!;
      if (c < be || (c === be && j < bm)) {
        be = c;
        bm = j;
      }
    }
    const rest = bound[t]!;
    // every other machine completes at `rest` or later, and at `rest` only if its index is
    // boundJ[t] or more: exact when (be, bm) comes before that, or when no other machine has a
    // finite completion time (then bm = -1 too if no remembered one has)
    if (be < rest || (be === rest && bm < boundJ[t]!) || rest === Number.POSITIVE_INFINITY) {
      bestMachine[t] = bm;
      bestEnd[t] = be;
    } else scan(t);
  };

  // the heap of open tasks (unmapped, with a machine), on (bestEnd, index): smallest first,
  // largest first for Max-Min; `pos` is each task's place in it
  const heap = new Int32Array(n);
  const pos = new Int32Array(n).fill(-1);
  let size = 0;
  const before = (a: number, b: number): boolean => {
    const ka = bestEnd[a]!;
    const kb = bestEnd[b]!;
    return ka === kb ? a < b : largest ? ka > kb : ka < kb;
  };
  const siftUp = (i: number): void => {
    const t = heap[i]!;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const u = heap[p]!;
      if (!before(t, u)) break;
      heap[i] = u;
      pos[u] = i;
      i = p;
    }
    heap[i] = t;
    pos[t] = i;
  };
  const siftDown = (i: number): void => {
    const t = heap[i]!;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      let c = l;
      if (r < size && before(heap[r]!, heap[l]!)) c = r;
      const u = heap[c]!;
      if (!before(u, t)) break;
      heap[i] = u;
      pos[u] = i;
      i = c;
    }
    heap[i] = t;
    pos[t] = i;
  };

  for (let t = 0; t < n; t++) {
    // (Max-Min looks at nearly every task again, most of them several times: its first scan
    // remembers already)
    if (head !== null) scan(t);
    else first(t);
    const bm = bestMachine[t]!;
    if (bm < 0) continue;
    heap[size] = t;
    pos[t] = size;
    size++;
    if (head !== null) {
      next![t] = head[bm]!;
      head[bm] = t;
    }
  }
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);

  let waitingFor = 0;
  if (wantedCount !== undefined) waitingFor = wantedCount;
  else if (wanted !== null) for (let j = 0; j < m; j++) if (wanted[j] === 1) waitingFor++;
  const got = wanted === null ? null : new Uint8Array(m);
  const order: number[] = [];
  while (size > 0) {
    const pick = heap[0]!;
    const j = bestMachine[pick]!;
    if (head === null && j >= 0 && seen[pick] !== taken[j]) {
      // Min-Min: a stale key surfaced; its true key is no smaller
      rebest(pick);
      const bm = bestMachine[pick]!;
      if (bm >= 0) seen[pick] = taken[bm]!;
      siftDown(0);
      continue;
    }
    size--;
    pos[pick] = -1;
    if (size > 0) {
      heap[0] = heap[size]!;
      siftDown(0);
    }
    machineOf[pick] = j;
    order.push(pick);
    // (j is -1 only if every completion time overflowed since the first scan: then no ready
    // time changes, and the task counts as mapped at an infinite time, as the scan picks it)
    if (j < 0) {
      end[pick] = bestEnd[pick]!;
      continue;
    }
    start[pick] = ready[j]!;
    end[pick] = bestEnd[pick]!;
    ready[j] = bestEnd[pick]!;
    taken[j] = taken[j]! + 1;
    if (got !== null && wanted![j] === 1 && got[j] === 0) {
      got[j] = 1;
      if (--waitingFor === 0) break;
    }
    if (head !== null) {
      // Max-Min: only machine j got later, so only the tasks whose best machine was j may now
      // complete later (on j or elsewhere): re-best each now (in any order: each re-best reads
      // the ready times only, and the heap's top is the first in (key, index) order whatever
      // its shape)
      let t = head[j]!;
      head[j] = -1;
      while (t >= 0) {
        const after = next![t]!;
        if (pos[t]! >= 0 && bestMachine[t] === j) {
          rebest(t);
          const bm = bestMachine[t]!;
          if (bm >= 0) {
            next![t] = head[bm]!;
            head[bm] = t;
          }
          siftUp(pos[t]!);
        }
        t = after;
      }
    }
  }
  return { machineOf, order, start, end };
}
