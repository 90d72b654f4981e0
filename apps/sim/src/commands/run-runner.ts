import type { Job, JobRecord, Simulation, SimulationSummary } from "@sched/core";
import { ParseError } from "@sched/core";
import type { SwfCleanupReport, SwfHeader } from "@sched/workload";
import type { StreamedFile } from "../atomic.js";
import type { JobColumns, PooledSimulation } from "../fast/pooled-simulation.js";
import { MAX_PROCS } from "../limits.js";
import { JOBS_CSV_HEADER, jobsCsvLine } from "../outputs.js";
import type { OptionValues } from "../scheduler-options.js";
import { UsageError } from "../usage-error.js";
import { requireJobs } from "./require-jobs.js";

// What both of `run`'s paths share: the pooled one (./run-core.ts) and the general one
// (./run-general.ts, loaded only when used).

/** `--max-stalled-events` and `--max-events`, when given: the general engine's guards. */
export interface Guards {
  readonly maxStalledEvents: number | undefined;
  readonly maxEvents: number | undefined;
}

/** The policy of a run, and the engine that simulates it. */
export interface RunPolicy {
  /** The registry name (`metrics.json`'s `run.scheduler`). */
  readonly name: string;
  readonly options: OptionValues;
  /** The table's label. */
  readonly label: string;
  /** Whether {@link RunPolicy.simulation} is the pooled kernel (which takes columns). */
  readonly pooled: boolean;
  /**
   * A simulation on `procs` processors passing each record to `onRecord` (when given), with the
   * engine's guards `--max-stalled-events` and `--max-events` (when given: general engine only).
   */
  readonly simulation: (
    procs: number,
    onRecord: ((r: JobRecord) => void) | null,
    guards: Guards,
  ) => Simulation;
}

/** What `run` reads and simulates with. */
export interface RunInput {
  readonly clean: boolean;
  readonly estimate: "requested" | "runtime";
  /** `--procs`, when given. */
  readonly procs: number | undefined;
  /** The command's options, for the hints of {@link requireJobs}. */
  readonly commandOptions: readonly string[];
  /** `--max-stalled-events` and `--max-events`, when given: the engine's guards. */
  readonly maxStalledEvents: number | undefined;
  readonly maxEvents: number | undefined;
}

/** A finished run: the summary and what the reading said. */
export interface RunResult {
  readonly summary: SimulationSummary;
  readonly report: SwfCleanupReport;
  readonly procs: number;
  /** Jobs wider than the machine, and the first of them. */
  readonly tooWide: number;
  readonly firstTooWide: TooWide | undefined;
}

/** A job wider than the machine, as the warning names it. */
export interface TooWide {
  readonly id: number;
  readonly cores: number;
}

/** Thrown by {@link streamRun} at the first job submitted before the one read before it. */
export const UNSORTED = Symbol("unsorted");

/** Feeds a simulation with the jobs read, writing each record's row to `jobs.csv`. */
export class Runner {
  private procs: number | undefined;
  private sim: Simulation | null = null;
  private lastSubmit = Number.NEGATIVE_INFINITY;
  private tooWide = 0;
  private firstTooWide: TooWide | undefined;
  /** The header's machine size (MaxProcs, else MaxNodes), and which of the two it is. */
  private declared: number | undefined;
  private declaredBy = "MaxProcs";

  constructor(
    private readonly workload: string,
    private readonly input: RunInput,
    private readonly choice: RunPolicy,
    private readonly csv: StreamedFile | null,
  ) {
    csv?.reset(JOBS_CSV_HEADER);
  }

  header(h: SwfHeader): void {
    this.declared = h.maxProcs ?? h.maxNodes;
    this.declaredBy = h.maxProcs === undefined ? "MaxNodes" : "MaxProcs";
    this.procs = this.input.procs ?? this.declared;
  }

  push(jobs: readonly Job[], checkOrder: boolean): void {
    let last = this.lastSubmit;
    const procs = this.machineSize();
    for (let i = 0; i < jobs.length; i++) {
      const job = jobs[i]!;
      if (checkOrder) {
        if (job.submit < last) throw UNSORTED;
        last = job.submit;
      }
      if (job.cores > procs && this.tooWide++ === 0) this.firstTooWide = job;
    }
    this.lastSubmit = last;
    this.simulation().push(jobs);
  }

  /** {@link Runner.push} of jobs as columns, for the pooled kernel. */
  pushColumns(jobs: JobColumns): void {
    let last = this.lastSubmit;
    const procs = this.machineSize();
    const { submit, cores, count } = jobs;
    for (let i = 0; i < count; i++) {
      if (submit[i]! < last) throw UNSORTED;
      last = submit[i]!;
      if (cores[i]! > procs && this.tooWide++ === 0) {
        this.firstTooWide = { id: jobs.id[i]!, cores: cores[i]! };
      }
    }
    this.lastSubmit = last;
    (this.simulation() as PooledSimulation).pushColumns(jobs);
  }

  end(header: SwfHeader | undefined, report: SwfCleanupReport): RunResult {
    // Nothing to simulate: a table of zero jobs would look like a result (inspect says the same).
    requireJobs("run", this.workload, report.jobs, report, {
      estimate: this.input.estimate,
      commandOptions: this.input.commandOptions,
    });
    if (header !== undefined && this.procs === undefined) this.header(header);
    const summary = this.simulation().end();
    return {
      summary,
      report,
      procs: this.machineSize(),
      tooWide: this.tooWide,
      firstTooWide: this.firstTooWide,
    };
  }

  private machineSize(): number {
    if (
      this.input.procs === undefined &&
      this.declared !== undefined &&
      this.declared > MAX_PROCS
    ) {
      throw new ParseError(
        "run",
        { source: this.workload, field: `header ${this.declaredBy}` },
        `is ${this.declared}, above the ${MAX_PROCS} processors a simulated machine may have; give a smaller one with --procs N`,
      );
    }
    if (this.procs === undefined) {
      throw new UsageError(
        `run: ${this.workload} has no MaxProcs or MaxNodes header line; give the machine size with --procs N`,
        "run",
      );
    }
    return this.procs;
  }

  private simulation(): Simulation {
    if (this.sim === null) {
      const csv = this.csv;
      this.sim = this.choice.simulation(
        this.machineSize(),
        csv === null ? null : (r) => csv.write(jobsCsvLine(r)),
        this.input,
      );
    }
    return this.sim;
  }
}
