// @ts-check
import { conservative, easy, fcfs } from "@sched/backfill";
import { identicalPool, simulate } from "@sched/core";

/** The README's five jobs under FCFS, EASY and conservative backfilling: each job's start. */
export async function compute() {
  const jobs = [
    { id: 1, submit: 0, runtime: 10, estimate: 10, cores: 2 },
    { id: 2, submit: 1, runtime: 5, estimate: 5, cores: 4 },
    { id: 3, submit: 2, runtime: 9, estimate: 9, cores: 1 },
    { id: 4, submit: 3, runtime: 7, estimate: 7, cores: 1 },
    { id: 5, submit: 3, runtime: 5, estimate: 5, cores: 1 },
  ];
  return [fcfs(), easy(), conservative()].map((policy) => [
    policy.name,
    simulate(jobs, identicalPool(4), policy).records.map((r) => r.intervals[0]?.start),
  ]);
}
