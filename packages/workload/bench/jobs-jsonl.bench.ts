import { bench, describe } from "vitest";
import {
  createJobsLineReader,
  formatJobJson,
  formatJobsJsonl,
  parseJobsJsonl,
} from "../src/jobs-json.js";
import { JobsJsonlWriter } from "../src/jobs-jsonl-writer.js";
import { WORKLOAD_MODELS } from "../src/models.js";
import { benchOnce, interleavedCpu, loadText } from "./interleaved.js";

// Writing native JSON Lines: the string formatter (`formatJobJson` per job, a string per line)
// against `JobsJsonlWriter` (bytes into one reusable chunk), on the jobs `sched-sim gen lublin`
// writes (100,000 here, 256 processors, seed 1) and on convergent's jobs (licenses, input data).
// Both write the same bytes (checked before the benches; the property tests check it on random jobs).
//
// Then the writer's ns/job of CPU, timed by hand: JOBS_JSONL_ROUNDS rounds (9), each writing the jobs
// once with this source's writer and once with each build named in JOBS_JSONL_BASELINE (paths to
// ESM builds of @sched/workload, comma-separated: main's packages/workload/dist/index.js, or an
// esbuild bundle of an older revision's src/index.ts), in turns, so that every build sees the
// same load; the median of each, and each baseline's time over this one's. Every build must write
// the same bytes. This source runs through vitest's module transform, which measured 20-30% slower
// than an esbuild bundle of the same code in the same run: compare bundles with bundles (a bundle
// of this worktree too). A bundle of revision REV, from the repository's root:
//   git archive REV packages | tar -x -C DIR
//   node_modules/.pnpm/esbuild@0.27.7/node_modules/esbuild/bin/esbuild \
//     DIR/packages/workload/src/index.ts --bundle --platform=node --format=esm \
//     --alias:@sched/core=DIR/packages/core/src/index.ts (and so for errors and random) \
//     --outfile=REV.mjs   (with NODE_PATH=packages/core/node_modules, for heap-js)

const lublin = WORKLOAD_MODELS.find((m) => m.name === "lublin")!.generate({
  jobs: 100_000,
  procs: 256,
  seed: 1,
}).jobs;
const convergent = WORKLOAD_MODELS.find((m) => m.name === "convergent")!.generate({
  jobs: 20_000,
  seed: 1,
}).jobs;

type Jobs = readonly (typeof lublin)[number][];
type Writer = new (
  sink: (bytes: Uint8Array) => void,
) => { job(job: Jobs[number]): void; flush(): void };

function viaStrings(jobs: Jobs): number {
  let bytes = 0;
  for (const j of jobs) bytes += Buffer.byteLength(`${formatJobJson(j)}\n`);
  return bytes;
}

function viaWriter(jobs: Jobs, Writer: Writer = JobsJsonlWriter): number {
  let bytes = 0;
  const writer = new Writer((chunk) => {
    bytes += chunk.length;
  });
  for (const j of jobs) writer.job(j);
  writer.flush();
  return bytes;
}

/** The bytes `Writer` writes for `jobs`. */
function written(jobs: Jobs, Writer: Writer): Buffer {
  const chunks: Buffer[] = [];
  const writer = new Writer((chunk) => chunks.push(Buffer.from(chunk)));
  for (const j of jobs) writer.job(j);
  writer.flush();
  return Buffer.concat(chunks);
}

const MODELS = [
  ["lublin, 100,000 jobs", lublin],
  ["convergent, 20,000 jobs (licenses, input data)", convergent],
] as const;

for (const [name, jobs] of MODELS) {
  const text = jobs.map((j) => `${formatJobJson(j)}\n`).join("");
  if (!written(jobs, JobsJsonlWriter).equals(Buffer.from(text))) {
    throw new Error(`${name}: the two writers' bytes differ`);
  }
  describe(`native JSON Lines, ${name}`, () => {
    bench("formatJobJson per job (string per line, as UTF-8)", () => {
      viaStrings(jobs);
    });
    bench("JobsJsonlWriter (bytes into a reused chunk)", () => {
      viaWriter(jobs);
    });
  });
}

const ROUNDS = Number(process.env.JOBS_JSONL_ROUNDS ?? "9");
const baselines: { path: string; Writer: Writer }[] = [];
for (const path of (process.env.JOBS_JSONL_BASELINE ?? "").split(",").filter((p) => p !== "")) {
  const { JobsJsonlWriter: Writer } = (await import(path)) as { JobsJsonlWriter: Writer };
  for (const [name, jobs] of MODELS) {
    if (!written(jobs, Writer).equals(written(jobs, JobsJsonlWriter))) {
      throw new Error(`${name}: ${path} writes other bytes than this source`);
    }
  }
  baselines.push({ path, Writer });
}

describe("JobsJsonlWriter, ns per job (interleaved with JOBS_JSONL_BASELINE's builds)", () => {
  benchOnce(`${ROUNDS} rounds`, () => {
    const writers: [string, Writer][] = [
      ["this source", JobsJsonlWriter],
      ...baselines.map((b): [string, Writer] => [b.path, b.Writer]),
    ];
    for (const [name, jobs] of MODELS) {
      const times = interleavedCpu(writers.length, ROUNDS, jobs.length, (w) =>
        viaWriter(jobs, writers[w]![1]),
      );
      const own = times[0]!;
      console.log(
        `[jobs-jsonl] ${name}: this source ${own.toFixed(0)} ns/job of CPU (median of ${ROUNDS})` +
          writers
            .slice(1)
            .map(
              ([path], i) =>
                `; ${path} ${times[i + 1]!.toFixed(0)} ns/job (x${(times[i + 1]! / own).toFixed(2)} this source's time)`,
            )
            .join("") +
          `; ${loadText()}`,
      );
    }
  });
});

// Reading: CPU per line of `parseJobsJsonl` (this source, and each build named in
// JOBS_JSONL_BASELINE, in turns; every build must read the same jobs), and of this source's
// `createJobsLineReader` on the same lines (no text split, no array of jobs). The Lublin lines
// are the usual shape the scanner reads; convergent's (licenses, input data) go to JSON.parse.
type Parse = (text: string) => { jobs: readonly Jobs[number][] };
const parsers: { path: string; parse: Parse }[] = [];
for (const path of (process.env.JOBS_JSONL_BASELINE ?? "").split(",").filter((p) => p !== "")) {
  const { parseJobsJsonl: parse } = (await import(path)) as { parseJobsJsonl: Parse };
  parsers.push({ path, parse });
}

describe("parseJobsJsonl, ns per line (interleaved with JOBS_JSONL_BASELINE's builds)", () => {
  benchOnce(`${ROUNDS} rounds`, () => {
    const builds: [string, Parse][] = [
      ["this source", parseJobsJsonl],
      ...parsers.map((p): [string, Parse] => [p.path, p.parse]),
    ];
    for (const [name, jobs] of MODELS) {
      const text = formatJobsJsonl(jobs);
      const lines = text.split("\n");
      const own = JSON.stringify(parseJobsJsonl(text).jobs);
      for (const [path, parse] of builds) {
        if (JSON.stringify(parse(text).jobs) !== own) {
          throw new Error(`${name}: ${path} reads other jobs than this source`);
        }
      }
      const times = interleavedCpu(builds.length, ROUNDS, jobs.length, (b) => {
        builds[b]![1](text);
      });
      const [byLine] = interleavedCpu(1, ROUNDS, jobs.length, () => {
        const reader = createJobsLineReader();
        for (const line of lines) reader.next(line);
      });
      console.log(
        `[jobs-jsonl read] ${name}: parseJobsJsonl ${times[0]!.toFixed(0)} ns/line, createJobsLineReader ${byLine!.toFixed(0)} ns/line (medians of ${ROUNDS})` +
          builds
            .slice(1)
            .map(
              ([path], i) =>
                `; ${path} parseJobsJsonl ${times[i + 1]!.toFixed(0)} ns/line (x${(times[i + 1]! / times[0]!).toFixed(2)} this source's time)`,
            )
            .join("") +
          `; ${loadText()}`,
      );
    }
  });
});
