import type { Job, Platform, Scheduler, ScheduleTrace, SchedulingContext } from "@sched/core";
import { computeMetrics } from "@sched/core";
import { Random } from "@sched/random";
import { lublinRecords } from "@sched/workload";

/** The synthetic workload of the Lublin benchmarks. */
export interface LublinBenchOptions {
  /** Number of jobs. */
  readonly jobs: number;
  /** Machine size (and the model's `procs`). */
  readonly procs: number;
  /** Seed of the model and of the estimate / deadline draws. */
  readonly seed: number;
  /** The model's arrival factor (2 = arrivals twice as dense). */
  readonly arrivalFactor: number;
  /** Give every job a deadline (for EDF). */
  readonly deadlines: boolean;
}

/** What the generator saw while it was consumed (filled in as the simulation reads jobs). */
export interface OfferedLoad {
  jobs: number;
  work: number;
  lastSubmit: number;
}

/** A seeded source for the estimate and deadline draws (@sched/random, stream "backfill/bench/lublin"): floats in [0, 1). */
function prng(seed: number): () => number {
  const random = new Random(seed, "backfill/bench/lublin");
  return () => random.next();
}

/**
 * Jobs of the Lublin-Feitelson model (typeless parameter set), streamed one at a time from the
 * lazy `lublinRecords`: never held as an array. The model has no requested times, so the
 * estimate is the run time times a seeded factor uniform in [1, 5) (rounded up), so that jobs end
 * early and conservative's compression runs. With `deadlines`, deadline = submit + estimate ×
 * (1 + slack), slack uniform in [0.25, 1.5] (the convergent paper's range). `load` accumulates
 * the offered work as the simulation reads the jobs.
 */
export function* lublinJobs(o: LublinBenchOptions, load?: OfferedLoad): Generator<Job> {
  const rnd = prng(o.seed ^ 0x5bd1e995);
  for (const r of lublinRecords({
    jobs: o.jobs,
    procs: o.procs,
    seed: o.seed,
    jobTypes: false,
    arrivalFactor: o.arrivalFactor,
  })) {
    const runtime = Math.max(1, r.runTime);
    const estimate = Math.ceil(runtime * (1 + 4 * rnd()));
    const cores = r.allocatedProcs;
    if (load !== undefined) {
      load.jobs++;
      load.work += runtime * cores;
      load.lastSubmit = r.submitTime;
    }
    if (o.deadlines) {
      const slack = 0.25 + 1.25 * rnd();
      yield {
        id: r.jobNumber,
        submit: r.submitTime,
        runtime,
        estimate,
        cores,
        deadline: r.submitTime + Math.ceil(estimate * (1 + slack)),
      };
    } else {
      yield { id: r.jobNumber, submit: r.submitTime, runtime, estimate, cores };
    }
  }
}

/** Wraps a scheduler and counts the waiting jobs it sees at each decision. */
function probing(inner: Scheduler): { scheduler: Scheduler; calls: number; waiting: number } {
  const probe = {
    calls: 0,
    waiting: 0,
    scheduler: {
      name: inner.name,
      reset(p: Platform) {
        inner.reset?.(p);
      },
      schedule(ctx: SchedulingContext) {
        probe.calls++;
        probe.waiting += ctx.view.waiting.length;
        inner.schedule(ctx);
      },
    } as Scheduler,
  };
  return probe;
}

/** One measured run. */
export interface BenchRow {
  readonly label: string;
  readonly jobs: number;
  readonly offeredLoad: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly schedulerMs: number;
  readonly decisions: number;
  /** Waiting jobs seen per decision, averaged over decisions. */
  readonly meanQueue: number;
  readonly meanWait: number;
  readonly utilization: number;
}

/** Every row measured in this worker, in run order. */
export const rows: BenchRow[] = [];

/**
 * Simulates the streamed Lublin workload under one scheduler, measuring wall time
 * (`performance.now`) and the process's CPU time (`process.cpuUsage`, user + system) around
 * `simulate` only; metrics are computed afterwards, outside the timing. Prints one line.
 */
export function measure(
  label: string,
  o: LublinBenchOptions,
  platform: Platform,
  scheduler: Scheduler,
  simulate: (jobs: Iterable<Job>, platform: Platform, s: Scheduler) => ScheduleTrace,
): BenchRow {
  const load: OfferedLoad = { jobs: 0, work: 0, lastSubmit: 0 };
  const probe = probing(scheduler);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const trace = simulate(lublinJobs(o, load), platform, probe.scheduler);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const m = computeMetrics(trace);
  const row: BenchRow = {
    label,
    jobs: load.jobs,
    offeredLoad: load.work / (o.procs * Math.max(1, load.lastSubmit)),
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    schedulerMs: trace.stats.schedulerMs,
    decisions: probe.calls,
    meanQueue: probe.waiting / Math.max(1, probe.calls),
    meanWait: m.meanWait,
    utilization: m.utilization,
  };
  rows.push(row);
  console.log(formatRow(row));
  return row;
}

/** One line of figures: jobs/s and µs/job are by CPU time. */
export function formatRow(r: BenchRow): string {
  const f = (x: number, d = 0) => x.toLocaleString("en-US", { maximumFractionDigits: d });
  return [
    `[lublin] ${r.label}`,
    `jobs ${f(r.jobs)}`,
    `offered load ${f(r.offeredLoad, 2)}`,
    `util ${f(r.utilization, 2)}`,
    `mean queue ${f(r.meanQueue, 1)}`,
    `mean wait ${f(r.meanWait)} s`,
    `wall ${f(r.wallMs)} ms`,
    `cpu ${f(r.cpuMs)} ms`,
    `in schedule ${f(r.schedulerMs)} ms`,
    `decisions ${f(r.decisions)}`,
    `us/decision in schedule ${f((r.schedulerMs * 1000) / Math.max(1, r.decisions), 1)}`,
    `jobs/s (cpu) ${f((r.jobs * 1000) / r.cpuMs)}`,
    `us/job (cpu) ${f((r.cpuMs * 1000) / r.jobs, 1)}`,
  ].join(" | ");
}

/** A policy under benchmark: its label, a fresh scheduler, and whether its jobs need deadlines. */
export interface BenchPolicy {
  readonly label: string;
  readonly make: () => Scheduler;
  readonly deadlines: boolean;
}
