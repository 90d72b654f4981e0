import { createJob, type Job } from "@sched/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { buildOasModel, canonicalResources, identicalGroups, solveOas } from "../src/mip.js";
import { bruteForceOas } from "../src/oas-brute.js";
import { checkOasSchedule } from "../src/oas-check.js";
import { allocationOf, oasInstance } from "../src/oas-instance.js";
import { slottedListSchedule } from "../src/oas-slotted.js";
import { multiClusterPlatform } from "../src/platform.js";
import { loadSolver } from "../src/solver.js";

const paper = multiClusterPlatform([
  { nodes: 2, speed: 1 },
  { nodes: 2, speed: 0.75 },
  { nodes: 2, speed: 0.5 },
]);

beforeAll(async () => {
  await loadSolver();
});

describe("solveOas: hand-worked instances", () => {
  it("puts a lone job on the fastest nodes", async () => {
    const jobs = [createJob({ id: 7, submit: 0, runtime: 100, cores: 2 })];
    const r = await solveOas(jobs, paper, { eta: 50, theta: 8 });
    expect(r.status).toBe("optimal");
    expect(r.makespanSlots).toBe(2);
    expect(r.makespan).toBe(100);
    expect(r.schedule[0]!.allocation).toEqual([
      { machine: 0, cores: 1 },
      { machine: 1, cores: 1 },
    ]);
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 50, theta: 8 })).toEqual([]);
  });
  it("orders two big jobs and co-allocates when that is faster", async () => {
    // 4-task jobs of 100 s: on {c0, c1} each takes 100/0.75 = 133.3 s = 3 slots of 50 s
    // side by side: one on c0+c1 (3 slots), the other on c1? no: 6 nodes, 8 tasks: they must queue
    const jobs = [1, 2].map((id) => createJob({ id, submit: 0, runtime: 100, cores: 4 }));
    const r = await solveOas(jobs, paper, { eta: 50, theta: 7 });
    expect(r.status).toBe("optimal");
    // best: both on c0+c1, one after the other: 3 + 3 slots
    expect(r.makespanSlots).toBe(6);
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 50 })).toEqual([]);
  });
  it("refuses to saturate a link, and says to raise theta when the horizon is too short", async () => {
    // ptbw 200e6: a 1/1 split uses 200e6 > 125e6 on both links: the 2-task jobs cannot be split
    const jobs = [1, 2, 3, 4].map((id) => createJob({ id, submit: 0, runtime: 100, cores: 2 }));
    const profile = (): OasProfile => ({ sigma: 0.5, ptbw: 200e6 });
    const r = await solveOas(jobs, paper, { eta: 100, profile });
    expect(r.status).toBe("optimal");
    for (const a of r.schedule) {
      const clusters = new Set(a.allocation.map((p) => paper.machines[p.machine]!.cluster));
      expect(clusters.size).toBe(1);
    }
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 100, profile })).toEqual([]);
    const short = await solveOas(jobs, paper, { eta: 100, theta: 1, profile });
    expect(short.status).toBe("infeasible");
    expect(short.message).toMatch(/raise options.theta/);
    expect(short.schedule).toEqual([]);
  });
  it("reports a time-limited solve honestly", async () => {
    const jobs = Array.from({ length: 6 }, (_, i) =>
      createJob({ id: i, submit: 0, runtime: 40 + 17 * i, cores: 1 + (i % 4) }),
    );
    const r = await solveOas(jobs, paper, { eta: 10, timeLimit: 0.05 });
    expect(["optimal", "feasible", "timeout"]).toContain(r.status);
    if (r.status === "feasible") {
      expect(r.gap).toBeGreaterThanOrEqual(0);
      expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 10 })).toEqual([]);
    }
    if (r.status === "timeout") expect(r.schedule).toEqual([]);
  });
  it("starts from the best heuristic list schedule and never returns worse", async () => {
    const jobs = [3, 1, 2].map((id) => createJob({ id, submit: 0, runtime: 30 * id, cores: id }));
    const r = await solveOas(jobs, paper, { eta: 30, theta: 8 });
    expect(r.status).toBe("optimal");
    expect(r.warmStartSlots).not.toBeNull();
    expect(r.makespanSlots!).toBeLessThanOrEqual(r.warmStartSlots!);
    const off = await solveOas(jobs, paper, { eta: 30, theta: 8, warmStart: false });
    expect(off.warmStartSlots).toBeNull();
    expect(off.makespanSlots).toBe(r.makespanSlots);
  });
  it("counts the model's variables and rejects bad options", () => {
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    const m = buildOasModel(jobs, paper, { eta: 5, theta: 3 });
    // z: 6, y: 3, w: 3 (x is continuous; no bandwidth binaries for a one-task job)
    expect(m.binaries).toBe(6 + 3 + 3);
    expect(m.lp).toContain("Minimize");
    expect(() => buildOasModel(jobs, paper, { eta: 0 })).toThrow(/options.eta is 0/);
    expect(() => buildOasModel(jobs, paper, { theta: 1.5 })).toThrow(/options.theta/);
  });
});

function arbTiny() {
  return fc.record({
    speeds: fc.array(fc.constantFrom(1, 0.75, 0.5), { minLength: 2, maxLength: 2 }),
    nodes: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 2 }),
    bandwidth: fc.constantFrom(50e6, 125e6),
    jobs: fc.array(
      fc.record({
        runtime: fc.integer({ min: 10, max: 60 }),
        cores: fc.integer({ min: 1, max: 3 }),
        sigma: fc.constantFrom(0.5, 0.8, 1),
        ptbw: fc.constantFrom(0, 40e6, 100e6),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  });
}

describe("solveOas against brute force", () => {
  it("finds the brute-force optimum and every schedule passes the independent check", async () => {
    await fc.assert(
      fc.asyncProperty(arbTiny(), async (c) => {
        const platform = multiClusterPlatform(
          c.nodes.map((n, k) => ({ nodes: n, speed: c.speeds[k]!, bandwidth: c.bandwidth })),
        );
        const total = platform.totalCores;
        const jobs: Job[] = c.jobs.map((j, i) =>
          createJob({ id: i, submit: 0, runtime: j.runtime, cores: Math.min(j.cores, total) }),
        );
        const prof = new Map(c.jobs.map((j, i) => [i, { sigma: j.sigma, ptbw: j.ptbw }]));
        const profile = (job: Job) => prof.get(job.id)!;
        const eta = 20;
        const theta = 10;
        const brute = bruteForceOas(jobs, platform, { eta, theta, profile });
        const r = await solveOas(jobs, platform, {
          eta,
          theta,
          profile,
          timeLimit: 20,
          warmStart: false,
        });
        if (brute.makespanSlots === null) {
          expect(r.status).toBe("infeasible");
          return;
        }
        expect(r.status).toBe("optimal");
        expect(r.makespanSlots).toBe(brute.makespanSlots);
        // With the warm start, the horizon shrunk to it and symmetry breaking (defaults): the
        // same optimum, never worse than the warm start, and theta = the warm start's slots.
        const warm = await solveOas(jobs, platform, { eta, theta, profile, timeLimit: 20 });
        expect(warm.status).toBe("optimal");
        expect(warm.makespanSlots).toBe(brute.makespanSlots);
        expect(warm.theta).toBe(Math.min(theta, warm.warmStartSlots!));
        expect(checkOasSchedule(jobs, platform, warm.schedule, { eta, theta, profile })).toEqual(
          [],
        );
        expect(checkOasSchedule(jobs, platform, r.schedule, { eta, theta, profile })).toEqual([]);
        expect(checkOasSchedule(jobs, platform, brute.schedule!, { eta, theta, profile })).toEqual(
          [],
        );
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});

describe("symmetry breaking and warm starts", () => {
  it("canonical relabelling satisfies z_j_r' <= sum_{j' <= j} z_j'_r and keeps the schedule valid", () => {
    const platform = multiClusterPlatform([
      { nodes: 3, speed: 1 },
      { nodes: 4, speed: 0.75, coresPerNode: 2 },
    ]);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            runtime: fc.integer({ min: 10, max: 90 }),
            cores: fc.integer({ min: 1, max: 6 }),
          }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
        (specs, keys) => {
          const jobs = specs.map((j, i) => createJob({ id: i, submit: 0, ...j }));
          const order = jobs.map((_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b);
          const profile = (): OasProfile => ({ sigma: 0.7, ptbw: 20e6 });
          const s = slottedListSchedule(jobs, platform, order, { eta: 20, theta: 200, profile });
          expect(s).not.toBeNull();
          const inst = oasInstance(jobs, platform, profile);
          const res = canonicalResources(inst, s!);
          for (const group of identicalGroups(inst)) {
            for (let i = 1; i < group.length; i++) {
              for (let j = 0; j < jobs.length; j++) {
                if (!res[j]!.includes(group[i]!)) continue;
                const earlier = res.slice(0, j + 1).some((rs) => rs.includes(group[i - 1]!));
                expect(earlier).toBe(true);
              }
            }
          }
          const relabelled = s!.map((a, j) => ({ ...a, allocation: allocationOf(inst, res[j]!) }));
          expect(
            checkOasSchedule(jobs, platform, relabelled, { eta: 20, theta: 200, profile }),
          ).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("groups identical resources by cluster and speed", () => {
    const inst = oasInstance([], paper);
    expect(identicalGroups(inst)).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });

  it("HiGHS accepts the (relabelled) warm start: a short solve never returns worse than it", async () => {
    const jobs = Array.from({ length: 8 }, (_, i) =>
      createJob({ id: i, submit: 0, runtime: 40 + 23 * i, cores: 1 + (i % 4) }),
    );
    const profile = (): OasProfile => ({ sigma: 0.6, ptbw: 30e6 });
    const r = await solveOas(jobs, paper, { eta: 40, timeLimit: 0.5, profile });
    expect(["optimal", "feasible"]).toContain(r.status);
    expect(r.warmStart).not.toBeNull();
    expect(r.makespanSlots!).toBeLessThanOrEqual(r.warmStartSlots!);
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 40, profile })).toEqual([]);
  });

  it("takes incumbents, and names an infeasible one", async () => {
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 60, cores: 2 }),
      createJob({ id: 2, submit: 0, runtime: 60, cores: 2 }),
    ];
    // Both on the fast nodes, one after the other: 2 + 2 slots of 30 s.
    const serial = [
      {
        jobId: 1,
        startSlot: 0,
        slots: 2,
        allocation: [
          { machine: 0, cores: 1 },
          { machine: 1, cores: 1 },
        ],
      },
      {
        jobId: 2,
        startSlot: 2,
        slots: 2,
        allocation: [
          { machine: 0, cores: 1 },
          { machine: 1, cores: 1 },
        ],
      },
    ];
    const r = await solveOas(jobs, paper, { eta: 30, incumbents: [serial], warmStart: true });
    expect(r.status).toBe("optimal");
    expect(r.makespanSlots!).toBeLessThanOrEqual(4);
    const clash = [serial[0]!, { ...serial[1]!, startSlot: 1 }];
    await expect(solveOas(jobs, paper, { eta: 30, incumbents: [clash] })).rejects.toThrow(
      /options.incumbents\[0\] is not feasible/,
    );
  });
});
