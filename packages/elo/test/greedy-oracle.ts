/**
 * The greedy of `minMin` / `maxMin` as it was until 2026-11-28 (eager re-bests: every task whose
 * best machine was just taken is rescanned at once; a heap with a stale entry per re-best), kept
 * verbatim as the oracle of the faster greedy: same picks, same machines, same times, ties
 * included.
 */
export function greedyPicks(
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
