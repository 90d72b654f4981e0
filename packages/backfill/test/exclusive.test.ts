import {
  createPlatform,
  type Job,
  type Platform,
  type Scheduler,
  type ScheduleTrace,
  simulate,
  whyNeverFits,
} from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backfill } from "../src/backfill.js";
import { edf } from "../src/edf.js";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy, flexible } from "../src/presets.js";
import { intervalsOf, recording, startsOf } from "./support/run.js";

// `exclusive: true`: a machine runs at most one job at a time, whatever its free cores (the
// convergent paper's model, line 94: "each machine m in M is executing only a single job at a
// time"); a job still gets exactly its cores, on one machine.

/** Job builder with exact estimates. */
const j = (id: number, submit: number, runtime: number, cores: number, extra: Partial<Job> = {}) =>
  ({ id, submit, runtime, estimate: runtime, cores, ...extra }) as Job;

/** Machine of the first interval of each job. */
function machineOf(trace: ScheduleTrace): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of trace.records) {
    if (r.intervals.length > 0) out.set(r.job.id, r.intervals[0]!.allocation[0]!.machine);
  }
  return out;
}

const byId = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]).map(([, v]) => v);

/**
 * Every violation of machine exclusivity and license capacity in `trace`, checked from the
 * trace alone: two intervals overlapping on one machine, an interval on more than one machine
 * or with other than `job.cores` cores, more floating copies in use than exist, more
 * node-locked copies on a machine than it holds.
 */
function violations(trace: ScheduleTrace, platform: Platform): string[] {
  const out: string[] = [];
  const perMachine = new Map<number, [number, number, number][]>();
  const events: { t: number; d: number; job: Job; machine: number }[] = [];
  for (const r of trace.records) {
    for (const iv of r.intervals) {
      if (iv.allocation.length !== 1) out.push(`job ${r.job.id} spans ${iv.allocation.length}`);
      const part = iv.allocation[0]!;
      if (part.cores !== r.job.cores) out.push(`job ${r.job.id} got ${part.cores} cores`);
      const list = perMachine.get(part.machine) ?? [];
      list.push([iv.start, iv.end, r.job.id]);
      perMachine.set(part.machine, list);
      if (iv.end > iv.start) {
        events.push({ t: iv.start, d: 1, job: r.job, machine: part.machine });
        events.push({ t: iv.end, d: -1, job: r.job, machine: part.machine });
      }
    }
  }
  for (const [m, list] of perMachine) {
    list.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < list.length; i++) {
      if (list[i]![0] < list[i - 1]![1])
        out.push(`machine ${m}: job ${list[i]![2]} starts before job ${list[i - 1]![2]} ends`);
    }
  }
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  const used = new Map<string, number>();
  for (const e of events) {
    for (const [name, copies] of Object.entries(e.job.licenses ?? {})) {
      if (!(copies > 0)) continue;
      const l = platform.licenses.find((x) => x.name === name);
      if (l === undefined) {
        out.push(`job ${e.job.id} ran with unknown license ${name}`);
        continue;
      }
      const key = l.kind === "node-locked" ? `${name}@${e.machine}` : name;
      const now = (used.get(key) ?? 0) + e.d * copies;
      used.set(key, now);
      if (now > l.copies) out.push(`${now} copies of ${key} in use at ${e.t}`);
      if (l.kind === "node-locked" && !(l.machines ?? []).includes(e.machine))
        out.push(`job ${e.job.id} uses ${name} on machine ${e.machine}, which lacks it`);
    }
  }
  return out;
}

describe("exclusive: hand-worked example on a 4-core and a 2-core machine", () => {
  // m0 has 4 cores, m1 2. J1 (1 core, 10 s) takes m0 at 0 and J2 (1 core, 4 s) m1, although m0
  // has 3 cores left. J3 (3 cores) arrives at 1: only m0 can host it, idle at 10, so it
  // reserves m0 at 10. J4 (1 core, 5 s) arrives at 2: no machine is idle until m1 at 4; it
  // runs there [4, 9) and leaves m0's reservation alone. J5 (2 cores, 2 s) arrives at 5: m1 is
  // idle again at 9, before m0 (10, then J3 until 16), so it runs on m1 at 9.
  const platform = createPlatform({ machines: [{ cores: 4 }, { cores: 2 }] });
  const jobs = [j(1, 0, 10, 1), j(2, 0, 4, 1), j(3, 1, 6, 3), j(4, 2, 5, 1), j(5, 5, 2, 2)];

  it("EASY and conservative: starts 0 0 10 4 9 on machines 0 1 0 1 1", () => {
    for (const make of [easy, conservative]) {
      const trace = simulate(jobs, platform, make({ exclusive: true }));
      expect(byId(startsOf(trace)), make.name).toEqual([0, 0, 10, 4, 9]);
      expect(byId(machineOf(trace)), make.name).toEqual([0, 1, 0, 1, 1]);
      expect(violations(trace, platform)).toEqual([]);
    }
  });

  it("EASY holds J3's reservation at 10 on every event and meets it", () => {
    const { scheduler, history } = recording(easy({ exclusive: true }));
    simulate(jobs, platform, scheduler);
    // Events at 1, 2, 4, 5 and 9 (J3 waits at each).
    expect(history.get(3)).toEqual([10, 10, 10, 10, 10]);
  });

  it("FCFS keeps J4 behind J3: starts 0 0 10 10 15", () => {
    const trace = simulate(jobs, platform, fcfs({ exclusive: true }));
    expect(byId(startsOf(trace))).toEqual([0, 0, 10, 10, 15]);
    expect(byId(machineOf(trace))).toEqual([0, 1, 0, 1, 1]);
  });

  it("without exclusive, J2 shares machine 0 with J1 (packing)", () => {
    const trace = simulate(jobs, platform, easy({ singleMachine: true }));
    expect(machineOf(trace).get(2)).toBe(0);
    expect(startsOf(trace).get(2)).toBe(0);
    expect(violations(trace, platform).length).toBeGreaterThan(0);
  });
});

describe("exclusive EDF: hand-worked preemption on two 2-core machines", () => {
  // J2 (deadline 90) takes m0 and J1 (100) m1 at 0. J3 (deadline 5, 2 s) arrives at 1: m0 has a
  // free core, but exclusive EDF must empty a whole machine: it preempts J2 (the first machine
  // whose jobs all have a later deadline), J3 runs [1, 3) and J2 resumes on m0 at 3 with 9 s
  // left.
  const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }] });
  const jobs = [
    j(1, 0, 10, 1, { deadline: 100 }),
    j(2, 0, 10, 1, { deadline: 90 }),
    j(3, 1, 2, 1, { deadline: 5 }),
  ];

  it("preempts J2 to free machine 0", () => {
    const trace = simulate(jobs, platform, edf({ exclusive: true }));
    const iv = (id: number) => intervalsOf(trace, id);
    expect(iv(1)).toEqual([[0, 10, 1]]);
    expect(iv(2)).toEqual([
      [0, 1, 0],
      [3, 12, 0],
    ]);
    expect(iv(3)).toEqual([[1, 3, 0]]);
    expect(violations(trace, platform)).toEqual([]);
  });

  it("without exclusive, J3 takes m0's free core and nobody is preempted", () => {
    const trace = simulate(jobs, platform, edf());
    for (const r of trace.records) expect(r.intervals).toHaveLength(1);
    expect(startsOf(trace).get(3)).toBe(1);
  });

  it("does not preempt when every busy machine runs a job with an earlier deadline", () => {
    const late = [j(1, 0, 10, 1, { deadline: 3 }), j(2, 0, 10, 1, { deadline: 4 })];
    const trace = simulate(
      [...late, j(3, 1, 2, 1, { deadline: 50 })],
      platform,
      edf({ exclusive: true }),
    );
    for (const r of trace.records) expect(r.intervals).toHaveLength(1);
    expect(startsOf(trace).get(3)).toBe(10);
  });
});

describe("exclusive EDF: no useless preemption", () => {
  it("does not empty a machine when the license the job needs stays held by an earlier deadline", () => {
    // One copy of "cad". At 0, in deadline order, J2 (deadline 10, cad) takes m0, J1 (100) m1 and
    // J3 (200) m2. J4 (deadline 20, cad) arrives at 1: m1 and m2 run later-deadline jobs, but
    // emptying either would not free cad, which J2 holds: nobody is preempted, and J4 starts on
    // m0 when J2 ends at 5.
    const platform = createPlatform({
      machines: [{ cores: 1 }, { cores: 1 }, { cores: 1 }],
      licenses: [{ name: "cad", copies: 1 }],
    });
    const jobs = [
      j(1, 0, 10, 1, { deadline: 100 }),
      j(2, 0, 5, 1, { deadline: 10, licenses: { cad: 1 } }),
      j(3, 0, 30, 1, { deadline: 200 }),
      j(4, 1, 2, 1, { deadline: 20, licenses: { cad: 1 } }),
    ];
    const trace = simulate(jobs, platform, edf({ exclusive: true, machineOrder: "index" }));
    for (const r of trace.records) expect(r.intervals, `job ${r.job.id}`).toHaveLength(1);
    expect(startsOf(trace).get(4)).toBe(5);
    expect(machineOf(trace).get(4)).toBe(0);
    expect(violations(trace, platform)).toEqual([]);
    // Without the license check, J1 would be preempted for nothing: the plain EDF does it.
    const plain = simulate(jobs, platform, edf({ machineOrder: "index" }));
    expect(plain.records.some((r) => r.intervals.length > 1)).toBe(true);
  });
});

describe("exclusive EDF: the victims' license copies count as freed", () => {
  it("empties the machine whose job holds the one copy the arrival needs", () => {
    // One copy of "cad". J1 (deadline 100, cad) takes m0 at 0, J2 (deadline 200) m1. J3
    // (deadline 10, cad) arrives at 1: emptying m0 frees both the machine and the copy J1
    // holds, so J1 is preempted; J3 runs [1, 3) on m0 and J1 resumes there with 9 s left.
    const platform = createPlatform({
      machines: [{ cores: 1 }, { cores: 1 }],
      licenses: [{ name: "cad", copies: 1 }],
    });
    const jobs = [
      j(1, 0, 10, 1, { deadline: 100, licenses: { cad: 1 } }),
      j(2, 0, 30, 1, { deadline: 200 }),
      j(3, 1, 2, 1, { deadline: 10, licenses: { cad: 1 } }),
    ];
    const trace = simulate(jobs, platform, edf({ exclusive: true, machineOrder: "index" }));
    const iv = (id: number) => intervalsOf(trace, id);
    expect(iv(3)).toEqual([[1, 3, 0]]);
    expect(iv(1)).toEqual([
      [0, 1, 0],
      [3, 12, 0],
    ]);
    expect(iv(2)).toEqual([[0, 30, 1]]);
    expect(violations(trace, platform)).toEqual([]);
  });
});

describe("exclusive: options and names", () => {
  it("derives names with +excl and implies singleMachine", () => {
    expect(easy({ exclusive: true }).name).toBe("easy+excl");
    expect(conservative({ exclusive: true, singleMachine: true }).name).toBe("conservative+excl");
    expect(backfill({ reservations: 2, exclusive: true }).name).toBe("backfill-2+excl");
    expect(fcfs({ exclusive: true }).name).toBe("fcfs+excl");
    expect(flexible({ priority: () => 0, variant: "unrm", exclusive: true }).name).toBe(
      "bf-unrm+excl",
    );
    expect(edf({ exclusive: true }).name).toBe("edf+excl");
    expect(edf({ exclusive: false }).name).toBe("edf");
  });

  it("rejects a non-boolean exclusive and exclusive with singleMachine: false, naming the field", () => {
    expect(() => backfill({ exclusive: "yes" as unknown as boolean })).toThrow(
      /options\.exclusive is "yes", expected true or false/,
    );
    expect(() => backfill({ keepReservations: 1 as unknown as boolean })).toThrow(
      "@sched/backfill/backfill: options.keepReservations is 1, expected true or false",
    );
    expect(() => edf({ exclusive: 1 as unknown as boolean })).toThrow(/options\.exclusive/);
    expect(() => fcfs({ exclusive: true, singleMachine: false })).toThrow(
      /options\.singleMachine.*exclusive: true runs every job on one machine/,
    );
    expect(() => easy({ exclusive: true, singleMachine: false })).toThrow(/options\.singleMachine/);
    expect(() => flexible({ priority: () => 0, exclusive: true, singleMachine: false })).toThrow(
      /@sched\/backfill\/flexible.*options\.singleMachine/,
    );
  });

  it("rejects a job that no single machine can host, with the reason", () => {
    const platform = createPlatform({ machines: [{ cores: 2 }, { cores: 2 }] });
    for (const s of [
      easy({ exclusive: true }),
      edf({ exclusive: true }),
      fcfs({ exclusive: true }),
    ]) {
      const trace = simulate([j(1, 0, 5, 3)], platform, s);
      expect(trace.records[0]!.outcome).toBe("rejected");
      expect(trace.records[0]!.reason).toMatch(/3 cores on one machine/);
    }
  });
});

/**
 * Heterogeneous farms with floating and node-locked licenses, deadlines on some jobs; run time
 * <= estimate (`exact`: equal; `overrun`: some jobs run up to 4 s past their estimate).
 */
function farmArb(
  exact: boolean,
  maxCores = 4,
  overrun = false,
): fc.Arbitrary<{ platform: Platform; jobs: Job[] }> {
  return fc
    .record({
      machines: fc.array(
        fc.record({
          cores: fc.integer({ min: 1, max: maxCores }),
          speed: fc.integer({ min: 1, max: 3 }),
        }),
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
            slack: exact ? fc.constant(0) : fc.integer({ min: overrun ? -4 : 0, max: 6 }),
            cores: fc.integer({ min: 1, max: maxCores }),
            lic: fc.constantFrom("none", "none", "float", "lock", "both"),
            deadline: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
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
                estimate: Math.max(1, r.runtime + r.slack),
                cores: r.cores,
                ...(licenses === undefined ? {} : { licenses }),
                ...(r.deadline === undefined ? {} : { deadline: r.submit + r.deadline }),
              };
            });
          return { platform, jobs };
        }),
    );
}

const waited = (w: { job: Job }, v: { now: number }) => v.now - w.job.submit - w.job.cores;

/** Each policy with exclusive placement, and a maker taking the placement options. */
const policies: [string, (o: { exclusive?: boolean; singleMachine?: boolean }) => Scheduler][] = [
  ["fcfs", (o) => fcfs(o)],
  ["backfill-0", (o) => backfill({ reservations: 0, ...o })],
  ["easy", (o) => easy(o)],
  ["easy/speed", (o) => easy({ machineOrder: "speed", ...o })],
  ["backfill-2/sjf", (o) => backfill({ reservations: 2, order: "sjf", ...o })],
  ["conservative", (o) => conservative(o)],
  ["conservative/largest-first", (o) => conservative({ order: "largest-first", ...o })],
  ["bf-rm", (o) => flexible({ priority: waited, ...o })],
  ["bf-unrm", (o) => flexible({ priority: waited, variant: "unrm", ...o })],
  ["edf", (o) => edf({ exclusive: o.exclusive ?? false })],
  ["edf/no-preemption", (o) => edf({ preemption: false, exclusive: o.exclusive ?? false })],
  ["easy/best-fit", (o) => easy({ machineOrder: "best-fit", ...o })],
  ["edf/waiting", (o) => edf({ preemptFor: "waiting", exclusive: o.exclusive ?? false })],
  [
    "edf/decreasing/undated",
    (o) => edf({ deadlineOrder: "decreasing", undatedFactor: 1, exclusive: o.exclusive ?? false }),
  ],
];

describe("exclusive on heterogeneous farms with licenses (properties)", () => {
  it("no two jobs ever overlap on a machine, licenses stay within their copies, every hostable job completes", () => {
    fc.assert(
      fc.property(farmArb(false), fc.integer({ min: 0, max: policies.length - 1 }), (w, k) => {
        const [name, make] = policies[k]!;
        const trace = simulate(w.jobs, w.platform, make({ exclusive: true }));
        expect(violations(trace, w.platform), name).toEqual([]);
        for (const r of trace.records) {
          const fits = whyNeverFits(r.job, w.platform, { singleMachine: true }) === null;
          expect(r.outcome, `${name} job ${r.job.id}`).toBe(fits ? "completed" : "rejected");
        }
      }),
      { numRuns: 500 },
    );
  });

  it("with jobs running past their estimates too: no two jobs ever overlap on a machine", () => {
    // A reservation on a machine whose job overran finds the machine still busy when its time
    // comes (free cores enough for the job, but not the whole machine).
    fc.assert(
      fc.property(
        farmArb(false, 4, true),
        fc.integer({ min: 0, max: policies.length - 1 }),
        (w, k) => {
          const [name, make] = policies[k]!;
          const trace = simulate(w.jobs, w.platform, make({ exclusive: true }));
          expect(violations(trace, w.platform), name).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("EASY (FCFS order) never starts a job later than its first reservation, which never moves later", () => {
    fc.assert(
      fc.property(farmArb(false), fc.boolean(), (w, speed) => {
        const s0 = easy({ exclusive: true, machineOrder: speed ? "speed" : "index" });
        const { scheduler, history } = recording(s0);
        const s = startsOf(simulate(w.jobs, w.platform, scheduler));
        for (const [id, hist] of history) {
          for (let i = 1; i < hist.length; i++) expect(hist[i]).toBeLessThanOrEqual(hist[i - 1]!);
          expect(s.get(id)).toBeLessThanOrEqual(hist[0]!);
        }
      }),
      { numRuns: 250 },
    );
  });

  it("conservative never starts a job later than the reservation it got on arrival", () => {
    fc.assert(
      fc.property(farmArb(false), (w) => {
        const { scheduler, history } = recording(conservative({ exclusive: true }));
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
          const { scheduler, history } = recording(make({ exclusive: true }));
          const s = startsOf(simulate(w.jobs, w.platform, scheduler));
          for (const [id, hist] of history) expect(s.get(id), `${make.name} ${id}`).toBe(hist[0]);
        }
      }),
      { numRuns: 250 },
    );
  });

  it("reservations: 0 with exclusive equals fcfs({ exclusive: true })", () => {
    fc.assert(
      fc.property(farmArb(false), (w) => {
        const a = startsOf(simulate(w.jobs, w.platform, fcfs({ exclusive: true })));
        const b = startsOf(
          simulate(w.jobs, w.platform, backfill({ reservations: 0, exclusive: true })),
        );
        expect([...b].sort((x, y) => x[0] - y[0])).toEqual([...a].sort((x, y) => x[0] - y[0]));
      }),
      { numRuns: 150 },
    );
  });

  it("on machines of 1 core each, exclusive equals non-exclusive single-machine placement job for job", () => {
    // One core per machine: a running job fills its machine, so exclusivity adds nothing.
    // Licenses are left out for EDF: its non-exclusive preemption does not check them (it may
    // preempt and then not start the job), the exclusive one does.
    const oneCore = farmArb(false, 1);
    fc.assert(
      fc.property(oneCore, (w) => {
        for (const [name, make] of policies) {
          const jobs = name.startsWith("edf")
            ? w.jobs.map((x) => {
                const { licenses: _, ...rest } = x;
                return rest;
              })
            : w.jobs;
          const a = simulate(jobs, w.platform, make({ singleMachine: true }));
          const b = simulate(jobs, w.platform, make({ exclusive: true }));
          const shape = (t: ScheduleTrace) =>
            t.records.map((r) => [
              r.job.id,
              r.outcome,
              r.intervals.map((iv) => [iv.start, iv.end, iv.allocation[0]!.machine]),
            ]);
          expect(shape(b), name).toEqual(shape(a));
        }
      }),
      { numRuns: 150 },
    );
  });
});
