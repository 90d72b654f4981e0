import type { JobRecord } from "@sched/core";
import { flag, type OptionSpec, type ParsedArgs } from "./args.js";
import type { Io } from "./command.js";
import { shortDuration } from "./format.js";
import { UsageError } from "./usage-error.js";

/** Wall-clock milliseconds between two progress lines. */
export const PROGRESS_INTERVAL_MS = 2000;

/** The most records between two reads of the clock (see {@link RunProgress.record}). */
const MAX_STRIDE = 4096;

/** `--progress` and `--no-progress`, as `run` and `demo` take them. */
export const PROGRESS_OPTIONS: readonly OptionSpec[] = [
  {
    name: "progress",
    type: "boolean",
    description:
      "Print a progress line to stderr every ~2 s: jobs read, finished, in the system, simulated time, jobs/s, elapsed (default: only when stderr is a terminal).",
  },
  { name: "no-progress", type: "boolean", description: "Never print the progress line." },
];

/** What a progress line says: the counts as the command line sees jobs pass. */
export interface ProgressCounts {
  /** Jobs given to the simulation. */
  readonly read: number;
  /** Records passed on (completed or rejected), in input order. */
  readonly finished: number;
  /** The latest end time among the finished jobs (NaN before the first). */
  readonly time: number;
  /** Finished jobs per second of wall clock since the previous line. */
  readonly rate: number;
  /** Wall-clock milliseconds since the command started. */
  readonly elapsedMs: number;
}

/**
 * One progress line: `run: 120000 jobs read, 119500 finished, 500 in the system, t=4523400 s,
 * 8123 jobs/s, 14s elapsed`. "In the system" is read less finished: jobs waiting or running, and
 * ended jobs whose record waits for an earlier job to end (records pass in input order).
 */
export function progressText(label: string, c: ProgressCounts): string {
  const time = Number.isNaN(c.time) ? "t=0 s" : `t=${Math.round(c.time)} s`;
  return `${label}: ${c.read} jobs read, ${c.finished} finished, ${c.read - c.finished} in the system, ${time}, ${Math.round(c.rate)} jobs/s, ${shortDuration(c.elapsedMs)} elapsed`;
}

/**
 * The progress of one command's run, fed where the command line already sees jobs pass: the jobs
 * it reads and gives to the simulation ({@link RunProgress.read}) and the records it receives
 * ({@link RunProgress.record}); the engines are not touched. Every {@link PROGRESS_INTERVAL_MS}
 * of wall clock it shows one line. The clock is read once per batch of jobs read and once per
 * `stride` records, the stride doubling while reads come closer than 20 ms apart (at most
 * {@link MAX_STRIDE}) and halving when they are more than 200 ms apart: a fast run reads the
 * clock a few hundred times a second, a slow one at every record.
 */
export class RunProgress {
  private jobsRead = 0;
  private finished = 0;
  private time = Number.NaN;
  private stride = 1;
  private countdown = 1;
  private lastCheck: number;
  private lastLine: number;
  private finishedAtLastLine = 0;
  private shown = false;
  private readonly started: number;

  /**
   * @param label - the line's first word (`run`, `demo (easy)`).
   * @param show - shows one line (overwriting the previous one on a terminal).
   * @param clear - removes the line shown, if any.
   * @param now - the wall clock, in milliseconds.
   */
  constructor(
    private label: string,
    private readonly show: (line: string) => void,
    private readonly clear: () => void,
    private readonly now: () => number,
  ) {
    this.started = now();
    this.lastCheck = this.started;
    this.lastLine = this.started;
  }

  /** Starts counting a new run (a retry, or the next policy) under `label`; elapsed goes on. */
  restart(label: string = this.label): void {
    this.label = label;
    this.jobsRead = 0;
    this.finished = 0;
    this.time = Number.NaN;
    this.finishedAtLastLine = 0;
  }

  /** `n` more jobs given to the simulation. */
  read(n: number): void {
    this.jobsRead += n;
    this.check();
  }

  /** A record passed on by the simulation (an `onRecord` sink). */
  record(r: JobRecord): void {
    this.finished++;
    const end = r.end;
    if (end !== null && !(end <= this.time)) this.time = end;
    if (--this.countdown === 0) this.check();
  }

  /** Removes the line (before the command prints anything else); the next line shows it again. */
  end(): void {
    if (!this.shown) return;
    this.shown = false;
    this.clear();
  }

  private check(): void {
    const t = this.now();
    const gap = t - this.lastCheck;
    this.lastCheck = t;
    if (gap < 20) this.stride = Math.min(this.stride * 2, MAX_STRIDE);
    else if (gap > 200) this.stride = Math.max(this.stride >> 1, 1);
    this.countdown = this.stride;
    const since = t - this.lastLine;
    if (since < PROGRESS_INTERVAL_MS) return;
    const rate = ((this.finished - this.finishedAtLastLine) * 1000) / since;
    this.lastLine = t;
    this.finishedAtLastLine = this.finished;
    this.shown = true;
    this.show(
      progressText(this.label, {
        read: this.jobsRead,
        finished: this.finished,
        time: this.time,
        rate,
        elapsedMs: t - this.started,
      }),
    );
  }
}

/** The wall clock in milliseconds, by `process.hrtime` (monotonic). */
function hrtimeMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * The progress of `command`'s run as `--progress` / `--no-progress` ask, or null when off. By
 * default it is on only when stderr is a terminal (`io.progress` is given), so pipes, logs, CI
 * and tests see the same bytes as before. On a terminal the line is rewritten in place (`\r`)
 * and cleared at the end; elsewhere (`--progress` into a file or pipe) each line is a new line.
 *
 * @throws UsageError when both flags are given.
 */
export function runProgress(
  args: ParsedArgs,
  io: Io,
  command: string,
  label: string = command,
): RunProgress | null {
  const on = flag(args, "progress");
  const off = flag(args, "no-progress");
  if (on && off) {
    throw new UsageError(
      `${command}: options --progress and --no-progress contradict each other; give one of them`,
      command,
    );
  }
  if (off || (!on && io.progress === undefined)) return null;
  const progress = io.progress;
  const now = io.clock ?? hrtimeMs;
  return progress === undefined
    ? new RunProgress(label, (line) => io.stderr(`${line}\n`), noop, now)
    : new RunProgress(
        label,
        (line) => progress(line),
        () => progress(""),
        now,
      );
}

function noop(): void {}
