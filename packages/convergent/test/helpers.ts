import {
  createJob,
  createPlatform,
  type Job,
  type JobSpec,
  type Platform,
  type RunningJob,
  type SchedulerView,
  type WaitingJob,
} from "@sched/core";
import type { HeuristicContext, MatrixJob } from "../src/heuristic.js";
import { buildMatrix } from "../src/matrix.js";

/** Three machines: m0 2 cores speed 1, m1 4 cores speed 2, m2 1 core speed 4; reference speed 1. */
export function farm(extra: Partial<Parameters<typeof createPlatform>[0]> = {}): Platform {
  return createPlatform({
    machines: [
      { cores: 2, speed: 1 },
      { cores: 4, speed: 2 },
      { cores: 1, speed: 4 },
    ],
    referenceSpeed: 1,
    ...extra,
  });
}

export function job(spec: Partial<JobSpec> & { id: number }): Job {
  return createJob({ submit: 0, runtime: 100, cores: 1, ...spec });
}

export function rowOf(j: Job, progress = 0, machine = -1): MatrixJob {
  return { job: j, progress, machine };
}

/** The context the heuristics would see (eligibility from the minimal requirements). */
export function contextOf(
  platform: Platform,
  rows: readonly MatrixJob[],
  now = 0,
  previous?: number[],
): HeuristicContext {
  return buildMatrix(
    {
      now,
      platform,
      jobs: rows,
      ...(previous === undefined ? {} : { previous: Int32Array.from(previous) }),
    },
    [],
  ).context;
}

/** Row `i` of a row-major matrix. */
export function row(p: Float64Array, i: number, cols: number): number[] {
  return Array.from(p.subarray(i * cols, (i + 1) * cols));
}

/**
 * A bare scheduler view over `running` and `waiting` as given (the arrays themselves, so a test
 * can reuse or change one in place as the engine does): what `convergentPriority` reads. The
 * resource members answer "nothing free".
 */
export function rankingView(
  platform: Platform,
  now: number,
  running: RunningJob[],
  waiting: WaitingJob[],
): SchedulerView {
  return {
    now,
    platform,
    waiting,
    waitingCount: waiting.length,
    waitingAt: (i) => waiting[i],
    nextFreeMachine: () => -1,
    running,
    freeCores: () => 0,
    totalFreeCores: 0,
    freeLicenses: () => 0,
    duration: (_j, _a, s) => s,
    isWaiting: (id) => waiting.some((w) => w.job.id === id),
    isRunning: (id) => running.some((r) => r.job.id === id),
  };
}
