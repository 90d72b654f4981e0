import { SchedError } from "@sched/core";
import { commandHelp, parseCommandArgs, suggest } from "./args.js";
import type { Command, Io } from "./command.js";
import { compareCommand } from "./commands/compare.js";
import { convertCommand } from "./commands/convert.js";
import { demoCommand } from "./commands/demo.js";
import { genCommand } from "./commands/gen.js";
import { inspectCommand } from "./commands/inspect.js";
import { reportCommand } from "./commands/report.js";
import { reproduceCommand } from "./commands/reproduce.js";
import { runCommand } from "./commands/run.js";
import { sweepCommand } from "./commands/sweep.js";
import { workerCommand } from "./commands/worker.js";
import { UsageError } from "./usage-error.js";
import { VERSION } from "./version.js";

/** The sub-commands, in `--help` order. */
export const COMMANDS: readonly Command[] = [
  demoCommand,
  runCommand,
  sweepCommand,
  workerCommand,
  reproduceCommand,
  compareCommand,
  reportCommand,
  convertCommand,
  genCommand,
  inspectCommand,
];

/** Exit codes of `sched-sim`. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** `sched-sim --help`. */
export function mainHelp(): string {
  const lines = [
    "sched-sim: simulate job-scheduling policies on workloads (@sched).",
    "",
    "Usage: sched-sim <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.spec.name.padEnd(12)}${c.spec.summary}`),
    "",
    "Options:",
    "  -h, --help    Show this help (or 'sched-sim <command> --help' for a command's).",
    "  -V, --version Print the version.",
    "      --debug   Print stack traces of unexpected errors.",
    "",
    "Exit codes: 0 success, 1 the run failed, 2 bad usage.",
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * Run `sched-sim` with `argv` (the words after the program name) and return its exit code:
 * 0 success, 1 a run failed (a malformed trace, a policy error, a file that cannot be written),
 * 2 bad usage (unknown command or option, bad value). Errors are printed to `io.stderr` as one
 * line `sched-sim: …` naming what was wrong and where; with `--debug`, unexpected errors also
 * print their stack. Never calls `process.exit`.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const debug = argv
    .slice(0, argv.includes("--") ? argv.indexOf("--") : argv.length)
    .includes("--debug");
  try {
    const words = [...argv];
    while (words[0] === "--debug") words.shift();
    const first = words[0];
    if (first === undefined) {
      io.stderr(mainHelp());
      return EXIT.usage;
    }
    if (first === "--help" || first === "-h") {
      io.stdout(mainHelp());
      return EXIT.ok;
    }
    if (first === "--version" || first === "-V") {
      io.stdout(`${VERSION}\n`);
      return EXIT.ok;
    }
    if (first === "help") {
      const target = words[1];
      if (target === undefined) {
        io.stdout(mainHelp());
        return EXIT.ok;
      }
      io.stdout(commandHelp(findCommand(target).spec));
      return EXIT.ok;
    }
    if (first.startsWith("-")) {
      throw new UsageError(`unknown option ${first}; see 'sched-sim --help'`);
    }
    const command = findCommand(first);
    const args = parseCommandArgs(command.spec, words.slice(1));
    if (args.values.help === true) {
      io.stdout(commandHelp(command.spec));
      return EXIT.ok;
    }
    return await command.run(args, io);
  } catch (error) {
    return report(error, io, debug);
  }
}

function findCommand(name: string): Command {
  const command = COMMANDS.find((c) => c.spec.name === name);
  if (command === undefined) {
    const hint = suggest(
      name,
      COMMANDS.map((c) => c.spec.name),
    );
    throw new UsageError(
      `unknown command '${name}'${hint ? ` (did you mean ${hint}?)` : ""}; see 'sched-sim --help'`,
    );
  }
  return command;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

/** JavaScript's own error types: thrown by the language or the runtime, never on purpose. */
const LANGUAGE_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];

/**
 * Whether `error` is a bug rather than a failure we meant to report: a `TypeError`, a
 * `RangeError` (`Invalid array length`, `Invalid string length`), any of JavaScript's own error
 * types, or a thrown non-error. Usage errors, @sched errors (bad data, a policy breaking a
 * constraint) and the plain errors we throw with a message for the user (a file that cannot be
 * read or written) are not.
 */
export function isInternalError(error: unknown): boolean {
  if (error instanceof UsageError || error instanceof SchedError) return false;
  if (!(error instanceof Error)) return true;
  return LANGUAGE_ERRORS.some((type) => error instanceof type);
}

function report(error: unknown, io: Io, debug: boolean): number {
  if (error instanceof UsageError) {
    io.stderr(`sched-sim: ${oneLine(error.message)}\n`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isInternalError(error)) {
    // A bug of ours: say so, so it is reported instead of taken for a problem with the input.
    io.stderr(
      `sched-sim: internal error: ${oneLine(message)} (a bug in sched-sim, not in your input: please report it with the output of --debug)\n`,
    );
  } else {
    io.stderr(`sched-sim: ${oneLine(message)}\n`);
  }
  if (debug && error instanceof Error && error.stack !== undefined) io.stderr(`${error.stack}\n`);
  return EXIT.failed;
}
