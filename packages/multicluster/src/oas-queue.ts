import type { Job } from "@sched/core";

/**
 * The waiting jobs of an OAS list heuristic, kept in the rule's order as jobs enter and leave
 * the queue one by one, so a scheduling call pays for the jobs it looks at, not for the queue.
 * Internal: `oasHeuristic` and its property tests (test/oas-queue.property.test.ts, against
 * `ruleOrder`).
 */

/** One waiting job and what the heuristic knows of it. */
export interface OasQueued {
  readonly job: Job;
  /** The rule's key: 0 (FCFS, FPFS), `cores`, `-cores`, `estimate` or `-estimate`. */
  readonly key: number;
  /** Its own fields checked (`checkOasJob`) and its profile (`checkedOasProfile`). */
  checked: boolean;
  /** Whether some considered allocation runs it on the empty platform (known once asked). */
  fitsEmpty: boolean | undefined;
  /** Where it sits in its structure (heap index or FIFO slot), -1 outside. */
  at: number;
}

/**
 * The rule's order as `ruleOrder` sorts it: `key`, then submit time, then id (a total order:
 * ids are distinct, keys finite).
 */
export function before(a: OasQueued, b: OasQueued): boolean {
  const d = a.key - b.key || a.job.submit - b.job.submit || a.job.id - b.job.id;
  return d < 0;
}

/**
 * A binary min-heap in the rule's order: the strict rules only ever look at the head (they
 * start or reject it and look at the next, or stop), so a heap is their whole queue.
 * O(log n) per push and pop, O(1) to peek.
 */
export class RuleHeap {
  private readonly items: OasQueued[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): OasQueued | undefined {
    return this.items[0];
  }

  push(q: OasQueued): void {
    const items = this.items;
    let i = items.length;
    items.push(q);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent]!;
      if (!before(q, p)) break;
      items[i] = p;
      p.at = i;
      i = parent;
    }
    items[i] = q;
    q.at = i;
  }

  /** Removes and returns the head. */
  pop(): OasQueued | undefined {
    const items = this.items;
    const top = items[0];
    if (top === undefined) return undefined;
    top.at = -1;
    const last = items.pop()!;
    if (items.length === 0) return top;
    const n = items.length;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(items[r]!, items[l]!) ? r : l;
      if (!before(items[c]!, last)) break;
      items[i] = items[c]!;
      items[i]!.at = i;
      i = c;
    }
    items[i] = last;
    last.at = i;
    return top;
  }

  clear(): void {
    for (const q of this.items) q.at = -1;
    this.items.length = 0;
  }
}

/**
 * FPFS's queue: the waiting jobs in arrival order (submit, then id), each in a slot with a
 * value, and a min-tree over the slots that finds the first slot at or after a given one whose
 * value is at most a bound: FPFS asks for the next job that may start (value `cores`, bound the
 * free cores) or that it has not looked at yet (value 0). A job not in the walk (not ready) has
 * the value `Infinity`. Slots are appended in order; `append` refuses a job that would come
 * before the last one appended (the caller then rebuilds, sorting). Slots of jobs that left are reused
 * when the slots run out and fewer than half are live (the survivors keep their order).
 * O(log n) amortized per append, set and find.
 */
export class FifoTree {
  private items: (OasQueued | undefined)[] = [];
  private tree = new Float64Array(2).fill(Number.POSITIVE_INFINITY);
  /** Leaves: slots 0 .. cap - 1 at tree[cap + slot]. */
  private cap = 1;
  /** Slots used (live or not). */
  private used = 0;
  private live = 0;
  /** The job appended last (perhaps gone since): the next must not come before it. */
  private last: OasQueued | undefined = undefined;

  get size(): number {
    return this.live;
  }

  /** The job in `slot`. */
  at(slot: number): OasQueued | undefined {
    return this.items[slot];
  }

  /** Appends `q` with `value`; false (and nothing done) when `q` comes before the last job. */
  append(q: OasQueued, value: number): boolean {
    if (this.last !== undefined && before(q, this.last)) return false;
    this.last = q;
    if (this.used === this.cap) this.grow();
    const slot = this.used++;
    this.items[slot] = q;
    q.at = slot;
    this.live++;
    this.set(slot, value);
    return true;
  }

  /** Empties the slot of `q` (which leaves the queue). */
  remove(q: OasQueued): void {
    const slot = q.at;
    if (slot < 0 || this.items[slot] !== q) return;
    this.items[slot] = undefined;
    q.at = -1;
    this.live--;
    this.set(slot, Number.POSITIVE_INFINITY);
  }

  set(slot: number, value: number): void {
    const tree = this.tree;
    let i = this.cap + slot;
    tree[i] = value;
    for (i >>= 1; i >= 1; i >>= 1) {
      const v = Math.min(tree[2 * i]!, tree[2 * i + 1]!);
      if (tree[i] === v) break;
      tree[i] = v;
    }
  }

  /** The first slot >= `from` whose value is <= `bound`, or -1. */
  find(from: number, bound: number): number {
    if (from >= this.used) return -1;
    return this.descend(1, 0, this.cap, Math.max(0, from), bound);
  }

  clear(): void {
    for (const q of this.items) if (q !== undefined) q.at = -1;
    this.items = [];
    this.cap = 1;
    this.tree = new Float64Array(2).fill(Number.POSITIVE_INFINITY);
    this.used = 0;
    this.live = 0;
    this.last = undefined;
  }

  private descend(node: number, lo: number, hi: number, from: number, bound: number): number {
    if (hi <= from || !(this.tree[node]! <= bound)) return -1;
    if (hi - lo === 1) return lo;
    const mid = (lo + hi) >> 1;
    const left = this.descend(2 * node, lo, mid, from, bound);
    if (left >= 0) return left;
    return this.descend(2 * node + 1, mid, hi, from, bound);
  }

  /** Room for one more slot: compacts when at most half are live, else doubles. */
  private grow(): void {
    const old = this.items;
    const values: number[] = [];
    const kept: OasQueued[] = [];
    for (let s = 0; s < this.used; s++) {
      const q = old[s];
      if (q === undefined) continue;
      kept.push(q);
      values.push(this.tree[this.cap + s]!);
    }
    let cap = this.cap;
    while (cap < 2 * kept.length + 2) cap *= 2;
    this.cap = cap;
    this.items = new Array<OasQueued | undefined>(cap);
    const tree = new Float64Array(2 * cap).fill(Number.POSITIVE_INFINITY);
    for (let s = 0; s < kept.length; s++) {
      this.items[s] = kept[s];
      kept[s]!.at = s;
      tree[cap + s] = values[s]!;
    }
    for (let i = cap - 1; i >= 1; i--) tree[i] = Math.min(tree[2 * i]!, tree[2 * i + 1]!);
    this.tree = tree;
    this.used = kept.length;
  }
}

/**
 * A min-heap of jobs by the time they become ready (`job.ready`, later than `submit`), for the
 * jobs waiting that a heuristic may not start yet.
 */
export class ReadyHeap {
  private readonly items: OasQueued[] = [];

  get size(): number {
    return this.items.length;
  }

  push(q: OasQueued): void {
    const items = this.items;
    let i = items.length;
    items.push(q);
    const t = readyAt(q.job);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!(t < readyAt(items[parent]!.job))) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = q;
  }

  /** Removes and returns a job ready at `now`, or undefined when none is. */
  popReady(now: number): OasQueued | undefined {
    const items = this.items;
    const top = items[0];
    if (top === undefined || !(readyAt(top.job) <= now)) return undefined;
    const last = items.pop()!;
    if (items.length > 0) {
      const n = items.length;
      const t = readyAt(last.job);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && readyAt(items[r]!.job) < readyAt(items[l]!.job) ? r : l;
        if (!(readyAt(items[c]!.job) < t)) break;
        items[i] = items[c]!;
        i = c;
      }
      items[i] = last;
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}

/** When a job may start: its ready time, else its submit time (as the heuristics read it). */
export function readyAt(job: Job): number {
  return job.ready ?? job.submit;
}
