import { createPlatform, type SchedulerView, simulate, type WaitingJob } from "@sched/core";
import { describe, expect, it } from "vitest";
import { buildMatrix, rowMeans } from "../src/matrix.js";
import { paperHeuristics } from "../src/paper-heuristics.js";
import { convergentPriority } from "../src/priority.js";
import { job, rowOf } from "./helpers.js";

const platform = createPlatform({ machines: [{ speed: 1 }, { speed: 2 }, { cores: 2 }] });

function viewOf(waiting: WaitingJob[], now: number): SchedulerView {
  return {
    now,
    platform,
    waiting,
    waitingCount: waiting.length,
    waitingAt: (i) => waiting[i],
    nextFreeMachine: (from) => (from < platform.machines.length ? Math.max(0, from) : -1),
    running: [],
    freeCores: (m) => platform.machines[m]?.cores ?? 0,
    totalFreeCores: platform.totalCores,
    freeLicenses: () => 0,
    duration: (_j, _a, s) => s,
    isWaiting: () => true,
    isRunning: () => false,
  };
}

describe("convergentPriority", () => {
  const jobs = [
    job({ id: 1, submit: 0, estimate: 100, deadline: 150 }),
    job({ id: 2, submit: 10, estimate: 20 }),
    job({ id: 3, submit: 20, estimate: 50, cores: 2 }),
  ];
  const waiting = jobs.map((j) => ({ job: j, progress: 0, preemptions: 0 }));
  it("is the mean of the job's positive entries of the Job-Machine matrix", () => {
    const now = 60;
    const { weights } = buildMatrix(
      { now, platform, jobs: jobs.map((j) => rowOf(j)), previous: Int32Array.from([-1, -1, -1]) },
      paperHeuristics(),
    );
    const means = rowMeans(weights, 3, 3);
    const view = viewOf(waiting, now);
    // The paper's heuristics go through the fused rows: the same sums in another order.
    const fused = waiting.map((w) => convergentPriority()(w, view));
    fused.forEach((p, i) => {
      expect(Math.abs(p - (means[i] as number))).toBeLessThanOrEqual(1e-12 * (means[i] as number));
    });
    // Heuristics given explicitly go through the generic builder: bit for bit.
    const generic = convergentPriority({ heuristics: paperHeuristics() });
    expect(waiting.map((w) => generic(w, view))).toEqual(Array.from(means));
  });
  it("ranks an urgent job first", () => {
    const priority = convergentPriority();
    const view = viewOf(waiting, 60);
    const [p1, p2] = waiting.map((w) => priority(w, view));
    expect(p1).toBeGreaterThan(p2 as number);
  });
  it("is recomputed when time moves on (anti-aging)", () => {
    const priority = convergentPriority({ constants: { antiAging: 1 } });
    const a = priority(waiting[1] as WaitingJob, viewOf(waiting, 60));
    const b = priority(waiting[1] as WaitingJob, viewOf(waiting, 70));
    expect(b - a).toBeCloseTo(10, 9);
  });
  it("is recomputed when time moves on with heuristics of your own (the generic row builder)", () => {
    // The same waiting array at both calls (as the engine hands it out): only the clock moved.
    const priority = convergentPriority({ heuristics: paperHeuristics({ antiAging: 1 }) });
    const a = priority(waiting[1] as WaitingJob, viewOf(waiting, 60));
    const b = priority(waiting[1] as WaitingJob, viewOf(waiting, 70));
    expect(b - a).toBeCloseTo(10, 9);
  });
  it("works inside a simulation as a plain (job, view) => number", () => {
    const priority = convergentPriority();
    const seen: number[] = [];
    simulate(jobs, platform, {
      name: "probe",
      schedule(ctx) {
        for (const w of ctx.view.waiting) {
          seen.push(priority(w, ctx.view));
          const m = w.job.cores === 2 ? 2 : 0;
          if (ctx.view.freeCores(m) >= w.job.cores)
            ctx.start(w.job.id, [{ machine: m, cores: w.job.cores }]);
        }
      },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((x) => Number.isFinite(x) && x > 0)).toBe(true);
  });
});

describe("convergentPriority's cache (the paper's heuristics, and heuristics of your own)", () => {
  const make = [
    ["paper's heuristics (fused)", () => convergentPriority()],
    ["own heuristics (generic)", () => convergentPriority({ heuristics: paperHeuristics() })],
  ] as const;
  const w = (id: number, estimate: number): WaitingJob => ({
    job: job({ id, submit: id, estimate }),
    progress: 0,
    preemptions: 0,
  });
  it.each(make)("%s: a new waiting array at the same instant is ranked anew", (_name, priority) => {
    // job 3's long estimate raises SupRemaining: job 1's Wait minimization term changes
    const p = priority();
    const before = p(w(1, 10), viewOf([w(1, 10), w(2, 20)], 50));
    const view = viewOf([w(1, 10), w(2, 20), w(3, 4000)], 50);
    const after = p(view.waiting[0] as WaitingJob, view);
    expect(after).not.toBe(before);
    expect(after).toBe(priority()(view.waiting[0] as WaitingJob, view));
  });
  it.each(make)(
    "%s: a job added in place to the same array at the same instant is ranked",
    (_name, priority) => {
      const p = priority();
      const view = viewOf([w(1, 10), w(2, 20)], 50);
      p(view.waiting[0] as WaitingJob, view);
      (view.waiting as WaitingJob[]).push(w(3, 30));
      const third = p(view.waiting[2] as WaitingJob, view);
      expect(third).toBeGreaterThan(0);
      expect(third).toBe(priority()(view.waiting[2] as WaitingJob, view));
    },
  );
  it("ranks every job of a long queue (one more than its first buffer of 64, and more)", () => {
    for (const length of [65, 130]) {
      const waiting = Array.from({ length }, (_, k) => w(k + 1, 10 + k));
      const view = viewOf(waiting, 100);
      const fused = convergentPriority();
      const generic = convergentPriority({ heuristics: paperHeuristics() });
      for (const x of waiting) {
        const g = generic(x, view);
        expect(Math.abs(fused(x, view) - g)).toBeLessThanOrEqual(1e-12 * g);
      }
    }
  });
});
