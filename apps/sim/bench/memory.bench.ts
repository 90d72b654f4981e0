import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { bench, describe } from "vitest";
import { builtCliAndFolder, loadAverage, lublinGenArgs, measure } from "./whole-process.js";

// Memory of whole processes on Lublin-Feitelson traces (256 processors, seed 1): `sched-sim gen`
// writing the trace, then `sched-sim run -s easy --estimate runtime` on it, the same on the trace
// gzipped (as the Parallel Workloads Archive ships its traces: the byte scanner reads it as it is
// gunzipped; gzip level 1 here, to keep the bench short; the results must be the plain trace's),
// `sched-sim inspect` (it reads the trace once, with the byte scanner `run` uses: `gen` writes
// each job's requested time, so the estimate "auto" is decided in the first records) and
// `sched-sim convert --to batsim` of it into a file, each a child process whose max
// RSS /usr/bin/time reports, with Node's default heap; then `sched-sim sweep` of an experiment
// file on that trace (EASY, FCFS and, at 1M jobs, conservative; two worker threads: the whole
// process, threads included). Targets (issue 22): EASY on 1M
// jobs <= 300 MB; on 10M jobs, completes with the default heap, <= 1.5 GB. The 10M case writes a
// 1.1 GB trace to the temporary folder and takes minutes; MEMORY_BENCH_JOBS=1000000 leaves it out.

const SIZES = (process.env.MEMORY_BENCH_JOBS ?? "1000000,10000000").split(",").map(Number);
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };

const measured = new Set<number>();
const built = builtCliAndFolder("sched-sim-memory-");

describe("Lublin traces, whole process: max RSS of gen, of run -s easy, of inspect and of a sweep", () => {
  for (const jobs of SIZES) {
    bench(
      `${jobs} jobs`,
      async () => {
        // vitest may call a bench function more than once: measure once.
        if (measured.has(jobs)) return;
        measured.add(jobs);
        const trace = join(built.dir, `lublin-${jobs}.swf`);
        const gen = measure([process.execPath, built.cli, ...lublinGenArgs(jobs, trace)]);
        const size = (await stat(trace)).size;
        console.log(
          `[memory] gen lublin --jobs ${jobs}: max RSS ${gen.maxRssMb.toFixed(0)} MB, CPU ${gen.cpu.toFixed(1)} s (${(size / 1e6).toFixed(0)} MB of SWF)`,
        );
        const run = measure([
          process.execPath,
          built.cli,
          "run",
          "-w",
          trace,
          "-s",
          "easy",
          "--estimate",
          "runtime",
        ]);
        const table = run.stdout.trim().split("\n").at(-1);
        console.log(
          `[memory] run -s easy on ${jobs} Lublin jobs (256 procs): max RSS ${run.maxRssMb.toFixed(0)} MB, CPU ${run.cpu.toFixed(1)} s, wall ${run.wall.toFixed(1)} s; load ${loadAverage()}; ${table}`,
        );
        const gz = `${trace}.gz`;
        await pipeline(createReadStream(trace), createGzip({ level: 1 }), createWriteStream(gz));
        const runGz = measure([
          process.execPath,
          built.cli,
          "run",
          "-w",
          gz,
          "-s",
          "easy",
          "--estimate",
          "runtime",
        ]);
        const tableGz = runGz.stdout.trim().split("\n").at(-1);
        console.log(
          `[memory] run -s easy on the same trace gzipped (${((await stat(gz)).size / 1e6).toFixed(0)} MB): max RSS ${runGz.maxRssMb.toFixed(0)} MB, CPU ${runGz.cpu.toFixed(1)} s, wall ${runGz.wall.toFixed(1)} s; load ${loadAverage()}; ${tableGz === table ? "the same results" : `OTHER RESULTS: ${tableGz}`}`,
        );
        await rm(gz, { force: true });
        const inspect = measure([process.execPath, built.cli, "inspect", trace]);
        console.log(
          `[memory] inspect on ${jobs} Lublin jobs: max RSS ${inspect.maxRssMb.toFixed(0)} MB, CPU ${inspect.cpu.toFixed(1)} s, wall ${inspect.wall.toFixed(1)} s; load ${loadAverage()}`,
        );
        // Batsim's JSON, written as the trace is read (nb_res and the profiles at the end).
        const batsim = join(built.dir, `lublin-${jobs}.json`);
        const convert = measure([
          process.execPath,
          built.cli,
          "convert",
          trace,
          "--to",
          "batsim",
          "--out",
          batsim,
        ]);
        console.log(
          `[memory] convert --to batsim on ${jobs} Lublin jobs: max RSS ${convert.maxRssMb.toFixed(0)} MB, CPU ${convert.cpu.toFixed(1)} s, wall ${convert.wall.toFixed(1)} s; load ${loadAverage()}`,
        );
        await rm(batsim, { force: true });
        // A sweep: each run streams the trace from its file, as `run` does (conservative, on the
        // general engine, takes about 7 s per million jobs here: left out at 10M).
        const schedulers = jobs > 1_000_000 ? ["easy", "fcfs"] : ["easy", "fcfs", "conservative"];
        const experiment = join(built.dir, `sweep-${jobs}.json`);
        await writeFile(
          experiment,
          JSON.stringify({
            name: `lublin-${jobs}`,
            workload: { type: "swf", path: trace, estimate: "runtime" },
            schedulers,
          }),
        );
        const out = await mkdtemp(join(built.dir, "sweep-out-"));
        const sweep = measure([
          process.execPath,
          built.cli,
          "sweep",
          experiment,
          "--out",
          out,
          "--jobs",
          "2",
          "--quiet",
        ]);
        console.log(
          `[memory] sweep of ${schedulers.join(", ")} on ${jobs} Lublin jobs (2 worker threads): max RSS ${sweep.maxRssMb.toFixed(0)} MB, CPU ${sweep.cpu.toFixed(1)} s, wall ${sweep.wall.toFixed(1)} s; load ${loadAverage()}`,
        );
        await rm(out, { recursive: true, force: true });
        await rm(trace, { force: true });
      },
      once,
    );
  }
});
