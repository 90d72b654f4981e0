import { createHash } from "node:crypto";
import type { Job } from "@sched/core";
import { describe } from "vitest";
import { WORKLOAD_MODELS } from "../src/models.js";
import { JobsToSwfTally, jobsToSwf, jobToSwfRecord } from "../src/swf-from-jobs.js";
import { SwfWriter } from "../src/swf-writer.js";
import { benchOnce, interleavedCpu, loadText } from "./interleaved.js";

// Jobs written as SWF, CPU per job: `jobsToSwf` (the whole trace in memory: `sched-sim gen` of a
// model without its own SWF, `convert` of a file it reads whole) and the two passes of
// `sched-sim convert --to swf` on a long trace (`JobsToSwfTally.add` for every job, then
// `jobToSwfRecord` for every job; the SwfWriter's own time left out), on the jobs
// `sched-sim gen lublin` makes (256 processors, seed 1; SWF_FROM_JOBS_LUBLIN of them, 100,000 by
// default) and on 20,000 convergent jobs (licenses, input data: a Note counts them).
//
// SWF_FROM_JOBS_ROUNDS rounds (9) of each way on each model, every build once a round, in turns
// that start one later each round (one untimed round first); medians. SWF_FROM_JOBS_BASELINE names ESM builds
// of @sched/workload (comma-separated; see bench/jobs-jsonl.bench.ts for an esbuild bundle of a
// revision): compare bundles with bundles, this source runs through vitest's module transform.
// Every build must write the same bytes (both ways, through this source's SwfWriter).
// SWF_FROM_JOBS_MODELS=lublin runs the Lublin jobs alone: a process whose writers have seen one
// job shape (a usual `gen lublin | convert` process), where the default, both models in turn, is
// one that has seen several (a long-lived process, a test run).

type Api = {
  jobsToSwf: typeof jobsToSwf;
  JobsToSwfTally: typeof JobsToSwfTally;
  jobToSwfRecord: typeof jobToSwfRecord;
};

const LUBLIN_JOBS = Number(process.env.SWF_FROM_JOBS_LUBLIN ?? "100000");
const ROUNDS = Number(process.env.SWF_FROM_JOBS_ROUNDS ?? "9");
const WANTED = (process.env.SWF_FROM_JOBS_MODELS ?? "lublin,convergent").split(",");

const MODELS: [string, readonly Job[]][] = [];
if (WANTED.includes("lublin")) {
  const m = WORKLOAD_MODELS.find((x) => x.name === "lublin")!;
  const jobs = m.generate({ jobs: LUBLIN_JOBS, procs: 256, seed: 1 }).jobs;
  MODELS.push([`lublin, ${LUBLIN_JOBS.toLocaleString("en")} jobs`, jobs]);
}
if (WANTED.includes("convergent")) {
  const m = WORKLOAD_MODELS.find((x) => x.name === "convergent")!;
  MODELS.push(["convergent, 20,000 jobs", m.generate({ jobs: 20_000, seed: 1 }).jobs]);
}

/** jobsToSwf's trace, the jobs' records summed (what the compiler cannot drop). */
function whole(api: Api, jobs: readonly Job[]): number {
  const { header, records } = api.jobsToSwf(jobs, { maxProcs: 256 });
  let sum = header.maxJobs ?? 0;
  for (const r of records) sum += r.jobNumber;
  return sum;
}

/** The two passes of convert: count every job, then each job's record. */
function twoPasses(api: Api, jobs: readonly Job[]): number {
  const tally = new api.JobsToSwfTally();
  for (const j of jobs) tally.add(j);
  let sum = tally.header({ maxProcs: 256 }).maxJobs ?? 0;
  for (const j of jobs) sum += api.jobToSwfRecord(j).jobNumber;
  return sum;
}

/** A hash of the bytes each way writes (jobsToSwf's trace; the tally's header and the records). */
function writtenHashes(api: Api, jobs: readonly Job[]): string {
  const hashes: string[] = [];
  for (const way of ["whole", "passes"]) {
    const hash = createHash("sha256");
    const writer = new SwfWriter((b) => hash.update(b));
    if (way === "whole") {
      const { header, records } = api.jobsToSwf(jobs, { maxProcs: 256 });
      writer.header(header);
      for (const r of records) writer.record(r);
    } else {
      const tally = new api.JobsToSwfTally();
      for (const j of jobs) tally.add(j);
      writer.header(tally.header({ maxProcs: 256 }));
      for (const j of jobs) writer.record(api.jobToSwfRecord(j));
    }
    writer.flush();
    hashes.push(hash.digest("hex"));
  }
  return hashes.join(" ");
}

const own: Api = { jobsToSwf, JobsToSwfTally, jobToSwfRecord };
const builds: [string, Api][] = [["this source", own]];
for (const path of (process.env.SWF_FROM_JOBS_BASELINE ?? "").split(",").filter((p) => p !== "")) {
  builds.push([path, (await import(path)) as Api]);
}
if (builds.length > 1) {
  for (const [name, jobs] of MODELS) {
    const expected = writtenHashes(own, jobs);
    for (const [path, api] of builds.slice(1)) {
      if (writtenHashes(api, jobs) !== expected) {
        throw new Error(`${name}: ${path} writes other bytes than this source`);
      }
    }
  }
}

describe("jobs as SWF, ns per job (interleaved with SWF_FROM_JOBS_BASELINE's builds)", () => {
  benchOnce(`${ROUNDS} rounds`, () => {
    const ways = [
      ["jobsToSwf", whole],
      ["tally.add + jobToSwfRecord", twoPasses],
    ] as const;
    for (const [name, jobs] of MODELS) {
      for (const [way, run] of ways) {
        const times = interleavedCpu(builds.length, ROUNDS, jobs.length, (b) =>
          run(builds[b]![1], jobs),
        );
        console.log(
          `[swf-from-jobs] ${name}, ${way}: ` +
            builds
              .map(([path], b) => {
                const ratio = b === 0 ? "" : ` (x${(times[b]! / times[0]!).toFixed(2)})`;
                return `${path} ${times[b]!.toFixed(0)} ns/job${ratio}`;
              })
              .join("; ") +
            ` (CPU, medians of ${ROUNDS}); ${loadText()}`,
        );
      }
    }
  });
});
