import { createJob, type Job, simulate } from "@sched/core";
import { Random } from "@sched/random";
import { bench, describe } from "vitest";
import { oasExecutionModel } from "../src/execution.js";
import { bestSplit } from "../src/oas-best-split.js";
import { countCompositions } from "../src/oas-configurations.js";
import { oasHeuristic } from "../src/oas-heuristics.js";
import {
  costOfAllocation,
  groupResources,
  type OasInstance,
  oasInstance,
} from "../src/oas-instance.js";
import {
  type AllocationCandidates,
  candidatesOf,
  MAX_ALLOCATION_SPLITS,
} from "../src/oas-slotted.js";
import { multiClusterPlatform } from "../src/platform.js";
import { cpuMs, median } from "./cpu.js";

// The "exhaustive" candidate set's best allocation for one job: the search the heuristics run
// (bestSplit: thresholds on SP and a program over links x tasks) against enumerating every split
// and scoring each as the heuristics did (where the enumeration stays under its cap). CPU time per
// call, medians of 5 repetitions; then whole link-aware heuristic runs on 8 x 8, union against
// exhaustive.

const platformOf = (clusters: number, nodes: number, equal = false) =>
  multiClusterPlatform(
    Array.from({ length: clusters }, (_, k) => ({
      nodes,
      speed: equal ? 1 : 1 - 0.05 * (k % 4),
      bandwidth: 125e6,
    })),
  );
const profile = () => ({ sigma: 0.6, ptbw: 10e6 });

function enumerated(inst: OasInstance, free: Uint8Array, base: Float64Array): number[] | null {
  const links = inst.platform.links;
  let best: { res: number[]; ct: number; total: number } | null = null;
  for (const res of candidatesOf(inst, 0, free, "exhaustive")) {
    const c = costOfAllocation(inst, 0, groupResources(inst, res));
    let ok = true;
    for (let l = 0; l < links.length && ok; l++)
      if (c.demand[l]! > 0 && base[l]! + c.demand[l]! > links[l]!.bandwidth * (1 + 1e-9))
        ok = false;
    if (!ok) continue;
    const total = c.demand.reduce((a, b) => a + b, 0);
    if (best === null || c.ct < best.ct || (c.ct === best.ct && total < best.total))
      best = { res, ct: c.ct, total };
  }
  return best?.res ?? null;
}

function searched(inst: OasInstance, free: Uint8Array, base: Float64Array): number[] | null {
  const sigma = inst.sigma[0]!;
  return bestSplit(
    inst,
    0,
    free,
    candidatesOf(inst, 0, free, "union"),
    (sp) => sigma * sp + (1 - sigma),
    () => ({ base }),
  );
}

// equal: every cluster alike, so many splits tie on demand (the worst case of the tie-break)
const cases: [clusters: number, nodes: number, tasks: number, equal?: boolean][] = [
  [3, 2, 3],
  [4, 8, 16],
  [8, 8, 6],
  [8, 8, 8],
  [8, 8, 30],
  [8, 8, 64],
  [16, 8, 64],
  [16, 8, 128],
  [8, 8, 20, true],
  [16, 8, 60, true],
];
for (const [clusters, nodes, tasks, equal] of cases) {
  const platform = platformOf(clusters, nodes, equal);
  const inst = oasInstance(
    [createJob({ id: 0, submit: 0, runtime: 100, cores: tasks })],
    platform,
    profile,
  );
  const free = new Uint8Array(clusters * nodes).fill(1);
  // a link half loaded, so the link check binds for wide shares
  const base = new Float64Array(clusters).fill(0);
  base[0] = 100e6;
  const splits = countCompositions(new Array(clusters).fill(nodes), tasks);
  const reps = 5;
  const time = (f: () => unknown, calls: number) => {
    const t: number[] = [];
    for (let r = 0; r < reps; r++)
      t.push(
        cpuMs(() => {
          for (let i = 0; i < calls; i++) f();
        }) / calls,
      );
    return median(t);
  };
  const s = time(() => searched(inst, free, base), 20);
  let line = `${clusters} x ${nodes}${equal ? " (equal)" : ""}, ${tasks}-task job (${splits} splits): search ${s.toFixed(3)} ms/call`;
  if (splits <= MAX_ALLOCATION_SPLITS) {
    const e = time(() => enumerated(inst, free, base), 2);
    const same =
      JSON.stringify(searched(inst, free, base)) === JSON.stringify(enumerated(inst, free, base));
    line += `, enumeration ${e.toFixed(3)} ms/call (x${(e / s).toFixed(1)}), same pick: ${same}`;
  } else line += ", enumeration over its cap";
  console.log(line);
}

// whole runs: 300 jobs of 1-64 tasks on 8 x 8, the six link-aware rules' FCFS
const wide = platformOf(8, 8);
const rng = new Random(11, "bench/allocation-candidates");
const jobs: Job[] = [];
let at = 0;
for (let i = 0; i < 300; i++) {
  at += -Math.log(1 - rng.next()) * 20;
  jobs.push(
    createJob({
      id: i,
      submit: Math.round(at),
      runtime: 50 + Math.floor(rng.next() * 200),
      cores: 1 + Math.floor(rng.next() * 64),
    }),
  );
}
const jobProfile = (job: Job) => ({ sigma: 0.6, ptbw: 2e6 * (1 + (job.id % 5)) });
const run = (reading: AllocationCandidates) =>
  simulate(
    jobs,
    wide,
    oasHeuristic("FCFS", { profile: jobProfile, allocationCandidates: reading }),
    {
      executionModel: oasExecutionModel({ profile: jobProfile }),
    },
  );
for (const reading of ["union", "exhaustive"] as const) {
  const t: number[] = [];
  let end = 0;
  for (let r = 0; r < 3; r++)
    t.push(
      cpuMs(() => {
        end = run(reading).records.reduce((m, x) => Math.max(m, x.end ?? 0), 0);
      }),
    );
  console.log(
    `FCFS, 300 jobs of 1-64 tasks on 8 x 8, ${reading}: median CPU ${median(t).toFixed(0)} ms, makespan ${end.toFixed(0)} s`,
  );
}

describe("exhaustive best allocation", () => {
  const inst = oasInstance(
    [createJob({ id: 0, submit: 0, runtime: 100, cores: 64 })],
    wide,
    profile,
  );
  const free = new Uint8Array(64).fill(1);
  const base = new Float64Array(8);
  bench(
    "search, 64-task job on 8 x 8",
    () => {
      searched(inst, free, base);
    },
    { iterations: 20, warmupIterations: 2, time: 0 },
  );
});
