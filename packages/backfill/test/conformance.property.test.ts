import type { Scheduler, WaitingJob } from "@sched/core";
import { schedulerSpecs } from "@sched/core/testing";
import { backfill } from "../src/backfill.js";
import { edf } from "../src/edf.js";
import { fcfs } from "../src/fcfs.js";
import type { BackfillPassOptions } from "../src/pass.js";
import { conservative, easy, flexible } from "../src/presets.js";
import { passSpecs, wakeOnlySpecs } from "./support/pass.js";

// Every policy of the package, on both platform shapes with licenses, deadlines, ready times,
// heterogeneous speeds and overrunning jobs: through the engine it passes the core conformance
// suite, and through its pass (`backfillPass` on the plain state of each decision point) it
// decides the same thing at every event and gives the same schedule, also when the only events
// of the loop are submissions, completions and the pass's wakeAt (no ready-time events).
const waited = (w: WaitingJob, view: { now: number }) => view.now - w.job.submit;

const POLICIES: readonly [string, () => Scheduler, BackfillPassOptions][] = [
  ["fcfs", () => fcfs(), { policy: "fcfs" }],
  ["easy", () => easy(), { policy: "easy" }],
  ["conservative", () => conservative(), { policy: "conservative" }],
  [
    "backfill (3 reservations, sjf)",
    () => backfill({ reservations: 3, order: "sjf" }),
    { reservations: 3, order: "sjf" },
  ],
  [
    "backfill (2 reservations, deadline order)",
    () => backfill({ reservations: 2, order: "deadline" }),
    { reservations: 2, order: "deadline" },
  ],
  [
    "backfill (0 reservations, sjf)",
    () => backfill({ reservations: 0, order: "sjf" }),
    { reservations: 0, order: "sjf" },
  ],
  [
    "conservative (largest-first)",
    () => conservative({ order: "largest-first" }),
    { policy: "conservative", order: "largest-first" },
  ],
  ["bf-rm", () => flexible({ priority: waited }), { policy: "flexible", priority: waited }],
  [
    "bf-unrm",
    () => flexible({ priority: waited, variant: "unrm" }),
    { policy: "flexible", priority: waited, variant: "unrm" },
  ],
  ["edf", () => edf(), { policy: "edf" }],
  ["edf (no preemption)", () => edf({ preemption: false }), { policy: "edf", preemption: false }],
  [
    "fcfs (singleMachine)",
    () => fcfs({ singleMachine: true }),
    { policy: "fcfs", singleMachine: true },
  ],
  [
    "easy (singleMachine)",
    () => easy({ singleMachine: true }),
    { policy: "easy", singleMachine: true },
  ],
  [
    "conservative (singleMachine)",
    () => conservative({ singleMachine: true }),
    { policy: "conservative", singleMachine: true },
  ],
  [
    "bf-unrm (singleMachine)",
    () => flexible({ priority: waited, variant: "unrm", singleMachine: true }),
    { policy: "flexible", priority: waited, variant: "unrm", singleMachine: true },
  ],
  ["fcfs (exclusive)", () => fcfs({ exclusive: true }), { policy: "fcfs", exclusive: true }],
  ["easy (exclusive)", () => easy({ exclusive: true }), { policy: "easy", exclusive: true }],
  [
    "conservative (exclusive)",
    () => conservative({ exclusive: true }),
    { policy: "conservative", exclusive: true },
  ],
  [
    "backfill (2 reservations, sjf, exclusive)",
    () => backfill({ reservations: 2, order: "sjf", exclusive: true }),
    { reservations: 2, order: "sjf", exclusive: true },
  ],
  [
    "bf-rm (exclusive)",
    () => flexible({ priority: waited, exclusive: true }),
    { policy: "flexible", priority: waited, exclusive: true },
  ],
  [
    "bf-unrm (exclusive)",
    () => flexible({ priority: waited, variant: "unrm", exclusive: true }),
    { policy: "flexible", priority: waited, variant: "unrm", exclusive: true },
  ],
  ["edf (exclusive)", () => edf({ exclusive: true }), { policy: "edf", exclusive: true }],
  [
    "edf (exclusive, waiting jobs preempt, undated at 1x estimate, latest first)",
    () =>
      edf({
        exclusive: true,
        preemptFor: "waiting",
        undatedFactor: 1,
        deadlineOrder: "decreasing",
      }),
    {
      policy: "edf",
      exclusive: true,
      preemptFor: "waiting",
      undatedFactor: 1,
      deadlineOrder: "decreasing",
    },
  ],
  [
    "easy (exclusive, best-fit)",
    () => easy({ exclusive: true, machineOrder: "best-fit" }),
    { policy: "easy", exclusive: true, machineOrder: "best-fit" },
  ],
];

for (const [name, factory, options] of POLICIES) {
  schedulerSpecs(name, factory);
  passSpecs(name, factory, options);
  wakeOnlySpecs(name, factory, options);
}
