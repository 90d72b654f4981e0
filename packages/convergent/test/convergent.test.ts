import { checkSchedule, createPlatform, InvalidInputError, simulate } from "@sched/core";
import { convergentWorkload } from "@sched/workload";
import { describe, expect, it } from "vitest";
import { convergent } from "../src/convergent.js";
import type { Heuristic } from "../src/heuristic.js";
import { paperHeuristics } from "../src/paper-heuristics.js";
import { convergentPass } from "../src/pass.js";
import { CONVERGENT_VARIANTS, convergentVariant } from "../src/variants.js";
import { job } from "./helpers.js";

const twoSpeeds = createPlatform({ machines: [{ speed: 1 }, { speed: 4 }], referenceSpeed: 1 });

describe("convergent", () => {
  it("gives the fast machine to the job that would be late on the slow one", () => {
    // D: estimate 100, deadline 40: late on m0 (100 s), on time on m1 (25 s). N: no deadline.
    const jobs = [
      job({ id: 1, estimate: 100, runtime: 100 }),
      job({ id: 2, estimate: 100, runtime: 100, deadline: 40 }),
    ];
    for (const variant of CONVERGENT_VARIANTS) {
      const trace = simulate(jobs, twoSpeeds, convergentVariant(variant));
      const d = trace.records.find((r) => r.job.id === 2);
      expect(d?.intervals[0]?.allocation).toEqual([{ machine: 1, cores: 1 }]);
      expect(d?.end).toBe(25);
      expect(checkSchedule(trace)).toEqual([]);
    }
  });
  it("runs each job on one machine, one job per machine", () => {
    const platform = createPlatform({ machines: [{ cores: 4 }, { cores: 4 }] });
    const jobs = [1, 2, 3].map((id) => job({ id, cores: 1, runtime: 10 }));
    const trace = simulate(jobs, platform, convergent());
    const starts = trace.records.map((r) => r.intervals[0]?.start);
    expect(starts).toEqual([0, 0, 10]); // the third waits although cores are free
    for (const r of trace.records)
      for (const iv of r.intervals) expect(iv.allocation.length).toBe(1);
  });
  it("schedules with a negative anti-aging weight as the plain matcher does", () => {
    // The incremental matrix cancels anti-aging's drift with a uniform shift; for a negative
    // weight that shift was negative (-400 here), every entry fell to 0 or below, the matching
    // saw no eligible pair and no job ever started.
    const platform = createPlatform({ machines: [{}, {}] });
    const jobs = [
      job({ id: 1, runtime: 10 }),
      job({ id: 2, runtime: 10 }),
      job({ id: 3, submit: 1, runtime: 10 }),
    ];
    const constants = { antiAging: -0.02 };
    for (const matcher of ["imfs", "mfs"] as const) {
      const trace = simulate(jobs, platform, convergent({ constants, matcher }));
      const starts = trace.records.map((r) => r.intervals[0]?.start);
      expect(starts, matcher).toEqual([0, 0, 10]);
    }
  });

  it("rejects a job that no machine can run, with a reason", () => {
    const trace = simulate(
      [job({ id: 1, cores: 2 })],
      createPlatform({ machines: [{}, {}] }),
      convergent(),
    );
    expect(trace.records[0]?.outcome).toBe("rejected");
    expect(trace.records[0]?.reason).toMatch(/minimal requirements/);
  });
  it("preempts for an urgent job and resumes the preempted one with its progress", () => {
    const one = createPlatform({ machines: [{}] });
    // job 1 runs from 0; job 2 arrives at 10 and is due at 25: the plan swaps them.
    const jobs = [
      job({ id: 1, runtime: 100 }),
      job({ id: 2, submit: 10, runtime: 10, deadline: 25 }),
    ];
    const trace = simulate(jobs, one, convergentVariant("CS_ip"));
    const [a, b] = trace.records;
    expect(b?.intervals.map((iv) => [iv.start, iv.end])).toEqual([[10, 20]]);
    expect(a?.intervals.map((iv) => [iv.start, iv.end])).toEqual([
      [0, 10],
      [20, 110],
    ]);
    expect(checkSchedule(trace)).toEqual([]);
  });
  it("never preempts without preemption", () => {
    const one = createPlatform({ machines: [{}] });
    const jobs = [
      job({ id: 1, runtime: 100 }),
      job({ id: 2, submit: 10, runtime: 10, deadline: 25 }),
    ];
    for (const variant of ["CS_inp", "CS_ninp"] as const) {
      const s = convergentVariant(variant);
      const trace = simulate(jobs, one, s);
      expect(trace.records.map((r) => r.intervals.length)).toEqual([1, 1]);
      expect(trace.records[1]?.end).toBe(110);
      expect(s.stats.preemptions).toBe(0);
    }
  });
  it("keeps a license's copies within its total while jobs compete for it", () => {
    const platform = createPlatform({
      machines: [{}, {}, {}],
      licenses: [{ name: "cad", copies: 1 }],
    });
    const jobs = [1, 2, 3].map((id) => job({ id, runtime: 10, licenses: { cad: 1 } }));
    const trace = simulate(jobs, platform, convergent());
    expect(
      trace.records.map((r) => r.intervals[0]?.start).sort((x, y) => (x ?? 0) - (y ?? 0)),
    ).toEqual([0, 10, 20]);
    expect(checkSchedule(trace)).toEqual([]);
  });
  it("runs user heuristics after the paper's", () => {
    const platform = createPlatform({ machines: [{}, {}] });
    const preferLast: Heuristic = {
      name: "prefer-last",
      apply(ctx, p) {
        for (let i = 0; i < ctx.jobs.length; i++) p[i * ctx.cols + ctx.cols - 1]! += 1000;
      },
    };
    const trace = simulate(
      [job({ id: 1 })],
      platform,
      convergent({ extraHeuristics: [preferLast] }),
    );
    expect(trace.records[0]?.intervals[0]?.allocation[0]?.machine).toBe(1);
    const only = simulate([job({ id: 1 })], platform, convergent({ heuristics: [preferLast] }));
    expect(only.records[0]?.intervals[0]?.allocation[0]?.machine).toBe(1);
  });
  it("names the variants and counts its plans", () => {
    const s = convergentVariant("CS_nip");
    expect(s.name).toBe("CS_nip");
    simulate([job({ id: 1 }), job({ id: 2, submit: 5 })], twoSpeeds, s);
    // arrivals at 0 and 5, job 1 completing while job 2 runs; none once the system is empty
    expect(s.stats.plans).toBe(3);
  });
  it("validates its options", () => {
    expect(() => convergent({ matcher: "x" as never })).toThrow(InvalidInputError);
    expect(() => convergent({ preemption: 1 as never })).toThrow(
      "@sched/convergent/convergent: options.preemption is 1, expected true or false",
    );
    expect(() => convergent({ constants: { licenses: Number.NaN } })).toThrow(/constants.licenses/);
    expect(() => convergent({ extraHeuristics: [{} as never] })).toThrow(/extraHeuristics\[0\]/);
    expect(() => convergentVariant("CS_x" as never)).toThrow(/variant is "CS_x"/);
    expect(() => convergent({ readings: { deadlineLate: "late" as never } })).toThrow(
      /@sched\/convergent\/convergent: options.readings.deadlineLate is "late", expected "max" or "min"/,
    );
    expect(() => convergent({ readings: { deadlineAllLate: "min" as never } })).toThrow(
      /readings.deadlineAllLate is "min", expected "max" or "zero"/,
    );
    expect(() => convergent({ readings: { waitSup: 3 as never } })).toThrow(
      /@sched\/convergent\/convergent: options.readings.waitSup is 3, expected "global" or "row"/,
    );
    expect(() => convergent({ onPreMatch: 1 as never })).toThrow(
      /options.onPreMatch is number, expected a function/,
    );
  });
  it("onPreMatch sees every knapsack the pre-matching solves, with the time of its plan", () => {
    // One copy of cad, three jobs asking for it: cad is critical from the second arrival on.
    const one = createPlatform({
      machines: [{ speed: 1 }, { speed: 1 }, { speed: 1 }],
      licenses: [{ name: "cad", copies: 1 }],
    });
    const jobs = [1, 2, 3].map((id) => job({ id, submit: id, licenses: { cad: 1 } }));
    const seen: { now: number; items: number; capacities: number[] }[] = [];
    const trace = simulate(
      jobs,
      one,
      convergent({
        onPreMatch: ({ now, result }) => {
          for (const c of result.clusters) {
            seen.push({
              now,
              items: c.instance.values.length,
              capacities: Array.from(c.instance.capacities),
            });
            expect(c.keep).toHaveLength(1);
          }
        },
      }),
    );
    expect(checkSchedule(trace)).toEqual([]);
    // Plans at 2 and 3 (arrivals), 101 (job 1 done: 2 jobs left), 201 (job 2 done: 1 left).
    expect(seen).toEqual([
      { now: 2, items: 2, capacities: [1] },
      { now: 3, items: 3, capacities: [1] },
      { now: 101, items: 2, capacities: [1] },
    ]);
  });
  it("readings reach the fused path: the same schedule as the generic heuristics with those readings", () => {
    const { platform, jobs } = convergentWorkload({
      jobs: 40,
      machines: 6,
      licenses: 3,
      meanInterArrival: 60,
      seed: 9,
    });
    for (const readings of [
      { deadlineLate: "min" as const },
      { deadlineAllLate: "zero" as const },
      { waitSup: "row" as const },
    ]) {
      // The non-incremental variants: fused rows in fresh mode against buildMatrix's.
      for (const [variant, overhead] of [
        ["CS_nip", 8],
        ["CS_ninp", 800],
      ] as const) {
        const fused = simulate(jobs, platform, convergentVariant(variant, { readings }));
        const generic = simulate(
          jobs,
          platform,
          convergentVariant(variant, { heuristics: paperHeuristics({ overhead }, readings) }),
        );
        const starts = (t: typeof fused) =>
          t.records.map((r) => r.intervals.map((iv) => [iv.start, iv.allocation[0]?.machine]));
        expect(starts(fused), `${variant} ${JSON.stringify(readings)}`).toEqual(starts(generic));
      }
    }
    // and the Wait minimization reading changes the plan on this workload
    const starts = (readings: { waitSup: "global" | "row" }) =>
      simulate(jobs, platform, convergentVariant("CS_nip", { readings })).records.map((r) =>
        r.intervals.map((iv) => [iv.start, iv.allocation[0]?.machine]),
      );
    expect(starts({ waitSup: "row" })).not.toEqual(starts({ waitSup: "global" }));
  });
});

describe("the planner's previous machines", () => {
  it("gives a waiting job the machine the last plan gave it (the overhead heuristic's association)", () => {
    // Job 1 asks for the only copy of cad, which the license server reports taken: planned on
    // the fast machine, it cannot start. At the next decision its row's previous machine (what
    // the overhead heuristic rewards) is that planned machine, not -1.
    const seen: number[][] = [];
    const recorder: Heuristic = {
      name: "recorder",
      apply(ctx) {
        seen.push(Array.from(ctx.previous));
      },
    };
    const heuristics = [...paperHeuristics(), recorder];
    const platform = createPlatform({
      machines: [
        { cores: 1, speed: 1 },
        { cores: 1, speed: 2 },
      ],
      licenses: [{ name: "cad", copies: 1 }],
      referenceSpeed: 1,
    });
    const queued = { id: 1, cores: 1, estimate: 100, submit: 0, licenses: { cad: 1 } };
    const state = { platform, running: [], queue: [queued], freeLicenses: { cad: 0 } };
    const first = convergentPass({ ...state, now: 0 }, { heuristics });
    expect(first.start).toEqual([]);
    expect(first.assignments).toEqual([{ id: 1, machine: 1 }]);
    convergentPass({ ...state, now: 5, memory: first.memory }, { heuristics });
    expect(seen).toEqual([[-1], [1]]);
  });
});

describe("one convergent scheduler over two simulations", () => {
  it("plans the second, on another platform object equal to the first, as a new scheduler does", () => {
    // One copy of cad for three jobs: the knapsack runs at every plan (the license clustering).
    const spec = { machines: [{}, {}], licenses: [{ name: "cad", copies: 1 }] };
    const jobs = [1, 2, 3].map((id) => job({ id, submit: id, runtime: 10, licenses: { cad: 1 } }));
    const s = convergent();
    const first = simulate(jobs, createPlatform(spec), s);
    const again = simulate(jobs, createPlatform(spec), s);
    expect(again.records).toEqual(first.records);
    expect(again.records).toEqual(simulate(jobs, createPlatform(spec), convergent()).records);
  });
});
