import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { bench, describe } from "vitest";
import { builtCliAndFolder, loadAverage, lublinGenArgs, measure } from "./whole-process.js";

// CPU of writing traces and results (issue 22), whole processes on a Lublin-Feitelson trace
// (256 processors, seed 1): `sched-sim gen` writing the SWF and the native JSON Lines, `run -s
// easy` on the SWF without and with `--out` (jobs.csv), `convert` of the SWF to SWF and to the
// native format, into files and to stdout (redirected to a file), and of the JSON Lines to SWF
// (streamed: CPU and max RSS, which must not grow with the trace). Targets: gen of 1M jobs under
// 3 s of CPU either format; run --out within 1.5x of run; convert of 1M jobs under 200 MB of RSS.
// WRITE_BENCH_JOBS sets the size (1000000). WRITE_BENCH_BASELINE=path/to/cli.js (another build,
// e.g. main's, made with `pnpm exec tsup --out-dir DIR` in apps/sim) is measured too, interleaved
// with this build, REPS times each (WRITE_BENCH_REPS, 2), and the ratios printed; both builds'
// files must have the same bytes.

const JOBS = Number(process.env.WRITE_BENCH_JOBS ?? "1000000");
const REPS = Number(process.env.WRITE_BENCH_REPS ?? "2");
const BASELINE = process.env.WRITE_BENCH_BASELINE;
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

let measured = false;
const built = builtCliAndFolder("sched-sim-write-");

interface Costs {
  gen: number[];
  run: number[];
  runOut: number[];
  /** convert --to swf, --to native: CPU and max RSS (MB). */
  convert: number[];
  convertRss: number[];
  convertNative: number[];
  convertNativeRss: number[];
  /** gen to JSON Lines. */
  genJsonl: number[];
  /** convert of the JSON Lines --to swf (file): CPU and max RSS (MB). */
  fromNative: number[];
  fromNativeRss: number[];
  /** convert --to swf, --to native to stdout: CPU and max RSS (MB). */
  stdoutSwf: number[];
  stdoutSwfRss: number[];
  stdoutNative: number[];
  stdoutNativeRss: number[];
}

const emptyCosts = (): Costs => ({
  gen: [],
  run: [],
  runOut: [],
  convert: [],
  convertRss: [],
  convertNative: [],
  convertNativeRss: [],
  genJsonl: [],
  fromNative: [],
  fromNativeRss: [],
  stdoutSwf: [],
  stdoutSwfRss: [],
  stdoutNative: [],
  stdoutNativeRss: [],
});

/** One round of the three commands with `build`, the files written under `dir/name`. */
function round(build: string, name: string, costs: Costs): void {
  const trace = join(built.dir, `${name}.swf`);
  const out = join(built.dir, `${name}-out`);
  const gen = measure([process.execPath, build, ...lublinGenArgs(JOBS, trace)]);
  const run = measure([process.execPath, build, "run", "-w", trace, "-s", "easy"]);
  const runOut = measure([process.execPath, build, "run", "-w", trace, "-s", "easy", "--out", out]);
  costs.gen.push(gen.cpu);
  costs.run.push(run.cpu);
  costs.runOut.push(runOut.cpu);
  // `convert input --to to` into `output`: with --out, or to stdout redirected to it by a shell
  // that `exec`s node (so the cost is node's alone).
  const convert = (input: string, to: string, output: string, stdout = false) => {
    const args = [process.execPath, build, "convert", input, "--to", to];
    return stdout
      ? measure(["sh", "-c", 'exec "$0" "$@" > "$OUT"', ...args], undefined, {
          ...process.env,
          OUT: output,
        })
      : measure([...args, "--out", output]);
  };
  const swf = convert(trace, "swf", join(built.dir, `${name}-c.swf`));
  costs.convert.push(swf.cpu);
  costs.convertRss.push(swf.maxRssMb);
  const native = convert(trace, "native", join(built.dir, `${name}-c.jsonl`));
  costs.convertNative.push(native.cpu);
  costs.convertNativeRss.push(native.maxRssMb);
  const jsonl = join(built.dir, `${name}.jsonl`);
  costs.genJsonl.push(measure([process.execPath, build, ...lublinGenArgs(JOBS, jsonl)]).cpu);
  const fromNative = convert(jsonl, "swf", join(built.dir, `${name}-n.swf`));
  costs.fromNative.push(fromNative.cpu);
  costs.fromNativeRss.push(fromNative.maxRssMb);
  const toStdout = (to: string, ext: string) =>
    convert(trace, to, join(built.dir, `${name}-s.${ext}`), true);
  const stdoutSwf = toStdout("swf", "swf");
  costs.stdoutSwf.push(stdoutSwf.cpu);
  costs.stdoutSwfRss.push(stdoutSwf.maxRssMb);
  const stdoutNative = toStdout("native", "jsonl");
  costs.stdoutNative.push(stdoutNative.cpu);
  costs.stdoutNativeRss.push(stdoutNative.maxRssMb);
}

const min = (xs: readonly number[]) => Math.min(...xs);

async function fileBytes(path: string): Promise<number> {
  return (await stat(path)).size;
}

/**
 * Whether two native files converted from `base.swf` and `current.swf` have the same bytes, but
 * for the input's name in the header line (`meta.source`).
 */
async function sameNative(base: string, current: string): Promise<boolean> {
  const a = await readFile(base);
  const b = await readFile(current);
  const endA = a.indexOf(10);
  const endB = b.indexOf(10);
  const headerA = a.subarray(0, endA).toString("utf8").replace('"base.swf"', '"current.swf"');
  return (
    headerA === b.subarray(0, endB).toString("utf8") && a.subarray(endA).equals(b.subarray(endB))
  );
}

describe("writing traces and results, whole process: CPU of gen and of run --out", () => {
  bench(
    `gen lublin --jobs ${JOBS}, run -s easy with and without --out`,
    async () => {
      // vitest may call a bench function more than once: measure once.
      if (measured) return;
      measured = true;
      const current = emptyCosts();
      const base = emptyCosts();
      for (let k = 0; k < REPS; k++) {
        if (BASELINE !== undefined) round(BASELINE, "base", base);
        round(built.cli, "current", current);
      }
      const swf = await fileBytes(join(built.dir, "current.swf"));
      const csv = await fileBytes(join(built.dir, "current-out", "jobs.csv"));
      console.log(
        `[write] ${JOBS} jobs (${(swf / 1e6).toFixed(0)} MB of SWF, ${(csv / 1e6).toFixed(0)} MB of jobs.csv), min of ${REPS}: ` +
          `gen ${min(current.gen).toFixed(2)} s CPU; run ${min(current.run).toFixed(2)} s, run --out ${min(current.runOut).toFixed(2)} s ` +
          `(x${(min(current.runOut) / min(current.run)).toFixed(2)}); ` +
          `convert --to swf ${min(current.convert).toFixed(2)} s, ${min(current.convertRss).toFixed(0)} MB RSS; ` +
          `--to native ${min(current.convertNative).toFixed(2)} s, ${min(current.convertNativeRss).toFixed(0)} MB RSS; load ${loadAverage()}`,
      );
      console.log(
        `[write] gen to JSON Lines ${min(current.genJsonl).toFixed(2)} s CPU; convert of the JSON Lines --to swf ${min(current.fromNative).toFixed(2)} s, ${min(current.fromNativeRss).toFixed(0)} MB RSS; ` +
          `to stdout: --to swf ${min(current.stdoutSwf).toFixed(2)} s, ${min(current.stdoutSwfRss).toFixed(0)} MB RSS; --to native ${min(current.stdoutNative).toFixed(2)} s, ${min(current.stdoutNativeRss).toFixed(0)} MB RSS; load ${loadAverage()}`,
      );
      if (BASELINE !== undefined) {
        const same = async (a: string, b: string) => (await readFile(a)).equals(await readFile(b));
        const identical =
          (await same(join(built.dir, "base.swf"), join(built.dir, "current.swf"))) &&
          (await same(
            join(built.dir, "base-out", "jobs.csv"),
            join(built.dir, "current-out", "jobs.csv"),
          )) &&
          (await same(join(built.dir, "base-c.swf"), join(built.dir, "current-c.swf"))) &&
          (await sameNative(join(built.dir, "base-c.jsonl"), join(built.dir, "current-c.jsonl"))) &&
          (await same(join(built.dir, "base.jsonl"), join(built.dir, "current.jsonl"))) &&
          (await same(join(built.dir, "base-n.swf"), join(built.dir, "current-n.swf"))) &&
          (await same(join(built.dir, "base-s.swf"), join(built.dir, "current-s.swf"))) &&
          (await sameNative(join(built.dir, "base-s.jsonl"), join(built.dir, "current-s.jsonl")));
        console.log(
          `[write] baseline ${BASELINE}: gen ${min(base.gen).toFixed(2)} s CPU (this build x${(min(base.gen) / min(current.gen)).toFixed(2)} faster); ` +
            `run --out ${min(base.runOut).toFixed(2)} s (x${(min(base.runOut) / min(current.runOut)).toFixed(2)} faster), run ${min(base.run).toFixed(2)} s; ` +
            `convert --to swf ${min(base.convert).toFixed(2)} s, ${min(base.convertRss).toFixed(0)} MB RSS (x${(min(base.convert) / min(current.convert)).toFixed(2)} faster), ` +
            `--to native ${min(base.convertNative).toFixed(2)} s, ${min(base.convertNativeRss).toFixed(0)} MB RSS (x${(min(base.convertNative) / min(current.convertNative)).toFixed(2)} faster); ` +
            `same bytes: ${identical ? "yes" : "NO"}; load ${loadAverage()}`,
        );
        const x = (a: number[], b: number[]) => (min(a) / min(b)).toFixed(2);
        console.log(
          `[write] baseline ${BASELINE}: gen to JSON Lines ${min(base.genJsonl).toFixed(2)} s CPU (this build x${x(base.genJsonl, current.genJsonl)} faster); ` +
            `convert of the JSON Lines --to swf ${min(base.fromNative).toFixed(2)} s, ${min(base.fromNativeRss).toFixed(0)} MB RSS (x${x(base.fromNative, current.fromNative)} faster); ` +
            `to stdout: --to swf ${min(base.stdoutSwf).toFixed(2)} s, ${min(base.stdoutSwfRss).toFixed(0)} MB RSS (x${x(base.stdoutSwf, current.stdoutSwf)} faster, x${x(base.stdoutSwfRss, current.stdoutSwfRss)} less RSS); ` +
            `--to native ${min(base.stdoutNative).toFixed(2)} s, ${min(base.stdoutNativeRss).toFixed(0)} MB RSS (x${x(base.stdoutNative, current.stdoutNative)} faster, x${x(base.stdoutNativeRss, current.stdoutNativeRss)} less RSS); load ${loadAverage()}`,
        );
        if (!identical) throw new Error("this build's files differ from the baseline's");
      }
    },
    once,
  );
});
