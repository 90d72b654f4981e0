import {
  createJob,
  identicalPool,
  type Job,
  type Platform,
  type RunningJob,
  type WaitingJob,
} from "@sched/core";
import { convergentWorkload } from "@sched/workload";
import { bench, describe } from "vitest";
import type { MatrixJob } from "../src/heuristic.js";
import { eligibilityRow } from "../src/minimal-requirements.js";
import { PAPER_CONSTANTS } from "../src/paper-heuristics.js";
import { PaperIncrementalMatrix, UNCHECKED_COSTS } from "../src/paper-incremental.js";
import { convergentPriority } from "../src/priority.js";
import { rankingView } from "../test/helpers.js";

// The ranking of BF-rm / BF-unrm at one scheduling event: every waiting job's priority, as
// `@sched/backfill`'s flexible sorter asks for it. Each iteration is one event (the clock
// moves 5 s, so the costs are computed anew), the same jobs in the system:
// - farm: the convergent paper's farm (150 machines), R running and Q waiting jobs;
// - pool: 128 single-core machines, the Lublin traces' platform, 5 running and 12 waiting jobs
//   (the mean of 1M Lublin jobs under BF-rm).
// "convergentPriority" is the package's ranking; "sorted rows, UNCHECKED_COSTS" is how it
// ranked before 2026-11-28 (row objects sorted by submit time, then id, the from-scratch costs
// of all the rows, a map of costs by id), for comparison.

interface Scene {
  readonly platform: Platform;
  readonly running: RunningJob[];
  readonly waiting: WaitingJob[];
  readonly now: number;
}

function scene(
  platform: Platform,
  jobs: readonly Job[],
  nRunning: number,
  nWaiting: number,
): Scene {
  const cols = platform.machines.length;
  const now = (jobs[nRunning + nWaiting - 1] as Job).submit;
  const running = jobs.slice(0, nRunning).map(
    (job, i): RunningJob => ({
      job,
      allocation: [{ machine: i % cols, cores: 1 }],
      start: now,
      progressAtStart: 0,
      progress: 0.3,
      estimatedEnd: now + job.estimate,
    }),
  );
  const waiting = jobs
    .slice(nRunning, nRunning + nWaiting)
    .map((job): WaitingJob => ({ job, progress: 0, preemptions: 0 }));
  return { platform, running, waiting, now };
}

/** One event per call with convergentPriority. */
function ranked(s: Scene): () => void {
  const priority = convergentPriority();
  let k = 0;
  return () => {
    const view = rankingView(s.platform, s.now + 5 * (k++ % 2), s.running, s.waiting);
    for (const w of s.waiting) priority(w, view);
  };
}

/** One event per call the way convergentPriority did it before (see above). */
function sortedRows(s: Scene): () => void {
  const matrix = new PaperIncrementalMatrix({ constants: PAPER_CONSTANTS, incremental: false });
  const rowsOf = new WeakMap<Job, Uint8Array>();
  let k = 0;
  return () => {
    const now = s.now + 5 * (k++ % 2);
    const rows: MatrixJob[] = [];
    for (const r of s.running)
      rows.push({ job: r.job, progress: r.progress, machine: r.allocation[0]?.machine ?? -1 });
    for (const w of s.waiting) rows.push({ job: w.job, progress: w.progress, machine: -1 });
    rows.sort((a, b) => a.job.submit - b.job.submit || a.job.id - b.job.id);
    const previous = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) previous[i] = rows[i]!.machine;
    const costs = matrix[UNCHECKED_COSTS]({
      now,
      platform: s.platform,
      jobs: rows,
      previous,
      eligibility: (r: MatrixJob) => {
        let e = rowsOf.get(r.job);
        if (e === undefined) {
          e = eligibilityRow(r.job, s.platform);
          rowsOf.set(r.job, e);
        }
        return e;
      },
    });
    const byId = new Map<number, number>();
    for (let i = 0; i < rows.length; i++)
      if (rows[i]!.machine < 0) byId.set(rows[i]!.job.id, costs[i] as number);
    for (const w of s.waiting) byId.get(w.job.id);
  };
}

const farm = convergentWorkload({ seed: 11, meanInterArrival: 4, jobs: 1501 });
const pool = identicalPool(128);
const poolJobs = Array.from({ length: 17 }, (_, i) =>
  createJob({
    id: i,
    submit: 10 * i,
    runtime: 100 + 37 * i,
    cores: [1, 2, 8, 1, 32, 4, 1, 16][i % 8] as number,
  }),
);

const scenes: [string, Scene][] = [
  ["farm, 150 running + 200 waiting", scene(farm.platform, farm.jobs, 150, 200)],
  ["farm, 150 running + 600 waiting", scene(farm.platform, farm.jobs, 150, 600)],
  ["pool of 128, 5 running + 12 waiting", scene(pool, poolJobs, 5, 12)],
];

for (const [name, s] of scenes) {
  describe(`one ranking event, ${name}`, () => {
    bench("convergentPriority", ranked(s), { time: 300, iterations: 5 });
    bench("sorted rows, UNCHECKED_COSTS (before)", sortedRows(s), { time: 300, iterations: 5 });
  });
}
