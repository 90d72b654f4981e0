import { schedulerSpecs } from "@sched/core/testing";
import { backfill } from "../src/backfill.js";
import { edf } from "../src/edf.js";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy, flexible } from "../src/presets.js";

// Every policy of the package passes the core conformance suite on both platform shapes, with
// licenses, deadlines, ready times and heterogeneous speeds.
const waited = (w: { job: { submit: number } }, view: { now: number }) => view.now - w.job.submit;

schedulerSpecs("fcfs", () => fcfs());
schedulerSpecs("easy", () => easy());
schedulerSpecs("conservative", () => conservative());
schedulerSpecs("backfill (3 reservations, sjf)", () => backfill({ reservations: 3, order: "sjf" }));
schedulerSpecs("conservative (largest-first)", () => conservative({ order: "largest-first" }));
schedulerSpecs("bf-rm", () => flexible({ priority: waited }));
schedulerSpecs("bf-unrm", () => flexible({ priority: waited, variant: "unrm" }));
schedulerSpecs("edf", () => edf());
schedulerSpecs("fcfs (singleMachine)", () => fcfs({ singleMachine: true }));
schedulerSpecs("easy (singleMachine)", () => easy({ singleMachine: true }));
schedulerSpecs("conservative (singleMachine)", () => conservative({ singleMachine: true }));
schedulerSpecs("bf-unrm (singleMachine)", () =>
  flexible({ priority: waited, variant: "unrm", singleMachine: true }),
);
schedulerSpecs("fcfs (exclusive)", () => fcfs({ exclusive: true }));
schedulerSpecs("easy (exclusive)", () => easy({ exclusive: true }));
schedulerSpecs("conservative (exclusive)", () => conservative({ exclusive: true }));
schedulerSpecs("backfill (2 reservations, sjf, exclusive)", () =>
  backfill({ reservations: 2, order: "sjf", exclusive: true }),
);
schedulerSpecs("bf-rm (exclusive)", () => flexible({ priority: waited, exclusive: true }));
schedulerSpecs("bf-unrm (exclusive)", () =>
  flexible({ priority: waited, variant: "unrm", exclusive: true }),
);
schedulerSpecs("edf (exclusive)", () => edf({ exclusive: true }));
