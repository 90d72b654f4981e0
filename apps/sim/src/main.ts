import { commandHelp, suggest } from "./args.js";
import type { Command, Io } from "./command.js";
import { compareCommand } from "./commands/compare.js";
import { convertCommand } from "./commands/convert.js";
import { demoCommand } from "./commands/demo.js";
import { genCommand } from "./commands/gen.js";
import { inspectCommand } from "./commands/inspect.js";
import { reportCommand } from "./commands/report.js";
import { reproduceCommand } from "./commands/reproduce.js";
import { runCommand } from "./commands/run.js";
import { schedulersCommand } from "./commands/schedulers.js";
import { sweepCommand } from "./commands/sweep.js";
import { workerCommand } from "./commands/worker.js";
import {
  EXIT,
  hasDebugFlag,
  reportError,
  runCommandWords,
  withoutLeadingDebug,
} from "./run-command.js";
import { UsageError } from "./usage-error.js";
import { VERSION } from "./version.js";

export { EXIT, isInternalError } from "./run-command.js";

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
  schedulersCommand,
];

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
  const debug = hasDebugFlag(argv);
  try {
    const words = withoutLeadingDebug(argv);
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
    return await runCommandWords(findCommand(first), words.slice(1), io);
  } catch (error) {
    return reportError(error, io, debug);
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
