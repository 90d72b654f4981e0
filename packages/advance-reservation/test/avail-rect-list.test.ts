import { describe, expect, it } from "vitest";
import {
  type AllocationPolicy,
  AvailRectList,
  durationBestFit,
  durationWorstFit,
  firstFit,
  peBestFit,
  peDurationBestFit,
  peDurationWorstFit,
  peWorstFit,
  scorePolicy,
} from "../src/index.js";
import { figure1 } from "./ar-cases.js";

describe("AvailRectList on the paper's worked example (section 4, Figure 1)", () => {
  it("holds the records {t0,n1+n2}, {t1,n1}, {t3,ø}, {t8,n3}, {t10,ø}", () => {
    expect(figure1().records()).toEqual([
      { time: 0, busy: [0, 1, 2, 3] },
      { time: 1, busy: [0, 1] },
      { time: 3, busy: [] },
      { time: 8, busy: [4, 5, 6] },
      { time: 10, busy: [] },
    ]);
    expect(figure1().timeSet()).toEqual([0, 1, 3, 8, 10]);
  });

  it("tries exactly t2, t3, t6 and t7 for the request {t2, t4-t2, t9, n}", () => {
    expect(figure1().candidateStartTimes({ ready: 2, duration: 2, deadline: 9 })).toEqual([
      2, 3, 6, 7,
    ]);
  });

  it("builds the rectangles of the text: t2 -> (t1, t8, N-n1), t3 and t6 -> (t3, t8, N)", () => {
    const list = figure1();
    expect(list.maximumRectangle({ start: 2, duration: 2 })).toEqual({
      start: 2,
      begin: 1,
      end: 8,
      freePEs: 8,
    });
    expect(list.maximumRectangle({ start: 3, duration: 2 })).toEqual({
      start: 3,
      begin: 3,
      end: 8,
      freePEs: 10,
    });
    expect(list.maximumRectangle({ start: 6, duration: 2 })).toEqual({
      start: 6,
      begin: 3,
      end: 8,
      freePEs: 10,
    });
    // t7: n3 is busy at t8, so 7 PEs; they stay free from t3 on and forever after t10.
    expect(list.maximumRectangle({ start: 7, duration: 2 })).toEqual({
      start: 7,
      begin: 3,
      end: Infinity,
      freePEs: 7,
    });
  });

  it("chooses t3 under PE_W and Du_B (t3 and t6 tie, earliest wins)", () => {
    const list = figure1();
    for (const policy of [peWorstFit, durationBestFit]) {
      const r = list.findAllocation({ ready: 2, duration: 2, deadline: 9, peCount: 2 }, { policy });
      expect(r).toEqual({
        start: 3,
        end: 5,
        pes: [0, 1],
        rectangle: { start: 3, begin: 3, end: 8, freePEs: 10 },
      });
    }
  });

  it("chooses by each policy's criterion among the four rectangles, t7's clipped at the deadline t9", () => {
    const list = figure1();
    expect(
      list.findAllocation({ ready: 2, duration: 2, deadline: 9, peCount: 7 }, { policy: peBestFit })
        ?.rectangle,
    ).toEqual({
      start: 7,
      begin: 3,
      end: 9,
      freePEs: 7,
    });
    const start = (p: typeof firstFit) =>
      list.findAllocation({ ready: 2, duration: 2, deadline: 9, peCount: 2 }, { policy: p })?.start;
    // Durations t2: 7, t3: 5, t6: 5, t7: 6; areas 56, 50, 50, 42.
    expect(start(firstFit)).toBe(2);
    expect(start(peBestFit)).toBe(7); // 7 free PEs
    expect(start(durationWorstFit)).toBe(2);
    expect(start(peDurationWorstFit)).toBe(2);
    expect(start(peDurationBestFit)).toBe(7);
  });

  it("stretches t7's rectangle to Infinity when not clipped at the deadline", () => {
    const list = figure1();
    const start = (p: typeof firstFit) =>
      list.findAllocation(
        { ready: 2, duration: 2, deadline: 9, peCount: 2 },
        { policy: p, clipToDeadline: false },
      )?.start;
    expect(start(durationWorstFit)).toBe(7); // unbounded rectangle
    expect(start(peDurationWorstFit)).toBe(7); // 7 * Infinity
    expect(start(peDurationBestFit)).toBe(3); // 10*5 = 50 < 8*7 = 56
    expect(start(peWorstFit)).toBe(3);
    expect(start(durationBestFit)).toBe(3);
  });

  it('refuses a clipToDeadline that is not true or false (a "false" clipped)', () => {
    const list = figure1();
    const request = { ready: 2, duration: 2, deadline: 9, peCount: 2 };
    for (const v of ["false", 0]) {
      expect(() =>
        list.findAllocation(request, { policy: durationWorstFit, clipToDeadline: v as never }),
      ).toThrow(
        `@sched/advance-reservation/AvailRectList/findAllocation: options.clipToDeadline is ${JSON.stringify(v)}, expected true or false`,
      );
    }
  });

  it("takes user policies without any change to the structure", () => {
    const list = figure1();
    const earliestEnd: AllocationPolicy = {
      name: "EarliestEnd",
      compare: (a, b) => (a.end < b.end ? -1 : a.end > b.end ? 1 : 0),
    };
    // t2, t3 and t6 all end at t8 (tie: earliest), t7 never ends.
    expect(
      list.findAllocation(
        { ready: 2, duration: 2, deadline: 9, peCount: 2 },
        { policy: earliestEnd },
      )?.start,
    ).toBe(2);
    const latestStart = scorePolicy("LatestStart", (r) => r.start, "max");
    expect(
      list.findAllocation(
        { ready: 2, duration: 2, deadline: 9, peCount: 2 },
        { policy: latestStart },
      )?.start,
    ).toBe(7);
    const widest = scorePolicy("Widest", (r) => r.freePEs, "max");
    expect(
      widest.compare(
        { start: 0, begin: 0, end: 1, freePEs: 3 },
        { start: 1, begin: 0, end: 1, freePEs: 2 },
      ),
    ).toBeLessThan(0);
  });

  it("compares two infinite scores as a tie (0, not NaN)", () => {
    // Unclipped rectangles whose PEs are never reserved again end at Infinity: the Duration
    // and PE-Duration scores are then Infinity on both sides (Infinity - Infinity is NaN).
    const a = { start: 0, begin: 0, end: Number.POSITIVE_INFINITY, freePEs: 3 };
    const b = { start: 2, begin: 1, end: Number.POSITIVE_INFINITY, freePEs: 3 };
    for (const policy of [
      durationBestFit,
      durationWorstFit,
      peDurationBestFit,
      peDurationWorstFit,
      scorePolicy("End", (r) => r.end, "max"),
    ]) {
      expect(policy.compare(a, b)).toBe(0);
      expect(policy.compare(b, a)).toBe(0);
    }
    expect(durationBestFit.compare({ ...a, end: 9 }, b)).toBeLessThan(0);
    expect(durationWorstFit.compare({ ...a, end: 9 }, b)).toBeGreaterThan(0);
  });

  it("merges {t3, n PEs} into {t1, n1 PEs} after addAllocation(t3, t5, n PEs)", () => {
    const list = figure1();
    list.addAllocation(3, 5, [0, 1]);
    expect(list.records()).toEqual([
      { time: 0, busy: [0, 1, 2, 3] },
      { time: 1, busy: [0, 1] },
      { time: 5, busy: [] },
      { time: 8, busy: [4, 5, 6] },
      { time: 10, busy: [] },
    ]);
  });

  it("leaves {t1,n1}, {t5,ø}, {t8,n3}, {t10,ø} when job2 ends at t1", () => {
    const list = figure1();
    list.addAllocation(3, 5, [0, 1]);
    list.deleteAllocation(0, 1, [2, 3]);
    // The t1 record merges into t0's; the paper lists the survivor at t1, the current time.
    expect(list.records()[0]).toEqual({ time: 0, busy: [0, 1] });
    list.advanceTo(1);
    expect(list.records()).toEqual([
      { time: 1, busy: [0, 1] },
      { time: 5, busy: [] },
      { time: 8, busy: [4, 5, 6] },
      { time: 10, busy: [] },
    ]);
  });
});

describe("AvailRectList basics", () => {
  it("gives the result its TSDoc example shows", () => {
    const list = new AvailRectList(8);
    list.addAllocation(0, 10, [0, 1, 2, 3]);
    expect(list.findAllocation({ ready: 0, duration: 5, deadline: 20, peCount: 6 })).toEqual({
      start: 10,
      end: 15,
      pes: [0, 1, 2, 3, 4, 5],
      rectangle: { start: 10, begin: 10, end: 20, freePEs: 8 },
    });
  });

  it("starts an empty structure's request at its ready time on the lowest PEs", () => {
    const list = new AvailRectList(4);
    expect(
      list.findAllocation(
        { ready: 5, duration: 3, deadline: 100, peCount: 2 },
        { policy: peBestFit },
      ),
    ).toEqual({
      start: 5,
      end: 8,
      pes: [0, 1],
      rectangle: { start: 5, begin: 0, end: 100, freePEs: 4 },
    });
  });

  it("returns null when the window is too short or too few PEs exist", () => {
    const list = new AvailRectList(4);
    list.addAllocation(0, 10, [0, 1, 2]);
    expect(list.findAllocation({ ready: 0, duration: 5, deadline: 12, peCount: 2 })).toBeNull();
    expect(list.findAllocation({ ready: 0, duration: 5, deadline: 4, peCount: 1 })).toBeNull();
    expect(list.findAllocation({ ready: 0, duration: 5, deadline: 100, peCount: 5 })).toBeNull();
    expect(list.findAllocation({ ready: 0, duration: 5, deadline: 15, peCount: 2 })?.start).toBe(
      10,
    );
  });

  it("handles an immediate deadline (tdl = tr + tdu): one candidate", () => {
    const list = new AvailRectList(4);
    list.addAllocation(2, 6, [0, 1]);
    expect(list.candidateStartTimes({ ready: 4, duration: 3, deadline: 7 })).toEqual([4]);
    expect(list.findAllocation({ ready: 4, duration: 3, deadline: 7, peCount: 2 })?.pes).toEqual([
      2, 3,
    ]);
    expect(list.findAllocation({ ready: 4, duration: 3, deadline: 7, peCount: 3 })).toBeNull();
  });

  it("never lets a reservation end after the deadline through rounding", () => {
    const list = new AvailRectList(1);
    const r = list.findAllocation(
      { ready: 0, duration: 0.1, deadline: 0.3, peCount: 1 },
      { policy: durationWorstFit },
    );
    expect(r).not.toBeNull();
    for (const s of list.candidateStartTimes({ ready: 0, duration: 0.1, deadline: 0.3 }))
      expect(s + 0.1).toBeLessThanOrEqual(0.3);
  });

  it("refuses to double-book a PE and leaves the structure unchanged", () => {
    const list = new AvailRectList(4);
    list.addAllocation(0, 10, [1, 2]);
    const before = list.records();
    expect(() => list.addAllocation(5, 15, [0, 2])).toThrow(/PE 2, already reserved at 5/);
    expect(list.records()).toEqual(before);
  });

  it("refuses to delete what is not reserved and leaves the structure unchanged", () => {
    const list = new AvailRectList(4);
    list.addAllocation(0, 10, [1, 2]);
    const before = list.records();
    expect(() => list.deleteAllocation(5, 12, [1])).toThrow(/not all reserved at 10/);
    expect(() => list.deleteAllocation(0, 5, [0])).toThrow(/not all reserved at 0/);
    // Clipped to the origin (0), so the check starts there.
    expect(() => list.deleteAllocation(-3, 5, [3])).toThrow(
      /not all reserved at 0 within \[-3, 5\)/,
    );
    expect(list.records()).toEqual(before);
  });

  it("deletes the unused rest of a reservation (early completion)", () => {
    const list = new AvailRectList(4);
    list.addAllocation(0, 10, [0, 1]);
    list.addAllocation(10, 20, [0]);
    list.deleteAllocation(4, 10, [0, 1]);
    expect(list.records()).toEqual([
      { time: 0, busy: [0, 1] },
      { time: 4, busy: [] },
      { time: 10, busy: [0] },
      { time: 20, busy: [] },
    ]);
  });

  it("clips allocations to the origin and drops the past on advanceTo", () => {
    const list = new AvailRectList(4, { origin: 10 });
    list.addAllocation(0, 5, [0]); // entirely in the past: ignored
    list.addAllocation(5, 15, [1]);
    expect(list.records()).toEqual([
      { time: 10, busy: [1] },
      { time: 15, busy: [] },
    ]);
    list.advanceTo(16);
    expect(list.size).toBe(0);
    expect(list.origin).toBe(16);
  });

  it("answers the backfilling query earliestFit(n, duration, t)", () => {
    const list = new AvailRectList(4);
    list.addAllocation(0, 10, [0, 1, 2]);
    list.addAllocation(12, 20, [0, 1]);
    expect(list.earliestFit({ peCount: 1, duration: 100, ready: 0 })).toEqual({
      start: 0,
      pes: [3],
    });
    expect(list.earliestFit({ peCount: 2, duration: 2, ready: 0 })).toEqual({
      start: 10,
      pes: [0, 1],
    });
    expect(list.earliestFit({ peCount: 3, duration: 2, ready: 0 })).toEqual({
      start: 10,
      pes: [0, 1, 2],
    });
    expect(list.earliestFit({ peCount: 3, duration: 3, ready: 0 })).toEqual({
      start: 20,
      pes: [0, 1, 2],
    });
    expect(list.earliestFit({ peCount: 2, duration: 5, ready: 0 })).toEqual({
      start: 10,
      pes: [2, 3],
    });
    expect(list.earliestFit({ peCount: 5, duration: 1, ready: 0 })).toBeNull();
    expect(list.freeDuring(5, 15)).toEqual([3]);
    expect(list.busyAt(12)).toEqual([0, 1]);
  });

  it("works across word boundaries (more than 32 PEs)", () => {
    const list = new AvailRectList(70);
    const low = Array.from({ length: 40 }, (_, i) => i);
    list.addAllocation(0, 10, low);
    const r = list.findAllocation({ ready: 0, duration: 5, deadline: 100, peCount: 30 });
    expect(r?.start).toBe(0);
    expect(r?.pes).toEqual(Array.from({ length: 30 }, (_, i) => 40 + i));
    expect(list.findAllocation({ ready: 0, duration: 5, deadline: 100, peCount: 31 })?.start).toBe(
      10,
    );
  });

  it("validates its arguments with messages naming the function", () => {
    const list = new AvailRectList(4);
    expect(() => new AvailRectList(0)).toThrow(
      /@sched\/advance-reservation\/AvailRectList: pes is 0/,
    );
    expect(() => list.addAllocation(0, 5, [4])).toThrow(/addAllocation: pes\[0\] is 4/);
    expect(() => list.addAllocation(0, 5, [1, 1])).toThrow(/pes\[1\] repeats PE 1/);
    expect(() => list.addAllocation(5, 5, [1])).toThrow(/te is 5, expected > ts/);
    expect(() => list.addAllocation(Number.NaN, 5, [1])).toThrow(/ts is NaN/);
    expect(() => list.findAllocation({ ready: 0, duration: 0, deadline: 5, peCount: 1 })).toThrow(
      /findAllocation: request.duration is 0/,
    );
    expect(() => list.findAllocation({ ready: 0, duration: 1, deadline: 5, peCount: 1.5 })).toThrow(
      /request.peCount is 1.5/,
    );
    expect(() => list.earliestFit({ peCount: 0, duration: 1, ready: 0 })).toThrow(
      /earliestFit: query.peCount is 0/,
    );
    expect(() =>
      list.findAllocation({ ready: 0, duration: 1, peCount: 1 }, { policy: {} as never }),
    ).toThrow(/findAllocation: options.policy has no compare/);
    expect(() => list.maximumRectangle({ start: Number.NaN, duration: 1 })).toThrow(
      /maximumRectangle: query.start is NaN/,
    );
    // null: a TypeError reading `start` before
    expect(() => list.maximumRectangle(null as never)).toThrow(
      "@sched/advance-reservation/AvailRectList/maximumRectangle: query is null, expected an object",
    );
  });

  it("refuses a misspelt field of a request (it was ignored), keeps the caller's own fields", () => {
    const list = new AvailRectList(4);
    list.addAllocation(0, 10, [0, 1, 2, 3]);
    const job = { ready: 0, duration: 2, peCount: 1 };
    // The deadline makes the request infeasible; misspelt, it used to be dropped: start 10.
    expect(list.findAllocation({ ...job, deadline: 5 })).toBeNull();
    expect(() => list.findAllocation({ ...job, dedline: 5 } as never)).toThrow(
      "@sched/advance-reservation/AvailRectList/findAllocation: request.dedline is not a field (did you mean `deadline`?)",
    );
    expect(() => list.candidateStartTimes({ ...job, deadlin: 5 } as never)).toThrow(
      "candidateStartTimes: request.deadlin is not a field (did you mean `deadline`?)",
    );
    expect(() => list.maximumRectangle({ start: 0, duration: 1, peCont: 4 } as never)).toThrow(
      "maximumRectangle: query.peCont is not a field (did you mean `peCount`?)",
    );
    expect(() => list.earliestFit({ peCount: 1, duration: 2, redy: 3 } as never)).toThrow(
      "earliestFit: query.redy is not a field (did you mean `ready`?)",
    );
    const mine = { id: 7, user: "ana", state: "PENDING" };
    expect(list.findAllocation({ ...job, ...mine })).toEqual(list.findAllocation(job));
  });

  it("refuses PEs that are not an array instead of reserving nothing", () => {
    const list = new AvailRectList(4);
    // `pes.length` of a number is undefined: the call used to return having done nothing.
    expect(() => list.addAllocation(0, 5, 1 as never)).toThrow(
      "@sched/advance-reservation/AvailRectList/addAllocation: pes is number, expected an array of PE indices",
    );
    expect(() => list.deleteAllocation(0, 5, null as never)).toThrow(
      /deleteAllocation: pes is null, expected an array/,
    );
    list.addAllocation(0, 5, Int32Array.of(1, 2) as never);
    expect(list.records()).toEqual([
      { time: 0, busy: [1, 2] },
      { time: 5, busy: [] },
    ]);
  });

  it("scorePolicy refuses a direction other than min or max (it used to mean max)", () => {
    expect(() => scorePolicy("Narrowest", (r) => r.freePEs, "Min" as never)).toThrow(
      '@sched/advance-reservation/scorePolicy: direction is "Min", expected "min" or "max"',
    );
    expect(() => scorePolicy("NoScore", 3 as never, "min")).toThrow(/scorePolicy: score is 3/);
    expect(() => scorePolicy(undefined as never, (r) => r.end, "min")).toThrow(
      /scorePolicy: name is undefined, expected a string/,
    );
  });
});
