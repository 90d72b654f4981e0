/**
 * Reproduces the shape of Table 1 of the convergent scheduling paper: for each license-ratio bin,
 * the smallest / average / best license usage and the mean time of branch and bound (mkpExact)
 * and of the paper's greedy (mkpGreedy) on the same knapsacks, met while replaying job streams
 * from the paper's generator (100 machines, 40 licenses, 1000 jobs, one arrival every 10 time
 * units). Environment: TABLE1_STREAMS (streams per bin, default 2; the paper used 20),
 * TABLE1_SAMPLES (events sampled per stream, default 8), TABLE1_NODES (mkpExact node limit,
 * default 100000). Results are deterministic; timings depend on the machine and its load.
 */
import { bench, describe } from "vitest";
import { type MkpInstance, mkpExact, mkpGreedy } from "../src/index.js";
import { generateFarm, simulateFarm } from "./farm.js";

const STREAMS = Number(process.env.TABLE1_STREAMS ?? 2);
const SAMPLES = Number(process.env.TABLE1_SAMPLES ?? 8);
const NODE_LIMIT = Number(process.env.TABLE1_NODES ?? 100_000);
const BINS: readonly (readonly [number, number])[] = [
  [0.4, 0.45],
  [0.45, 0.5],
  [0.5, 0.55],
  [0.55, 0.6],
];

interface Outcome {
  readonly ms: number;
  readonly value: number;
  readonly usage: number;
}

type Solver = (inst: MkpInstance) => {
  items: readonly number[];
  value: number;
  optimal: boolean;
  bound?: number;
};

/** Solves every cluster of one event; usage = copies used / copies available over all its critical licenses. */
function run(
  instances: readonly MkpInstance[],
  solve: Solver,
): Outcome & { optimal: boolean; bound: number } {
  let ms = 0;
  let value = 0;
  let used = 0;
  let capacity = 0;
  let optimal = true;
  let bound = 0;
  for (const inst of instances) {
    const start = performance.now();
    const r = solve(inst);
    ms += performance.now() - start;
    value += r.value;
    optimal &&= r.optimal;
    bound += r.bound ?? r.value;
    for (let k = 0; k < inst.capacities.length; k++) {
      capacity += inst.capacities[k] as number;
      for (const i of r.items) used += (inst.weights[k] as ArrayLike<number>)[i] as number;
    }
  }
  return { ms, value, usage: capacity === 0 ? 1 : used / capacity, optimal, bound };
}

const solvers: Record<string, Solver> = {
  exact: (inst) => mkpExact(inst, { nodeLimit: NODE_LIMIT }),
  greedy: (inst) => mkpGreedy(inst),
  greedyRho2: (inst) => mkpGreedy(inst, { rhoExponent: 2 }),
};

const pct = (x: number): string => `${(100 * x).toFixed(1)}`;
const pct2 = (x: number): string => `${(100 * x).toFixed(2)}`;
const allGaps: Record<string, number[]> = { greedy: [], greedyRho2: [] };
const allMs: Record<string, number[]> = { exact: [], greedy: [], greedyRho2: [] };
const mean = (xs: readonly number[]): number =>
  xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const rows: string[] = [];
let midInstance: MkpInstance | undefined;
for (const [b, bin] of BINS.entries()) {
  const results: Record<string, Outcome[]> = { exact: [], greedy: [], greedyRho2: [] };
  const gaps: Record<string, number[]> = { greedy: [], greedyRho2: [] };
  let proven = 0;
  const certified: number[] = [];
  let events = 0;
  let sizes = 0;
  for (let s = 0; s < STREAMS; s++) {
    const farm = generateFarm({
      machines: 100,
      licenses: 40,
      jobs: 1000,
      ratio: bin,
      interArrival: 10,
      seed: 1000 * (b + 1) + s,
    });
    const snapshots = simulateFarm(farm).filter((snap) =>
      snap.instances.some((inst) => Array.from(inst.capacities).some((c) => c > 0)),
    );
    for (let j = 0; j < SAMPLES && snapshots.length > 0; j++) {
      const snap = snapshots[Math.floor(((j + 0.5) * snapshots.length) / SAMPLES)];
      if (snap === undefined) continue;
      events++;
      for (const inst of snap.instances) sizes += inst.values.length;
      if (b === 0 && s === 0 && j === Math.floor(SAMPLES / 2)) midInstance = snap.instances[0];
      const exact = run(snap.instances, solvers.exact as Solver);
      results.exact?.push(exact);
      if (exact.optimal) proven++;
      certified.push(exact.bound === 0 ? 0 : 1 - exact.value / exact.bound);
      for (const name of ["greedy", "greedyRho2"]) {
        const r = run(snap.instances, solvers[name] as Solver);
        results[name]?.push(r);
        gaps[name]?.push(exact.value === 0 ? 0 : 1 - r.value / exact.value);
      }
    }
  }
  const cells = (name: string): string => {
    const rs = results[name] as Outcome[];
    const usage = rs.map((r) => r.usage);
    return `${mean(rs.map((r) => r.ms)).toFixed(2)} | ${pct(Math.min(...usage))} | ${pct(mean(usage))} | ${pct(Math.max(...usage))}`;
  };
  for (const name of ["greedy", "greedyRho2"]) allGaps[name]?.push(...(gaps[name] as number[]));
  for (const name of ["exact", "greedy", "greedyRho2"])
    allMs[name]?.push(...(results[name] as Outcome[]).map((r) => r.ms));
  const exactMs = mean((results.exact as Outcome[]).map((r) => r.ms));
  const share = (name: string): string =>
    pct(mean((results[name] as Outcome[]).map((r) => r.ms)) / exactMs);
  rows.push(
    `| [${(bin[0] * 100).toFixed(0)}-${(bin[1] * 100).toFixed(0)}] | ${events} | ${(sizes / Math.max(1, events)).toFixed(0)} | ${cells("exact")} | ${proven}/${events} | ${pct(mean(certified))} | ${cells("greedy")} | ${pct2(mean(gaps.greedy as number[]))} | ${share("greedy")} | ${cells("greedyRho2")} | ${pct2(mean(gaps.greedyRho2 as number[]))} | ${share("greedyRho2")} |`,
  );
}
console.log(
  [
    `Table 1 shape: ${STREAMS} streams x ${SAMPLES} events per bin, mkpExact nodeLimit ${NODE_LIMIT}; usage and gaps in %, times in ms per event`,
    "",
    "| License ratio | events | jobs/event | B&B time | Sml | Avg | Bst | proven | B&B gap to bound | greedy time | Sml | Avg | Bst | gap | time/B&B | rho^2 time | Sml | Avg | Bst | gap | time/B&B |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `All bins: paper greedy mean gap ${pct2(mean(allGaps.greedy as number[]))}% at ${pct(mean(allMs.greedy as number[]) / mean(allMs.exact as number[]))}% of the B&B time; rhoExponent 2: ${pct2(mean(allGaps.greedyRho2 as number[]))}% at ${pct(mean(allMs.greedyRho2 as number[]) / mean(allMs.exact as number[]))}%.`,
  ].join("\n"),
);

describe("one Table 1 knapsack (license ratio [40-45], mid-stream)", () => {
  const inst = midInstance as MkpInstance;
  bench("mkpGreedy (paper)", () => {
    mkpGreedy(inst);
  });
  bench("mkpGreedy (rhoExponent 2)", () => {
    mkpGreedy(inst, { rhoExponent: 2 });
  });
  bench(
    `mkpExact (nodeLimit ${NODE_LIMIT})`,
    () => {
      mkpExact(inst, { nodeLimit: NODE_LIMIT });
    },
    { iterations: 3, time: 0 },
  );
});
