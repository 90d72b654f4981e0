import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { admissionPass, firstFit, peWorstFit } from "../src/index.js";

// Figure 1 of the paper at t2 (10 PEs): job1 on PEs 0-1 until t3, job3 reserved on PEs 4-6
// during [t8, t10).
const figure1 = {
  now: 2,
  pes: 10,
  reservations: [
    { id: 1, start: 0, end: 3, pes: [0, 1] },
    { id: 3, start: 8, end: 10, pes: [4, 5, 6] },
  ],
};
const request = { id: 4, peCount: 2, duration: 2, deadline: 9 };

describe("admissionPass", () => {
  it("places Figure 1's request at t2 under FF and at t3 on job1's PEs under PE_W", () => {
    expect(admissionPass(figure1, [request], { policy: firstFit }).decisions).toEqual([
      { id: 4, accepted: true, start: 2, end: 4, pes: [2, 3] },
    ]);
    const pe = admissionPass(figure1, [request], { policy: peWorstFit });
    expect(pe.decisions).toEqual([{ id: 4, accepted: true, start: 3, end: 5, pes: [0, 1] }]);
    expect(pe.reservations).toEqual([
      ...figure1.reservations,
      { id: 4, start: 3, end: 5, pes: [0, 1] },
    ]);
  });

  it("decides same-time requests in order, each seeing the ones accepted before it", () => {
    const all = { id: 7, peCount: 10, duration: 4 };
    const { decisions } = admissionPass({ now: 0, pes: 10, reservations: [] }, [
      all,
      { ...all, id: 8 },
    ]);
    expect(decisions).toEqual([
      { id: 7, accepted: true, start: 0, end: 4, pes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
      { id: 8, accepted: true, start: 4, end: 8, pes: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
    ]);
  });

  it("rejects with the reason: too many PEs, a deadline before ready + duration, nothing free", () => {
    // After request 4 (PE_W: [3, 5) on PEs 0-1), 9 PEs are never free for 3 s by 7: the
    // README's live-loop example.
    const { decisions, reservations } = admissionPass(
      figure1,
      [
        request,
        { id: 5, peCount: 11, duration: 1 },
        { id: 6, peCount: 1, duration: 5, ready: 3, deadline: 7 },
        { id: 9, peCount: 9, duration: 3, deadline: 7 },
      ],
      { policy: peWorstFit },
    );
    expect(decisions.slice(1)).toEqual([
      { id: 5, accepted: false, reason: "needs 11 PEs, the platform has 10" },
      { id: 6, accepted: false, reason: "deadline 7 is before ready time 3 + duration 5" },
      {
        id: 9,
        accepted: false,
        reason: "no 9 PEs free for 3 s at any candidate start in [2, 4]",
      },
    ]);
    expect(reservations).toHaveLength(3);
    // Without request 4 the same 9 PEs fit at 3.
    expect(
      admissionPass(figure1, [{ id: 9, peCount: 9, duration: 3, deadline: 7 }]).decisions,
    ).toEqual([{ id: 9, accepted: true, start: 3, end: 6, pes: [0, 1, 2, 3, 4, 5, 6, 7, 8] }]);
  });

  it("names the latest start the search used: the deadline minus the duration, rounded down to end by it", () => {
    // 0.9 - 0.3 is 0.6000000000000001 in doubles, which would end after 0.9: the search stops at 0.6.
    const { decisions } = admissionPass(
      { now: 0, pes: 1, reservations: [{ id: 1, start: 0, end: 1, pes: [0] }] },
      [{ id: 2, peCount: 1, duration: 0.3, deadline: 0.9 }],
    );
    expect(decisions).toEqual([
      {
        id: 2,
        accepted: false,
        reason: "no 1 PEs free for 0.3 s at any candidate start in [0, 0.6]",
      },
    ]);
  });

  it("counts a past ready time as now and forgets reservations that ended", () => {
    const { decisions, reservations } = admissionPass(
      { now: 5, pes: 2, reservations: [{ id: 1, start: 0, end: 5, pes: [0, 1] }] },
      [{ id: 2, peCount: 2, duration: 1, ready: 1, deadline: 6 }],
    );
    expect(decisions).toEqual([{ id: 2, accepted: true, start: 5, end: 6, pes: [0, 1] }]);
    expect(reservations).toEqual([{ id: 2, start: 5, end: 6, pes: [0, 1] }]);
  });

  it("a policy given as a string says which export to import", () => {
    const withPolicy = (policy: unknown) => () =>
      admissionPass(figure1, [request], { policy: policy as never });
    expect(withPolicy("PE_W")).toThrow(InvalidInputError);
    expect(withPolicy("PE_W")).toThrow(
      '@sched/advance-reservation/admissionPass: options.policy is "PE_W", expected an AllocationPolicy object ({ name, compare(a, b) }): import peWorstFit (the policy named "PE_W") from @sched/advance-reservation',
    );
    expect(withPolicy("firstFit")).toThrow('import firstFit (the policy named "FF")');
    expect(withPolicy("best")).toThrow(
      'options.policy is "best", expected an AllocationPolicy object ({ name, compare(a, b) }): one of the exports firstFit, peBestFit, peWorstFit, durationBestFit, durationWorstFit, peDurationBestFit, peDurationWorstFit, or one built by scorePolicy',
    );
    expect(withPolicy({ name: "x" })).toThrow("options.policy has no compare(a, b) function");
  });

  it("throws InvalidInputError naming the field in the caller's state", () => {
    const pass =
      (state: unknown, requests: unknown = [], options: unknown = {}) =>
      () =>
        admissionPass(state as never, requests as never, options as never);
    expect(pass({ ...figure1, now: Number.NaN })).toThrow(InvalidInputError);
    expect(pass({ ...figure1, now: Number.NaN })).toThrow(/admissionPass: state.now is NaN/);
    expect(pass({ ...figure1, pes: 0 })).toThrow(
      /state.pes is 0, expected an integer in \[1, 2147483647\]/,
    );
    const bad = (r: object) => pass({ now: 0, pes: 4, reservations: [r] });
    expect(bad({ id: 1, start: 0, end: 2, pes: [4] })).toThrow(
      /state.reservations\[0\].pes\[0\] is 4, expected an integer in \[0, 3\]/,
    );
    expect(bad({ id: 1, start: 2, end: 2, pes: [0] })).toThrow(/state.reservations\[0\].end is 2/);
    expect(bad({ id: 1.5, start: 0, end: 2, pes: [0] })).toThrow(/state.reservations\[0\].id/);
    expect(
      pass({
        now: 0,
        pes: 4,
        reservations: [
          { id: 1, start: 0, end: 4, pes: [0, 1] },
          { id: 2, start: 3, end: 6, pes: [1, 2] },
        ],
      }),
    ).toThrow(/state.reservations\[1\].pes include PE 1, already reserved at 3/);
    expect(pass(figure1, [{ id: 1, peCount: 1, duration: 1 }])).toThrow(
      /requests\[0\].id is 1, already the id of state.reservations\[0\]/,
    );
    expect(pass(figure1, [{ id: 9, peCount: 1, duration: 0 }])).toThrow(
      /requests\[0\].duration is 0, expected a finite number > 0/,
    );
    expect(pass(figure1, [{ id: 9, peCount: 0, duration: 1 }])).toThrow(
      /requests\[0\].peCount is 0/,
    );
    expect(pass(figure1, [{ id: 9, peCount: 1, duration: 1, deadline: Number.NaN }])).toThrow(
      /requests\[0\].deadline is NaN/,
    );
    // a Date read as "object"
    const at = new Date(Date.UTC(2026, 10, 27, 23, 0));
    expect(pass(figure1, [{ id: 9, peCount: 1, duration: 1, deadline: at }])).toThrow(
      "requests[0].deadline is a Date (2026-11-27T23:00:00.000Z), expected a time or Infinity",
    );
    expect(pass(figure1, [], { policy: {} })).toThrow(/options.policy has no compare/);
    expect(pass(figure1, [], { clipToDeadline: "yes" })).toThrow(
      /options.clipToDeadline is "yes", expected true or false/,
    );
    // null options: a TypeError before
    expect(pass(figure1, [], null)).toThrow(/admissionPass: options is null, expected an object/);
  });

  // A user trial: `dedline: 3` was ignored and the request accepted for [0, 5).
  it("refuses a misspelt field of a request or reservation, and keeps the caller's own fields", () => {
    const state = { now: 0, pes: 4, reservations: [] };
    const spelt = { id: 2, peCount: 1, duration: 5, deadline: 3 };
    expect(admissionPass(state, [spelt]).decisions).toEqual([
      { id: 2, accepted: false, reason: "deadline 3 is before ready time 0 + duration 5" },
    ]);
    const { deadline, ...rest } = spelt;
    expect(() => admissionPass(state, [{ ...rest, dedline: deadline } as never])).toThrow(
      "@sched/advance-reservation/admissionPass: requests[0].dedline is not a field (did you mean `deadline`?)",
    );
    expect(() => admissionPass(state, [{ ...rest, redy: 1 } as never])).toThrow(
      "requests[0].redy is not a field (did you mean `ready`?)",
    );
    expect(() =>
      admissionPass(
        { ...state, reservations: [{ id: 1, start: 0, end: 2, Pes: [0] } as never] },
        [],
      ),
    ).toThrow("state.reservations[0].Pes is not a field (did you mean `pes`?)");
    const mine = { user: "ana", state: "PENDING", queue: "gold" };
    expect(admissionPass(state, [{ ...spelt, ...mine }]).decisions).toEqual(
      admissionPass(state, [spelt]).decisions,
    );
    expect(
      admissionPass(
        { ...figure1, reservations: figure1.reservations.map((r) => ({ ...r, ...mine })) },
        [request],
      ).decisions,
    ).toEqual(admissionPass(figure1, [request]).decisions);
  });
});
