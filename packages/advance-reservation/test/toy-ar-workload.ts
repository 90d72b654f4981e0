/**
 * A small stand-in for the paper's workload, for tests and benchmarks only (the real one, the
 * Lublin-Feitelson model with LANL-CM5 parameters, belongs to @sched/workload): exponential
 * inter-arrivals of mean `meanGap / arrivalFactor`, sizes 2^round(x) with x two-stage uniform
 * (ULow 4.5, UMed, UHi 10, UProb 0.82), runtimes from the paper's six values, and the paper's
 * ready times and deadlines.
 */
import { createJob, type Job } from "@sched/core";
import { Random } from "@sched/random";

/** The parameters of one stand-in workload (the paper's section 6.1 knobs). */
export interface ToyArParams {
  readonly umed: number;
  readonly arrivalFactor: number;
  readonly artimeFactor: number;
  readonly deadlineFactor: number;
  readonly jobs: number;
  readonly pes: number;
  readonly seed: number;
}

const RUNTIMES = [60, 300, 900, 1800, 3600, 10800];

export function toyArWorkload(params: ToyArParams, meanGap = 600): Job[] {
  const rng = new Random(params.seed, "test/toyArWorkload");
  const r = (): number => rng.next();
  const jobs: Job[] = [];
  const hi = Math.log2(params.pes);
  let arrival = 0;
  for (let id = 0; id < params.jobs; id++) {
    arrival += -Math.log(1 - r()) * meanGap;
    const x = r() < 0.82 ? 4.5 + r() * (params.umed - 4.5) : params.umed + r() * (hi - params.umed);
    const cores = Math.min(params.pes, Math.max(32, 2 ** Math.round(x)));
    const runtime = RUNTIMES[Math.floor(r() * RUNTIMES.length)]!;
    const submit = arrival / params.arrivalFactor;
    const ready = submit + params.artimeFactor * r() * runtime;
    const deadline = ready + (1 + params.deadlineFactor * r()) * runtime;
    jobs.push(createJob({ id, submit, runtime, cores, ready, deadline }));
  }
  return jobs;
}
