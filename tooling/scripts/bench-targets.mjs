#!/usr/bin/env node
// `pnpm bench:targets`: the benchmarks of issue 22's targets (scale and speed), one after the
// other, each printing as it runs; then every figure they printed against its target, in one
// summary. The same bench files run under `pnpm bench` with the rest; this runs only these
// (6.4 minutes on a 2-core machine, most of it the 10M-job memory run and pyss).
//
//   pnpm bench:targets                       all four
//   pnpm bench:targets memory kth            some of them (names below)
//
// Environment, passed through to the benches: MEMORY_BENCH_JOBS (default "1000000,10000000"),
// KTH_ROUNDS (default 5), PYSS_SRC and PYTHON2 (pyss, the classic Python simulator: skipped with
// a note when missing), SCIPY_PYTHON (SciPy for the matching peer). Run it on a quiet machine:
// the figures are CPU times and ratios measured within one run.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Each bench: where it runs, its file, the target it measures, the lines of the summary. */
const BENCHES = [
  {
    name: "memory",
    dir: "apps/sim",
    file: "bench/memory.bench.ts",
    target:
      "EASY on 1M Lublin jobs, whole process, max RSS <= 300 MB; 10M jobs with the default heap, <= 1.5 GB (gen, inspect and a sweep beside it)",
    keep: (line) => line.startsWith("[memory]"),
  },
  {
    name: "kth",
    dir: "apps/sim",
    file: "bench/kth-vs-pyss.bench.ts",
    target:
      "EASY on KTH-SP2, whole process, CPU <= 0.30 s and >= 20 times less than pyss in the same run",
    keep: (line) => line.startsWith("[kth-vs-pyss]"),
  },
  {
    name: "matching",
    dir: "packages/matching",
    file: "bench/targets.bench.ts",
    target:
      "mfs <= SciPy's linear_sum_assignment (1000^2 and 2000^2); imfs + hint after one changed row or column <= 5% of mfs at 1000^2",
    keep: (line, inTable) =>
      inTable || /^(mfs vs SciPy|imfs after one changed|imfs \+ hint along a walk)/.test(line),
    table: true,
  },
  {
    name: "conservative",
    dir: "packages/backfill",
    file: "bench/conservative-ratio.bench.ts",
    target: "conservative / EASY CPU per job at load 1.01 <= 2",
    keep: (line) => line.startsWith("[conservative-ratio]"),
  },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !BENCHES.some((b) => b.name === w));
if (unknown.length > 0) {
  process.stderr.write(
    `bench:targets: unknown bench ${unknown.map((u) => `'${u}'`).join(", ")}; the names are ${BENCHES.map((b) => b.name).join(", ")}\n`,
  );
  process.exit(2);
}
const chosen = wanted.length === 0 ? BENCHES : BENCHES.filter((b) => wanted.includes(b.name));

/** Runs one bench, echoing its output; resolves to its exit code and its stdout's lines. */
function run(bench) {
  return new Promise((resolve) => {
    const child = spawn("pnpm", ["exec", "vitest", "bench", "--run", bench.file], {
      cwd: `${root}/${bench.dir}`,
      stdio: ["ignore", "pipe", "inherit"],
      // Plain text to read the figures from (the output is a pipe, but FORCE_COLOR may be set).
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      out += chunk;
    });
    child.on("close", (code) => resolve({ code: code ?? 1, lines: out.split("\n") }));
  });
}

const summary = [];
let failed = 0;
for (const bench of chosen) {
  process.stdout.write(`\n=== ${bench.name}: ${bench.dir}/${bench.file}\n`);
  const started = Date.now();
  const { code, lines } = await run(bench);
  const kept = [];
  let inTable = false;
  for (const line of lines) {
    if (bench.table) inTable = line.startsWith("|") && (inTable || kept.length > 0);
    if (bench.keep(line, inTable)) kept.push(line);
  }
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  summary.push(`## ${bench.name} (${bench.dir}/${bench.file}, ${minutes} min)`);
  summary.push(`target: ${bench.target}`);
  if (code !== 0) {
    failed++;
    summary.push(`the bench FAILED (exit code ${code}); see its output above`);
  }
  summary.push(...(kept.length > 0 ? kept : ["(it printed no figure)"]), "");
}
process.stdout.write(`\n# Issue 22 targets: what the benches printed\n\n${summary.join("\n")}\n`);
process.exit(failed > 0 ? 1 : 0);
