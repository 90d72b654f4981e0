import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  clusterLicenses,
  jobCosts,
  knapsack01,
  LicenseClusters,
  mkpExact,
  mkpGreedy,
  preMatch,
} from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const instance = () => ({
  values: [10, 7, 6],
  weights: [
    [4, 3, 3],
    [1, 2, 2],
  ],
  capacities: [6, 4],
});
const jobs = () => [
  { id: 1, licenses: { cad: 1 } },
  { id: 2, licenses: { cad: 1, fem: 1 } },
  { id: 3, licenses: { fem: 1 } },
];
const cases: FuzzCase[] = [
  {
    name: "@sched/knapsack/mkpGreedy",
    params: ["instance", "options"],
    args: () => [instance(), { costs: [1, 2, 3], reweight: true, strategy: "drop" }],
    call: (i, o) => mkpGreedy(i as never, o as never),
  },
  {
    name: "@sched/knapsack/mkpExact",
    params: ["instance", "options"],
    args: () => [instance(), { nodeLimit: 100 }],
    call: (i, o) => mkpExact(i as never, o as never),
  },
  {
    name: "@sched/knapsack/knapsack01",
    params: ["instance", "options"],
    args: () => [
      { values: [60, 100, 120], weights: [10, 20, 30], capacity: 50 },
      { method: "dp", dpCellLimit: 1000, nodeLimit: 100 },
    ],
    call: (i, o) => knapsack01(i as never, o as never),
  },
  {
    name: "@sched/knapsack/clusterLicenses",
    params: ["jobs", "copies"],
    args: () => [jobs(), { cad: 1, fem: 1 }],
    call: (j, c) => clusterLicenses(j as never, c as never),
  },
  {
    name: "@sched/knapsack/LicenseClusters",
    params: ["copies", "jobs", "job", "license", "count"],
    args: () => [{ cad: 1, fem: 1 }, jobs(), { id: 7, licenses: { fem: 2 } }, "cad", 2],
    call: (c, j, job, l, n) => {
      const lc = new LicenseClusters(c as never, j as never);
      lc.add(job as never);
      lc.setCopies(l as never, n as never);
      lc.rho(l as never);
      lc.remove(1);
      return lc.snapshot();
    },
  },
  {
    name: "@sched/knapsack/preMatch",
    params: ["input", "options"],
    args: () => [
      {
        jobs: jobs(),
        copies: { cad: 1, fem: 1 },
        matrix: [
          [5, 0, 3],
          [9, 8, 0],
          [0, 2, 2],
        ],
      },
      { solver: "greedy", greedy: { reweight: false, strategy: "fill" } },
    ],
    call: (i, o) => preMatch(i as never, o as never),
  },
  {
    name: "@sched/knapsack/jobCosts",
    params: ["matrix"],
    args: () => [
      [
        [5, 0, 3],
        [9, 8, 0],
      ],
    ],
    call: (m) => jobCosts(m as never),
  },
  {
    name: "@sched/knapsack/preMatch (costs, exact)",
    params: ["input", "options"],
    args: () => [
      { jobs: jobs(), copies: { cad: 1, fem: 1 }, costs: [3, 5, 2] },
      // the greedy's options too: checked although the exact solver runs
      { solver: "exact", exact: { nodeLimit: 50 }, greedy: { reweight: true, rhoExponent: 1 } },
    ],
    call: (i, o) => preMatch(i as never, o as never),
  },
];

describe("options fuzz: @sched/knapsack ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
