import { createJob, identicalPool, simulate } from "@sched/core";
import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  AvailabilityProfile,
  backfill,
  backfillPass,
  conservative,
  easy,
  edf,
  fcfs,
  flexible,
} from "../src/index.js";

// Every public function of @sched/backfill, called validly, then with one option or field made
// hostile (tooling/fuzz.js): a result or an InvalidInputError naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation.
const jobs = () => [
  createJob({ id: 1, submit: 0, runtime: 10, estimate: 12, cores: 2, deadline: 40 }),
  createJob({ id: 2, submit: 1, runtime: 5, estimate: 5, cores: 4 }),
  createJob({ id: 3, submit: 2, runtime: 9, estimate: 9, cores: 1, deadline: 30 }),
];
const run = (policy: unknown) =>
  simulate(jobs(), identicalPool(4), policy as Parameters<typeof simulate>[2]).records.length;

const cases: FuzzCase[] = [
  {
    name: "@sched/backfill/backfill",
    params: ["options"],
    args: () => [
      { reservations: 2, order: "sjf", keepReservations: true, machineOrder: "index", name: "b" },
    ],
    call: (o) => run(backfill(o as never)),
  },
  {
    name: "@sched/backfill/backfill (single machine)",
    params: ["options"],
    args: () => [{ reservations: 1, singleMachine: true, exclusive: true }],
    call: (o) => run(backfill(o as never)),
  },
  {
    name: "@sched/backfill/easy",
    params: ["options"],
    args: () => [{ order: "largest-first", name: "e" }],
    call: (o) => run(easy(o as never)),
  },
  {
    name: "@sched/backfill/conservative",
    params: ["options"],
    args: () => [{ order: "fcfs", machineOrder: "index" }],
    call: (o) => run(conservative(o as never)),
  },
  {
    name: "@sched/backfill/fcfs",
    params: ["options"],
    args: () => [{ machineOrder: "index", singleMachine: false }],
    call: (o) => run(fcfs(o as never)),
  },
  {
    name: "@sched/backfill/edf",
    params: ["options"],
    args: () => [{}],
    call: (o) => run(edf(o as never)),
  },
  {
    name: "@sched/backfill/flexible",
    params: ["options"],
    args: () => [{ priority: (w: { job: { cores: number } }) => w.job.cores, variant: "unrm" }],
    call: (o) => run(flexible(o as never)),
  },
  {
    name: "@sched/backfill/backfillPass",
    params: ["state", "options"],
    strictKeys: ["state", "options"],
    args: () => [
      {
        now: 100,
        cores: 8,
        running: [{ id: 1, cores: 4, end: 160, start: 90 }],
        queue: [
          { id: 2, cores: 8, estimate: 50, submit: 10 },
          { id: 3, cores: 2, estimate: 60, submit: 20, deadline: 500 },
          { id: 4, cores: 2, estimate: 90, submit: 30 },
        ],
        reservations: [{ id: 2, time: 160 }],
        arrived: [4],
        completed: [9],
      },
      { policy: "conservative" },
    ],
    call: (s, o) => backfillPass(s as never, o as never),
  },
  {
    name: "@sched/backfill/AvailabilityProfile",
    params: ["origin", "free", "start", "end", "delta", "t"],
    args: () => [0, 8, 10, 20, -3, 15],
    call: (o, f, a, b, d, t) => {
      const p = new AvailabilityProfile(o as never, f as never);
      p.add(a as never, b as never, d as never);
      return [
        p.valueAt(t as never),
        p.indexAt(t as never),
        p.minOver(a as never, b as never),
        p.fits(a as never, b as never, 2),
        p.nonNegative(a as never, b as never),
        p.trimBefore(t as never),
        p.toArray(),
      ];
    },
  },
];

describe("options fuzz: @sched/backfill ends in a result or an error naming the option", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
