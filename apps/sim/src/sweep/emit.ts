import { planTasks, type SweepPlan } from "./plan.js";

/** Cluster engines `sweep --emit` writes a job script for. */
export const EMIT_TARGETS = ["slurm", "k8s"] as const;
/** One of {@link EMIT_TARGETS}. */
export type EmitTarget = (typeof EMIT_TARGETS)[number];

/** What goes into an emitted script. */
export interface EmitOptions {
  /** The experiment file and results folder, as every node (or pod) sees them. */
  readonly file: string;
  readonly out: string;
  /** Array tasks (shards, or queue workers with `queue`). */
  readonly shards: number;
  /** At most this many tasks at a time. @defaultValue shards */
  readonly parallel?: number;
  /** Worker threads per task (Slurm `--cpus-per-task`, k8s cpu request). */
  readonly jobs: number;
  /** How to start sched-sim on a node, e.g. `node /opt/sched/apps/sim/dist/cli.js`. */
  readonly command: string;
  /** With a queue: the tasks are `sched-sim worker`s of this Redis queue instead of shards. */
  readonly queue?: { readonly url: string; readonly name: string };
  /** k8s: container image with sched-sim on its PATH. */
  readonly image: string;
  /** k8s: PersistentVolumeClaim (ReadWriteMany) holding the file and the results folder. */
  readonly claim: string;
  /** k8s: where the claim is mounted in the container. */
  readonly mount: string;
}

/** `word` quoted for a POSIX shell when it needs to be. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A name Slurm and Kubernetes accept: lowercase letters, digits and `-`, at most 50 chars. */
export function jobName(plan: SweepPlan): string {
  const base = `sched-sim-${plan.name}`
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
  return base.slice(0, 50).replace(/-$/, "");
}

function runsPerShard(total: number, shards: number): string {
  const lo = Math.floor(total / shards);
  const hi = Math.ceil(total / shards);
  return lo === hi ? `${lo}` : `${lo}-${hi}`;
}

/** The `sched-sim` words a task runs (with `index` the shell expression of its 0-based index). */
function taskWords(o: EmitOptions, index: string, jobs: string): string {
  const cmd = o.command;
  if (o.queue !== undefined) {
    const name = o.queue.name === "sched-sim" ? "" : ` --queue-name ${shellQuote(o.queue.name)}`;
    return `${cmd} worker --queue ${shellQuote(o.queue.url)}${name} --jobs ${jobs} --exit-when-idle 60`;
  }
  return `${cmd} sweep ${shellQuote(o.file)} --shard "${index}/${o.shards}" --out ${shellQuote(o.out)} --jobs ${jobs}`;
}

/** The closing advice: how to merge and how to find what is missing. */
function mergeLines(o: EmitOptions, submit: string): string[] {
  const cmd = o.command;
  if (o.queue !== undefined) {
    const sweep = `${cmd} sweep ${shellQuote(o.file)} --queue ${shellQuote(o.queue.url)}${o.queue.name === "sched-sim" ? "" : ` --queue-name ${shellQuote(o.queue.name)}`} --out ${shellQuote(o.out)}`;
    return [
      "# The tasks are queue workers: they take runs until the queue has been empty for 60 s.",
      "# 1. Enqueue the runs (from any machine that reaches Redis; returns at once):",
      `#      ${sweep} --detach`,
      `# 2. Start the workers: ${submit}`,
      "# 3. Follow the progress and collect the results into the folder (results.csv at the end;",
      "#    run it again whenever you like, it resumes):",
      `#      ${sweep}`,
    ];
  }
  return [
    `# Submit: ${submit}`,
    "# results.csv, runs.csv, timing.csv and runs-timing.csv are written by the last shard to finish",
    "# (the first two identical to a one-machine sweep of the same file; the timing files have the",
    "# same rows, wall-clock numbers). To see what is missing (by shard, key and parameters):",
    `#   ${cmd} compare ${shellQuote(o.out)}`,
    "# To finish the runs of failed or cancelled tasks and write the summaries, run the whole sweep",
    "# once more (it skips every finished run), e.g. as a job that waits for the array:",
    `#   ${cmd} sweep ${shellQuote(o.file)} --out ${shellQuote(o.out)}`,
  ];
}

/** A Slurm batch script: a job array with one task per shard. */
export function slurmScript(plan: SweepPlan, o: EmitOptions): string {
  const total = planTasks(plan).length;
  const name = jobName(plan);
  const parallel = o.parallel !== undefined && o.parallel < o.shards ? `%${o.parallel}` : "";
  const what =
    o.queue === undefined
      ? `${total} runs in ${o.shards} shards (${runsPerShard(total, o.shards)} runs each; shard i does the runs at positions i, i+${o.shards}, i+${2 * o.shards}, ... of the sweep)`
      : `${o.shards} workers of the Redis queue ${o.queue.url} (queue ${o.queue.name}) for its ${total} runs`;
  const lines = [
    "#!/bin/bash",
    `# Slurm job array for the sched-sim sweep "${plan.name}": ${what}.`,
    "# Written by 'sched-sim sweep --emit slurm'. Array task i (SLURM_ARRAY_TASK_ID, from 0) runs",
    o.queue === undefined
      ? `# shard i/${o.shards}; every shard writes one file per run into ${o.out}, which every node must see.`
      : "# one worker; results go through Redis to the submitting 'sched-sim sweep --queue'.",
    ...mergeLines(
      o,
      "jobid=$(sbatch --parsable THIS_SCRIPT)" +
        (o.queue === undefined
          ? `; sbatch --dependency=afterany:$jobid --wrap ${shellQuote(`${o.command} sweep ${shellQuote(o.file)} --out ${shellQuote(o.out)}`)}`
          : ""),
    ),
    `#SBATCH --job-name=${name}`,
    `#SBATCH --array=0-${o.shards - 1}${parallel}`,
    "#SBATCH --ntasks=1",
    `#SBATCH --cpus-per-task=${o.jobs}`,
    `#SBATCH --output=${name}-%A_%a.out`,
    "set -euo pipefail",
    `SLURM_CPUS_PER_TASK=\${SLURM_CPUS_PER_TASK:-${o.jobs}}`,
    `exec ${taskWords(o, "$SLURM_ARRAY_TASK_ID", `"$SLURM_CPUS_PER_TASK"`)}`,
  ];
  return `${lines.join("\n")}\n`;
}

/** A Kubernetes Indexed Job: one completion per shard, `JOB_COMPLETION_INDEX` picks the shard. */
export function k8sJob(plan: SweepPlan, o: EmitOptions): string {
  const total = planTasks(plan).length;
  const name = jobName(plan);
  const what =
    o.queue === undefined
      ? `${total} runs in ${o.shards} shards (${runsPerShard(total, o.shards)} runs each)`
      : `${o.shards} workers of the Redis queue ${o.queue.url} (queue ${o.queue.name}) for its ${total} runs`;
  const script = `exec ${taskWords(o, "$JOB_COMPLETION_INDEX", String(o.jobs))}`;
  const lines = [
    `# Kubernetes Indexed Job for the sched-sim sweep "${plan.name}": ${what}.`,
    "# Written by 'sched-sim sweep --emit k8s'. Pod i (JOB_COMPLETION_INDEX, from 0) runs",
    o.queue === undefined
      ? `# shard i/${o.shards}. The file and ${o.out} are paths inside the container, on the volume claim`
      : "# one worker; results go through Redis to the submitting 'sched-sim sweep --queue'.",
    o.queue === undefined
      ? `# ${o.claim} (ReadWriteMany, shared by every pod) mounted at ${o.mount}. The image must have`
      : `# The image must have sched-sim on its PATH (Node >= 20 and apps/sim/dist with bullmq).`,
    ...(o.queue === undefined
      ? ["# sched-sim on its PATH (Node >= 20 and apps/sim/dist with its node_modules)."]
      : []),
    ...mergeLines(
      o,
      "kubectl apply -f THIS_FILE; kubectl wait --for=condition=complete job/" + name,
    ),
    "apiVersion: batch/v1",
    "kind: Job",
    "metadata:",
    `  name: ${name}`,
    "spec:",
    "  completionMode: Indexed",
    `  completions: ${o.shards}`,
    `  parallelism: ${Math.min(o.parallel ?? o.shards, o.shards)}`,
    `  backoffLimit: ${2 * o.shards}`,
    "  template:",
    "    spec:",
    "      restartPolicy: Never",
    "      containers:",
    "        - name: sched-sim",
    `          image: ${JSON.stringify(o.image)}`,
    `          command: ${JSON.stringify(["sh", "-c", script])}`,
    "          resources:",
    "            requests:",
    `              cpu: "${o.jobs}"`,
    ...(o.queue === undefined
      ? [
          "          volumeMounts:",
          "            - name: data",
          `              mountPath: ${JSON.stringify(o.mount)}`,
          "      volumes:",
          "        - name: data",
          "          persistentVolumeClaim:",
          `            claimName: ${JSON.stringify(o.claim)}`,
        ]
      : []),
  ];
  return `${lines.join("\n")}\n`;
}

/** The script of `target`. */
export function emitScript(target: EmitTarget, plan: SweepPlan, o: EmitOptions): string {
  return target === "slurm" ? slurmScript(plan, o) : k8sJob(plan, o);
}
