import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import { type ExactMatching, imfs, mfs } from "../src/index.js";
import { oneEventCases } from "./events.js";

/**
 * CPU time (process.cpuUsage, user + system) of `imfs` after one event on a 1000 x 1000 plan,
 * interleaved with the full `mfs` round by round, so that load from other processes hits all
 * cases alike. Prints one table per density (three seeded plans each): medians (ms), the
 * interquartile range, and the median of the per-round ratios imfs / mfs. Every hinted event is
 * first checked: its hint is verified (`verifyHint`) and its result equals a fresh `mfs`.
 *
 * Run: `pnpm vitest bench --run bench/imfs-cpu.bench.ts`
 */
const ROUNDS = 15;

const cpuMs = (f: () => unknown): number => {
  const start = process.cpuUsage();
  f();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};
const quantile = (xs: number[], q: number): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** Medians for one plan: `[name, median ms, IQR text, median ratio to mfs][]`. */
function measure(ineligible: number, seed: number): [string, number, string, number][] {
  const hinted = oneEventCases(1000, ineligible, seed);
  const plain = oneEventCases(1000, ineligible, seed, false);
  const plan: ExactMatching = mfs(hinted.plan);
  for (const event of hinted.events) {
    const r = imfs(event.matrix, plan, { ...event.options, verifyHint: hinted.plan });
    const fresh = mfs(event.matrix);
    if (r.size !== fresh.size || Math.abs(r.weight - fresh.weight) > 1e-9 * fresh.weight) {
      throw new Error(`imfs with hint differs from mfs on "${event.name}"`);
    }
  }
  const cases: [string, () => unknown][] = [["mfs (full solve)", () => mfs(hinted.plan)]];
  for (const [k, event] of hinted.events.entries()) {
    cases.push([`imfs + hint: ${event.name}`, () => imfs(event.matrix, plan, event.options)]);
    const same = plain.events[k];
    cases.push([`imfs, no hint: ${same.name}`, () => imfs(same.matrix, plan, same.options)]);
  }
  const times = cases.map(() => [] as number[]);
  const ratios = cases.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, [, run]] of cases.entries()) times[c].push(cpuMs(run));
    for (let c = 0; c < cases.length; c++) ratios[c].push(times[c][round] / times[0][round]);
  }
  return cases.map(([name], c) => [
    name,
    quantile(times[c], 0.5),
    `${quantile(times[c], 0.25).toFixed(2)} - ${quantile(times[c], 0.75).toFixed(2)}`,
    quantile(ratios[c], 0.5),
  ]);
}

const SEEDS = [4242, 1099, 5];

function report(ineligible: number): void {
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  const before = loadavg()[0];
  const results = SEEDS.map((seed) => measure(ineligible, seed));
  const lines = [
    `1000 x 1000 ${label}: CPU ms, median over ${ROUNDS} interleaved rounds [IQR] (median ratio to mfs), seeds ${SEEDS.join(", ")}; load average ${before.toFixed(1)} -> ${loadavg()[0].toFixed(1)}`,
    `| case | ${SEEDS.map((seed) => `seed ${seed}`).join(" | ")} |`,
    `| --- |${SEEDS.map(() => " --- |").join("")}`,
  ];
  for (let c = 0; c < results[0].length; c++) {
    const cells = results.map((r) => {
      const [, median, iqr, ratio] = r[c];
      return c === 0
        ? `${median.toFixed(1)} [${iqr}]`
        : `${median.toFixed(2)} [${iqr}] (${(100 * ratio).toFixed(1)}%)`;
    });
    lines.push(`| ${results[0][c][0]} | ${cells.join(" | ")} |`);
  }
  console.log(lines.join("\n"));
}

let measured = false;

describe("imfs after one event: CPU time next to mfs (tables on the console)", () => {
  bench(
    "interleaved CPU-time measurement, dense and 30% ineligible",
    () => {
      // tinybench may call this more than once; one measurement is enough.
      if (measured) return;
      measured = true;
      report(0);
      report(0.3);
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
