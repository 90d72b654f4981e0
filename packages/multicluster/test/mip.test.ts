import { createJob, type Job, LimitExceededError } from "@sched/core";
import { oasWorkload } from "@sched/workload";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { OasProfile } from "../src/cost.js";
import { buildOasModel, type OasFormulation, oasSlotDefaults, solveOas } from "../src/mip.js";
import { canonicalResources, identicalGroups } from "../src/mip-resources.js";
import { bruteForceOas } from "../src/oas-brute.js";
import { checkOasSchedule } from "../src/oas-check.js";
import { OAS_RULES, ruleOrder } from "../src/oas-heuristics.js";
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

const FORMULATIONS: readonly OasFormulation[] = ["configurations", "resources"];

describe.each(FORMULATIONS)("solveOas (%s): hand-worked instances", (formulation) => {
  it("puts a lone job on the fastest nodes", async () => {
    const jobs = [createJob({ id: 7, submit: 0, runtime: 100, cores: 2 })];
    const r = await solveOas(jobs, paper, { eta: 50, theta: 8, formulation });
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
    const r = await solveOas(jobs, paper, { eta: 50, theta: 7, formulation });
    expect(r.status).toBe("optimal");
    // best: both on c0+c1, one after the other: 3 + 3 slots
    expect(r.makespanSlots).toBe(6);
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 50 })).toEqual([]);
  });
  it("refuses to saturate a link, and says to raise theta when the horizon is too short", async () => {
    // ptbw 200e6: a 1/1 split uses 200e6 > 125e6 on both links: the 2-task jobs cannot be split
    const jobs = [1, 2, 3, 4].map((id) => createJob({ id, submit: 0, runtime: 100, cores: 2 }));
    const profile = (): OasProfile => ({ sigma: 0.5, ptbw: 200e6 });
    const r = await solveOas(jobs, paper, { eta: 100, profile, formulation });
    expect(r.status).toBe("optimal");
    for (const a of r.schedule) {
      const clusters = new Set(a.allocation.map((p) => paper.machines[p.machine]!.cluster));
      expect(clusters.size).toBe(1);
    }
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 100, profile })).toEqual([]);
    const short = await solveOas(jobs, paper, { eta: 100, theta: 1, profile, formulation });
    expect(short.status).toBe("infeasible");
    expect(short.message).toMatch(/raise options.theta/);
    expect(short.schedule).toEqual([]);
  });
  it("never runs together two jobs that saturate a link only together (21)-(22)", async () => {
    // Two 3-task jobs on the 3 x 2 platform: each spans two clusters, so together they share
    // one, whose link then carries 80 + 80 MB/s > 125 MB/s (each alone: 80 MB/s, within it).
    // With the links they run one after the other, 3 slots each (100 s x ct >= 116.7 s, eta 50);
    // without them side by side in 3 slots.
    const jobs = [1, 2].map((id) => createJob({ id, submit: 0, runtime: 100, cores: 3 }));
    const profile = (): OasProfile => ({ sigma: 0.5, ptbw: 80e6 });
    const r = await solveOas(jobs, paper, { eta: 50, theta: 7, profile, formulation });
    expect([r.status, r.makespanSlots]).toEqual(["optimal", 6]);
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 50, theta: 7, profile })).toEqual([]);
    const blind = await solveOas(jobs, paper, {
      eta: 50,
      theta: 7,
      profile,
      formulation,
      links: false,
    });
    expect([blind.status, blind.makespanSlots]).toEqual(["optimal", 3]);
  });
  it("is deterministic: the same inputs give the same status, schedule, bound and nodes", async () => {
    const jobs = Array.from({ length: 3 }, (_, i) =>
      createJob({ id: i, submit: 0, runtime: 40 + 17 * i, cores: 1 + (i % 4) }),
    );
    const a = await solveOas(jobs, paper, { eta: 40, formulation });
    const b = await solveOas(jobs, paper, { eta: 40, formulation });
    expect(a.status).toBe("optimal");
    expect([b.status, b.makespanSlots, b.bound, b.nodes, b.schedule]).toEqual([
      a.status,
      a.makespanSlots,
      a.bound,
      a.nodes,
      a.schedule,
    ]);
    expect(a.solveCpuMs).toBeGreaterThanOrEqual(0);
  });
  it("with a warm start, starts from the best list schedule and never returns worse", async () => {
    const jobs = [3, 1, 2].map((id) => createJob({ id, submit: 0, runtime: 30 * id, cores: id }));
    const r = await solveOas(jobs, paper, { eta: 30, theta: 8, warmStart: true, formulation });
    expect(r.status).toBe("optimal");
    expect(r.warmStartSlots).not.toBeNull();
    expect(r.warmStartSource).toMatch(/^list (FCFS|SJF|BJF|FPFS|SPT|LPT)$/);
    expect(r.makespanSlots!).toBeLessThanOrEqual(r.warmStartSlots!);
    const off = await solveOas(jobs, paper, { eta: 30, theta: 8, formulation });
    expect(off.warmStartSlots).toBeNull();
    expect(off.makespanSlots).toBe(r.makespanSlots);
  });
});

describe("solveOas and buildOasModel: options", () => {
  it("reports a solve stopped by its budget honestly (gap from the bound, schedule valid)", async () => {
    const w = oasWorkload({ workload: "WL-1" });
    const profile = (j: Job): OasProfile => ({
      sigma: w.bsp[j.id]!.sigma,
      ptbw: w.bsp[j.id]!.perTaskBandwidth,
    });
    // a wall-clock limit far too short to prove 8 jobs in 60 s slots: any outcome is honest
    const r = await solveOas(w.jobs, w.platform, { eta: 60, profile, timeLimit: 0.2 });
    expect(["optimal", "feasible", "unsolved"]).toContain(r.status);
    if (r.status === "feasible") {
      expect(r.gap).toBeGreaterThan(0);
      expect(r.bound!).toBeLessThan(r.makespanSlots!);
      expect(r.message).toMatch(/stopped by the budget \(100000 nodes or 0.2 s\) with a gap of/);
    }
    if (r.status === "unsolved") expect(r.schedule).toEqual([]);
    else expect(checkOasSchedule(w.jobs, w.platform, r.schedule, { eta: 60, profile })).toEqual([]);
  });
  it("counts the model's variables and rejects bad options", () => {
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    const m = buildOasModel(jobs, paper, { eta: 5, theta: 3, formulation: "resources" });
    // z: 6, y: 3, w: 3 (x is continuous; no bandwidth binaries for a one-task job)
    expect(m.binaries).toBe(6 + 3 + 3);
    expect(m.lp).toContain("Minimize");
    // configurations: one per cluster (the job's one task): 2 slots at speed 1 (starts 0, 1),
    // 3 at 0.75 (start 0), 4 at 0.5 (beyond theta: none)
    const c = buildOasModel(jobs, paper, { eta: 5, theta: 3 });
    expect([c.formulation, c.binaries]).toEqual(["configurations", 2 + 1]);
    expect(c.lp).toContain("General\n cmax");
    expect(() => buildOasModel(jobs, paper, { eta: 0 })).toThrow(/options.eta is 0/);
    expect(() => buildOasModel(jobs, paper, { theta: 1.5 })).toThrow(/options.theta/);
    expect(() =>
      // @ts-expect-error: an unknown formulation on purpose
      buildOasModel(jobs, paper, { formulation: "time" }),
    ).toThrow(/options.formulation is "time"/);
  });
  it("rejects a bad budget, naming the option", async () => {
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    await expect(solveOas(jobs, paper, { maxNodes: 0 })).rejects.toThrow(/options.maxNodes is 0/);
    await expect(solveOas(jobs, paper, { timeLimit: 0 })).rejects.toThrow(/options.timeLimit is 0/);
    await expect(solveOas(jobs, paper, { relativeGap: -1 })).rejects.toThrow(
      /options.relativeGap is -1/,
    );
  });
  it("takes each option at its bound and refuses it just past, or of the wrong type", async () => {
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 1 })];
    const at = await solveOas(jobs, paper, { eta: 5, theta: 1, maxNodes: 2 ** 31 - 1 });
    expect([at.status, at.makespanSlots]).toEqual(["infeasible", null]);
    expect((await solveOas(jobs, paper, { maxNodes: 2 ** 31 - 1 })).status).toBe("optimal");
    await expect(solveOas(jobs, paper, { maxNodes: 2 ** 31 })).rejects.toThrow(
      /options\.maxNodes is 2147483648, expected an integer in \[1, 2147483647\] or Infinity/,
    );
    await expect(solveOas(jobs, paper, { timeLimit: "1" as never })).rejects.toThrow(
      /options\.timeLimit is "1", expected a number > 0/,
    );
    await expect(solveOas(jobs, paper, { eta: Number.POSITIVE_INFINITY })).rejects.toThrow(
      /options\.eta is Infinity, expected a number > 0/,
    );
    expect(() => buildOasModel(jobs, paper, { eta: 5, theta: 0 })).toThrow(
      /options\.theta is 0, expected an integer >= 1/,
    );
    expect(() => buildOasModel(jobs, paper, { eta: 5, maxConfigurations: 0 })).toThrow(
      /options\.maxConfigurations is 0, expected an integer >= 1 or Infinity/,
    );
    expect(buildOasModel(jobs, paper, { eta: 5, theta: 3, maxConfigurations: 3 }).binaries).toBe(
      2 + 1,
    );
  });
  it("refuses an incumbent with a single violation, naming it", async () => {
    const jobs = [createJob({ id: 1, submit: 0, runtime: 60, cores: 2 })];
    const fast = [
      { machine: 0, cores: 1 },
      { machine: 1, cores: 1 },
    ];
    // 60 s on the speed-1 nodes is 2 slots of 30 s, not 3: one violation (19-20)
    const long = [{ jobId: 1, startSlot: 0, slots: 3, allocation: fast }];
    expect(checkOasSchedule(jobs, paper, long, { eta: 30 })).toHaveLength(1);
    await expect(
      solveOas(jobs, paper, { eta: 30, incumbents: [long], warmStart: true }),
    ).rejects.toThrow(/options\.incumbents\[0\] is not feasible/);
  });
  it("rejects jobs the model cannot read, naming them (a TypeError or NaN before)", async () => {
    const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 1 });
    await expect(solveOas(null as never, paper)).rejects.toThrow(
      "@sched/multicluster/solveOas: jobs is null, expected an array of jobs",
    );
    await expect(solveOas([{ ...job, estimate: Number.NaN }], paper)).rejects.toThrow(
      "@sched/multicluster/solveOas: jobs[0].estimate is NaN, expected a finite number > 0",
    );
    expect(() => buildOasModel([{ ...job, cores: 0 }], paper)).toThrow(/jobs\[0\]\.cores is 0/);
    expect(() => oasInstance([job], { ...paper, totalCores: 1 })).toThrow(/platform.totalCores/);
  });
  it("the default horizon is the best slotted list schedule's makespan", () => {
    const jobs = Array.from({ length: 5 }, (_, i) =>
      createJob({ id: i, submit: 0, runtime: 50 + 31 * i, cores: 1 + ((i * 2) % 5) }),
    );
    const profile = (): OasProfile => ({ sigma: 0.7, ptbw: 20e6 });
    const { eta, theta } = oasSlotDefaults(jobs, paper, { profile });
    // eta: half the mean base time, (50 + 81 + 112 + 143 + 174) / 5 / 2
    expect(eta).toBe(56);
    const spans = OAS_RULES.map((rule) => {
      const s = slottedListSchedule(jobs, paper, ruleOrder(rule, jobs), {
        eta,
        theta: 1000,
        profile,
      });
      return s!.reduce((m, a) => Math.max(m, a.startSlot + a.slots), 0);
    });
    expect(theta).toBe(Math.min(...spans));
  });
  it("a job that saturates a link alone is infeasible with links, placed without them", async () => {
    // 3 tasks need 2 clusters; 200 MB/s per task saturates any split
    const jobs = [createJob({ id: 4, submit: 0, runtime: 50, cores: 3 })];
    const profile = (): OasProfile => ({ sigma: 0.5, ptbw: 200e6 });
    for (const formulation of FORMULATIONS) {
      const r = await solveOas(jobs, paper, { eta: 50, theta: 4, profile, formulation });
      expect(r.status).toBe("infeasible");
      const blind = await solveOas(jobs, paper, {
        eta: 50,
        theta: 4,
        profile,
        formulation,
        links: false,
      });
      expect(blind.status).toBe("optimal");
      // split over two or three clusters, 2 slots: every link it uses over 125 MB/s in both
      const bad = checkOasSchedule(jobs, paper, blind.schedule, { eta: 50, profile });
      expect(bad.length).toBeGreaterThanOrEqual(4);
      for (const m of bad) expect(m).toMatch(/^link \d slot [01]: .* > 125000000 \(22\)$/);
    }
  });
  it("stops a configuration build that would explode, naming the way out", () => {
    const wide = multiClusterPlatform(Array.from({ length: 8 }, () => ({ nodes: 8 })));
    const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 30 })];
    expect(() => buildOasModel(jobs, wide, { eta: 10, theta: 2, maxConfigurations: 1000 })).toThrow(
      LimitExceededError,
    );
    expect(() => buildOasModel(jobs, wide, { eta: 10, theta: 2, maxConfigurations: 1000 })).toThrow(
      /job 1 has \d+ configurations .* use formulation "resources"/,
    );
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
        for (const formulation of FORMULATIONS) {
          const r = await solveOas(jobs, platform, { eta, theta, profile, formulation });
          if (brute.makespanSlots === null) {
            expect(r.status).toBe("infeasible");
            continue;
          }
          expect(r.status).toBe("optimal");
          expect(r.makespanSlots).toBe(brute.makespanSlots);
          expect(checkOasSchedule(jobs, platform, r.schedule, { eta, theta, profile })).toEqual([]);
          // With the warm start, the horizon shrunk to it (and, for the resource form, the
          // symmetry rows): the same optimum, theta = the warm start's slots.
          const warm = await solveOas(jobs, platform, {
            eta,
            theta,
            profile,
            formulation,
            warmStart: true,
          });
          expect(warm.status).toBe("optimal");
          expect(warm.makespanSlots).toBe(brute.makespanSlots);
          expect(warm.theta).toBe(Math.min(theta, warm.warmStartSlots!));
          expect(checkOasSchedule(jobs, platform, warm.schedule, { eta, theta, profile })).toEqual(
            [],
          );
        }
        if (brute.makespanSlots === null) return;
        expect(checkOasSchedule(jobs, platform, brute.schedule!, { eta, theta, profile })).toEqual(
          [],
        );
      }),
      { numRuns: 25 },
    );
  }, 60_000);

  it("the two formulations agree on larger instances (same optimum, both schedules valid)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            runtime: fc.integer({ min: 20, max: 150 }),
            cores: fc.integer({ min: 1, max: 6 }),
            sigma: fc.constantFrom(0.5, 0.8, 1),
            ptbw: fc.constantFrom(0, 30e6, 70e6),
          }),
          { minLength: 3, maxLength: 4 },
        ),
        async (specs) => {
          const jobs = specs.map((j, i) =>
            createJob({ id: i, submit: 0, runtime: j.runtime, cores: j.cores }),
          );
          const profile = (job: Job): OasProfile => ({
            sigma: specs[job.id]!.sigma,
            ptbw: specs[job.id]!.ptbw,
          });
          const eta = 60;
          const [c, r] = await Promise.all(
            FORMULATIONS.map((formulation) => solveOas(jobs, paper, { eta, profile, formulation })),
          );
          expect(c!.theta).toBe(r!.theta);
          expect(c!.status).toBe(r!.status);
          expect(c!.makespanSlots).toBe(r!.makespanSlots);
          for (const x of [c!, r!]) {
            if (x.status === "optimal") {
              expect(checkOasSchedule(jobs, paper, x.schedule, { eta, profile })).toEqual([]);
            }
          }
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);
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

  it("the configuration form's LP text, hand-worked (rows 12/15/16, 9/17/19, 10/11/13/14, work per class)", () => {
    // Classes: g0 = cluster 0's two speed-1 nodes, g1 = cluster 1's speed-0.5 node; eta 10,
    // theta 3. Job 0 (1 task, 10 s): on g1 20 s = 2 slots (config 0, starts 0-1), on g0 1 slot
    // (config 1, starts 0-2). Job 1 (2 tasks, 20 s): 1 + 1 is SP 2, 4 slots > theta, dropped;
    // 2 on g0 is 2 slots (config 0, starts 0-1). cmax >= (s + p) x; per class and slot the tasks
    // running <= its size; size * cmax >= tasks x slots; cmax in [2 (the longest job), theta].
    const p = multiClusterPlatform([{ nodes: 2 }, { nodes: 1, speed: 0.5 }]);
    const jobs = [
      createJob({ id: 1, submit: 0, runtime: 10, cores: 1 }),
      createJob({ id: 2, submit: 0, runtime: 20, cores: 2 }),
    ];
    const m = buildOasModel(jobs, p, { eta: 10, theta: 3 });
    const rows = m.lp.slice(m.lp.indexOf("Subject To"), m.lp.indexOf("Binary"));
    expect(rows.split("\n")).toEqual([
      "Subject To",
      " one_0: + x_0_0_0 + x_0_0_1 + x_0_1_0 + x_0_1_1 + x_0_1_2 = 1",
      " fin_0: cmax - 2 x_0_0_0 - 3 x_0_0_1 - x_0_1_0 - 2 x_0_1_1 - 3 x_0_1_2 >= 0",
      " one_1: + x_1_0_0 + x_1_0_1 = 1",
      " fin_1: cmax - 2 x_1_0_0 - 3 x_1_0_1 >= 0",
      " cap_0_0: + x_0_1_0 + 2 x_1_0_0 <= 2",
      " cap_0_1: + x_0_1_1 + 2 x_1_0_0 + 2 x_1_0_1 <= 2",
      " cap_0_2: + x_0_1_2 + 2 x_1_0_1 <= 2",
      " cap_1_0: + x_0_0_0 <= 1",
      " cap_1_1: + x_0_0_0 + x_0_0_1 <= 1",
      " cap_1_2: + x_0_0_1 <= 1",
      " en_0: 2 cmax - x_0_1_0 - x_0_1_1 - x_0_1_2 - 4 x_1_0_0 - 4 x_1_0_1 >= 0",
      " en_1: 1 cmax - 2 x_0_0_0 - 2 x_0_0_1 >= 0",
      "Bounds",
      " 2 <= cmax <= 3",
      "",
    ]);
    expect([m.variables, m.constraints]).toEqual([8, 12]);
  });
  it("groups identical resources by cluster and speed", () => {
    const inst = oasInstance([], paper);
    expect(identicalGroups(inst)).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });

  it("HiGHS accepts the (relabelled) warm start: a one-node solve never returns worse than it", async () => {
    // With 90 s slots the list schedule's warm start takes 5 slots and the optimum 4, so the one
    // node has something to improve; 60 s slots cost 3 s more per run with the same check.
    const jobs = Array.from({ length: 6 }, (_, i) =>
      createJob({ id: i, submit: 0, runtime: 40 + 23 * i, cores: 1 + (i % 4) }),
    );
    const profile = (): OasProfile => ({ sigma: 0.6, ptbw: 30e6 });
    for (const formulation of FORMULATIONS) {
      const r = await solveOas(jobs, paper, {
        eta: 90,
        maxNodes: 1,
        profile,
        formulation,
        warmStart: true,
      });
      expect(["optimal", "feasible"]).toContain(r.status);
      expect(r.warmStart).not.toBeNull();
      expect(r.makespanSlots!).toBeLessThanOrEqual(r.warmStartSlots!);
      expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 90, profile })).toEqual([]);
    }
  });

  it("a one-node resource-form solve keeps the warm start it could not find alone", async () => {
    // Four jobs in 60 s slots: on one node, the resource form finds no schedule of its own
    // within the default horizon (8 slots, the best list schedule's), so the warm start is the
    // schedule it returns, or a better one.
    const jobs = [
      [89, 2],
      [83, 5],
      [47, 5],
      [98, 3],
    ].map(([runtime, cores], id) => createJob({ id, submit: 0, runtime: runtime!, cores: cores! }));
    const r = await solveOas(jobs, paper, {
      eta: 60,
      maxNodes: 1,
      formulation: "resources",
      warmStart: true,
    });
    expect([r.status, r.theta, r.warmStartSlots]).toEqual(["feasible", 8, 8]);
    expect(r.makespanSlots).toBe(8);
    expect(checkOasSchedule(jobs, paper, r.schedule, { eta: 60, theta: 8 })).toEqual([]);
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
    await expect(
      solveOas(jobs, paper, { eta: 30, incumbents: [clash], warmStart: true }),
    ).rejects.toThrow(/options.incumbents\[0\] is not feasible/);
  });

  it("picks the warm start by score, ties by fewer slots then the first; ignores a candidate longer than theta", async () => {
    // Two 2-task jobs of 60 s, 30 s slots: side by side in 3 slots (one on the speed-1 nodes,
    // 2 slots, the other on the 0.75 ones, 3 slots), which every list schedule finds; one after
    // the other on the fast nodes in 4 (the incumbent).
    const jobs = [1, 2].map((id) => createJob({ id, submit: 0, runtime: 60, cores: 2 }));
    const fast = [
      { machine: 0, cores: 1 },
      { machine: 1, cores: 1 },
    ];
    const serial = [
      { jobId: 1, startSlot: 0, slots: 2, allocation: fast },
      { jobId: 2, startSlot: 2, slots: 2, allocation: fast },
    ];
    const options = { eta: 30, theta: 4, incumbents: [serial], warmStart: true, maxNodes: 1 };
    // every candidate scores 0: the fewest slots win, and among those the first (list FCFS)
    const tie = await solveOas(jobs, paper, { ...options, warmStartScore: () => 0 });
    expect([tie.warmStartSlots, tie.warmStartSource, tie.theta]).toEqual([3, "list FCFS", 3]);
    // a score that prefers the incumbent takes it, and the horizon shrinks to it
    const prefer = (s: readonly unknown[]) => (s === serial ? 0 : 1);
    const inc = await solveOas(jobs, paper, { ...options, warmStartScore: prefer });
    expect([inc.warmStartSlots, inc.warmStartSource, inc.theta]).toEqual([4, "incumbent 0", 4]);
    expect(inc.warmStart).toBe(serial);
    // ... unless it does not fit the horizon: with theta 3 it is not a candidate
    const short = await solveOas(jobs, paper, { ...options, theta: 3, warmStartScore: prefer });
    expect([short.warmStartSlots, short.warmStartSource]).toEqual([3, "list FCFS"]);
    // tightenHorizon: false keeps the given theta
    const kept = await solveOas(jobs, paper, { ...options, tightenHorizon: false });
    expect([kept.warmStartSlots, kept.theta, kept.makespanSlots]).toEqual([3, 4, 3]);
  });
});
