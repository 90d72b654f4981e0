import { createPlatform, type Job, type Platform, simulate, whyNeverFits } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backfill } from "../src/backfill.js";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy, flexible } from "../src/presets.js";
import { recording, startsOf } from "./support/run.js";

// `singleMachine: true`: every job runs on one machine of the farm, the plan is kept per
// machine, and reservations (a machine and a time) are honoured.

const twoByTwo = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }] });

/** Job builder with exact estimates. */
const j = (id: number, submit: number, runtime: number, cores: number): Job => ({
  id,
  submit,
  runtime,
  estimate: runtime,
  cores,
});

/** The machines each job ran on, over all its intervals. */
function machinesOf(trace: ReturnType<typeof simulate>): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const r of trace.records) {
    const s = new Set<number>();
    for (const iv of r.intervals) for (const p of iv.allocation) s.add(p.machine);
    out.set(r.job.id, s);
  }
  return out;
}

describe("singleMachine: hand-worked example on two 2-core machines", () => {
  // J1 (1 core, 10 s) and J3 (1 core, 20 s) fill machine 0; J2 (2 cores, 2 s) runs on machine 1
  // and J4 (1 core, 20 s) takes one of its cores at 3. From 10 on, each machine has one free
  // core. J5 (2 cores) arrives at 11: spread over both machines it starts at once; on one
  // machine it waits until machine 0 is free at 20 (machine 1 is free only at 23), and gets
  // that reservation. J6 (1 core, 5 s) arrives at 12: it ends at 17 <= 20 on machine 0, so EASY
  // and conservative start it at once; FCFS keeps it behind J5 and starts it at 20 on machine 1.
  const jobs = [
    j(1, 0, 10, 1),
    j(2, 0, 2, 2),
    j(3, 0, 20, 1),
    j(4, 3, 20, 1),
    j(5, 11, 5, 2),
    j(6, 12, 5, 1),
  ];
  const list = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]).map(([, t]) => t);

  it("EASY and conservative start J5 at 20 on machine 0 and backfill J6 at 12", () => {
    for (const make of [easy, conservative]) {
      const trace = simulate(jobs, twoByTwo, make({ singleMachine: true }));
      expect(list(startsOf(trace))).toEqual([0, 0, 0, 3, 20, 12]);
      const m = machinesOf(trace);
      expect([...(m.get(5) ?? [])]).toEqual([0]);
      expect([...(m.get(6) ?? [])]).toEqual([0]);
    }
  });

  it("FCFS starts J5 and J6 at 20; without singleMachine J5 spans both machines at 11", () => {
    const single = simulate(jobs, twoByTwo, fcfs({ singleMachine: true }));
    expect(list(startsOf(single))).toEqual([0, 0, 0, 3, 20, 20]);
    expect([...(machinesOf(single).get(6) ?? [])]).toEqual([1]);
    const spread = simulate(jobs, twoByTwo, easy());
    expect(list(startsOf(spread))).toEqual([0, 0, 0, 3, 11, 16]);
    expect([...(machinesOf(spread).get(5) ?? [])].sort()).toEqual([0, 1]);
  });

  it("EASY records J5's reservation at 20 and meets it", () => {
    const { scheduler, history } = recording(easy({ singleMachine: true }));
    const s = startsOf(simulate(jobs, twoByTwo, scheduler));
    // Held after the events at 11, 12 and 17, always at 20.
    expect(history.get(5)).toEqual([20, 20, 20]);
    expect(s.get(5)).toBe(20);
  });

  it("rejects a job larger than every machine, naming the reason", () => {
    const trace = simulate([j(1, 0, 5, 3)], twoByTwo, easy({ singleMachine: true }));
    expect(trace.records[0]!.outcome).toBe("rejected");
    expect(trace.records[0]!.reason).toMatch(/one machine/);
    // Spread over both machines, it runs.
    expect(simulate([j(1, 0, 5, 3)], twoByTwo, easy()).records[0]!.outcome).toBe("completed");
  });

  it("names and option checks", () => {
    expect(easy({ singleMachine: true }).name).toBe("easy+single");
    expect(conservative({ singleMachine: true }).name).toBe("conservative+single");
    expect(flexible({ priority: () => 0, variant: "unrm", singleMachine: true }).name).toBe(
      "bf-unrm+single",
    );
    expect(flexible({ priority: () => 0, singleMachine: false }).name).toBe("bf-rm");
    expect(fcfs({ singleMachine: true }).name).toBe("fcfs+single");
    expect(() => backfill({ singleMachine: "yes" as unknown as boolean })).toThrow(
      /options\.singleMachine is "yes", expected true or false/,
    );
    // null is not read as absent here (it would hide a singleMachine: false beside exclusive)
    expect(() => fcfs({ singleMachine: null as unknown as boolean })).toThrow(
      /options\.singleMachine is null, expected true or false/,
    );
    expect(() => fcfs({ singleMachine: 1 as unknown as boolean })).toThrow(
      /options\.singleMachine/,
    );
  });
});

/** Heterogeneous farms with floating and node-locked licenses; run time <= estimate (`exact`: equal). */
function farmArb(exact: boolean): fc.Arbitrary<{ platform: Platform; jobs: Job[] }> {
  return fc
    .record({
      machines: fc.array(
        fc.record({ cores: fc.integer({ min: 1, max: 4 }), speed: fc.integer({ min: 1, max: 3 }) }),
        { minLength: 1, maxLength: 4 },
      ),
      floating: fc.integer({ min: 1, max: 3 }),
      locked: fc.integer({ min: 1, max: 2 }),
      lockedOn: fc.integer({ min: 0, max: 3 }),
    })
    .chain(({ machines, floating, locked, lockedOn }) =>
      fc
        .array(
          fc.record({
            submit: fc.integer({ min: 0, max: 20 }),
            runtime: fc.integer({ min: 1, max: 15 }),
            slack: exact ? fc.constant(0) : fc.integer({ min: 0, max: 6 }),
            cores: fc.integer({ min: 1, max: 4 }),
            lic: fc.constantFrom("none", "none", "float", "lock", "both"),
          }),
          { minLength: 1, maxLength: 10 },
        )
        .map((raw) => {
          const platform = createPlatform({
            machines,
            licenses: [
              { name: "float", copies: floating },
              {
                name: "lock",
                kind: "node-locked",
                copies: locked,
                machines: [Math.min(lockedOn, machines.length - 1)],
              },
            ],
          });
          const jobs: Job[] = raw
            .slice()
            .sort((a, b) => a.submit - b.submit)
            .map((r, i) => {
              const licenses =
                r.lic === "none"
                  ? undefined
                  : r.lic === "both"
                    ? { float: 1, lock: 1 }
                    : { [r.lic]: 1 };
              return {
                id: i + 1,
                submit: r.submit,
                runtime: r.runtime,
                estimate: r.runtime + r.slack,
                cores: r.cores,
                ...(licenses === undefined ? {} : { licenses }),
              };
            });
          return { platform, jobs };
        }),
    );
}

const policies = [
  () => fcfs({ singleMachine: true }),
  () => backfill({ reservations: 0, singleMachine: true }),
  () => easy({ singleMachine: true }),
  () => easy({ singleMachine: true, machineOrder: "speed" }),
  () => backfill({ reservations: 2, order: "sjf", singleMachine: true }),
  () => conservative({ singleMachine: true }),
  () => conservative({ singleMachine: true, order: "largest-first" }),
  () => flexible({ priority: (w, v) => v.now - w.job.submit - w.job.cores, singleMachine: true }),
  () =>
    flexible({
      priority: (w, v) => v.now - w.job.submit - w.job.cores,
      variant: "unrm",
      singleMachine: true,
    }),
];

describe("singleMachine on heterogeneous farms with licenses (properties)", () => {
  it("every interval of every job uses one machine; a job completes exactly when one machine can host it", () => {
    fc.assert(
      fc.property(farmArb(false), fc.integer({ min: 0, max: policies.length - 1 }), (w, k) => {
        const trace = simulate(w.jobs, w.platform, policies[k]!());
        for (const r of trace.records) {
          for (const iv of r.intervals) {
            expect(iv.allocation.length).toBe(1);
            expect(iv.allocation[0]!.cores).toBe(r.job.cores);
          }
          const fits = whyNeverFits(r.job, w.platform, { singleMachine: true }) === null;
          expect(r.outcome).toBe(fits ? "completed" : "rejected");
        }
      }),
      { numRuns: 400 },
    );
  });

  it("EASY (FCFS order) never starts the head later than its reservation, and it never moves later", () => {
    fc.assert(
      fc.property(farmArb(false), (w) => {
        const { scheduler, history } = recording(easy({ singleMachine: true }));
        const s = startsOf(simulate(w.jobs, w.platform, scheduler));
        for (const [id, hist] of history) {
          for (let i = 1; i < hist.length; i++) expect(hist[i]).toBeLessThanOrEqual(hist[i - 1]!);
          expect(s.get(id)).toBeLessThanOrEqual(hist[0]!);
        }
      }),
      { numRuns: 250 },
    );
  });

  it("conservative never starts a job later than the reservation it got on arrival; compression never moves one later", () => {
    fc.assert(
      fc.property(farmArb(false), (w) => {
        const { scheduler, history } = recording(conservative({ singleMachine: true }));
        const s = startsOf(simulate(w.jobs, w.platform, scheduler));
        for (const [id, hist] of history) {
          for (let i = 1; i < hist.length; i++) expect(hist[i]).toBeLessThanOrEqual(hist[i - 1]!);
          expect(s.get(id)).toBeLessThanOrEqual(hist[0]!);
        }
      }),
      { numRuns: 250 },
    );
  });

  it("with exact estimates, EASY and conservative reservations are met exactly", () => {
    fc.assert(
      fc.property(farmArb(true), (w) => {
        for (const make of [easy, conservative]) {
          const { scheduler, history } = recording(make({ singleMachine: true }));
          const s = startsOf(simulate(w.jobs, w.platform, scheduler));
          for (const [id, hist] of history) expect(s.get(id)).toBe(hist[0]);
        }
      }),
      { numRuns: 250 },
    );
  });
});

describe("a job that needs two licenses (regression)", () => {
  // One 4-core machine of speed 3 (estimates / 3), one floating copy, one node-locked copy.
  // J3 (3 cores, floating) is reserved at 8/3, when J2 (node-locked) ends. J4 (floating and
  // node-locked) arrives at 2: the node-locked copy is free only from 8/3, and there the
  // floating copy is J3's until 10/3. The plan once checked the floating copy at 2 (free),
  // moved to 8/3 for the node-locked one and did not look at the floating one again: J4 got
  // 8/3, started first, and J3 moved later, to 3. Every license is now checked at the start
  // that is kept, on one machine and pooled.
  const platform = createPlatform({
    machines: [{ cores: 4, speed: 3 }],
    licenses: [
      { name: "float", copies: 1 },
      { name: "lock", kind: "node-locked", copies: 1, machines: [0] },
    ],
  });
  const jobs: Job[] = [
    { id: 1, submit: 0, runtime: 4, estimate: 4, cores: 1, licenses: { lock: 1 } },
    { id: 2, submit: 1, runtime: 4, estimate: 4, cores: 2, licenses: { lock: 1 } },
    { id: 3, submit: 1, runtime: 2, estimate: 2, cores: 3, licenses: { float: 1 } },
    { id: 4, submit: 2, runtime: 1, estimate: 1, cores: 1, licenses: { float: 1, lock: 1 } },
  ];
  for (const singleMachine of [true, false]) {
    it(`conservative${singleMachine ? " (singleMachine)" : ""} reserves J4 after J3's floating copy and meets every reservation`, () => {
      const { scheduler, history } = recording(conservative({ singleMachine }));
      const s = startsOf(simulate(jobs, platform, scheduler));
      expect(history.get(4)?.[0]).toBeCloseTo(10 / 3, 12);
      for (const [id, hist] of history) expect(s.get(id)).toBe(hist[0]);
    });
  }
});

describe("singleMachine against pooled placement and FCFS (properties)", () => {
  const oneMachine = fc.record({
    cores: fc.integer({ min: 1, max: 6 }),
    raw: fc.array(
      fc.record({
        submit: fc.integer({ min: 0, max: 30 }),
        runtime: fc.integer({ min: 1, max: 20 }),
        slack: fc.integer({ min: 0, max: 15 }),
        cores: fc.integer({ min: 1, max: 6 }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  });
  const asList = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]);

  it("on a single machine, every policy gives the same starts with and without singleMachine", () => {
    // One machine: the per-machine plan is the pooled plan, so the schedules must agree; for
    // conservative this also checks the pooled version's in-place compression against plain
    // re-placement of every reservation.
    fc.assert(
      fc.property(oneMachine, ({ cores, raw }) => {
        const platform = createPlatform({ machines: [{ cores }] });
        const jobs = raw
          .slice()
          .sort((a, b) => a.submit - b.submit)
          .map((r, i) => ({
            id: i + 1,
            submit: r.submit,
            runtime: r.runtime,
            estimate: r.runtime + r.slack,
            cores: Math.min(r.cores, cores),
          }));
        for (const make of [
          (o: { singleMachine: boolean }) => easy(o),
          (o: { singleMachine: boolean }) => conservative(o),
          (o: { singleMachine: boolean }) => backfill({ reservations: 3, order: "sjf", ...o }),
          (o: { singleMachine: boolean }) => fcfs(o),
        ]) {
          const pooled = startsOf(simulate(jobs, platform, make({ singleMachine: false })));
          const single = startsOf(simulate(jobs, platform, make({ singleMachine: true })));
          expect(asList(single)).toEqual(asList(pooled));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reservations: 0 with singleMachine equals fcfs({ singleMachine: true }) on farms", () => {
    fc.assert(
      fc.property(farmArb(false), (w) => {
        const a = startsOf(simulate(w.jobs, w.platform, fcfs({ singleMachine: true })));
        const b = startsOf(
          simulate(w.jobs, w.platform, backfill({ reservations: 0, singleMachine: true })),
        );
        expect(asList(b)).toEqual(asList(a));
      }),
      { numRuns: 200 },
    );
  });
});
