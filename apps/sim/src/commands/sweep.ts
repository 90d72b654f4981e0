import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import {
  type CommandSpec,
  choiceValue,
  flag,
  integerValue,
  requirePositionals,
  stringOption,
} from "../args.js";
import type { Command, Io } from "../command.js";
import { checkOutPath } from "../out-path.js";
import { schedulersHelp } from "../schedulers.js";
import { driveSweep, printOutcome } from "../sweep/drive.js";
import { EMIT_TARGETS, emitScript } from "../sweep/emit.js";
import { readExperimentFile } from "../sweep/experiment-file.js";
import type { SweepPlan } from "../sweep/plan.js";
import {
  cancelQueueSweep,
  DEFAULT_QUEUE_NAME,
  parseRedisUrl,
  queueStatus,
  type RedisTarget,
  submitQueueSweep,
} from "../sweep/queue.js";
import { parseShard } from "../sweep/shard.js";
import { UsageError } from "../usage-error.js";

const spec: CommandSpec = {
  name: "sweep",
  summary: "Run an experiment file's grid (parameters x policies x seeds) in parallel, resumably.",
  description:
    "Reads the experiment file (JSON: name, workload, platform, schedulers, grid, seeds,\n" +
    "metrics; see the README), runs every (grid point, seed, policy) on --jobs worker threads\n" +
    "and writes each run's result atomically to DIR/runs/KEY.json as it finishes, so a sweep\n" +
    "killed at any moment and started again with the same command skips finished runs.\n" +
    "Failed runs go to DIR/failed/KEY.json and are tried again on restart. At the end it writes\n" +
    "DIR/results.csv (mean, 95% CI over seeds), DIR/runs.csv (every run's metrics, events and\n" +
    "decisions), DIR/timing.csv (wall-clock timing: schedTimeMs = scheduler ms per scheduling\n" +
    "call, schedulerMs, wallMs; the same rows as results.csv, not deterministic, hence apart)\n" +
    "and DIR/runs-timing.csv (every run's schedulerMs and wallMs), and prints both tables.\n" +
    "A run that cannot depend on its seed (a trace, and a policy without dice or with their\n" +
    'seed set) is made once per point and copied to the other seeds\' files ("copyOf").\n' +
    "A progress line (runs done, to go, time left) is shown on a terminal, unless --quiet.\n\n" +
    "On a cluster: --shard i/n runs shard i (from 0) of n into a folder the shards share (run i\n" +
    "of the sweep's canonical order belongs to shard i mod n); the last shard to finish writes\n" +
    "results.csv, the same bytes as one machine's. --emit slurm|k8s prints a job array that runs\n" +
    "the shards (--shards N). --queue redis://host:port[/db] enqueues the runs on a BullMQ queue\n" +
    "instead, for 'sched-sim worker --queue ...' on any number of machines, and collects their\n" +
    "results into DIR (--detach: return at once; --status; --cancel). See the README.\n\n" +
    schedulersHelp(),
  options: [
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "DIR",
      description: "Results directory (required; created if missing, resumed if it exists).",
    },
    {
      name: "jobs",
      short: "j",
      type: "string",
      arg: "N",
      description:
        "Worker threads (default: one per core; with --emit: threads per task, default 1).",
    },
    {
      name: "json",
      type: "boolean",
      description: "Print the summary (and failures) as JSON on stdout, for scripts.",
    },
    {
      name: "quiet",
      short: "q",
      type: "boolean",
      description: "No progress line, no summary line.",
    },
    {
      name: "shard",
      type: "string",
      arg: "i/n",
      description: "Run only shard i of n (numbered from 0, like SLURM_ARRAY_TASK_ID) into DIR.",
    },
    {
      name: "emit",
      type: "string",
      arg: "slurm|k8s",
      description: "Print a Slurm job array or a Kubernetes Indexed Job running the shards.",
    },
    {
      name: "shards",
      type: "string",
      arg: "N",
      description: "With --emit: number of shards / array tasks (default 10, at most the runs).",
    },
    {
      name: "parallel",
      type: "string",
      arg: "N",
      description: "With --emit: at most N tasks at a time (default all).",
    },
    {
      name: "command",
      type: "string",
      arg: "CMD",
      description: "With --emit: how a node starts sched-sim (default 'sched-sim').",
    },
    {
      name: "image",
      type: "string",
      arg: "IMAGE",
      description: "With --emit k8s: container image with sched-sim (default sched-sim:latest).",
    },
    {
      name: "claim",
      type: "string",
      arg: "NAME",
      description: "With --emit k8s: shared volume claim (default sched-sim-data).",
    },
    {
      name: "mount",
      type: "string",
      arg: "PATH",
      description: "With --emit k8s: where the claim is mounted (default /data).",
    },
    {
      name: "queue",
      type: "string",
      arg: "URL",
      description: "Run through the Redis queue at URL (redis://host:port[/db]) and its workers.",
    },
    {
      name: "queue-name",
      type: "string",
      arg: "NAME",
      description: `With --queue: BullMQ queue name (default ${DEFAULT_QUEUE_NAME}).`,
    },
    {
      name: "attempts",
      type: "string",
      arg: "N",
      description: "With --queue: tries per run before it counts as failed (default 3).",
    },
    {
      name: "detach",
      type: "boolean",
      description: "With --queue: enqueue and return; collect later with the same command.",
    },
    {
      name: "status",
      type: "boolean",
      description: "With --queue: print where the sweep stands in the queue, change nothing.",
    },
    {
      name: "cancel",
      type: "boolean",
      description: "With --queue: remove the sweep's queued runs (running ones finish).",
    },
  ],
  positionals: [{ name: "file", description: "Experiment file (JSON).", required: true }],
  examples: [
    "sched-sim sweep experiments/load.json --out results/load",
    "sched-sim sweep experiments/load.json --out results/load --jobs 2 --quiet",
    "sched-sim sweep experiments/load.json --out results/load --shard 3/8",
    "sched-sim sweep experiments/load.json --out /shared/load --emit slurm --shards 8 > load.sbatch",
    "sched-sim sweep experiments/load.json --out results/load --queue redis://10.0.0.5:6379",
    "sched-sim compare results/load",
  ],
};

/** Default worker threads: one per core. */
export function defaultJobs(): number {
  return availableParallelism();
}

const QUEUE_ONLY = ["queue-name", "attempts", "detach", "status", "cancel"] as const;
const EMIT_ONLY = ["shards", "parallel", "command", "image", "claim", "mount"] as const;

function given(args: Parameters<Command["run"]>[0], name: string): boolean {
  return args.values[name] !== undefined;
}

/** `sched-sim sweep`. */
export const sweepCommand: Command = {
  spec,
  async run(args, io) {
    requirePositionals(spec, args);
    const file = args.positionals[0] as string;
    const queueText = stringOption(args, "queue");
    const emitText = stringOption(args, "emit");
    const shardText = stringOption(args, "shard");
    for (const name of QUEUE_ONLY) {
      if (given(args, name) && queueText === undefined) {
        throw new UsageError(`sweep: option --${name} needs --queue URL`, "sweep");
      }
    }
    for (const name of EMIT_ONLY) {
      if (given(args, name) && emitText === undefined) {
        throw new UsageError(`sweep: option --${name} needs --emit slurm|k8s`, "sweep");
      }
    }
    if (shardText !== undefined && (queueText !== undefined || emitText !== undefined)) {
      throw new UsageError(
        `sweep: option --shard runs one shard here; it does not go with --${queueText !== undefined ? "queue" : "emit"}`,
        "sweep",
      );
    }
    if (queueText !== undefined && emitText === undefined && given(args, "jobs")) {
      throw new UsageError(
        "sweep: option --jobs has no effect with --queue: each 'sched-sim worker' sets its own --jobs",
        "sweep",
      );
    }
    const modes = ["status", "cancel", "detach"].filter((m) => flag(args, m));
    if (modes.length > 1) {
      throw new UsageError(`sweep: options --${modes.join(" and --")} exclude each other`, "sweep");
    }
    const shard = shardText === undefined ? undefined : parseShard("sweep", shardText);
    const target = queueText === undefined ? undefined : parseRedisUrl("sweep", queueText);
    const out = stringOption(args, "out");
    const controlOnly = flag(args, "status") || flag(args, "cancel");
    if (out === undefined && !(target !== undefined && controlOnly)) {
      throw new UsageError("sweep: option --out DIR is required (where results go)", "sweep");
    }
    const jobsText = stringOption(args, "jobs");
    const jobs =
      jobsText === undefined
        ? emitText === undefined
          ? defaultJobs()
          : 1
        : integerValue("sweep", "jobs", jobsText, 1, 256);
    const emit =
      emitText === undefined ? undefined : choiceValue("sweep", "emit", emitText, EMIT_TARGETS);
    const queueName = stringOption(args, "queue-name") ?? DEFAULT_QUEUE_NAME;
    if (!/^[A-Za-z0-9_.-]+$/.test(queueName)) {
      throw new UsageError(
        `sweep: option --queue-name must be letters, digits, '.', '_' or '-', got '${queueName}'`,
        "sweep",
      );
    }
    const attemptsText = stringOption(args, "attempts");
    const attempts =
      attemptsText === undefined ? 3 : integerValue("sweep", "attempts", attemptsText, 1, 100);
    if (out === "")
      throw new UsageError("sweep: option --out: expected a directory path, got ''", "sweep");
    // with --emit, DIR is a path on the cluster's nodes; with --status/--cancel nothing is written
    if (out !== undefined && emit === undefined && !controlOnly) {
      await checkOutPath("sweep", "out", out, "dir");
    }
    const plan = await readExperimentFile(file);

    if (emit !== undefined) {
      const total = plan.points.length * plan.seeds.length * plan.schedulers.length;
      const shardsText = stringOption(args, "shards");
      const shards =
        shardsText === undefined
          ? Math.min(10, total)
          : integerValue("sweep", "shards", shardsText, 1, 100_000);
      const parallelText = stringOption(args, "parallel");
      io.stdout(
        emitScript(emit, plan, {
          file: emit === "slurm" ? resolve(file) : file,
          out: emit === "slurm" ? resolve(out as string) : (out as string),
          shards,
          ...(parallelText === undefined
            ? {}
            : { parallel: integerValue("sweep", "parallel", parallelText, 1, 100_000) }),
          jobs,
          command: stringOption(args, "command") ?? "sched-sim",
          ...(queueText === undefined ? {} : { queue: { url: queueText, name: queueName } }),
          image: stringOption(args, "image") ?? "sched-sim:latest",
          claim: stringOption(args, "claim") ?? "sched-sim-data",
          mount: stringOption(args, "mount") ?? "/data",
        }),
      );
      return 0;
    }
    if (target !== undefined) {
      return runQueueMode(plan, target, io, {
        out,
        queueName,
        attempts,
        quiet: flag(args, "quiet"),
        json: flag(args, "json"),
        status: flag(args, "status"),
        cancel: flag(args, "cancel"),
        detach: flag(args, "detach"),
      });
    }
    const { code } = await driveSweep(plan, io, {
      out: out as string,
      jobs,
      quiet: flag(args, "quiet"),
      json: flag(args, "json"),
      ...(shard === undefined ? {} : { shard }),
    });
    return code;
  },
};

async function runQueueMode(
  plan: SweepPlan,
  target: RedisTarget,
  io: Io,
  o: {
    out: string | undefined;
    queueName: string;
    attempts: number;
    quiet: boolean;
    json: boolean;
    status: boolean;
    cancel: boolean;
    detach: boolean;
  },
): Promise<number> {
  const where = `${target.shown} (queue ${o.queueName})`;
  if (o.status) {
    const s = await queueStatus(plan, target, o.queueName);
    if (o.json) {
      io.stdout(`${JSON.stringify({ experiment: plan.name, ...s })}\n`);
      return 0;
    }
    io.stdout(
      `${plan.name} on ${where}: ${s.known ? "" : "not submitted (or finished and cleaned up); "}` +
        `${s.inRedis} of ${s.total} runs have a result waiting in Redis to be collected, ${s.failed} failed` +
        `${s.cancelled ? "; CANCELLED" : ""}\n` +
        `queue (every sweep in it): ${s.queue.waiting} waiting, ${s.queue.active} running, ${s.queue.delayed} retrying, ${s.queue.failed} failed; ${s.workers} workers connected\n` +
        "results are written to DIR by the submitting 'sched-sim sweep FILE --queue URL --out DIR' (run it again to collect)\n",
    );
    return 0;
  }
  if (o.cancel) {
    const removed = await cancelQueueSweep(plan, target, o.queueName);
    io.stderr(
      `cancelled ${plan.name} on ${where}: removed ${removed} queued runs; runs already running finish and their results are kept; submit again to resume\n`,
    );
    return 0;
  }
  const out = o.out as string;
  const started = Date.now();
  const progress = o.quiet ? undefined : io.progress;
  const outcome = await submitQueueSweep(plan, target, {
    out,
    queueName: o.queueName,
    attempts: o.attempts,
    detach: o.detach,
    ...(progress === undefined ? {} : { onProgress: progress }),
    note: (text) => io.stderr(text),
  });
  progress?.("");
  if (outcome.detached) {
    io.stderr(
      `enqueued ${outcome.enqueued} runs of ${plan.name} on ${where} (${outcome.records.length} of ${outcome.total} already have a result). ` +
        `Start workers: sched-sim worker --queue ${target.shown}${o.queueName === DEFAULT_QUEUE_NAME ? "" : ` --queue-name ${o.queueName}`}; ` +
        "see --status; collect the results into DIR with the same command without --detach\n",
    );
    return 0;
  }
  if (outcome.cancelled) {
    io.stderr(
      `${plan.name} was cancelled (sweep --cancel); ${outcome.records.length} of ${outcome.total} runs have a result in ${out}\n`,
    );
    return 1;
  }
  return printOutcome(plan, io, { out, quiet: o.quiet, json: o.json }, outcome, started, "queue: ");
}
