/**
 * `findAllocation` and `maximumRectangle` read the busy sets through per-record word summaries
 * (which words are nonzero, which all ones) and unite only the words that are neither. Here they
 * are checked against the plain reading, recomputed from `records()` with whole-bitset unions,
 * on machines of 1 to a few thousand PEs and some large ones, with reservations made of runs
 * (whole words busy or free) and scattered PEs (words partly busy), across word and summary-word
 * boundaries (32 and 1,024 PEs).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AllocationPolicy,
  type AvailabilityRectangle,
  AvailRectList,
  PE_SELECTIONS,
  type PeSelection,
  paperPolicies,
} from "../src/index.js";
import {
  complementInto,
  count,
  disjoint,
  highest,
  lowest,
  orInto,
  wordsFor,
} from "../src/pe-set.js";

const H = 30;

/** A PE count: small, around the word and summary-word boundaries, up to a few thousand, or large. */
const pesArb = fc.oneof(
  fc.integer({ min: 1, max: 100 }),
  fc.constantFrom(31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049),
  fc.integer({ min: 100, max: 4000 }),
  fc.integer({ min: 30_000, max: 70_000 }),
);

interface Op {
  readonly del: boolean;
  readonly ts: number;
  readonly len: number;
  /** Runs `[start, start + length)` as fractions of the PE count, and scattered PEs. */
  readonly runs: readonly (readonly [number, number])[];
  readonly scattered: readonly number[];
  readonly pick: number;
  readonly cut: number;
  readonly half: boolean;
}

const opArb: fc.Arbitrary<Op> = fc.record({
  del: fc.boolean(),
  ts: fc.integer({ min: 0, max: H - 1 }),
  len: fc.integer({ min: 1, max: 12 }),
  runs: fc.array(
    fc.tuple(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 0.3, noNaN: true }),
    ),
    {
      maxLength: 3,
    },
  ),
  scattered: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
  pick: fc.nat(),
  cut: fc.nat(),
  half: fc.boolean(),
});

/** The PEs of an op on `pes` PEs, increasing and distinct. */
function pesOf(pes: number, op: Op): number[] {
  const set = new Set<number>();
  for (const [a, l] of op.runs) {
    const from = Math.min(pes - 1, Math.floor(a * pes));
    const to = Math.min(pes, from + Math.max(1, Math.floor(l * pes)));
    for (let p = from; p < to; p++) set.add(p);
  }
  for (const x of op.scattered) set.add(Math.min(pes - 1, Math.floor(x * pes)));
  return [...set].sort((a, b) => a - b);
}

/**
 * Replays the ops: an add that clashes is refused (and changes nothing); a delete drops the tail
 * of a live reservation, on all its PEs or every other one.
 */
function replay(pes: number, ops: readonly Op[]): AvailRectList {
  const list = new AvailRectList(pes);
  const live: { ts: number; te: number; pes: number[] }[] = [];
  for (const op of ops) {
    if (op.del && live.length > 0) {
      const i = op.pick % live.length;
      const a = live[i]!;
      const from = a.ts + (op.cut % (a.te - a.ts));
      // Every PE, or every other one (a word all ones becomes partly busy).
      const gone = op.half && a.pes.length > 1 ? a.pes.filter((_, j) => j % 2 === 0) : a.pes;
      list.deleteAllocation(from, a.te, gone);
      live.splice(i, 1);
      if (from > a.ts) live.push({ ts: a.ts, te: from, pes: gone });
      if (gone !== a.pes)
        live.push({ ts: a.ts, te: a.te, pes: a.pes.filter((_, j) => j % 2 === 1) });
    } else {
      const p = pesOf(pes, op);
      if (p.length === 0) continue;
      const te = op.ts + op.len;
      try {
        list.addAllocation(op.ts, te, p);
        live.push({ ts: op.ts, te, pes: p });
      } catch {
        // a clash: refused, nothing changed
      }
    }
  }
  return list;
}

/** The plain reading: records as whole bitsets, unions by OR over every word. */
class Plain {
  readonly times: number[];
  readonly sets: Uint32Array[];
  constructor(
    readonly list: AvailRectList,
    readonly pes: number,
  ) {
    const records = list.records();
    this.times = records.map((r) => r.time);
    this.sets = records.map((r) => {
      const set = new Uint32Array(wordsFor(pes));
      for (const p of r.busy) set[p >>> 5]! |= 1 << (p & 31);
      return set;
    });
  }

  floorIndex(t: number): number {
    let k = -1;
    while (k + 1 < this.times.length && this.times[k + 1]! <= t) k++;
    return k;
  }

  /** The rectangle of start `s` and the PEs free throughout its window, or null. */
  rectangle(s: number, tdu: number, n: number, endCap: number) {
    const e = s + tdu;
    const first = this.floorIndex(s);
    const union = new Uint32Array(wordsFor(this.pes));
    let k = Math.max(first, 0);
    for (; k < this.times.length; k++) {
      if (k > first && this.times[k]! >= e) break;
      orInto(union, this.sets[k]!);
    }
    const free = new Uint32Array(union.length);
    complementInto(free, union, this.pes);
    const freePEs = count(free);
    if (freePEs < n) return null;
    let b = first;
    while (b > 0 && disjoint(this.sets[b - 1]!, free)) b--;
    const begin = b <= 0 ? this.list.origin : this.times[b]!;
    let f = k;
    while (f < this.times.length && this.times[f]! < endCap && disjoint(this.sets[f]!, free)) f++;
    const end = f < this.times.length && this.times[f]! < endCap ? this.times[f]! : endCap;
    const rect: AvailabilityRectangle = { start: s, begin, end, freePEs };
    return { rect, free };
  }

  find(
    q: { tr: number; tdu: number; tdl: number; n: number },
    policy: AllocationPolicy,
    clip: boolean,
    selection: PeSelection,
  ) {
    if (q.n > this.pes) return null;
    let best: { rect: AvailabilityRectangle; free: Uint32Array } | null = null;
    for (const s of this.list.candidateStartTimes({
      ready: q.tr,
      duration: q.tdu,
      deadline: q.tdl,
    })) {
      const r = this.rectangle(s, q.tdu, q.n, clip ? q.tdl : Number.POSITIVE_INFINITY);
      if (r !== null && (best === null || policy.compare(r.rect, best.rect) < 0)) best = r;
    }
    if (best === null) return null;
    const start = best.rect.start;
    const end = start + q.tdu;
    return {
      start,
      end,
      pes: this.choose(best.free, start, end, q.n, selection),
      rectangle: best.rect,
    };
  }

  /** The earliest start `>= t` (and the origin) with `n` PEs free for `d`: `t` or a record time. */
  earliestFit(t: number, d: number, n: number) {
    if (n > this.pes) return null;
    const a = Math.max(t, this.list.origin);
    for (const s of [a, ...this.times.filter((x) => x > a)]) {
      const r = this.rectangle(s, d, n, Number.POSITIVE_INFINITY);
      if (r !== null) return { start: s, pes: lowest(r.free, n) };
    }
    throw new Error("unreachable: every PE is free from the last record on");
  }

  /** The PEs by `selection`, read plainly (PE by PE over the records). */
  choose(free: Uint32Array, ts: number, te: number, n: number, selection: PeSelection): number[] {
    if (selection === "lowest-index") return lowest(free, n);
    if (selection === "highest-index") return highest(free, n);
    const left = new Set(lowest(free, Number.POSITIVE_INFINITY));
    const out: number[] = [];
    const order: number[] = [];
    if (selection === "soonest-reserved") {
      for (let k = Math.max(this.floorIndex(te), 0); k < this.times.length; k++) order.push(k);
    } else {
      for (let k = this.times.length - 1; k >= 0; k--) if (this.times[k]! < ts) order.push(k);
    }
    for (const k of order) {
      for (const p of lowest(this.sets[k]!, Number.POSITIVE_INFINITY)) {
        if (out.length < n && left.has(p)) {
          out.push(p);
          left.delete(p);
        }
      }
    }
    for (const p of [...left].sort((a, b) => a - b)) if (out.length < n) out.push(p);
    return out.sort((a, b) => a - b);
  }
}

const requestArb = fc.record({
  tr: fc.integer({ min: 0, max: H }),
  tdu: fc.integer({ min: 1, max: 10 }),
  slack: fc.integer({ min: 0, max: 20 }),
  /** The PE count as a fraction of the machine (at least 1 PE). */
  share: fc.double({ min: 0, max: 1.05, noNaN: true }),
});

describe("AvailRectList word summaries against the plain reading", () => {
  it("findAllocation (seven policies, clipped or not, every peSelection), maximumRectangle and earliestFit give the plain answers", () => {
    fc.assert(
      fc.property(pesArb, fc.array(opArb, { maxLength: 24 }), requestArb, (pes, ops, q) => {
        const list = replay(pes, ops);
        const plain = new Plain(list, pes);
        const n = Math.max(1, Math.floor(q.share * pes));
        const req = { tr: q.tr, tdu: q.tdu, tdl: q.tr + q.tdu + q.slack, n };
        for (const policy of paperPolicies) {
          for (const clipToDeadline of [true, false]) {
            for (const peSelection of PE_SELECTIONS) {
              const got = list.findAllocation(
                { ready: req.tr, duration: req.tdu, deadline: req.tdl, peCount: n },
                { policy, clipToDeadline, peSelection },
              );
              expect(got).toEqual(plain.find(req, policy, clipToDeadline, peSelection));
            }
          }
        }
        for (const s of [q.tr, ...plain.times]) {
          const got = list.maximumRectangle({
            start: s,
            duration: q.tdu,
            peCount: Math.min(n, pes),
          });
          const want = plain.rectangle(
            Math.max(s, list.origin),
            q.tdu,
            Math.min(n, pes),
            Number.POSITIVE_INFINITY,
          );
          expect(got).toEqual(want === null ? null : want.rect);
        }
        expect(list.earliestFit({ peCount: n, duration: q.tdu, ready: q.tr })).toEqual(
          plain.earliestFit(q.tr, q.tdu, n),
        );
        // Minimal: the summaries did not keep a redundant record (nor drop a needed one).
        const records = list.records();
        for (let k = 1; k < records.length; k++) {
          expect(records[k]!.busy).not.toEqual(records[k - 1]!.busy);
        }
        if (records.length > 0) {
          expect(records[0]!.busy.length).toBeGreaterThan(0);
          expect(records[records.length - 1]!.busy).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("a word all ones that a delete empties or leaves partly busy is read as it is (examples)", () => {
    const run = Array.from({ length: 32 }, (_, i) => 32 + i); // word 1, all ones
    for (const gone of [run, run.filter((p) => p % 2 === 0)]) {
      const list = new AvailRectList(96);
      list.addAllocation(0, 10, run);
      list.addAllocation(3, 5, [70]);
      list.deleteAllocation(2, 10, gone);
      const plain = new Plain(list, 96);
      for (const n of [1, 64, 80, 95, 96]) {
        const q = { tr: 0, tdu: 2, tdl: 20, n };
        for (const policy of paperPolicies) {
          const got = list.findAllocation(
            { ready: q.tr, duration: q.tdu, deadline: q.tdl, peCount: n },
            { policy },
          );
          expect(got).toEqual(plain.find(q, policy, true, "lowest-index"));
        }
      }
      expect(list.records().map((r) => r.time)).toEqual(
        gone === run ? [0, 2, 3, 5] : [0, 2, 3, 5, 10],
      );
    }
  });
});
