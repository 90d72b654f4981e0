// @ts-check
import { clusterLicenses, knapsack01, mkpExact, mkpGreedy } from "@sched/knapsack";

/** The README's knapsack instances and license clustering. */
export async function compute() {
  const instance = {
    values: [10, 7, 6],
    weights: [
      [4, 3, 3],
      [1, 2, 2],
    ],
    capacities: [6, 4],
  };
  const jobs = [
    { id: 1, licenses: { cad: 1 } },
    { id: 2, licenses: { cad: 1, fem: 1 } },
    { id: 3, licenses: { fem: 1 } },
    { id: 4, licenses: { sim: 1 } },
  ];
  return {
    greedy: mkpGreedy(instance),
    exact: mkpExact(instance),
    zeroOne: knapsack01({ values: [60, 100, 120], weights: [10, 20, 30], capacity: 50 }),
    clusters: clusterLicenses(jobs, { cad: 1, fem: 1, sim: 2 }),
  };
}
