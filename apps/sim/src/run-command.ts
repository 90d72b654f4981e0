import { SchedError } from "@sched/core";
import { commandHelp, parseCommandArgs } from "./args.js";
import type { Command, Io } from "./command.js";
import { printable } from "./printable.js";
import { UsageError } from "./usage-error.js";
import { userMessage } from "./user-message.js";

/** Exit codes of `sched-sim`. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Whether `--debug` is among the words before a `--`. */
export function hasDebugFlag(argv: readonly string[]): boolean {
  return argv.slice(0, argv.includes("--") ? argv.indexOf("--") : argv.length).includes("--debug");
}

/** The words without the leading `--debug` flags. */
export function withoutLeadingDebug(argv: readonly string[]): string[] {
  const words = [...argv];
  while (words[0] === "--debug") words.shift();
  return words;
}

/** Runs `command` with the words after its name: `--help` prints its help, else it runs. */
export async function runCommandWords(
  command: Command,
  words: readonly string[],
  io: Io,
): Promise<number> {
  const args = parseCommandArgs(command.spec, words);
  if (args.values.help === true) {
    io.stdout(commandHelp(command.spec));
    return EXIT.ok;
  }
  return await command.run(args, io);
}

/**
 * `text` on one line, every control character but a tab written as `\u001b`: a value quoted from
 * the command line (`--format $'json\r'`, an escape sequence) would otherwise move the cursor,
 * overwrite the message or change the terminal's colours.
 */
function oneLine(text: string): string {
  return printable(text.replace(/\s*\n\s*/g, " ").trim(), true);
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

/**
 * Prints `error` as one line `sched-sim: …` (with its stack under `--debug`, unless it is a usage
 * error) and returns the exit code: 2 for a usage error, else 1.
 */
export function reportError(error: unknown, io: Io, debug: boolean): number {
  if (error instanceof UsageError) {
    io.stderr(`sched-sim: ${oneLine(error.message)}\n`);
    return EXIT.usage;
  }
  const message = userMessage(error);
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
