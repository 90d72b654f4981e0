import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import type { ExactMatching, ImfsOptions } from "../src/index.js";
import { builtMatching } from "./built.js";
import { calibrate, clockName, cpuMs, quantile } from "./clock.js";
import { changeLine, randomMatrix, WEIGHT_CONFIGS } from "./events.js";

/**
 * This version's `imfs` against another version's (`MATCHING_BASE`: a folder holding its
 * `src/`, e.g. `main`'s exported with `git archive main packages/matching/src` into this
 * package's `node_modules`, so that `@sched/errors` resolves), both built as they ship and
 * loaded in one process, on the 1000 x 1000 instances of `targets.bench.ts` after one changed
 * row or column: a scheduler's chain of hinted calls (each from the state the previous call
 * returned, alternating between the changed matrix, timed, and the plan's matrix, not timed),
 * the two versions called alternately, round by round. Every step checks that the two versions
 * return the same pairs, weight and potentials. Prints the medians and the median per-round
 * ratio this / base. Without `MATCHING_BASE` it is skipped, with a note.
 *
 * Run: `MATCHING_BASE=<folder> pnpm vitest bench --run bench/column-cache.bench.ts`
 * (`ROUNDS=n`, default 15; `BRANCH=1` or `FIRST=1`, below).
 */
const HELD_OUT = 610_000;
const ROUNDS = Number(process.env.ROUNDS ?? 15);
/** `SAME=0`: do not require the same results (versions whose searches differ). */
const CHECK = process.env.SAME !== "0";
/** `BRANCH=1`: every call from the plan's state (as `targets.bench.ts` does) instead of a chain. */
const BRANCH = process.env.BRANCH === "1";
/**
 * `FIRST=1`: every call a scheduler's first call after its plan (as `targets.bench.ts`'s "first
 * call"): from the state of an `mfs` of the plan's matrix made right before it by the same
 * version (not timed), after an `mfs` of the changed matrix (not timed either, as in
 * `targets.bench.ts`, where the `mfs` it is compared with runs earlier in the round).
 */
const FIRST = process.env.FIRST === "1";
const CONFIGS = WEIGHT_CONFIGS;

type Lib = Awaited<ReturnType<typeof builtMatching>>["lib"];

function same(a: ExactMatching, b: ExactMatching): boolean {
  const eq = (x: ArrayLike<number>, y: ArrayLike<number>) =>
    x.length === y.length && Array.from(x).every((v, k) => Object.is(v, y[k]));
  return (
    a.weight === b.weight &&
    eq(a.rowToCol, b.rowToCol) &&
    eq(a.state.rowPotential, b.state.rowPotential) &&
    eq(a.state.colPotential, b.state.colPotential)
  );
}

function compare(lib: Lib, base: Lib): void {
  const before = loadavg()[0]!.toFixed(1);
  calibrate();
  const lines: string[] = [];
  for (const s of [0, 1]) {
    for (const [c, config] of CONFIGS.entries()) {
      const n = 1000;
      const at = Math.floor(n / 3);
      const seed = HELD_OUT + 100 + 10 * c + s;
      const matrix = randomMatrix(n, n, config.ineligible, seed, config.integer);
      const cells: string[] = [];
      for (const [line, changed, hint] of [
        ["row", changeLine(matrix, "row", at, config, seed + 5), { changedRows: [at] }],
        ["col", changeLine(matrix, "col", at, config, seed + 7), { changedCols: [at] }],
      ] as const) {
        const mfsTime = quantile(
          Array.from({ length: 5 }, () => cpuMs(() => lib.mfs(changed))),
          0.5,
        );
        const libs = [lib, base];
        const current = libs.map((l) => l.mfs(matrix));
        const step = (k: number): ExactMatching =>
          libs[k]!.imfs(changed, current[k]!, hint as ImfsOptions);
        const back = (k: number, next: ExactMatching) => {
          if (!BRANCH && !FIRST) current[k] = libs[k]!.imfs(matrix, next, hint as ImfsOptions);
        };
        const plan = (k: number) => {
          if (!FIRST) return;
          libs[k]!.mfs(changed);
          current[k] = libs[k]!.mfs(matrix);
        };
        const times = [[] as number[], [] as number[]];
        const ratio: number[] = [];
        for (let round = -3; round < ROUNDS; round++) {
          const results: ExactMatching[] = [];
          // Alternate which version goes first.
          for (const k of round % 2 === 0 ? [0, 1] : [1, 0]) {
            let result: ExactMatching | undefined;
            plan(k);
            const ms = cpuMs(() => (result = step(k)));
            results[k] = result!;
            if (round >= 0) times[k]!.push(ms);
          }
          if (CHECK && !same(results[0]!, results[1]!)) {
            throw new Error(`the two versions differ on ${config.label}, seed ${seed}, ${line}`);
          }
          for (const k of [0, 1]) back(k, results[k]!);
          if (CHECK && !same(current[0]!, current[1]!)) {
            throw new Error(
              `the two versions differ on ${config.label}, seed ${seed}, ${line} (back)`,
            );
          }
          if (round >= 0) ratio.push(times[0]![round]! / times[1]![round]!);
        }
        const a = quantile(times[0]!, 0.5);
        const b = quantile(times[1]!, 0.5);
        cells.push(
          `${b.toFixed(2)} (${((100 * b) / mfsTime).toFixed(1)}%) | ${a.toFixed(2)} (${((100 * a) / mfsTime).toFixed(1)}%) | ${quantile(ratio, 0.5).toFixed(2)}`,
        );
      }
      lines.push(`| ${config.label} | ${seed} | ${cells.join(" | ")} |`);
    }
  }
  console.log(
    [
      `imfs + hint, ${FIRST ? "first calls after a fresh mfs of the plan" : BRANCH ? "every call from the plan's state" : "chain of calls"}, this version against MATCHING_BASE (one process, alternating), 1000 x 1000, line n / 3: median ${clockName()} over ${ROUNDS} rounds (% of this version's mfs of the changed matrix, median of 5) and the median per-round ratio this / base; load average ${before} -> ${loadavg()[0]!.toFixed(1)}`,
      "| weights | seed | row: base | row: this | ratio | column: base | column: this | ratio |",
      "| --- | --- | --- | --- | --- | --- | --- | --- |",
      ...lines,
    ].join("\n"),
  );
}

let measured = false;

describe("imfs against another version, in one process (table on the console)", () => {
  bench(
    "interleaved CPU-time measurement",
    async () => {
      if (measured) return;
      measured = true;
      const baseSrc = process.env.MATCHING_BASE;
      if (baseSrc === undefined) {
        console.log("column-cache bench: skipped (set MATCHING_BASE to another version's src/)");
        return;
      }
      const ours = await builtMatching();
      const base = await builtMatching(baseSrc);
      try {
        compare(ours.lib, base.lib);
      } finally {
        await ours.remove();
        await base.remove();
      }
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
