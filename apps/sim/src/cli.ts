#!/usr/bin/env node
import { main } from "./main.js";
import { isSweepWorker, runSweepWorker } from "./sweep/worker.js";

if (isSweepWorker()) {
  // This same bundle, started by a sweep as a worker thread: run the tasks it is sent.
  runSweepWorker();
} else {
  // A closed pipe (`sched-sim ... | head`) is not an error worth a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
  main(process.argv.slice(2), {
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
