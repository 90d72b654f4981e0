import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import { type ExactMatching, imfs, mfs } from "../src/index.js";
import { oneEventCases } from "./events.js";

/**
 * CPU time (process.cpuUsage, user + system) of `imfs` after one event on a 1000 x 1000 plan,
 * interleaved with the full `mfs` round by round, so that load from other processes hits all
 * cases alike. Prints one table per density: medians (ms), the interquartile range, and the
 * median of the per-round ratios imfs / mfs. Every hinted event is first checked: its hint is
 * verified (`verifyHint`) and its weight equals a fresh `mfs`.
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

function measure(ineligible: number): void {
  const hinted = oneEventCases(1000, ineligible, 4242);
  const plain = oneEventCases(1000, ineligible, 4242, false);
  const plan: ExactMatching = mfs(hinted.plan);
  for (const event of hinted.events) {
    const r = imfs(event.matrix, plan, { ...event.options, verifyHint: hinted.plan });
    if (r.size !== mfs(event.matrix).size || Math.abs(r.weight - mfs(event.matrix).weight) > 1e-9) {
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
  const load = loadavg()[0];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, [, run]] of cases.entries()) times[c].push(cpuMs(run));
    for (let c = 0; c < cases.length; c++) ratios[c].push(times[c][round] / times[0][round]);
  }
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  const lines = [
    `1000 x 1000 ${label}: CPU ms over ${ROUNDS} interleaved rounds (load average ${load.toFixed(1)} -> ${loadavg()[0].toFixed(1)})`,
    "| case | median | IQR | median ratio to mfs |",
    "| --- | --- | --- | --- |",
  ];
  for (const [c, [name]] of cases.entries()) {
    const t = times[c];
    const iqr = `${quantile(t, 0.25).toFixed(2)} - ${quantile(t, 0.75).toFixed(2)}`;
    const ratio = c === 0 ? "" : `${(100 * quantile(ratios[c], 0.5)).toFixed(1)}%`;
    lines.push(`| ${name} | ${quantile(t, 0.5).toFixed(2)} | ${iqr} | ${ratio} |`);
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
      measure(0);
      measure(0.3);
    },
    { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 },
  );
});
