import type { CommandSpec, ParsedArgs } from "./args.js";

/** Where a command writes: injected so tests capture output without a process. */
export interface Io {
  /** Write to standard output (results). */
  stdout(text: string): void;
  /** Write to standard error (diagnostics, reports). */
  stderr(text: string): void;
  /**
   * Show transient progress (one line, overwritten by the next call; `""` clears it). Absent
   * when standard error is not a terminal, so logs and tests stay clean.
   */
  progress?(text: string): void;
  /**
   * The wall clock in milliseconds (monotonic), for progress lines: injected so tests drive them
   * without timing. Absent: `process.hrtime`.
   */
  readonly clock?: () => number;
  /**
   * The script sweep worker threads start from (the CLI bundle, `dist/cli.js`). Absent (tests
   * calling `main` in-process): sweeps run on the calling thread.
   */
  readonly worker?: URL;
}

/** A sub-command of `sched-sim`: its syntax and what it does. Returns the exit code. */
export interface Command {
  readonly spec: CommandSpec;
  run(args: ParsedArgs, io: Io): Promise<number>;
}
