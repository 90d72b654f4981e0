import { createJob, identicalPool, simulate } from "@sched/core";
import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  AvailRectList,
  admissionPass,
  advanceReservation,
  paperPolicies,
  peWorstFit,
  rectangleDuration,
  scorePolicy,
} from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const cases: FuzzCase[] = [
  {
    name: "@sched/advance-reservation/AvailRectList",
    params: ["pes", "options", "ts", "te", "allocated", "request", "findOptions", "query", "fit"],
    args: () => [
      10,
      { origin: 0 },
      0,
      3,
      [0, 1],
      { ready: 2, duration: 2, deadline: 9, peCount: 2 },
      { policy: peWorstFit, clipToDeadline: true, peSelection: "soonest-reserved" },
      { start: 3, duration: 2, peCount: 2 },
      { peCount: 3, duration: 2, ready: 1 },
    ],
    call: (pes, o, ts, te, on, r, f, q, fit) => {
      const list = new AvailRectList(pes as never, o as never);
      list.addAllocation(ts as never, te as never, on as never);
      list.candidateStartTimes(r as never);
      list.maximumRectangle(q as never);
      list.earliestFit(fit as never);
      list.freeDuring(ts as never, te as never);
      list.busyAt(ts as never);
      list.deleteAllocation(ts as never, te as never, on as never);
      list.advanceTo(ts as never);
      return list.findAllocation(r as never, f as never);
    },
  },
  {
    name: "@sched/advance-reservation/admissionPass",
    params: ["state", "requests", "options"],
    args: () => [
      {
        now: 2,
        pes: 10,
        reservations: [
          { id: 1, start: 0, end: 3, pes: [0, 1] },
          { id: 3, start: 8, end: 10, pes: [4, 5, 6] },
        ],
      },
      [
        { id: 4, peCount: 2, duration: 2, deadline: 9 },
        { id: 5, peCount: 9, duration: 3, deadline: 7, ready: 3 },
      ],
      { policy: peWorstFit, clipToDeadline: false, peSelection: "latest-released" },
    ],
    call: (s, r, o) => admissionPass(s as never, r as never, o as never),
  },
  {
    name: "@sched/advance-reservation/advanceReservation",
    params: ["options"],
    args: () => [
      { policy: peWorstFit, clipToDeadline: true, peSelection: "highest-index", name: "ar" },
    ],
    call: (o) =>
      simulate(
        [
          createJob({ id: 1, submit: 0, runtime: 10, cores: 2, deadline: 40 }),
          createJob({ id: 2, submit: 1, runtime: 5, cores: 4, deadline: 8 }),
        ],
        identicalPool(4),
        advanceReservation(o as never),
      ).records.length,
  },
  {
    name: "@sched/advance-reservation/scorePolicy",
    params: ["name", "score", "direction"],
    args: () => ["mine", (r: { freePEs: number }) => r.freePEs, "max"],
    call: (n, s, d) => {
      const list = new AvailRectList(4);
      return list.findAllocation(
        { ready: 0, duration: 1, deadline: 5, peCount: 1 },
        { policy: scorePolicy(n as never, s as never, d as never) },
      );
    },
  },
  {
    name: "@sched/advance-reservation/AllocationPolicy.compare",
    params: ["a", "b"],
    strictKeys: [],
    args: () => [
      { start: 3, begin: 1, end: 9, freePEs: 2 },
      { start: 4, begin: 2, end: Number.POSITIVE_INFINITY, freePEs: 5 },
    ],
    // Every exported policy and one scorePolicy builds: the same answer or the same error.
    call: (a, b) => [
      ...paperPolicies.map((p) => p.compare(a as never, b as never)),
      scorePolicy("mine", (r) => r.begin, "max").compare(a as never, b as never),
    ],
  },
  {
    name: "@sched/advance-reservation/rectangleDuration",
    params: ["rectangle"],
    strictKeys: [],
    args: () => [{ start: 3, begin: 1, end: 9, freePEs: 2 }],
    // start and freePEs are not read: any value gives the same duration
    accepts: (place) => place === "rectangle.start" || place === "rectangle.freePEs",
    call: (r) => rectangleDuration(r as never),
  },
];

describe("options fuzz: @sched/advance-reservation ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
