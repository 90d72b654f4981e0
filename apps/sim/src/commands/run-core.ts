import { stat } from "node:fs/promises";
import { join } from "node:path";
import {
  createSimulation,
  identicalPool,
  type Job,
  type JobRecord,
  ParseError,
  type Platform,
  type Simulation,
  type SimulationSummary,
} from "@sched/core";
import {
  type JobsFileHeader,
  parsePlatformJson,
  type SwfCleanupReport,
  type SwfHeader,
} from "@sched/workload";
import {
  type CommandSpec,
  choiceValue,
  flag,
  integerValue,
  listOption,
  type ParsedArgs,
  stringOption,
} from "../args.js";
import {
  describeFsError,
  removeLeftTemporaries,
  StreamedFile,
  writeFilesAtomic,
} from "../atomic.js";

import type { Io } from "../command.js";
import {
  countingScheduler,
  explainEventBudget,
  newPolicyActivity,
  type PolicyActivity,
} from "../event-budget.js";
import {
  createPooledSimulation,
  type JobColumns,
  type PooledPolicy,
  type PooledSimulation,
  pooledModels,
} from "../fast/pooled-simulation.js";
import { scanSwf } from "../fast/swf-scan.js";
import { inCallersWords } from "../hints.js";
import { JobsCsvWriter } from "../jobs-csv-writer.js";
import { MAX_JSON_BYTES, MAX_PROCS, STREAMED_TRACE_LIMITS } from "../limits.js";
import { checkSummaryNoLostJobs, LostJobsNote } from "../lost-jobs.js";
import { checkOutPath } from "../out-path.js";
import { JOBS_CSV_HEADER, metricsJson, metricsTable, timingJson } from "../outputs.js";
import { isPolicyModule, loadPolicyModule } from "../policy-module.js";
import { printable } from "../printable.js";
import { RejectionTally } from "../rejections.js";
import { PROGRESS_OPTIONS, type RunProgress, runProgress } from "../run-progress.js";
import { type OptionValues, optionsForReport } from "../scheduler-options.js";
import {
  bySubmitThenId,
  cleanupReportText,
  openJobBatches,
  readSwfWorkload,
  readTextFile,
  streamSwfWorkload,
} from "../swf-input.js";
import { UsageError } from "../usage-error.js";
import { inCommand } from "../user-message.js";
import { VERSION } from "../version.js";
import { headerProcs, requireJobs } from "./trace-files.js";

/** The files `run --out DIR` writes. */
const RUN_OUTPUTS = ["jobs.csv", "metrics.json", "timing.json"] as const;

/**
 * `sched-sim run`'s syntax; its help adds the list of schedulers (`./run.ts`), which this module
 * does not load: a run of `easy` or `fcfs` on the pooled engine never loads the registry of
 * policies (nor HiGHS, nor the packages behind it).
 */
export const RUN_SPEC: CommandSpec = {
  name: "run",
  summary:
    "Run one policy on a workload (SWF trace or native JSON Lines) and print (and optionally write) its metrics.",
  description:
    "Reads the trace as a stream (gzip recognised by its content), converts it to jobs (size =\n" +
    "allocated processors, or requested when unknown; estimate = requested time), simulates it\n" +
    "on N identical single-processor machines as it reads, and prints the metrics. N is\n" +
    "--procs, else the header's MaxProcs, else its MaxNodes. Memory holds the jobs in flight,\n" +
    "not the trace (a trace not sorted by submit time is read whole and sorted first).\n\n" +
    "A native workload (.jsonl, plain or gzipped: what 'sched-sim gen' writes) keeps every job\n" +
    "field (deadlines, licences, benchmarks); --platform FILE (the JSON 'gen --platform' writes)\n" +
    "gives its machines, else --procs N, else the header's meta.procs, identical single-processor\n" +
    "machines. --platform works for an SWF trace too. A run with --platform uses the general\n" +
    "engine (--engine pooled is refused with it, and refuses native jobs with ready times,\n" +
    "deadlines, licences or benchmarks); --clean and --estimate are for SWF input.\n\n" +
    "With --out DIR it writes DIR/jobs.csv (row by row, as jobs end), DIR/metrics.json\n" +
    "(deterministic: the same run gives the same bytes) and DIR/timing.json (wall clock),\n" +
    "atomically (all or nothing; a failed run leaves files already there untouched).\n\n" +
    "--engine auto (the default) simulates easy and fcfs with default options (no --opt, nor\n" +
    "--max-events or --max-stalled-events, which they can never reach) on the pooled engine, a\n" +
    "kernel for one pool of identical processors that gives the same outputs, byte for byte, as\n" +
    "the general engine, faster; a native workload goes back to the general engine, from its\n" +
    "start, at its first job with a ready time, deadline, licences or benchmark; every other run\n" +
    "on the general engine.\n" +
    "--engine general always uses the general engine; --engine pooled insists on the kernel and\n" +
    "is refused for a run it does not model.\n\n" +
    "A run that ends with jobs neither completed nor rejected, with nothing left to happen (the\n" +
    "policy forgot them, or waits without a timer), fails (exit 1) naming how many and the first\n" +
    "ids, and writes no --out files.",
  options: [
    {
      name: "scheduler",
      short: "s",
      type: "string",
      arg: "NAME|FILE",
      description:
        "Policy to run (default fcfs), or an ES module of yours (a path, or a name ending in .js/.mjs) whose default export is a scheduler or a function of the --opt values returning one.",
    },
    {
      name: "opt",
      type: "string",
      arg: "KEY=VALUE",
      multiple: true,
      description: "An option of the policy.",
    },
    {
      name: "workload",
      short: "w",
      type: "string",
      arg: "FILE",
      description:
        "SWF trace (.swf) or native JSON Lines (.jsonl, what gen writes), plain or gzipped (required).",
    },
    {
      name: "procs",
      short: "p",
      type: "string",
      arg: "N",
      description:
        "Identical processors (default: SWF header MaxProcs, else MaxNodes; native header meta.procs).",
    },
    {
      name: "platform",
      type: "string",
      arg: "FILE",
      description:
        "The machines, as JSON (what gen --platform writes); not with --procs; general engine.",
    },
    {
      name: "clean",
      type: "boolean",
      description:
        "SWF only. Conventional clean-up: drop jobs with run time, size or requested time <= 0, cap run time at requested time; report to stderr.",
    },
    {
      name: "estimate",
      type: "string",
      arg: "requested|runtime",
      description: "SWF only. Job estimates: requested time (default) or exact run time.",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "DIR",
      description: "Write DIR/jobs.csv, DIR/metrics.json and DIR/timing.json.",
    },
    {
      name: "format",
      type: "string",
      arg: "table|json",
      description: "Stdout format (default table; json prints metrics.json).",
    },
    {
      name: "max-stalled-events",
      type: "string",
      arg: "N",
      description:
        "Stop a policy that makes no progress (no job arrives, runs, ends or is rejected) in N schedule calls in a row (default 100000).",
    },
    {
      name: "max-events",
      type: "string",
      arg: "N",
      description: "Stop a run after N events (default 1000000 + 1000 per job read).",
    },
    {
      name: "engine",
      type: "string",
      arg: "auto|general|pooled",
      description:
        "Simulation engine (default auto: pooled for easy and fcfs with default options and guards, else general); both give the same outputs.",
    },
    ...PROGRESS_OPTIONS,
  ],
  positionals: [],
  examples: [
    "sched-sim run --scheduler fcfs --workload KTH-SP2-1996-2.1-cln.swf --clean --out out/kth",
    "sched-sim run -w NASA-iPSC-1993-3.1-cln.swf.gz --clean --estimate runtime --format json",
    "sched-sim run -s easy -w farm.jsonl --platform farm.json --out out/farm",
  ],
};

/** `--max-stalled-events` and `--max-events`, when given: the general engine's guards. */
interface Guards {
  readonly maxStalledEvents: number | undefined;
  readonly maxEvents: number | undefined;
}

/** The policies the pooled engine runs, with default options. */
const POOLED: readonly string[] = ["easy", "fcfs"];

/** The policy of a run, and the engine that simulates it. */
interface RunPolicy {
  /** The registry name (`metrics.json`'s `run.scheduler`). */
  readonly name: string;
  readonly options: OptionValues;
  /** The table's label. */
  readonly label: string;
  /** Whether {@link RunPolicy.simulation} is the pooled kernel (which takes columns). */
  readonly pooled: boolean;
  /**
   * A simulation on `platform` (general engine), else on `procs` identical processors, passing each record to `onRecord` (when given), with the
   * engine's guards `--max-stalled-events` and `--max-events` (when given: general engine only);
   * the general engine's policy counts what it does into `activity`.
   */
  readonly simulation: (
    procs: number,
    platform: Platform | undefined,
    onRecord: ((r: JobRecord) => void) | null,
    guards: Guards,
    activity: PolicyActivity,
  ) => Simulation;
  /**
   * With `--engine auto` on a native workload: the same policy on the general engine, for a
   * run that meets a job the pooled kernel does not model (a ready time, deadline, licences or
   * a benchmark); undefined otherwise.
   */
  readonly general?: () => Promise<RunPolicy>;
}

/**
 * The policy `--scheduler` and `--opt` name, on the engine `--engine` asks for: the pooled
 * kernel for `easy` and `fcfs` without options (unless `--engine general`; on `nativeInput`
 * with `--engine auto`, with the general engine as `general`, for jobs the kernel does not
 * model), else the general engine on the platform or `identicalPool(procs)`;
 * `generalOnly` (when not null) says why `--engine pooled` is refused. The registry (every package's policies) is loaded only for
 * the general engine.
 */
async function runPolicy(
  args: ParsedArgs,
  generalOnly: string | null,
  nativeInput: boolean,
): Promise<RunPolicy> {
  const engine = choiceValue("run", "engine", stringOption(args, "engine") ?? "auto", [
    "auto",
    "general",
    "pooled",
  ] as const);
  const name = stringOption(args, "scheduler") ?? "fcfs";
  const opts = listOption(args, "opt");
  const module = isPolicyModule(name);
  // Given guards are the general engine's (EASY and FCFS never reach the default ones).
  const guarded =
    stringOption(args, "max-events") !== undefined ||
    stringOption(args, "max-stalled-events") !== undefined;
  if (generalOnly !== null && engine === "pooled") {
    throw new UsageError(
      `run: option --engine pooled: ${generalOnly}; use --engine auto or general`,
      "run",
    );
  }
  if (module && engine === "pooled") {
    throw new UsageError(
      "run: option --engine pooled: a policy module runs on the general engine; use --engine auto or general",
      "run",
    );
  }
  const general = engine === "general";
  if (
    generalOnly === null &&
    !module &&
    POOLED.includes(name) &&
    opts.length === 0 &&
    !guarded &&
    !general
  ) {
    const policy = name as PooledPolicy;
    return {
      name,
      options: {},
      label: name,
      pooled: true,
      simulation: (procs, _platform, onRecord) =>
        createPooledSimulation(onRecord === null ? { policy, procs } : { policy, procs, onRecord }),
      // Native jobs may carry what the kernel does not model: then the general engine, which
      // gives the same outputs (tested), runs it again from the start.
      ...(engine === "auto" && nativeInput
        ? { general: () => runPolicy(withEngine(args, "general"), generalOnly, nativeInput) }
        : {}),
    };
  }
  const choice = module
    ? await loadPolicyModule(name, opts, "run")
    : (await import("../schedulers.js")).chooseScheduler(name, opts, "run");
  if (engine === "pooled") {
    const why = !POOLED.includes(name)
      ? `it runs ${POOLED.join(" and ")} only, not '${name}'`
      : opts.length > 0
        ? `it runs ${name} with default options only (no --opt)`
        : "it runs with the engine's default guards only (no --max-events or --max-stalled-events)";
    throw new UsageError(
      `run: option --engine pooled: ${why}; use --engine auto or general`,
      "run",
    );
  }
  return {
    name: choice.entry.name,
    options: choice.options,
    label: choice.label,
    pooled: false,
    simulation: (procs, platform, onRecord, guards, activity) =>
      createSimulation(
        platform ?? identicalPool(procs),
        countingScheduler(choice.entry.create(choice.options), activity),
        {
          ...(onRecord === null ? {} : { onRecord }),
          ...(guards.maxStalledEvents === undefined
            ? {}
            : { maxStalledEvents: guards.maxStalledEvents }),
          ...(guards.maxEvents === undefined ? {} : { maxEvents: guards.maxEvents }),
        },
      ),
  };
}

/** `args` with `--engine` set to `engine`. */
function withEngine(args: ParsedArgs, engine: string): ParsedArgs {
  return { ...args, values: { ...args.values, engine } };
}

/** `sched-sim run` without its help (see `./run.ts`): reads, simulates, writes. */
export async function runRun(args: ParsedArgs, io: Io): Promise<number> {
  // Wall clock by `process.hrtime` (`performance.now()` would load `perf_hooks` for it).
  const started = process.hrtime.bigint();
  const workload = stringOption(args, "workload");
  if (workload === undefined) {
    throw new UsageError("run: option --workload FILE is required", "run");
  }
  const native = isNative(workload);
  const platformPath = stringOption(args, "platform");
  const procsText = stringOption(args, "procs");
  if (platformPath !== undefined && procsText !== undefined) {
    throw new UsageError(
      "run: options --platform and --procs: give one (the platform file says how many processors it has)",
      "run",
    );
  }
  const clean = flag(args, "clean");
  if (native) {
    for (const [option, given] of [
      ["clean", clean],
      ["estimate", stringOption(args, "estimate") !== undefined],
    ] as const) {
      if (given) {
        throw new UsageError(
          `run: option --${option}: applies to SWF input only; ${workload} is a native workload, whose jobs carry their own run time and estimate`,
          "run",
        );
      }
    }
  }
  let choice = await runPolicy(
    args,
    platformPath !== undefined
      ? "the pooled kernel models one pool of identical processors, not the machines of --platform"
      : null,
    native,
  );
  const procsOption =
    procsText === undefined ? undefined : integerValue("run", "procs", procsText, 1, MAX_PROCS);
  const estimate = choiceValue("run", "estimate", stringOption(args, "estimate") ?? "requested", [
    "requested",
    "runtime",
  ] as const);
  const format = choiceValue("run", "format", stringOption(args, "format") ?? "table", [
    "table",
    "json",
  ] as const);
  const out = stringOption(args, "out");
  const stalledText = stringOption(args, "max-stalled-events");
  const maxStalledEvents =
    stalledText === undefined
      ? undefined
      : integerValue("run", "max-stalled-events", stalledText, 1, Number.MAX_SAFE_INTEGER);
  const eventsText = stringOption(args, "max-events");
  const maxEvents =
    eventsText === undefined
      ? undefined
      : integerValue("run", "max-events", eventsText, 0, Number.MAX_SAFE_INTEGER);
  const progress = runProgress(args, io, "run");
  await checkFile(workload);
  const platform = platformPath === undefined ? undefined : await readPlatform(platformPath);
  if (out !== undefined) {
    await checkOutPath("run", "out", out, "dir");
    await removeLeftTemporaries(out, RUN_OUTPUTS);
  }

  const commandOptions = RUN_SPEC.options.map((o) => o.name);
  const input: RunInput = {
    clean,
    estimate,
    procs: procsOption,
    platform,
    commandOptions,
    maxStalledEvents,
    maxEvents,
    progress,
  };
  const csv = out === undefined ? null : await StreamedFile.create(join(out, "jobs.csv"));
  try {
    // The pooled kernel reads SWF files (plain or gzipped) with its byte scanner; any other
    // file, and any file the scanner leaves (see scanSwfFile), goes through the general reader.
    let run: RunResult | "unsorted" | "general" | null =
      choice.pooled && !native ? await scanRun(workload, input, choice, csv) : null;
    if (run === null) {
      run = native
        ? await nativeRun(workload, input, choice, csv, true)
        : await streamRun(workload, input, choice, csv);
    }
    progress?.end();
    if (run === "general") {
      // A native job the pooled kernel does not model: the whole run on the general engine.
      choice = await choice.general!();
      run = await nativeRun(workload, input, choice, csv, true); // its Runner resets jobs.csv
      progress?.end();
    }
    if (run === "unsorted") {
      io.stderr(
        `sched-sim: note: ${workload} is not sorted by submit time; sorting it (by submit, then id)\n`,
      );
      run = native
        ? await nativeRun(workload, input, choice, csv, false)
        : await sortedRun(workload, input, choice, csv);
      progress?.end();
      if (run === "general") {
        choice = await choice.general!();
        run = await nativeRun(workload, input, choice, csv, false);
        progress?.end();
      }
    }
    // The general engine's choice has no `general`, and a sorted run is never "unsorted".
    if (typeof run === "string") throw new Error(`internal: the run ended as "${run}"`);
    const { report, summary, procs, tooWide, firstTooWide, rejections } = run;
    if (clean && report !== undefined) io.stderr(cleanupReportText(report, clean));
    if (tooWide > 0) {
      io.stderr(
        `sched-sim: warning: ${tooWide} job(s) need more than the ${procs} processors (the first is job ${firstTooWide?.id} with ${firstTooWide?.cores}); the @sched/backfill policies reject them\n`,
      );
    }
    // Rejections the warning above does not already account for.
    if (rejections !== null && rejections.rejected > tooWide) {
      io.stderr(`sched-sim: note: ${rejections.note(choice.label, summary.jobs)}\n`);
    }
    const metrics = summary.metrics!;
    const json = metricsJson(summary.stats, metrics, {
      scheduler: choice.name,
      schedulerOptions: optionsForReport(choice.options),
      workload,
      ...(platformPath === undefined ? {} : { platform: platformPath }),
      procs,
      clean,
      version: VERSION,
    });
    if (out !== undefined) {
      await writeFilesAtomic(
        new Map<string, string | StreamedFile>([
          [join(out, "jobs.csv"), csv!],
          [join(out, "metrics.json"), json],
          [
            join(out, "timing.json"),
            timingJson(summary.stats, Number(process.hrtime.bigint() - started) / 1e6),
          ],
        ]),
      );
    }
    if (format === "json") io.stdout(json);
    else {
      const on =
        platform === undefined
          ? `${procs} processors`
          : `${platformPath} (${platform.machines.length} machines, ${procs} processors)`;
      io.stdout(`${workload}: ${summary.jobs} jobs on ${on}\n\n`);
      io.stdout(metricsTable([{ label: choice.label, metrics }]));
    }
    // On stderr; a blank line keeps it off the table when both streams land in one file or pipe.
    if (out !== undefined)
      io.stderr(
        `${format === "json" ? "" : "\n"}wrote ${printable(`${join(out, "jobs.csv")}, ${join(out, "metrics.json")} and ${join(out, "timing.json")}`)}\n`,
      );
    return 0;
  } catch (error) {
    progress?.end();
    csv?.discard();
    // The library's hint speaks of its API; on the command line the same switch is --clean.
    throw inCommand(inCallersWords(error, { command: "run", options: commandOptions }), "run");
  }
}

/** What `run` reads and simulates with. */
interface RunInput {
  readonly clean: boolean;
  readonly estimate: "requested" | "runtime";
  /** `--procs`, when given. */
  readonly procs: number | undefined;
  /** `--platform`'s machines, when given. */
  readonly platform: Platform | undefined;
  /** The command's options, for the hints of {@link requireJobs}. */
  readonly commandOptions: readonly string[];
  /** `--max-stalled-events` and `--max-events`, when given: the engine's guards. */
  readonly maxStalledEvents: number | undefined;
  readonly maxEvents: number | undefined;
  /** The progress line's counts (`--progress`), or null. */
  readonly progress: RunProgress | null;
}

/** A finished run: the summary and what the reading said. */
interface RunResult {
  readonly summary: SimulationSummary;
  /** SWF input: what the reading dropped or changed. */
  readonly report: SwfCleanupReport | undefined;
  readonly procs: number;
  /** Jobs wider than the machine, and the first of them. */
  readonly tooWide: number;
  readonly firstTooWide: TooWide | undefined;
  /** The rejected jobs by reason (general engine; the pooled kernel rejects only jobs too wide). */
  readonly rejections: RejectionTally | null;
}

/** A job wider than the machine, as the warning names it. */
interface TooWide {
  readonly id: number;
  readonly cores: number;
}

/** Thrown by {@link streamRun} at the first job submitted before the one read before it. */
const UNSORTED = Symbol("unsorted");

/**
 * The run as the trace streams in: each chunk of jobs read is pushed into the simulation, each
 * record goes to `jobs.csv` as it ends, and the metrics are accumulated online, so memory holds
 * the jobs in flight, not the trace. Returns "unsorted" (having simulated nothing worth keeping)
 * at the first job submitted before the one before it: such a trace must be read whole and
 * sorted ({@link sortedRun}).
 */
async function streamRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
): Promise<RunResult | "unsorted"> {
  const runner = new Runner(workload, input, choice, csv);
  try {
    const { header, report } = await streamSwfWorkload(
      workload,
      {
        clean: input.clean,
        estimate: input.estimate,
        where: "run",
        onHeader: (h) => runner.header(h),
      },
      (jobs) => runner.push(jobs, true),
    );
    return runner.end(header, report);
  } catch (error) {
    if (error === UNSORTED) return "unsorted";
    throw error;
  }
}

/**
 * The run of {@link streamRun} on the pooled kernel, read by `scanSwf` (plain or gzipped):
 * null (and nothing of `jobs.csv` kept) when the scanner leaves the file to the general reader,
 * or when anything fails, so that the general reader reads the file again and says what is
 * wrong in its words.
 */
async function scanRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
): Promise<RunResult | null> {
  const runner = new Runner(workload, input, choice, csv);
  let run: RunResult | null = null;
  try {
    const read = await scanSwf(workload, {
      clean: input.clean,
      estimate: input.estimate,
      onHeader: (h) => runner.header(h),
      onJobs: (jobs) => runner.pushColumns(jobs),
    });
    if (read !== null) run = runner.end(read.header, read.report);
  } catch {
    run = null;
  }
  if (run === null) csv?.discard();
  return run;
}

/** The run of a trace that is not sorted by submit time: read whole, sorted, then simulated. */
async function sortedRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
): Promise<RunResult> {
  csv?.discard();
  const read = await readSwfWorkload(workload, {
    clean: input.clean,
    estimate: input.estimate,
    where: "run",
  });
  const jobs = [...read.jobs].sort(bySubmitThenId);
  const runner = new Runner(workload, input, choice, csv);
  if (read.header !== undefined) runner.header(read.header);
  if (jobs.length > 0) runner.push(jobs, false);
  return runner.end(read.header, read.report);
}

/** Feeds a simulation with the jobs read, writing each record's row to `jobs.csv`. */
class Runner {
  private procs: number | undefined;
  private sim: Simulation | null = null;
  private lastSubmit = Number.NEGATIVE_INFINITY;
  private tooWide = 0;
  private firstTooWide: TooWide | undefined;
  /** The header's machine size (MaxProcs, else MaxNodes), and which of the two it is. */
  private declared: number | undefined;
  private declaredBy = "MaxProcs";
  /** Jobs given to the simulation, and what its policy did: for the event budget's message. */
  private read = 0;
  private readonly activity = newPolicyActivity();
  /** The rows of `jobs.csv`, formatted as bytes and handed to `csv` a chunk at a time. */
  private readonly rows: JobsCsvWriter | null;
  /** The first jobs left unfinished (general engine: the pooled kernel finishes every job). */
  private readonly lost: LostJobsNote | null;
  /** The rejected jobs by reason (general engine, as `lost`). */
  private readonly rejections: RejectionTally | null;

  constructor(
    private readonly workload: string,
    private readonly input: RunInput,
    private readonly choice: RunPolicy,
    csv: StreamedFile | null,
  ) {
    csv?.reset(JOBS_CSV_HEADER);
    // The machines the command line gives; a header, if the file has one, may give them later.
    this.procs = input.platform?.totalCores ?? input.procs;
    this.rows = csv === null ? null : new JobsCsvWriter((bytes) => csv.writeBytes(bytes));
    this.lost = choice.pooled ? null : new LostJobsNote();
    this.rejections = choice.pooled ? null : new RejectionTally();
    input.progress?.restart();
  }

  header(h: SwfHeader): void {
    this.declared = h.maxProcs ?? h.maxNodes;
    this.declaredBy = h.maxProcs === undefined ? "MaxNodes" : "MaxProcs";
    this.procs = this.input.platform?.totalCores ?? this.input.procs ?? this.declared;
  }

  /** The header line of a native workload: its `meta.procs` (what `gen` writes), when valid. */
  nativeHeader(h: JobsFileHeader): void {
    this.declared = headerProcs(undefined, h);
    this.declaredBy = "meta.procs";
    this.procs = this.input.platform?.totalCores ?? this.input.procs ?? this.declared;
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
    this.read += jobs.length;
    this.input.progress?.read(jobs.length);
    try {
      this.simulation().push(jobs);
    } catch (error) {
      throw explainEventBudget(error, this.activity, this.read);
    }
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
    this.input.progress?.read(count);
    (this.simulation() as PooledSimulation).pushColumns(jobs);
  }

  end(
    header: SwfHeader | undefined,
    report: SwfCleanupReport | undefined,
    jobs = report?.jobs ?? 0,
  ): RunResult {
    // Nothing to simulate: a table of zero jobs would look like a result (inspect says the same).
    requireJobs("run", this.workload, jobs, report, {
      estimate: this.input.estimate,
      commandOptions: this.input.commandOptions,
    });
    if (header !== undefined && this.procs === undefined) this.header(header);
    let summary: SimulationSummary;
    try {
      summary = this.simulation().end();
    } catch (error) {
      throw explainEventBudget(error, this.activity, this.read);
    }
    this.rows?.flush();
    // No horizon and no budget cut this run: jobs still unfinished were lost (core's checkTrace).
    checkSummaryNoLostJobs("run", summary, this.lost?.ids ?? []);
    return {
      summary,
      report,
      procs: this.machineSize(),
      tooWide: this.tooWide,
      firstTooWide: this.firstTooWide,
      rejections: this.rejections,
    };
  }

  private machineSize(): number {
    if (this.input.platform !== undefined) return this.input.platform.totalCores;
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
        isNative(this.workload)
          ? `run: ${this.workload} has no header line with meta.procs; give the machines with --platform FILE or --procs N`
          : `run: ${this.workload} has no MaxProcs or MaxNodes header line; give the machine size with --procs N`,
        "run",
      );
    }
    return this.procs;
  }

  private simulation(): Simulation {
    if (this.sim === null) {
      this.sim = this.choice.simulation(
        this.machineSize(),
        this.input.platform,
        this.recordSink(),
        this.input,
        this.activity,
      );
    }
    return this.sim;
  }

  /** Where the records go: `jobs.csv`'s rows, the lost jobs' and rejections' notes, the progress line. */
  private recordSink(): ((r: JobRecord) => void) | null {
    const { rows, lost, rejections } = this;
    const progress = this.input.progress;
    if (lost === null && progress === null) return rows === null ? null : (r) => rows.record(r);
    return (r) => {
      rows?.record(r);
      lost?.record(r);
      rejections?.record(r);
      progress?.record(r);
    };
  }
}

async function checkFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw new UsageError(`run: option --workload ${path}: ${describeFsError(error)}`, "run");
  }
  if (!isFile) throw new UsageError(`run: option --workload ${path}: not a file`, "run");
  // read as SWF, a JSON file would fail on its first line with a field count
  if (/\.json(\.gz)?$/i.test(path)) {
    throw new UsageError(
      `run: option --workload ${path}: run reads SWF traces (.swf) and native JSON Lines workloads (.jsonl), not .json: a platform file goes to --platform; a Batsim workload, convert it first ('sched-sim convert ${path} --out FILE.jsonl')`,
      "run",
    );
  }
}

/** Whether `path` names a native JSON Lines workload (`.jsonl`, optionally `.gz`); else SWF. */
function isNative(path: string): boolean {
  return /\.jsonl(\.gz)?$/i.test(path);
}

/**
 * The machines of `--platform FILE` (JSON, see `parsePlatformJson`): a file-system error is a
 * usage error naming the option; a bad file, a ParseError naming the file (and line, column or
 * field).
 */
async function readPlatform(path: string): Promise<Platform> {
  let text: string;
  try {
    if (!(await stat(path)).isFile()) {
      throw new UsageError(`run: option --platform ${path}: not a file`, "run");
    }
    text = await readTextFile(path, { where: "run", maxBytes: MAX_JSON_BYTES });
  } catch (error) {
    if (error instanceof UsageError || error instanceof ParseError) throw error;
    throw new UsageError(`run: option --platform ${path}: ${describeFsError(error)}`, "run");
  }
  const platform = parsePlatformJson(text, { source: path });
  if (platform.totalCores > MAX_PROCS) {
    throw new ParseError(
      "run",
      { source: path },
      `has ${platform.totalCores} processors, above the ${MAX_PROCS} a simulated machine may have`,
    );
  }
  return platform;
}

/** Jobs read from a native workload before they are pushed into the simulation. */
const NATIVE_BATCH = 1024;

/**
 * The run of a native JSON Lines workload: streamed in batches (`stream`, as {@link streamRun},
 * "unsorted" at the first job submitted before the one before it), or read whole and sorted by
 * submit time, then id (as {@link sortedRun}).
 */
async function nativeRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
  stream: true,
): Promise<RunResult | "unsorted" | "general">;
async function nativeRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
  stream: false,
): Promise<RunResult | "general">;
async function nativeRun(
  workload: string,
  input: RunInput,
  choice: RunPolicy,
  csv: StreamedFile | null,
  stream: boolean,
): Promise<RunResult | "unsorted" | "general"> {
  if (!stream) csv?.discard();
  const runner = new Runner(workload, input, choice, csv);
  // Streamed, nothing of the trace is kept: the limits of a trace read whole do not apply (as
  // for SWF: README, "Limits"); read whole to be sorted, they do.
  // A chunk's jobs at a time (README, "Native workloads and platforms").
  const { batches, close } = await openJobBatches(
    workload,
    "run",
    stream ? STREAMED_TRACE_LIMITS : {},
    (h) => runner.nativeHeader(h),
  );
  // On the pooled kernel chosen by `--engine auto`: "general" at the first job it does not model.
  const mayFallBack = choice.general !== undefined;
  let held: Job[] = [];
  let count = 0;
  try {
    for await (const jobs of batches) {
      for (let i = 0; i < jobs.length; i++) {
        const job = jobs[i] as Job;
        if (mayFallBack && !pooledModels(job)) return "general";
        held.push(job);
        count++;
        if (stream && held.length === NATIVE_BATCH) {
          runner.push(held, true);
          held = [];
        }
      }
    }
  } catch (error) {
    if (error === UNSORTED) return "unsorted";
    throw error;
  } finally {
    close();
  }
  if (!stream) held.sort(bySubmitThenId);
  try {
    if (held.length > 0) runner.push(held, stream);
  } catch (error) {
    if (error === UNSORTED) return "unsorted";
    throw error;
  }
  return runner.end(undefined, undefined, count);
}
