// @ts-check
import { convergentVariant } from "@sched/convergent";
import { computeMetrics, createJob, createPlatform, simulate } from "@sched/core";

/** The README's CS_ip run: each job's intervals and machines, and the deadline miss rate. */
export async function compute() {
  const platform = createPlatform({
    machines: [{ speed: 1 }, { speed: 4 }],
    licenses: [{ name: "cad", copies: 1 }],
  });
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }),
    createJob({ id: 2, submit: 0, runtime: 100, cores: 1, deadline: 40 }),
    createJob({ id: 3, submit: 10, runtime: 20, cores: 1, deadline: 60, licenses: { cad: 1 } }),
  ];
  const trace = simulate(jobs, platform, convergentVariant("CS_ip"));
  return {
    runs: trace.records.map((r) => [
      r.job.id,
      r.intervals.map((iv) => [iv.start, iv.end, iv.allocation[0]?.machine]),
    ]),
    deadlineMissRate: computeMetrics(trace).deadlineMissRate,
  };
}
