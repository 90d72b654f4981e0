import { hostname } from "node:os";
import { type CommandSpec, flag, integerValue, requirePositionals, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { DEFAULT_QUEUE_NAME, parseRedisUrl, runQueueWorker } from "../sweep/queue.js";
import { UsageError } from "../usage-error.js";
import { defaultJobs } from "./sweep.js";

const spec: CommandSpec = {
  name: "worker",
  summary: "Take sweep runs from a Redis queue and execute them (any number of machines).",
  description:
    "Connects to the BullMQ queue that 'sched-sim sweep FILE --queue URL' fills, takes runs\n" +
    "--jobs at a time, executes each on a worker thread and stores its result in Redis, from\n" +
    "where the submitting sweep writes it to its results folder. A run that throws is tried\n" +
    "again (the sweep's --attempts, with back-off). A worker killed mid-run loses nothing: its\n" +
    "runs go back to the queue when their lock expires (--stall-timeout) and another worker does\n" +
    "them. SIGINT/SIGTERM: finish the runs in hand, then exit (a second one exits at once).\n" +
    "The machine needs the experiment's inputs (an swf or native trace, and its platform\n" +
    "file, at the same path).",
  options: [
    {
      name: "queue",
      type: "string",
      arg: "URL",
      description: "Redis URL, redis://host:port[/db] (required).",
    },
    {
      name: "queue-name",
      type: "string",
      arg: "NAME",
      description: `BullMQ queue name (default ${DEFAULT_QUEUE_NAME}).`,
    },
    {
      name: "jobs",
      short: "j",
      type: "string",
      arg: "N",
      description: "Runs at a time, each on a worker thread (default: one per core).",
    },
    {
      name: "stall-timeout",
      type: "string",
      arg: "S",
      description: "Seconds before a dead worker's runs return to the queue (default 30).",
    },
    {
      name: "exit-when-idle",
      type: "string",
      arg: "S",
      description: "Exit once the queue has had nothing queued or running for S seconds.",
    },
    {
      name: "quiet",
      short: "q",
      type: "boolean",
      description: "No line per run on stderr.",
    },
  ],
  positionals: [],
  examples: [
    "sched-sim worker --queue redis://10.0.0.5:6379",
    "sched-sim worker --queue redis://10.0.0.5:6379/2 --jobs 16 --exit-when-idle 60",
  ],
};

/** `sched-sim worker`. */
export const workerCommand: Command = {
  spec,
  async run(args, io) {
    requirePositionals(spec, args);
    const url = stringOption(args, "queue");
    if (url === undefined) {
      throw new UsageError("worker: option --queue URL is required (redis://host:port)", "worker");
    }
    const target = parseRedisUrl("worker", url);
    const queueName = stringOption(args, "queue-name") ?? DEFAULT_QUEUE_NAME;
    if (!/^[A-Za-z0-9_.-]+$/.test(queueName)) {
      throw new UsageError(
        `worker: option --queue-name must be letters, digits, '.', '_' or '-', got '${queueName}'`,
        "worker",
      );
    }
    const jobsText = stringOption(args, "jobs");
    const jobs =
      jobsText === undefined ? defaultJobs() : integerValue("worker", "jobs", jobsText, 1, 256);
    const stallText = stringOption(args, "stall-timeout");
    const stallSeconds =
      stallText === undefined ? 30 : integerValue("worker", "stall-timeout", stallText, 1, 86_400);
    const idleText = stringOption(args, "exit-when-idle");
    const idle =
      idleText === undefined
        ? undefined
        : integerValue("worker", "exit-when-idle", idleText, 0, 86_400);
    const quiet = flag(args, "quiet");
    const me = `${hostname()}:${process.pid}`;
    const controller = new AbortController();
    let signals = 0;
    const onSignal = (): void => {
      signals++;
      if (signals === 1) {
        io.stderr(`worker ${me}: stopping after the runs in hand (again to exit now)\n`);
        controller.abort();
      } else process.exit(130);
    };
    // Only the real CLI (which starts worker threads from its bundle) owns the process' signals.
    const ownsProcess = io.worker !== undefined;
    if (ownsProcess) {
      process.on("SIGINT", onSignal);
      process.on("SIGTERM", onSignal);
    }
    try {
      if (!quiet) {
        io.stderr(
          `worker ${me}: taking runs from ${target.shown} (queue ${queueName}), ${jobs} at a time\n`,
        );
      }
      const summary = await runQueueWorker(target, {
        queueName,
        jobs,
        ...(io.worker === undefined ? {} : { script: io.worker }),
        stallSeconds,
        ...(idle === undefined ? {} : { idleExitSeconds: idle }),
        signal: controller.signal,
        ...(quiet ? {} : { log: (line: string) => io.stderr(`worker ${me}: ${line}\n`) }),
      });
      if (!quiet) {
        io.stderr(`worker ${me}: ${summary.done} runs done, ${summary.failed} attempts failed\n`);
      }
      return 0;
    } finally {
      if (ownsProcess) {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    }
  },
};
