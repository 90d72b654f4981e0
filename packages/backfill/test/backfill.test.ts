import { createPlatform, identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { backfill } from "../src/backfill.js";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy, flexible } from "../src/presets.js";
import { classicConservative, classicEasy } from "./support/oracles.js";
import { job, poolViolations, recording, startsOf } from "./support/run.js";
import { readCleanSwf } from "./support/swf.js";

const fixture = (name: string) =>
  new URL(`../../workload/fixtures/${name}`, import.meta.url).pathname;
const KTH = fixture("KTH-SP2-1996-2.1-cln.swf");

/*
 * The hand-worked example (4 processors, estimates exact):
 *   J1 t=0  2 procs 10 s     J2 t=1  4 procs 5 s     J3 t=2  1 proc 9 s
 *   J4 t=3  1 proc  7 s      J5 t=3  1 proc  5 s     (J4 and J5 arrive together)
 * FCFS: J1 0; J2 waits for J1 (10); J3, J4, J5 wait behind J2 and start when it ends (15).
 * EASY: J2 is blocked; its reservation (shadow) is 10, when J1 ends; no extra processors then.
 *   J3 would end at 11 > 10: not backfilled. J4 ends at 10 <= 10 and J5 at 8: both backfill at 3.
 *   At 10 J1 and J4 end together; J2 starts at 10; J3 waits for J2 and starts at 15.
 * Conservative: J2 reserved at 10..15, J3 reserved at 15 (it would cross 10); J4, J5 start at 3
 *   (they end by 10); the same starts as EASY here.
 */
const handJobs = [
  job(1, 0, 10, 2),
  job(2, 1, 5, 4),
  job(3, 2, 9, 1),
  job(4, 3, 7, 1),
  job(5, 3, 5, 1),
];

describe("backfill: hand-worked example", () => {
  it("FCFS, EASY and conservative give the starts worked out by hand", () => {
    const p = identicalPool(4);
    expect([...startsOf(simulate(handJobs, p, fcfs()))]).toEqual([
      [1, 0],
      [2, 10],
      [3, 15],
      [4, 15],
      [5, 15],
    ]);
    const handEasy = [
      [1, 0],
      [2, 10],
      [3, 15],
      [4, 3],
      [5, 3],
    ];
    expect([...startsOf(simulate(handJobs, p, easy()))]).toEqual(handEasy);
    expect([...startsOf(simulate(handJobs, p, conservative()))]).toEqual(handEasy);
  });

  it("EASY and conservative reserve a job not ready yet from its ready time, not from now", () => {
    // 4 cores. J1 holds all of them until 100. J2 (4 cores) is first in line but ready only at
    // 200: reserved at [200, 250). J3 (4 cores, 50 s) then fits in [100, 150) before it and
    // starts at 100; a reservation taken from now (100) would block it until J2 ends.
    const jobs = [job(1, 0, 100, 4), job(2, 1, 50, 4, { ready: 200 }), job(3, 2, 50, 4)];
    const want = [
      [1, 0],
      [2, 200],
      [3, 100],
    ];
    expect([...startsOf(simulate(jobs, identicalPool(4), easy()))]).toEqual(want);
    expect([...startsOf(simulate(jobs, identicalPool(4), conservative()))]).toEqual(want);
  });

  it("EASY reserves the head at the shadow time and records it", () => {
    const { scheduler, history } = recording(easy());
    simulate(handJobs, identicalPool(4), scheduler);
    // J2 holds the only reservation, at 10, at every event (t = 1, 2, 3, 8) until it starts.
    expect(history.get(2)).toEqual([10, 10, 10, 10]);
    // J3 gets one only when it is first in line, at t = 10 after J2 started: at 15.
    expect(history.get(3)).toEqual([15]);
  });

  it("conservative gives every waiting job a reservation and compresses when a job ends early", () => {
    // J1 is estimated at 10 but runs 4: at 4 the reservations of J2 (10 -> 4) and J3 (15 -> 9) move up.
    const jobs = [job(1, 0, 4, 2, { estimate: 10 }), job(2, 1, 5, 4), job(3, 2, 9, 1)];
    const { scheduler, history } = recording(conservative());
    const s = startsOf(simulate(jobs, identicalPool(4), scheduler));
    expect(history.get(2)?.[0]).toBe(10);
    expect(history.get(3)?.[0]).toBe(15);
    expect([...s]).toEqual([
      [1, 0],
      [2, 4],
      [3, 9],
    ]);
  });

  it("reservations: k holds k reservations; a later job cannot delay any of them", () => {
    // 2 procs. J1 (2 procs, 10 s) runs; J2 (2 procs, 5 s) is reserved at 10; with k = 2 the
    // second blocked job, J3 (1 proc, 5 s), is reserved too, after J2: at 15. With k = 1 it has none.
    const jobs = [job(1, 0, 10, 2), job(2, 0, 5, 2), job(3, 0, 5, 1), job(4, 1, 12, 1)];
    const r1 = recording(backfill({ reservations: 1 }));
    const r2 = recording(backfill({ reservations: 2 }));
    simulate(jobs, identicalPool(2), r1.scheduler);
    simulate(jobs, identicalPool(2), r2.scheduler);
    // Events at 0, 1 and 10: with k = 2, J3 holds 15 at each; with k = 1 only once J2 started (t = 10).
    expect(r2.history.get(3)).toEqual([15, 15, 15]);
    expect(r1.history.get(3)).toEqual([15]);
  });
});

describe("backfill: orders and flexible backfilling", () => {
  // 2 procs busy until 10 with J1; J2 (2 procs, 100 s) and J3 (2 procs, 1 s) wait.
  const jobs = [job(1, 0, 10, 2), job(2, 1, 100, 2), job(3, 2, 1, 2)];

  it("order: sjf runs the shortest estimate first, fcfs the earliest submit", () => {
    const sjf = startsOf(simulate(jobs, identicalPool(2), backfill({ order: "sjf" })));
    expect(sjf.get(3)).toBe(10);
    expect(sjf.get(2)).toBe(11);
    const byFcfs = startsOf(simulate(jobs, identicalPool(2), backfill({ order: "fcfs" })));
    expect(byFcfs.get(2)).toBe(10);
    expect(byFcfs.get(3)).toBe(110);
  });

  it("order: largest-first and user-priority", () => {
    const mixed = [
      job(1, 0, 10, 4),
      job(2, 1, 10, 1),
      job(3, 2, 10, 3, { priority: 5 }),
      job(4, 3, 10, 2),
    ];
    const lf = startsOf(
      simulate(mixed, identicalPool(4), backfill({ order: "largest-first", reservations: 0 })),
    );
    // At 10: J3 (3 procs) first; J4 (2 procs) does not fit and, strictly, stops the pass.
    expect([lf.get(3), lf.get(4), lf.get(2)]).toEqual([10, 20, 20]);
    const up = startsOf(
      simulate(mixed, identicalPool(4), backfill({ order: "user-priority", reservations: 0 })),
    );
    // J3 (priority 5) first, then J2 and J4 (priority 0) by submit time.
    expect([up.get(3), up.get(2), up.get(4)]).toEqual([10, 10, 20]);
  });

  it("a custom comparator and a custom priority function order the queue; ties fall back to submit, id", () => {
    const bySubmitDesc = backfill({ order: { compare: (a, b) => b.job.submit - a.job.submit } });
    const s = startsOf(simulate(jobs, identicalPool(2), bySubmitDesc));
    expect(s.get(3)).toBe(10);
    const constant = backfill({ order: { priority: () => 1 } });
    expect(startsOf(simulate(jobs, identicalPool(2), constant)).get(2)).toBe(10);
  });

  it("BF-rm moves the reservation to the new first job; BF-unrm keeps it with the job that got it", () => {
    // 2 procs; J1 holds both until 10. J2 (2 procs) arrives at 1 and gets the reservation.
    // J3 (2 procs) arrives at 2 with a higher priority.
    const js = [
      job(1, 0, 10, 2),
      job(2, 1, 5, 2, { priority: 1 }),
      job(3, 2, 5, 2, { priority: 2 }),
    ];
    const priority = (w: { job: { priority?: number } }) => w.job.priority ?? 0;
    const rm = recording(flexible({ priority, variant: "rm" }));
    const unrm = recording(flexible({ priority, variant: "unrm" }));
    const sRm = startsOf(simulate(js, identicalPool(2), rm.scheduler));
    const sUnrm = startsOf(simulate(js, identicalPool(2), unrm.scheduler));
    expect(sRm.get(3)).toBe(10);
    expect(sRm.get(2)).toBe(15);
    expect(sUnrm.get(2)).toBe(10);
    expect(sUnrm.get(3)).toBe(15);
    expect(rm.scheduler.name).toBe("bf-rm");
    expect(unrm.scheduler.name).toBe("bf-unrm");
  });
});

describe("backfill: real trace", () => {
  const traces = [
    {
      name: "KTH-SP2",
      file: "KTH-SP2-1996-2.1-cln.swf",
      procs: 100,
      estimate: "requested",
      head: 2000,
    },
    {
      name: "HPC2N (first 3,170 jobs)",
      file: "hpc2n-alea-3171.swf",
      procs: 240,
      estimate: "requested",
      head: 2000,
    },
    // No requested times in this log: the run time is the estimate.
    {
      name: "NASA iPSC/860 (exact estimates)",
      file: "NASA-iPSC-1993-3.1-cln.swf.gz",
      procs: 128,
      estimate: "runtime",
      head: 2000,
    },
    // Its queue grows long: the brute-force oracle is cubic, so fewer jobs.
    {
      name: "Lublin-256 (exact estimates)",
      file: "lublin_256.swf",
      procs: 256,
      estimate: "runtime",
      head: 400,
    },
  ] as const;
  for (const t of traces) {
    it(`easy() on ${t.name} (clean-up) equals textbook EASY job for job; conservative() on its first ${t.head} jobs equals brute-force conservative`, () => {
      const jobs = readCleanSwf(fixture(t.file), t.estimate);
      expect(jobs.length).toBeGreaterThan(3000);
      const e = classicEasy(jobs, t.procs);
      const trace = simulate(jobs, identicalPool(t.procs), easy());
      const got = startsOf(trace);
      expect(
        jobs
          .filter((j) => got.get(j.id) !== e.get(j.id))
          .map((j) => j.id)
          .slice(0, 5),
      ).toEqual([]);
      expect(poolViolations(trace, t.procs)).toEqual([]);
      const head = jobs.slice(0, t.head);
      const c = classicConservative(head, t.procs);
      const gotC = startsOf(simulate(head, identicalPool(t.procs), conservative()));
      expect(
        head
          .filter((j) => gotC.get(j.id) !== c.get(j.id))
          .map((j) => j.id)
          .slice(0, 5),
      ).toEqual([]);
    });
  }

  it("backfill({ reservations: 0 }) equals fcfs() job for job on KTH-SP2", () => {
    const jobs = readCleanSwf(KTH);
    const a = startsOf(simulate(jobs, identicalPool(100), fcfs()));
    const b = startsOf(simulate(jobs, identicalPool(100), backfill({ reservations: 0 })));
    expect([...b]).toEqual([...a]);
  });
});

describe("backfill: licenses and heterogeneous machines", () => {
  it("plans license copies: a job waiting for a license does not block one that needs none", () => {
    const platform = createPlatform({
      machines: [{ cores: 2 }, { cores: 2 }],
      licenses: [{ name: "fluent", copies: 1 }],
    });
    const jobs = [
      job(1, 0, 10, 1, { licenses: { fluent: 1 } }),
      job(2, 1, 5, 1, { licenses: { fluent: 1 } }),
      job(3, 2, 20, 2),
    ];
    const s = startsOf(simulate(jobs, platform, easy()));
    expect(s.get(2)).toBe(10);
    expect(s.get(3)).toBe(2);
    const c = startsOf(simulate(jobs, platform, conservative()));
    expect(c.get(2)).toBe(10);
    expect(c.get(3)).toBe(2);
  });

  it("plans with the slowest machine's duration so a reservation holds on any allocation", () => {
    // machine 0 speed 2, machine 1 speed 1: a 10 s job takes 5 s on m0, 10 s on m1.
    const platform = createPlatform({
      machines: [
        { cores: 1, speed: 2 },
        { cores: 1, speed: 1 },
      ],
    });
    const jobs = [job(1, 0, 10, 2), job(2, 1, 10, 2), job(3, 2, 5, 1)];
    const trace = simulate(jobs, platform, easy());
    const s = startsOf(trace);
    // J1 spans both machines (the slower sets the pace) until 10; J2 is reserved at 10 for 10 s
    // (its duration on the slowest machine); J3 finds no free core before J2 ends at 20.
    expect(s.get(1)).toBe(0);
    expect(s.get(2)).toBe(10);
    expect(s.get(3)).toBe(20);
  });

  it("rejects a job that can never run and names the reason", () => {
    const trace = simulate([job(1, 0, 10, 9), job(2, 0, 1, 1)], identicalPool(8), easy());
    expect(trace.records[0]!.outcome).toBe("rejected");
    expect(trace.records[0]!.reason).toMatch(/needs 9 cores/);
    expect(trace.records[1]!.outcome).toBe("completed");
  });
});

describe("backfill: options", () => {
  it("names follow the options", () => {
    expect(backfill().name).toBe("easy");
    expect(backfill({ reservations: 0 }).name).toBe("fcfs");
    expect(backfill({ reservations: 3, order: "sjf" }).name).toBe("backfill-3/sjf");
    expect(backfill({ reservations: Number.POSITIVE_INFINITY }).name).toBe("conservative");
    expect(backfill({ keepReservations: true }).name).toBe("easy+keep");
    expect(backfill({ name: "mine" }).name).toBe("mine");
  });

  it("rejects invalid options with a message naming the field", () => {
    expect(() => backfill({ reservations: -1 })).toThrow(
      /@sched\/backfill\/backfill: options.reservations is -1, expected an integer >= 0 or Infinity/,
    );
    expect(() => backfill({ reservations: 1.5 })).toThrow(/options.reservations/);
    expect(() => backfill({ order: "lifo" as never })).toThrow(/options.order is "lifo"/);
    expect(() => backfill({ machineOrder: "random" as never })).toThrow(/options.machineOrder/);
    expect(() => flexible({} as never)).toThrow(
      /@sched\/backfill\/flexible: options.priority is missing/,
    );
    expect(() => flexible({ priority: 5 } as never)).toThrow(
      "@sched/backfill/flexible: options.priority is 5, expected a function (job, view) => number",
    );
    expect(() => fcfs({ machineOrder: "x" as never })).toThrow(
      /@sched\/backfill\/fcfs: options.machineOrder/,
    );
  });

  it("a priority function returning NaN is reported with the job", () => {
    const s = backfill({ order: { priority: () => Number.NaN } });
    expect(() => simulate([job(1, 0, 1, 1), job(2, 0, 1, 1)], identicalPool(1), s)).toThrow(
      /options.order.priority returned NaN for job 1/,
    );
  });
});
