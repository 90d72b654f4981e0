import { InvalidInputError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AvailRectList, PE_SELECTIONS, paperPolicies } from "../src/index.js";
import { Grid, ORACLE_POLICIES } from "./grid-oracle.js";

const H = 24;

interface Op {
  kind: "add" | "del";
  ts: number;
  len: number;
  pes: number[];
  pick: number;
  cut: number;
}

const opArb = (pes: number): fc.Arbitrary<Op> =>
  fc.record({
    kind: fc.constantFrom<"add" | "del">("add", "add", "del"),
    ts: fc.integer({ min: 0, max: H - 1 }),
    len: fc.integer({ min: 1, max: 8 }),
    pes: fc.uniqueArray(fc.integer({ min: 0, max: pes - 1 }), { minLength: 1, maxLength: pes }),
    pick: fc.nat(),
    cut: fc.nat(),
  });

/** A PE count (sometimes past a 32-bit word) and a sequence of adds and (partial) deletes. */
const scenarioArb = fc
  .oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 30, max: 40 }))
  .chain((pes) => fc.tuple(fc.constant(pes), fc.array(opArb(pes), { maxLength: 20 })));

interface Live {
  ts: number;
  te: number;
  pes: number[];
}

/** Replays `ops` on a structure and on the grid; checks refusals agree. Returns both and the live allocations. */
function replay(pes: number, ops: readonly Op[]) {
  const list = new AvailRectList(pes);
  const grid = new Grid(pes, H);
  const live: Live[] = [];
  for (const op of ops) {
    if (op.kind === "add") {
      const te = Math.min(op.ts + op.len, H);
      if (grid.conflicts(op.ts, te, op.pes)) {
        const before = list.records();
        expect(() => list.addAllocation(op.ts, te, op.pes)).toThrow(/already reserved/);
        expect(list.records()).toEqual(before);
      } else {
        list.addAllocation(op.ts, te, op.pes);
        grid.set(op.ts, te, op.pes, true);
        live.push({ ts: op.ts, te, pes: op.pes });
      }
    } else if (live.length > 0) {
      const i = op.pick % live.length;
      const a = live[i]!;
      const from = a.ts + (op.cut % (a.te - a.ts));
      list.deleteAllocation(from, a.te, a.pes);
      grid.set(from, a.te, a.pes, false);
      if (from === a.ts) live.splice(i, 1);
      else a.te = from;
    }
  }
  return { list, grid, live };
}

const requestArb = fc.record({
  tr: fc.integer({ min: 0, max: H }),
  tdu: fc.integer({ min: 1, max: 8 }),
  slack: fc.integer({ min: 0, max: 12 }),
  n: fc.integer({ min: 1, max: 40 }),
});

describe("AvailRectList properties (brute-force grid oracle)", () => {
  it("holds exactly the grid's change points after any adds and deletes (so no record is redundant)", () => {
    fc.assert(
      fc.property(scenarioArb, ([pes, ops]) => {
        const { list, grid } = replay(pes, ops);
        expect(list.records()).toEqual(grid.records());
      }),
      { numRuns: 300 },
    );
  });

  it("is minimal: first record busy, last empty, no record equal to its predecessor, times increasing", () => {
    fc.assert(
      fc.property(scenarioArb, ([pes, ops]) => {
        const records = replay(pes, ops).list.records();
        if (records.length === 0) return;
        expect(records[0]!.busy.length).toBeGreaterThan(0);
        expect(records[records.length - 1]!.busy).toEqual([]);
        for (let k = 1; k < records.length; k++) {
          expect(records[k]!.time).toBeGreaterThan(records[k - 1]!.time);
          expect(records[k]!.busy).not.toEqual(records[k - 1]!.busy);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("add then delete of the same allocation restores the structure exactly", () => {
    fc.assert(
      fc.property(scenarioArb, opArb(40), ([pes, ops], extra) => {
        const { list, grid } = replay(pes, ops);
        const pe = extra.pes.filter((p) => p < pes);
        const te = Math.min(extra.ts + extra.len, H);
        fc.pre(pe.length > 0 && !grid.conflicts(extra.ts, te, pe));
        const before = list.records();
        const times = list.timeSet();
        list.addAllocation(extra.ts, te, pe);
        list.deleteAllocation(extra.ts, te, pe);
        expect(list.records()).toEqual(before);
        expect(list.timeSet()).toEqual(times);
      }),
      { numRuns: 200 },
    );
  });

  it("findAllocation picks the oracle's rectangle for each of the seven policies (ties earliest), clipped at the deadline or not, and the oracle's PEs under every peSelection", () => {
    fc.assert(
      fc.property(scenarioArb, requestArb, ([pes, ops], q) => {
        const { list, grid } = replay(pes, ops);
        const tdl = q.tr + q.tdu + q.slack;
        expect(list.candidateStartTimes({ ready: q.tr, duration: q.tdu, deadline: tdl })).toEqual(
          grid.candidates(q.tr, q.tdu, tdl),
        );
        for (let i = 0; i < paperPolicies.length; i++) {
          const policy = paperPolicies[i]!;
          const oracle = ORACLE_POLICIES[i]!;
          expect(policy.name).toBe(oracle.name);
          for (const clipToDeadline of [true, false]) {
            for (const peSelection of PE_SELECTIONS) {
              const got = list.findAllocation(
                { ready: q.tr, duration: q.tdu, deadline: tdl, peCount: q.n },
                { policy, clipToDeadline, peSelection },
              );
              expect(got).toEqual(
                grid.find(q.tr, q.tdu, tdl, q.n, oracle, 0, clipToDeadline, peSelection),
              );
            }
          }
        }
      }),
      { numRuns: 250 },
    );
  });

  it("findAllocation succeeds exactly when some start in [tr, tdl - tdu] is feasible, and its answer is, under every peSelection", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        requestArb,
        fc.constantFrom(...PE_SELECTIONS),
        ([pes, ops], q, peSelection) => {
          const { list, grid } = replay(pes, ops);
          const tdl = q.tr + q.tdu + q.slack;
          const feasible = q.n <= pes && grid.anyFeasible(q.tr, q.tdu, tdl, q.n);
          for (const policy of paperPolicies) {
            const got = list.findAllocation(
              { ready: q.tr, duration: q.tdu, deadline: tdl, peCount: q.n },
              { policy, peSelection },
            );
            expect(got !== null).toBe(feasible);
            if (got === null) continue;
            expect(got.start).toBeGreaterThanOrEqual(q.tr);
            expect(got.end).toBeLessThanOrEqual(tdl);
            expect(got.pes).toHaveLength(q.n);
            expect(grid.conflicts(got.start, got.end, got.pes)).toBe(false);
            // Reserving it never double-books: the structure accepts it.
            const copy = list.clone();
            copy.addAllocation(got.start, got.end, got.pes);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("earliestFit(n, d, t) is the first integer start >= t with n PEs free for d", () => {
    fc.assert(
      fc.property(scenarioArb, requestArb, ([pes, ops], q) => {
        const { list, grid } = replay(pes, ops);
        const got = list.earliestFit({ peCount: q.n, duration: q.tdu, ready: q.tr });
        if (q.n > pes) {
          expect(got).toBeNull();
          return;
        }
        let s = q.tr;
        while (grid.freeDuring(s, s + q.tdu).length < q.n) s++;
        expect(got).toEqual({ start: s, pes: grid.freeDuring(s, s + q.tdu).slice(0, q.n) });
      }),
      { numRuns: 200 },
    );
  });

  it("advanceTo(t) keeps exactly the records from t on, and rectangles (and releases, for peSelection) stop at t", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        requestArb,
        fc.integer({ min: 0, max: H }),
        fc.constantFrom(...PE_SELECTIONS),
        ([pes, ops], q, t, peSelection) => {
          const { list, grid } = replay(pes, ops);
          list.advanceTo(t);
          expect(list.records()).toEqual(grid.records(t));
          const tdl = q.tr + q.tdu + q.slack;
          for (let i = 0; i < paperPolicies.length; i++) {
            expect(
              list.findAllocation(
                { ready: q.tr, duration: q.tdu, deadline: tdl, peCount: q.n },
                { policy: paperPolicies[i]!, peSelection },
              ),
            ).toEqual(grid.find(q.tr, q.tdu, tdl, q.n, ORACLE_POLICIES[i]!, t, true, peSelection));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("after advanceTo(t), maximumRectangle and earliestFit read the grid from t on (a start before t is raised to t)", () => {
    fc.assert(
      fc.property(scenarioArb, requestArb, fc.integer({ min: 0, max: H }), ([pes, ops], q, t) => {
        const { list, grid } = replay(pes, ops);
        list.advanceTo(t);
        const n = Math.min(q.n, pes);
        const s = Math.max(q.tr, t);
        const { free, rect } = grid.rectangle(s, q.tdu, t);
        expect(list.maximumRectangle({ start: q.tr, duration: q.tdu, peCount: n })).toEqual(
          free.length >= n ? rect : null,
        );
        let fit = s;
        while (grid.freeDuring(fit, fit + q.tdu).length < n) fit++;
        expect(list.earliestFit({ peCount: n, duration: q.tdu, ready: q.tr })).toEqual({
          start: fit,
          pes: grid.freeDuring(fit, fit + q.tdu).slice(0, n),
        });
      }),
      { numRuns: 150 },
    );
  });

  it("deleteAllocation of any PEs over any interval succeeds exactly when the grid holds them throughout (the part before the origin ignored), else refuses with InvalidInputError and changes nothing", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        opArb(40),
        fc.integer({ min: 0, max: H }),
        ([pes, ops], extra, t) => {
          const { list, grid } = replay(pes, ops);
          list.advanceTo(t);
          const pe = extra.pes.filter((p) => p < pes);
          fc.pre(pe.length > 0);
          const te = Math.min(extra.ts + extra.len, H);
          const before = list.records();
          if (grid.holds(Math.max(extra.ts, t), te, pe)) {
            list.deleteAllocation(extra.ts, te, pe);
            grid.set(Math.max(extra.ts, t), te, pe, false);
            expect(list.records()).toEqual(grid.records(t));
          } else {
            expect(() => list.deleteAllocation(extra.ts, te, pe)).toThrow(InvalidInputError);
            expect(() => list.deleteAllocation(extra.ts, te, pe)).toThrow(
              /are not all reserved at/,
            );
            expect(list.records()).toEqual(before);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("freeDuring(ts, te) and busyAt(t) read the grid (an empty interval: the PEs free at ts)", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 0, max: H + 1 }),
        fc.integer({ min: 0, max: 10 }),
        ([pes, ops], ts, len) => {
          const { list, grid } = replay(pes, ops);
          expect(list.freeDuring(ts, ts + len)).toEqual(grid.freeDuring(ts, ts + Math.max(len, 1)));
          expect(list.busyAt(ts)).toEqual(grid.busySet(ts));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("clone is independent and equal", () => {
    fc.assert(
      fc.property(scenarioArb, ([pes, ops]) => {
        const { list, live } = replay(pes, ops);
        const before = list.records();
        const copy = list.clone();
        expect(copy.records()).toEqual(before);
        copy.addAllocation(H + 1, H + 2, [0]);
        expect(copy.size).toBe(list.size + 2);
        // Changes inside the copied records (not only new ones) leave the original alone.
        for (const a of live) copy.deleteAllocation(a.ts, a.te, a.pes);
        expect(list.records()).toEqual(before);
      }),
      { numRuns: 50 },
    );
  });
});
