#!/usr/bin/env node
import { isMainThread } from "node:worker_threads";
import { parseCommandArgs } from "./args.js";
import type { Command, Io } from "./command.js";
import { hasDebugFlag, reportError, runCommandWords, withoutLeadingDebug } from "./run-command.js";
import { tuneV8 } from "./v8-tuning.js";

// Before any simulation code runs (see v8-tuning.ts).
tuneV8();

/**
 * Commands loaded on their own, without the rest of the CLI (the sweep machinery, the report,
 * HiGHS, BullMQ): the ones a whole-process run measures. Every other word goes through `main`,
 * which loads every command.
 */
const DIRECT: Readonly<Record<string, () => Promise<Command>>> = {
  // Without the list of schedulers in its help: `--help` goes through `main` (below).
  run: async () => {
    const { RUN_SPEC, runRun } = await import("./commands/run-core.js");
    return { spec: RUN_SPEC, run: runRun };
  },
  gen: async () => (await import("./commands/gen.js")).genCommand,
};

async function cli(argv: readonly string[], io: Io): Promise<number> {
  const words = withoutLeadingDebug(argv);
  const load = words[0] === undefined ? undefined : DIRECT[words[0]];
  if (load === undefined || !Object.hasOwn(DIRECT, words[0]!)) {
    return (await import("./main.js")).main(argv, io);
  }
  try {
    const command = await load();
    // A command's help (which may list what `main` loads) is main's.
    if (parseCommandArgs(command.spec, words.slice(1)).values.help === true) {
      return (await import("./main.js")).main(argv, io);
    }
    return await runCommandWords(command, words.slice(1), io);
  } catch (error) {
    return reportError(error, io, hasDebugFlag(argv));
  }
}

/** This same bundle, started by a sweep as a worker thread: the worker module, else null. */
async function sweepWorker(): Promise<typeof import("./sweep/worker.js") | null> {
  if (isMainThread) return null;
  const worker = await import("./sweep/worker.js");
  return worker.isSweepWorker() ? worker : null;
}

const worker = await sweepWorker();
if (worker !== null) {
  // Run the tasks the sweep sends.
  worker.runSweepWorker();
} else {
  // A closed pipe (`sched-sim ... | head`) is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  cli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    worker: new URL(import.meta.url),
    ...(process.stderr.isTTY
      ? { progress: (text: string) => process.stderr.write(`\r\x1b[2K${text}`) }
      : {}),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `sched-sim: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
