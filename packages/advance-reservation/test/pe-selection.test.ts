import { createJob, InvalidInputError, identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  ADVANCE_RESERVATION_DEFAULTS,
  AvailRectList,
  admissionPass,
  advanceReservation,
  firstFit,
  PE_SELECTIONS,
  type PeSelection,
  peWorstFit,
} from "../src/index.js";
import { figure1 } from "./ar-cases.js";

/**
 * Six PEs at time 5: PE 4 was reserved in [0, 2), PE 1 in [0, 5) (released at 5), PE 3 is
 * reserved again from 9, PE 5 from 12; PEs 0 and 2 have never been reserved.
 */
function sixPes(): AvailRectList {
  const list = new AvailRectList(6);
  list.addAllocation(0, 2, [4]);
  list.addAllocation(0, 5, [1]);
  list.addAllocation(9, 10, [3]);
  list.addAllocation(12, 14, [5]);
  return list;
}

const request = { ready: 5, duration: 2, deadline: 7 };

describe("peSelection: which of the rectangle's free PEs a reservation takes", () => {
  it("defaults to lowest-index, the first of PE_SELECTIONS", () => {
    expect(ADVANCE_RESERVATION_DEFAULTS.peSelection).toBe("lowest-index");
    expect(PE_SELECTIONS).toEqual([
      "lowest-index",
      "highest-index",
      "soonest-reserved",
      "latest-released",
    ]);
  });

  it("takes, for 1 and 3 PEs in [5, 7) on six free PEs, the hand-worked ones of each reading", () => {
    const expected: Record<PeSelection, [number[], number[]]> = {
      // 0 < 1 < 2 ...
      "lowest-index": [[0], [0, 1, 2]],
      // ... 5 > 4 > 3
      "highest-index": [[5], [3, 4, 5]],
      // next reservation after 7: PE 3 at 9, PE 5 at 12, the others never (then lowest index)
      "soonest-reserved": [[3], [0, 3, 5]],
      // released at or before 5: PE 1 at 5, PE 4 at 2, the others never (then lowest index)
      "latest-released": [[1], [0, 1, 4]],
    };
    for (const peSelection of PE_SELECTIONS) {
      const [one, three] = expected[peSelection];
      const list = sixPes();
      expect(list.findAllocation({ ...request, peCount: 1 }, { peSelection })?.pes).toEqual(one);
      expect(list.findAllocation({ ...request, peCount: 3 }, { peSelection })?.pes).toEqual(three);
      // The start and the rectangle are the policy's, whatever the reading.
      expect(list.findAllocation({ ...request, peCount: 3 }, { peSelection })).toMatchObject({
        start: 5,
        end: 7,
        rectangle: { start: 5, begin: 5, end: 7, freePEs: 6 },
      });
    }
  });

  it("forgets what was released before the origin (advanceTo): PE 4's release at 2 no longer counts", () => {
    const list = sixPes();
    list.advanceTo(3);
    expect(
      list.findAllocation({ ...request, peCount: 3 }, { peSelection: "latest-released" })?.pes,
    ).toEqual([0, 1, 2]);
  });

  it("on Figure 1 under PE_W (t3, all 10 PEs, [t3, t8)): job1's PEs by lowest index and by latest release, so {t3, n} merges into {t1, n1} only then", () => {
    const expected: Record<PeSelection, number[]> = {
      "lowest-index": [0, 1],
      "highest-index": [8, 9],
      // job3's PEs are reserved again at t8, the others never
      "soonest-reserved": [4, 5],
      // job1's PEs are released at t3, job2's at t1
      "latest-released": [0, 1],
    };
    for (const peSelection of PE_SELECTIONS) {
      const list = figure1();
      const r = list.findAllocation(
        { ready: 2, duration: 2, deadline: 9, peCount: 2 },
        { policy: peWorstFit, peSelection },
      );
      expect(r).toMatchObject({ start: 3, end: 5, pes: expected[peSelection] });
      list.addAllocation(r!.start, r!.end, r!.pes);
      const merged = expected[peSelection].join() === "0,1";
      expect(list.timeSet()).toEqual(merged ? [0, 1, 5, 8, 10] : [0, 1, 3, 5, 8, 10]);
    }
  });

  it("on Figure 1 under FF (t2, PEs 2-9 free): the readings that differ from lowest-index differ", () => {
    const pes = (peSelection: PeSelection) =>
      figure1().findAllocation(
        { ready: 2, duration: 2, deadline: 9, peCount: 2 },
        { policy: firstFit, peSelection },
      )?.pes;
    expect(pes("lowest-index")).toEqual([2, 3]);
    expect(pes("highest-index")).toEqual([8, 9]);
    expect(pes("soonest-reserved")).toEqual([4, 5]);
    // job2's PEs were released at t1; job1's are busy until t3, so not in the rectangle
    expect(pes("latest-released")).toEqual([2, 3]);
  });

  it("works across 32-bit words (70 PEs)", () => {
    const list = new AvailRectList(70);
    list.addAllocation(0, 10, [1, 40, 66]);
    list.addAllocation(20, 30, [33, 69]);
    const q = { ready: 10, duration: 5, deadline: 15, peCount: 3 };
    expect(list.findAllocation(q, { peSelection: "highest-index" })?.pes).toEqual([67, 68, 69]);
    expect(list.findAllocation(q, { peSelection: "soonest-reserved" })?.pes).toEqual([0, 33, 69]);
    expect(list.findAllocation(q, { peSelection: "latest-released" })?.pes).toEqual([1, 40, 66]);
  });

  it("is an option of admissionPass and of advanceReservation, deciding alike", () => {
    for (const peSelection of PE_SELECTIONS) {
      const { decisions } = admissionPass(
        {
          now: 2,
          pes: 10,
          reservations: [
            { id: 1, start: 0, end: 3, pes: [0, 1] },
            { id: 3, start: 8, end: 10, pes: [4, 5, 6] },
          ],
        },
        [{ id: 4, peCount: 2, duration: 2, deadline: 9 }],
        { policy: peWorstFit, peSelection },
      );
      const direct = figure1().findAllocation(
        { ready: 2, duration: 2, deadline: 9, peCount: 2 },
        { policy: peWorstFit, peSelection },
      );
      expect(decisions).toEqual([{ id: 4, accepted: true, start: 3, end: 5, pes: direct!.pes }]);
    }
    // The scheduler: job 1 reserves one machine for [9, 10), then job 2 takes two for [0, 2).
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 1, cores: 1, ready: 9, deadline: 10 }),
      createJob({ id: 2, submit: 0, runtime: 2, cores: 2, deadline: 2 }),
    ];
    const machines = (peSelection: PeSelection) =>
      simulate(jobs, identicalPool(6), advanceReservation({ peSelection }))
        .records.find((r) => r.job.id === 2)!
        .intervals[0]!.allocation.map((p) => p.machine);
    expect(machines("lowest-index")).toEqual([0, 1]);
    expect(machines("highest-index")).toEqual([4, 5]);
    // job 1 took machine 0 (nothing reserved yet: lowest index), reserved again first
    expect(machines("soonest-reserved")).toEqual([0, 1]);
  });

  it("refuses an unknown reading, naming the function, the option and the accepted values", () => {
    const accepted = '"lowest-index", "highest-index", "soonest-reserved", "latest-released"';
    const cases: [() => unknown, string][] = [
      [
        () =>
          figure1().findAllocation({ ready: 0, duration: 1, peCount: 1 }, {
            peSelection: "lowest",
          } as never),
        `@sched/advance-reservation/AvailRectList/findAllocation: options.peSelection is "lowest", expected one of ${accepted}`,
      ],
      [
        () =>
          admissionPass({ now: 0, pes: 4, reservations: [] }, [], {
            peSelection: 3,
          } as never),
        `@sched/advance-reservation/admissionPass: options.peSelection is 3, expected one of ${accepted}`,
      ],
      [
        () => advanceReservation({ peSelection: null } as never),
        `@sched/advance-reservation/advanceReservation: options.peSelection is null, expected one of ${accepted}`,
      ],
    ];
    for (const [fn, text] of cases) {
      expect(fn).toThrow(InvalidInputError);
      expect(fn).toThrow(text);
    }
  });
});
