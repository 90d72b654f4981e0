/**
 * A plain linked-list implementation of the paper's AvailRectList (section 4), for the scaling
 * benchmark and as an oracle in tests only: records `{time, busy PEs}` in a singly linked list,
 * each busy set a per-PE byte array, found by walking from the head (the paper's "O(n) time to
 * find the record for each time slot in the linked list"); `findAllocation` first copies the list
 * into an array, as the paper's complexity analysis does ("we can sort the linked list into
 * sorted array list"). It keeps the same minimal form and the same choices as AvailRectList
 * (candidates, rectangles, ties to the earliest start, lowest-index PEs), with origin 0.
 */
import type { AllocationPolicy, AvailabilityRectangle, AvailRecord } from "../src/index.js";

interface Node {
  time: number;
  busy: Uint8Array;
  count: number;
  next: Node | null;
}

export class LinkedAvailList {
  private head: Node | null = null;

  constructor(readonly pes: number) {}

  /** A list holding `records` (as AvailRectList.records() gives them). */
  static from(pes: number, records: readonly AvailRecord[]): LinkedAvailList {
    const list = new LinkedAvailList(pes);
    let tail: Node | null = null;
    for (const r of records) {
      const busy = new Uint8Array(pes);
      for (const p of r.busy) busy[p] = 1;
      const node: Node = { time: r.time, busy, count: r.busy.length, next: null };
      if (tail === null) list.head = node;
      else tail.next = node;
      tail = node;
    }
    return list;
  }

  records(): AvailRecord[] {
    const out: AvailRecord[] = [];
    for (let n = this.head; n !== null; n = n.next) {
      const busy: number[] = [];
      n.busy.forEach((b, p) => {
        if (b) busy.push(p);
      });
      out.push({ time: n.time, busy });
    }
    return out;
  }

  get size(): number {
    let k = 0;
    for (let n = this.head; n !== null; n = n.next) k++;
    return k;
  }

  addAllocation(ts: number, te: number, pes: readonly number[]): void {
    this.update(ts, te, pes, 1);
  }

  deleteAllocation(ts: number, te: number, pes: readonly number[]): void {
    this.update(ts, te, pes, 0);
  }

  /** Walks to `ts`, splits at `ts` and `te`, sets the PEs in between, cleans both ends. */
  private update(ts: number, te: number, pes: readonly number[], value: 0 | 1): void {
    const first = this.split(ts);
    const last = this.split(te);
    for (let n: Node | null = first; n !== null && n !== last; n = n.next) {
      for (const p of pes) {
        if (n.busy[p] !== value) {
          n.busy[p] = value;
          n.count += value === 1 ? 1 : -1;
        }
      }
    }
    this.clean(te);
    this.clean(ts);
  }

  /** The node at `t`, inserted (with the busy set in force there) if missing. */
  private split(t: number): Node {
    let prev: Node | null = null;
    let n = this.head;
    while (n !== null && n.time < t) {
      prev = n;
      n = n.next;
    }
    if (n !== null && n.time === t) return n;
    const node: Node = {
      time: t,
      busy: prev === null ? new Uint8Array(this.pes) : prev.busy.slice(),
      count: prev === null ? 0 : prev.count,
      next: n,
    };
    if (prev === null) this.head = node;
    else prev.next = node;
    return node;
  }

  /** Removes the node at `t` if it equals its predecessor (or is an empty first node). */
  private clean(t: number): void {
    let prev: Node | null = null;
    let n = this.head;
    while (n !== null && n.time < t) {
      prev = n;
      n = n.next;
    }
    if (n === null || n.time !== t) return;
    const redundant =
      prev === null
        ? n.count === 0
        : prev.count === n.count && prev.busy.every((b, p) => b === n!.busy[p]);
    if (!redundant) return;
    if (prev === null) this.head = n.next;
    else prev.next = n.next;
  }

  findAllocation(
    tr: number,
    tdu: number,
    tdl: number,
    n: number,
    policy: AllocationPolicy,
    clip = true,
  ): { start: number; pes: number[] } | null {
    const times: number[] = [];
    const sets: Uint8Array[] = [];
    for (let x = this.head; x !== null; x = x.next) {
      times.push(x.time);
      sets.push(x.busy);
    }
    const latest = tdl - tdu;
    if (latest < tr || n > this.pes) return null;
    const candidates = new Set<number>([tr, latest]);
    for (const t of times) {
      if (t >= tr && t <= latest) candidates.add(t);
      if (t - tdu >= tr && t - tdu <= latest) candidates.add(t - tdu);
    }
    const endCap = clip ? tdl : Number.POSITIVE_INFINITY;
    let best: AvailabilityRectangle | null = null;
    let bestFree: number[] = [];
    for (const s of [...candidates].sort((a, b) => a - b)) {
      const e = s + tdu;
      let first = -1;
      while (first + 1 < times.length && times[first + 1]! <= s) first++;
      const used = new Uint8Array(this.pes);
      let k = Math.max(first, 0);
      for (; k < times.length && (k === first || times[k]! < e); k++) {
        sets[k]!.forEach((b, p) => {
          if (b) used[p] = 1;
        });
      }
      const free: number[] = [];
      used.forEach((b, p) => {
        if (!b) free.push(p);
      });
      if (free.length < n) continue;
      const disjoint = (set: Uint8Array) => free.every((p) => set[p] === 0);
      let b = first;
      while (b > 0 && disjoint(sets[b - 1]!)) b--;
      const begin = b <= 0 ? 0 : times[b]!;
      let f = k;
      while (f < times.length && times[f]! < endCap && disjoint(sets[f]!)) f++;
      const end = f < times.length && times[f]! < endCap ? times[f]! : endCap;
      const rect = { start: s, begin, end, freePEs: free.length };
      if (best === null || policy.compare(rect, best) < 0) {
        best = rect;
        bestFree = free;
      }
    }
    return best === null ? null : { start: best.start, pes: bestFree.slice(0, n) };
  }
}
