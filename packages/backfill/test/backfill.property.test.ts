import { createPlatform, identicalPool, type Job, simulate, whyNeverFits } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backfill } from "../src/backfill.js";
import { edf } from "../src/edf.js";
import { fcfs } from "../src/fcfs.js";
import { conservative, easy, flexible } from "../src/presets.js";
import { classicConservative, classicEasy, classicFcfs } from "./support/oracles.js";
import { poolViolations, recording, startsOf } from "./support/run.js";

interface Workload {
  procs: number;
  jobs: Job[];
}

/** Small pool workloads; run time <= estimate (`exact`: equal). Ids follow (submit, input) order. */
function workloadArb(exact: boolean, maxJobs = 10): fc.Arbitrary<Workload> {
  return fc.integer({ min: 1, max: 6 }).chain((procs) =>
    fc
      .array(
        fc.record({
          submit: fc.integer({ min: 0, max: 30 }),
          runtime: fc.integer({ min: 1, max: 20 }),
          slack: exact ? fc.constant(0) : fc.integer({ min: 0, max: 15 }),
          cores: fc.integer({ min: 1, max: procs }),
        }),
        { minLength: 1, maxLength: maxJobs },
      )
      .map((raw) => {
        const sorted = raw.slice().sort((a, b) => a.submit - b.submit);
        const jobs = sorted.map((r, i) => ({
          id: i + 1,
          submit: r.submit,
          runtime: r.runtime,
          estimate: r.runtime + r.slack,
          cores: r.cores,
        }));
        return { procs, jobs };
      }),
  );
}

const asList = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]);

describe("backfill against the reference simulators (small random pools)", () => {
  it("easy() gives every job the textbook EASY start", () => {
    fc.assert(
      fc.property(workloadArb(false), ({ procs, jobs }) => {
        const got = startsOf(simulate(jobs, identicalPool(procs), easy()));
        expect(asList(got)).toEqual(asList(classicEasy(jobs, procs)));
      }),
      { numRuns: 300 },
    );
  });

  it("conservative() gives every job the brute-force conservative start (with compression)", () => {
    fc.assert(
      fc.property(workloadArb(false), ({ procs, jobs }) => {
        const got = startsOf(simulate(jobs, identicalPool(procs), conservative()));
        expect(asList(got)).toEqual(asList(classicConservative(jobs, procs)));
      }),
      { numRuns: 300 },
    );
  });

  it("reservations: 0 equals fcfs() equals the classic FCFS loop", () => {
    fc.assert(
      fc.property(workloadArb(false), ({ procs, jobs }) => {
        const expected = asList(classicFcfs(jobs, procs));
        expect(asList(startsOf(simulate(jobs, identicalPool(procs), fcfs())))).toEqual(expected);
        expect(
          asList(startsOf(simulate(jobs, identicalPool(procs), backfill({ reservations: 0 })))),
        ).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe("backfill invariants", () => {
  it("EASY never delays the head past its reservation, and a reservation never moves later", () => {
    fc.assert(
      fc.property(workloadArb(false), ({ procs, jobs }) => {
        const { scheduler, history } = recording(easy());
        const s = startsOf(simulate(jobs, identicalPool(procs), scheduler));
        for (const [id, hist] of history) {
          for (let i = 1; i < hist.length; i++) expect(hist[i]).toBeLessThanOrEqual(hist[i - 1]);
          expect(s.get(id)).toBeLessThanOrEqual(hist[0]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("conservative never starts a job later than the reservation it got on arrival; compression never moves one later", () => {
    fc.assert(
      fc.property(workloadArb(false), ({ procs, jobs }) => {
        const { scheduler, history } = recording(conservative());
        const s = startsOf(simulate(jobs, identicalPool(procs), scheduler));
        for (const j of jobs) {
          const hist = history.get(j.id);
          if (hist === undefined) continue; // started on arrival
          for (let i = 1; i < hist.length; i++) expect(hist[i]).toBeLessThanOrEqual(hist[i - 1]);
          expect(s.get(j.id)).toBeLessThanOrEqual(hist[0]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("with exact estimates, EASY and conservative reservations are met exactly", () => {
    fc.assert(
      fc.property(workloadArb(true), ({ procs, jobs }) => {
        for (const make of [easy, conservative]) {
          const { scheduler, history } = recording(make());
          const s = startsOf(simulate(jobs, identicalPool(procs), scheduler));
          for (const [id, hist] of history) expect(s.get(id)).toBe(hist[0]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("every depth and order keeps the pool's capacity, starts nothing before submit and finishes every job", () => {
    const policies = [
      () => backfill({ reservations: 2 }),
      () => backfill({ reservations: 3, order: "sjf" }),
      () => backfill({ reservations: 1, order: "largest-first" }),
      () => backfill({ reservations: Number.POSITIVE_INFINITY, order: "sjf" }),
      () =>
        flexible({ priority: (w, view) => view.now - w.job.submit - w.job.cores, variant: "unrm" }),
      () => edf(),
    ];
    fc.assert(
      fc.property(
        workloadArb(false),
        fc.integer({ min: 0, max: policies.length - 1 }),
        ({ procs, jobs }, k) => {
          const trace = simulate(jobs, identicalPool(procs), policies[k]());
          expect(poolViolations(trace, procs)).toEqual([]);
          for (const r of trace.records) expect(r.outcome).toBe("completed");
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** Heterogeneous farms with floating and node-locked licenses. */
const farmArb = fc
  .record({
    machines: fc.array(
      fc.record({ cores: fc.integer({ min: 1, max: 4 }), speed: fc.integer({ min: 1, max: 3 }) }),
      { minLength: 1, maxLength: 4 },
    ),
    floating: fc.integer({ min: 1, max: 3 }),
    locked: fc.integer({ min: 1, max: 2 }),
  })
  .chain(({ machines, floating, locked }) =>
    fc
      .array(
        fc.record({
          submit: fc.integer({ min: 0, max: 20 }),
          runtime: fc.integer({ min: 1, max: 15 }),
          slack: fc.integer({ min: 0, max: 5 }),
          cores: fc.integer({ min: 1, max: 5 }),
          lic: fc.constantFrom("none", "float", "lock", "both"),
          deadline: fc.option(fc.integer({ min: 5, max: 60 }), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 10 },
      )
      .map((raw) => {
        const platform = createPlatform({
          machines,
          licenses: [
            { name: "float", copies: floating },
            { name: "lock", kind: "node-locked", copies: locked, machines: [0] },
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
              id: i,
              submit: r.submit,
              runtime: r.runtime,
              estimate: r.runtime + r.slack,
              cores: r.cores,
              ...(licenses === undefined ? {} : { licenses }),
              ...(r.deadline === undefined ? {} : { deadline: r.submit + r.deadline }),
            };
          });
        return { platform, jobs };
      }),
  );

describe("every policy on heterogeneous farms with licenses", () => {
  const policies = [
    fcfs,
    easy,
    conservative,
    () => backfill({ reservations: 2, order: "sjf" }),
    edf,
  ];
  it("never breaks a constraint (the engine would throw), and every job that can run completes", () => {
    fc.assert(
      fc.property(
        farmArb,
        fc.integer({ min: 0, max: policies.length - 1 }),
        ({ platform, jobs }, k) => {
          const trace = simulate(jobs, platform, policies[k]());
          for (const r of trace.records) {
            expect(r.outcome).toBe(
              whyNeverFits(r.job, platform) === null ? "completed" : "rejected",
            );
          }
        },
      ),
      { numRuns: 250 },
    );
  });
});
