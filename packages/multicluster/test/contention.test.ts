import {
  checkSchedule,
  createJob,
  defaultExecutionModel,
  type Job,
  type Scheduler,
  simulate,
} from "@sched/core";
import { arbJobs } from "@sched/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { contentionDelays, oasExecutionModel } from "../src/execution.js";
import { linkLoadViolations, oasHeuristic } from "../src/oas-heuristics.js";
import { multiClusterPlatform } from "../src/platform.js";

// 2 clusters x 2 nodes, speed 1, links of 100 MB/s.
const p = multiClusterPlatform([
  { nodes: 2, bandwidth: 100e6 },
  { nodes: 2, bandwidth: 100e6 },
]);

/** Starts job `id` at time `at[id]` on `where[id]`. */
function pinned(at: Record<number, number>, where: Record<number, number[]>): Scheduler {
  return {
    name: "pinned",
    schedule(ctx) {
      const v = ctx.view;
      for (const w of v.waiting) {
        if (v.now >= at[w.job.id]!) {
          ctx.start(
            w.job.id,
            where[w.job.id]!.map((machine) => ({ machine, cores: 1 })),
          );
        } else {
          ctx.wakeAt(at[w.job.id]!);
        }
      }
    },
  };
}

describe("oasExecutionModel: contention between running jobs (eq. 5-7 over the running set)", () => {
  const profile = (): OasProfile => ({ sigma: 0.5, ptbw: 80e6 });
  // Each job: 2 tasks split 1/1 over clusters 0 and 1: eq. 4 BW = 1 * 80e6 * 1 / 1 = 80e6 on
  // each link. Alone SAT = 100/80 >= 1: ct = 0.5 * 1 + 0.5 * 1 = 1. Together each link carries
  // 160e6: SAT = 0.625, SC = 1.6, ct = 0.5 + 0.5 * 1.6 = 1.3.
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 2 }),
    createJob({ id: 2, submit: 0, runtime: 100, cores: 2 }),
  ];
  const policy = pinned({ 1: 0, 2: 50 }, { 1: [0, 2], 2: [1, 3] });

  it("hand case: two split jobs saturating both links", () => {
    const model = oasExecutionModel({ profile });
    const trace = simulate(jobs, p, policy, { executionModel: model });
    // Job 1: half done at 50, the other half at ct 1.3: 65 s -> 115.
    expect(trace.records[0]!.end).toBeCloseTo(115, 9);
    // Job 2: 65 s at ct 1.3 = half its work by 115, then alone: 50 s -> 165.
    expect(trace.records[1]!.end).toBeCloseTo(165, 9);
    // both ran 115 s where 100 s alone: stretched by 1.15
    const delays = contentionDelays(trace, { profile });
    expect(delays.map((d) => d.jobId)).toEqual([1, 2]);
    for (const d of delays) expect(d.stretch).toBeCloseTo(1.15, 9);
    expect(checkSchedule(trace, { executionModel: model })).toEqual([]);
    // The overload is visible to the link checker.
    expect(linkLoadViolations(trace, profile).length).toBeGreaterThan(0);
  });

  it("contentionDelays reports a slight stretch too, and none at exactly the bandwidth", () => {
    // both jobs from 0, side by side: 2 x 50.5e6 = 101e6 on each 100e6 link, SC = 1.01,
    // ct = 0.5 + 0.5 * 1.01 = 1.005: both end at 100.5, stretched by 1.005; at 50e6 per task
    // the links carry exactly their bandwidth: no slowdown
    const together = pinned({ 1: 0, 2: 0 }, { 1: [0, 2], 2: [1, 3] });
    const run = (ptbw: number) => {
      const prof = (): OasProfile => ({ sigma: 0.5, ptbw });
      const trace = simulate(jobs, p, together, {
        executionModel: oasExecutionModel({ profile: prof }),
      });
      return { trace, delays: contentionDelays(trace, { profile: prof }) };
    };
    const slight = run(50.5e6);
    expect(slight.trace.records.map((r) => r.end)).toEqual(
      [100.5, 100.5].map((x) => expect.closeTo(x, 9)),
    );
    expect(slight.delays.map((d) => d.jobId)).toEqual([1, 2]);
    for (const d of slight.delays) expect(d.stretch).toBeCloseTo(1.005, 9);
    const exact = run(50e6);
    expect(exact.trace.records.map((r) => r.end)).toEqual([100, 100]);
    expect(exact.delays).toEqual([]);
  });

  it("contentionDelays measures against the run time, and leaves out a job run in two intervals", () => {
    // traces made by hand, on the fast nodes (sigma 1: ct alone 1); the estimate is not what ran
    const job = createJob({ id: 9, submit: 0, runtime: 100, estimate: 300, cores: 1 });
    const allocation = [{ machine: 0, cores: 1 }];
    const traceOf = (intervals: { start: number; end: number }[]) =>
      ({
        platform: p,
        records: [
          { job, outcome: "completed", intervals: intervals.map((iv) => ({ ...iv, allocation })) },
        ],
      }) as never;
    expect(contentionDelays(traceOf([{ start: 0, end: 150 }]))).toEqual([
      { jobId: 9, stretch: 1.5 },
    ]);
    expect(
      contentionDelays(
        traceOf([
          { start: 0, end: 150 },
          { start: 160, end: 170 },
        ]),
      ),
    ).toEqual([]);
  });

  it("the stateless variant (contention: false) does not charge it", () => {
    const model = oasExecutionModel({ profile, contention: false });
    const trace = simulate(jobs, p, policy, { executionModel: model });
    expect(trace.records.map((r) => r.end)).toEqual([100, 150]);
    // ... which the contention model's work check rejects.
    const withContention = oasExecutionModel({ profile });
    expect(
      checkSchedule(trace, { executionModel: withContention }).map((v) => [v.kind, v.jobId]),
    ).toEqual([
      ["work", 1],
      ["work", 2],
    ]);
  });

  it("slowdowns: ct(set) / ct(alone) per job, 1 for a job off the saturated links", () => {
    const model = oasExecutionModel({ profile });
    const three = createJob({ id: 3, submit: 0, runtime: 10, cores: 1 });
    const f = model.slowdowns!(
      [
        {
          job: jobs[0]!,
          allocation: [
            { machine: 0, cores: 1 },
            { machine: 2, cores: 1 },
          ],
        },
        {
          job: jobs[1]!,
          allocation: [
            { machine: 1, cores: 1 },
            { machine: 3, cores: 1 },
          ],
        },
        { job: three, allocation: [{ machine: 0, cores: 1 }] },
      ],
      p,
    );
    expect(Array.from(f)).toEqual([1.3, 1.3, 1]);
  });

  it("property: with sigma 1, or with demands that never saturate, it equals the stateless run exactly", () => {
    fc.assert(
      fc.property(
        arbJobs(p, { maxJobs: 10, licenses: false }),
        fc.constantFrom(0, 1e6, 60e6, 200e6),
        fc.boolean(),
        (js, ptbw, heuristic) => {
          const prof = (job: Job): OasProfile => ({ sigma: job.id % 2 ? 0.5 : 1, ptbw });
          const policy: Scheduler = heuristic ? oasHeuristic("FPFS", { profile: prof }) : naive;
          const rate = oasExecutionModel({ profile: prof });
          const fixed = oasExecutionModel({ profile: prof, contention: false });
          const a = simulate(js, p, policy, { executionModel: rate, maxEvents: 10_000 });
          const b = simulate(js, p, policy, { executionModel: fixed, maxEvents: 10_000 });
          expect(checkSchedule(a, { executionModel: rate })).toEqual([]);
          // The OAS heuristic never saturates a link, and 1e6 B/s per task never can here: no
          // contention, so the two models give the same bytes.
          if (heuristic || ptbw <= 1e6) {
            expect(linkLoadViolations(a, prof)).toEqual([]);
            expect(a.records).toEqual(b.records);
          }
          // Contention only slows jobs down.
          for (const r of a.records) {
            const iv = r.intervals[0];
            if (r.outcome !== "completed" || iv === undefined) continue;
            const alone = fixed.duration(r.job, iv.allocation, p, r.job.runtime);
            expect(iv.end - iv.start).toBeGreaterThanOrEqual(alone * (1 - 1e-12));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("with sigma 1 it is core's default model", () => {
    const model = oasExecutionModel();
    const a = [{ machine: 0, cores: 1 }];
    expect(model.duration(jobs[0]!, a, p, 10)).toBe(
      defaultExecutionModel.duration(jobs[0]!, a, p, 10),
    );
  });
});

/**
 * Blind to links (so it may saturate them): in queue order, takes free machines starting at
 * machine `id mod machines`, wrapping around.
 */
const naive: Scheduler = {
  name: "naive-rotating-fit",
  schedule(ctx) {
    const v = ctx.view;
    const n = v.platform.machines.length;
    for (const w of v.waiting) {
      if (v.now < (w.job.ready ?? w.job.submit) || v.totalFreeCores < w.job.cores) continue;
      const parts: { machine: number; cores: number }[] = [];
      let need = w.job.cores;
      for (let k = 0; k < n && need > 0; k++) {
        const m = (w.job.id + k) % n;
        const c = Math.min(need, v.freeCores(m));
        if (c > 0) {
          parts.push({ machine: m, cores: c });
          need -= c;
        }
      }
      ctx.start(w.job.id, parts);
    }
  },
};
