import type { ExactMatching } from "@sched/matching";
import { convergentWorkload } from "@sched/workload";
import { bench, describe } from "vitest";
import type { MatrixJob } from "../src/heuristic.js";
import { IncrementalMatrix } from "../src/incremental.js";
import { buildMatrix } from "../src/matrix.js";
import { meetsRequirements } from "../src/minimal-requirements.js";
import { OVERHEAD_NON_PREEMPTIVE } from "../src/overhead.js";
import { PAPER_CONSTANTS, paperHeuristics } from "../src/paper-heuristics.js";
import { PaperIncrementalMatrix } from "../src/paper-incremental.js";
import { makePlan, type Plan, PlanMemory } from "../src/plan.js";

// One scheduling plan at 150 machines with N jobs in the system (the first 150 running, the
// rest queued), as the scheduler computes it at an event:
// - non-incremental (CS_nip, CS_ninp, MIS): P built from scratch (the fused rows of
//   PaperIncrementalMatrix in fresh mode, as the scheduler does), pre-matching, mfs (mis);
// - incremental (CS_ip, CS_inp): the kept matrix updated (PaperIncrementalMatrix, the
//   scheduler's path for the paper's heuristics), pre-matching, imfs with the change hint.
// Each incremental iteration is one event: it alternates between the state with N-1 jobs at
// time t and the state with N jobs (one arrival) at t + 5 s, so every update sees one job
// arrive or leave and 5 s of clock, as between two events of a simulation at T_a = 10.
//
// CS_CPU_TABLE=1 also prints the median CPU time (process.cpuUsage) per plan of each variant
// for N = 100..1500 (the README's table).
const { platform, jobs } = convergentWorkload({ seed: 11, meanInterArrival: 4, jobs: 1501 });
const eligibilityRows = new Map<number, Uint8Array>();
for (const job of jobs) {
  const e = new Uint8Array(platform.machines.length);
  for (let m = 0; m < e.length; m++) if (meetsRequirements(job, platform, m)) e[m] = 1;
  eligibilityRows.set(job.id, e);
}
const eligibility = (r: MatrixJob): Uint8Array => eligibilityRows.get(r.job.id) as Uint8Array;
const variants = [
  { name: "CS_ip", matcher: "imfs", overhead: 8 },
  { name: "CS_inp", matcher: "imfs", overhead: OVERHEAD_NON_PREEMPTIVE },
  { name: "CS_nip", matcher: "mfs", overhead: 8 },
  { name: "CS_ninp", matcher: "mfs", overhead: OVERHEAD_NON_PREEMPTIVE },
  { name: "MIS", matcher: "mis", overhead: 8 },
] as const;
type Variant = (typeof variants)[number];

/** A function computing one plan per call (alternating states for the incremental ones). */
function planner(n: number, v: Variant, generic = false): () => void {
  const now = jobs[n]?.submit as number;
  const rows: MatrixJob[] = jobs.slice(0, n).map((job, i) => ({
    job,
    progress: 0,
    machine: i < platform.machines.length ? i : -1,
  }));
  const heuristics = paperHeuristics({ overhead: v.overhead });
  const states = [
    { now, jobs: rows.slice(0, n - 1) },
    { now: now + 5, jobs: rows },
  ];
  const previousOf = (plan: Plan | undefined, list: readonly MatrixJob[]) =>
    Int32Array.from(list, (r) => {
      if (r.machine >= 0) return r.machine;
      const i = plan?.rowIds.indexOf(r.job.id) ?? -1;
      return i >= 0 ? (plan?.rowToCol[i] ?? -1) : -1;
    });
  if (v.matcher !== "imfs") {
    const input = { ...states[1]!, platform, eligibility, previous: previousOf(undefined, rows) };
    const memory = new PlanMemory();
    if (generic)
      return () => {
        makePlan(buildMatrix(input, heuristics), { matcher: v.matcher, memory });
      };
    // As the scheduler does with the paper's heuristics: the fused from-scratch rows.
    const fresh = new PaperIncrementalMatrix({
      constants: { ...PAPER_CONSTANTS, overhead: v.overhead },
      incremental: false,
    });
    return () => {
      const u = fresh.update(input);
      makePlan(u.matrix, { matcher: v.matcher, costs: u.costs, clearInPlace: true, memory });
    };
  }
  const inc = generic
    ? new IncrementalMatrix({ heuristics })
    : new PaperIncrementalMatrix({
        constants: { ...PAPER_CONSTANTS, overhead: v.overhead },
        tolerance: 0.05,
      });
  let plan: Plan | undefined;
  let k = 0;
  const memory = new PlanMemory();
  const step = () => {
    const s = states[k % 2] as (typeof states)[number];
    k++;
    const u = inc.update({ ...s, platform, eligibility, previous: previousOf(plan, s.jobs) });
    plan = makePlan(u.matrix, {
      matcher: "imfs",
      previous:
        plan === undefined
          ? undefined
          : {
              rowIds: plan.rowIds,
              matching: plan.matching as ExactMatching,
              cleared: plan.cleared,
            },
      changedRows: u.changedRows,
      costs: u.costs,
      clearInPlace: true,
      memory,
    });
  };
  for (let w = 0; w < 4; w++) step(); // settle: the previous plan's machines enter P
  return step;
}

const SIZES = [100, 250, 500, 750, 1000, 1500];

if (process.env.CS_CPU_TABLE === "1") {
  const cpuMs = (f: () => void): number => {
    const t = process.cpuUsage();
    f();
    const d = process.cpuUsage(t);
    return (d.user + d.system) / 1000;
  };
  const lines = [
    `| N jobs | ${variants.map((v) => v.name).join(" | ")} | CS_ip (generic P) | CS_nip (generic P) |`,
  ];
  for (const n of SIZES) {
    const cells: string[] = [];
    for (const [v, generic] of [
      ...variants.map((v) => [v, false] as const),
      [variants[0], true] as const,
      [variants[2], true] as const,
    ]) {
      const f = planner(n, v, generic);
      const t: number[] = [];
      for (let r = 0; r < 15; r++) t.push(cpuMs(f));
      t.sort((a, b) => a - b);
      cells.push((t[7] as number).toFixed(2));
    }
    lines.push(`| ${n} | ${cells.join(" | ")} |`);
  }
  console.log(`median CPU ms per plan (15 plans), 150 machines\n${lines.join("\n")}`);
}

for (const n of SIZES) {
  describe(`one plan, ${n} jobs in the system, 150 machines`, () => {
    for (const v of variants) bench(v.name, planner(n, v), { time: 300, iterations: 5 });
  });
}
