import { describe, expect, it } from "vitest";
import { deadlineDeltas, deadlineHeuristic, f1 } from "../src/deadline.js";
import { contextOf, farm, job, row, rowOf } from "./helpers.js";

describe("f1", () => {
  // Deadline 100, t = 35 (k 1.3, Nxtime 50), Min 0.1, Max 10.
  it("is Min while Extime <= t (first branch)", () => {
    expect(f1({ extime: 20, t: 35, deadline: 100, min: 0.1, max: 10 })).toBe(0.1);
    expect(f1({ extime: 35, t: 35, deadline: 100, min: 0.1, max: 10 })).toBe(0.1);
  });
  it("rises on the line through (t, Min) and (Deadline, Max) in between (second branch)", () => {
    expect(f1({ extime: 50, t: 35, deadline: 100, min: 0.1, max: 10 })).toBeCloseTo(
      0.1 + (9.9 * 15) / 65,
      12,
    ); // 2.3846…
    expect(f1({ extime: 100, t: 35, deadline: 100, min: 0.1, max: 10 })).toBeCloseTo(10, 12);
  });
  it("is Max after the deadline by default (third branch, our reading)", () => {
    expect(f1({ extime: 100.5, t: 35, deadline: 100, min: 0.1, max: 10 })).toBe(10);
  });
  it("is Min after the deadline when asked to follow the printed formula", () => {
    expect(f1({ extime: 100.5, t: 35, deadline: 100, min: 0.1, max: 10, late: 0.1 })).toBe(0.1);
    // at the deadline itself the job is on time: the line's end, Max, whatever `late` says
    expect(f1({ extime: 100, t: 35, deadline: 100, min: 0.1, max: 10, late: 0.1 })).toBe(10);
  });
  it("with a user's Min above Max, falls on the line from (t, Min) to (Deadline, Max)", () => {
    // a clamp to [Min, Max] taken in that order would give 0.1 everywhere on this line
    expect(f1({ extime: 50, t: 0, deadline: 100, min: 10, max: 0.1 })).toBeCloseTo(5.05, 12);
    expect(f1({ extime: 100, t: 0, deadline: 100, min: 10, max: 0.1 })).toBeCloseTo(0.1, 12);
  });
});

describe("deadlineDeltas (equation (1))", () => {
  it("matches the hand-computed values on two machines", () => {
    // Nxtime 50 and 80: f1 = 2.384615…, 8.096153…; urgency 10.480769…;
    // f̄1 = 7.615384…, 1.903846…; d = 9.519230…
    const d = deadlineDeltas(0, 100, [50, 80]);
    expect(d[0]).toBeCloseTo(8.384615384615385, 12);
    expect(d[1]).toBeCloseTo(2.0961538461538463, 12);
    // The deltas always add up to the urgency term.
    expect(d[0]! + d[1]!).toBeCloseTo(2.3846153846153846 + 8.096153846153847, 12);
  });
  it("gives nothing to a machine where the job would be late (f1 = Max there)", () => {
    // f1 = [0.1, 4.923…, 10]; urgency 15.023…; f̄1 = [9.9, 5.076…, 0]
    const d = deadlineDeltas(0, 100, [20, 60, 120]);
    expect(d[0]).toBeCloseTo(9.930508474576268, 12);
    expect(d[1]).toBeCloseTo(5.092568448500652, 12);
    expect(d[2]).toBe(0);
  });
  it("with late: 'min' gives an early machine and a late one the same value", () => {
    const d = deadlineDeltas(0, 100, [20, 60, 120], { late: "min" });
    expect(d[0]).toBeCloseTo(2.038775510204081, 12);
    expect(d[1]).toBeCloseTo(1.0455259026687596, 12);
    expect(d[2]).toBeCloseTo(d[0]!, 12);
  });
  it("gives Max everywhere to a job late on every machine", () => {
    expect(Array.from(deadlineDeltas(50, 100, [60, 80]))).toEqual([10, 10]);
  });
  it("with allLate: 'zero' gives nothing to a job late on every machine (d_i = 0), and changes nothing else", () => {
    expect(Array.from(deadlineDeltas(50, 100, [60, 80], { allLate: "zero" }))).toEqual([0, 0]);
    expect(Array.from(deadlineDeltas(0, 100, [100, 100], { allLate: "zero" }))).toEqual([0, 0]);
    expect(Array.from(deadlineDeltas(0, 100, [20, 60, 120], { allLate: "zero" }))).toEqual(
      Array.from(deadlineDeltas(0, 100, [20, 60, 120])),
    );
    // With f1 = Min after the deadline, d_i > 0: a job late everywhere gets Min on each machine.
    expect(Array.from(deadlineDeltas(50, 100, [60, 80], { late: "min", allLate: "zero" }))).toEqual(
      [0.1, 0.1].map((x) => expect.closeTo(x, 12)),
    );
  });
  it("on a single machine is f1 itself", () => {
    const [d] = deadlineDeltas(0, 100, [50]);
    expect(d).toBeCloseTo(
      f1({ extime: 50, t: 100 - 1.3 * 50, deadline: 100, min: 0.1, max: 10 }),
      12,
    );
  });
  it("shares the urgency equally when f1 = Max on every machine (d_i = 0)", () => {
    // Extime = deadline exactly on both machines.
    expect(Array.from(deadlineDeltas(0, 100, [100, 100]))).toEqual([10, 10]);
  });
  it("is empty for no eligible machine", () => {
    expect(deadlineDeltas(0, 100, []).length).toBe(0);
  });
  it("uses the given constants", () => {
    // k = 2, Min 0, Max 1: t = 0, Extime 50 -> f1 = 0.5 on one machine
    expect(deadlineDeltas(0, 100, [50], { k: 2, min: 0, max: 1 })[0]).toBeCloseTo(0.5, 12);
  });
});

describe("deadlineHeuristic", () => {
  const platform = farm();
  it("computes Nxtime from the estimate, the progress and BM_ref / BM_m", () => {
    // estimate 100, benchmark 2 (ref), half done: Nxtime = 100 / speed on m0, m1, m2 = 100, 50, 25
    const j = job({ id: 1, estimate: 100, benchmark: 2, deadline: 110 });
    const ctx = contextOf(platform, [rowOf(j, 0.5)], 0);
    const p = new Float64Array(3);
    deadlineHeuristic().apply(ctx, p);
    const expected = deadlineDeltas(0, 110, [100, 50, 25]);
    expect(row(p, 0, 3)).toEqual(Array.from(expected));
  });
  it("adds nothing to a job without a deadline", () => {
    const ctx = contextOf(platform, [rowOf(job({ id: 1 }))], 0);
    const p = new Float64Array(3);
    deadlineHeuristic().apply(ctx, p);
    expect(Array.from(p)).toEqual([0, 0, 0]);
  });
  it("adds nothing to a job without an eligible machine", () => {
    const ctx = contextOf(platform, [rowOf(job({ id: 1, cores: 8, deadline: 50 }))], 0);
    const p = new Float64Array(3);
    deadlineHeuristic().apply(ctx, p);
    expect(Array.from(p)).toEqual([0, 0, 0]);
  });
  it("on a job eligible on one machine only adds f1 there", () => {
    // 4 cores: only m1 (speed 2): Nxtime 50, deadline 100, t = 35 -> f1(50)
    const ctx = contextOf(platform, [rowOf(job({ id: 1, cores: 4, deadline: 100 }))], 0);
    const p = new Float64Array(3);
    deadlineHeuristic().apply(ctx, p);
    expect(p[0]).toBe(0);
    expect(p[1]).toBeCloseTo(f1({ extime: 50, t: 35, deadline: 100, min: 0.1, max: 10 }), 12);
    expect(p[2]).toBe(0);
  });
});

describe("the Deadline functions' checks", () => {
  it("f1 refuses a late value that is not finite", () => {
    expect(() =>
      f1({ extime: 11, t: 0, deadline: 10, min: 0.1, max: 10, late: Number.NaN }),
    ).toThrow("@sched/convergent/f1: options.late is NaN, expected a finite number");
  });
  it("deadlineDeltas refuses a NaN deadline and a negative Nxtime; takes a Float64Array", () => {
    expect(() => deadlineDeltas(0, Number.NaN, [50])).toThrow(
      "@sched/convergent/deadlineDeltas: deadline is NaN, expected a time",
    );
    expect(() => deadlineDeltas(0, 100, [50, -1])).toThrow(/deadlineDeltas: nxtime\[1\] is -1/);
    expect(Array.from(deadlineDeltas(0, 100, Float64Array.of(50, 80)))).toEqual(
      Array.from(deadlineDeltas(0, 100, [50, 80])),
    );
  });
  it("deadlineHeuristic refuses an allLate reading other than max or zero", () => {
    expect(() => deadlineHeuristic({ allLate: "min" as never })).toThrow(
      '@sched/convergent/deadlineHeuristic: options.allLate is "min", expected "max" or "zero"',
    );
  });
});
