import { benchmarkOf, type Job, type Platform } from "@sched/core";
import { Random } from "@sched/random";
import {
  adaptivePartitionSize,
  dynamicPartitionSize,
  fitnessFactors,
  mapPartitionSize,
  SPACE_SHARING_DEFAULTS,
  type SpaceSharingOptions,
  selectProcessors,
  taskBunches,
} from "../../src/index.js";
import { chooseBaseline, dynamicGate } from "../../src/space-sharing.js";

/** One job as the oracle ran it. */
export interface OracleRecord {
  readonly job: Job;
  readonly start: number;
  readonly end: number;
  /** Processor indices (one processor per core, machines in order), root first. */
  readonly processors: readonly number[];
}

/** What {@link holdUntilEndOracle} returns. */
export interface OracleResult {
  /** In completion order (end, then id). */
  readonly records: readonly OracleRecord[];
  readonly meanResponse: number;
  /** Processor-time held / (processors x (last end - first submit)). */
  readonly utilization: number;
}

/**
 * The test oracle of the space-sharing core path (`spaceSharingScheduler` on core's engine):
 * the dynamic policy and the adaptive baseline, as `simulateSpaceSharing` decides them, but
 * every processor of a job held until the whole job ends (the rule core's engine has), and no
 * background load. It is a plain event loop, written apart from the package's simulators: the
 * only events are arrivals and job ends, and after each moment with one the policy serves the
 * queue head while it can. The partition sizes, processor selection and task bunches are the
 * package's public rules (`partition.ts`) and the baseline's choice of processors its
 * `chooseBaseline`, drawing from the same stream (`baseline/selection`).
 *
 * A job on k processors takes the scatter `sum_{i>=1} (startup + size / k / bandwidth)` (plus
 * both clusters' link latencies for a message leaving the root's cluster), then each processor
 * computes its bunch of the `max(maxParallelism, k)` equal tasks at its speed; it ends when the
 * last one does.
 */
export function holdUntilEndOracle(
  jobs: readonly Job[],
  platform: Platform,
  options: Omit<SpaceSharingOptions, "backgroundLoad" | "messageBytes"> = {},
): OracleResult {
  const o = { ...SPACE_SHARING_DEFAULTS, ...options };
  const owner: number[] = [];
  platform.machines.forEach((m) => {
    for (let c = 0; c < m.cores; c++) owner.push(m.id);
  });
  const P = owner.length;
  const speed = owner.map((m) => platform.machines[m]!.speed);
  const cluster = owner.map((m) => platform.machines[m]!.cluster);
  const latency = cluster.map((k) => {
    const link = platform.clusters[k]!.link;
    return link === undefined ? 0 : platform.links[link]!.latency;
  });
  const fitness = fitnessFactors(speed, o.mpl);
  const random = new Random(o.seed, "baseline/selection");

  const idle = new Uint8Array(P).fill(1);
  const running: OracleRecord[] = [];
  const done: OracleRecord[] = [];
  const queue: Job[] = [];
  let held = 0;

  const duration = (job: Job, processors: readonly number[], weights: ArrayLike<number>) => {
    const k = processors.length;
    const root = processors[0]!;
    const bytes = (job.input ?? []).reduce((sum, d) => sum + d.size, 0);
    let scatter = 0;
    for (const p of processors.slice(1)) {
      scatter += o.startup + bytes / k / o.bandwidth;
      if (cluster[p] !== cluster[root]) scatter += latency[p]! + latency[root]!;
    }
    const tasks = Math.max(job.maxParallelism ?? job.cores, k);
    const taskWork = (job.runtime * job.cores * benchmarkOf(job, platform)) / tasks;
    const bunches = taskBunches(weights, tasks);
    let longest = 0;
    processors.forEach((p, i) => {
      longest = Math.max(longest, (bunches[i]! * taskWork) / speed[p]!);
    });
    return scatter + longest;
  };

  /** The head's processors now, or null while it must wait. */
  const place = (job: Job): { processors: number[]; weights: ArrayLike<number> } | null => {
    const free = idle.reduce((n, x) => n + x, 0);
    const widest = job.maxParallelism ?? job.cores;
    const behind = queue.length - 1;
    if (o.policy === "dynamic") {
      const target = Math.min(
        widest,
        dynamicPartitionSize({ processors: P, queued: behind, executing: running.length }),
      );
      if (free < dynamicGate(o.dynamicAllotment, target, o.alpha)) return null;
      const processors = selectProcessors(platform, owner, idle, Math.min(target, free), {
        cluster: o.clusterSelection,
        proximity: o.clusterProximity,
      });
      return processors === null
        ? null
        : { processors, weights: processors.map((p) => fitness[p]!) };
    }
    const size =
      o.baselinePartition === "map"
        ? mapPartitionSize({
            processors: P,
            queued: behind,
            executing: running.length,
            executingWeight: o.executingWeight,
          })
        : adaptivePartitionSize(P, behind);
    const target = Math.min(widest, size);
    if (free < target) return null;
    const processors = chooseBaseline(idle, speed, target, o.baselineSelection, random);
    return { processors, weights: processors.map(() => 1) };
  };

  let next = 0;
  let now = jobs.length > 0 ? jobs[0]!.submit : 0;
  while (next < jobs.length || running.length > 0) {
    const ends = running.map((r) => r.end).filter((e) => e > now);
    now = Math.min(next < jobs.length ? jobs[next]!.submit : Number.POSITIVE_INFINITY, ...ends);
    for (const r of running.filter((x) => x.end <= now)) {
      for (const p of r.processors) idle[p] = 1;
      held += r.processors.length * (r.end - r.start);
      done.push(r);
      running.splice(running.indexOf(r), 1);
    }
    while (next < jobs.length && jobs[next]!.submit <= now) queue.push(jobs[next++]!);
    queue.sort((a, b) => a.submit - b.submit || a.id - b.id);
    for (let head = queue[0]; head !== undefined; head = queue[0]) {
      const got = place(head);
      if (got === null) break;
      for (const p of got.processors) idle[p] = 0;
      const end = now + duration(head, got.processors, got.weights);
      running.push({ job: head, start: now, end, processors: got.processors });
      queue.shift();
    }
  }
  done.sort((a, b) => a.end - b.end || a.job.id - b.job.id);
  const first = jobs.length > 0 ? jobs[0]!.submit : 0;
  const span = done.reduce((m, r) => Math.max(m, r.end), first) - first;
  const meanResponse =
    done.length === 0 ? 0 : done.reduce((s, r) => s + r.end - r.job.submit, 0) / done.length;
  return { records: done, meanResponse, utilization: span > 0 ? held / (P * span) : 0 };
}
