import { loadavg } from "node:os";
import { bench, describe } from "vitest";
import { type ExactMatching, imfs, mfs } from "../src/index.js";
import { calibrate, clockName, cpuMs, quantile } from "./clock.js";
import { oneEventCases } from "./events.js";

/**
 * CPU time (see `clock.ts`) of `imfs` after one event on a 1000 x 1000 plan, interleaved round
 * by round with a full `mfs` of the plan and of each event's final matrix, so that load from
 * other processes hits all cases alike. Prints one table per density (three seeded plans
 * each): medians (ms), the interquartile range, and the median of the per-round ratios
 * imfs / mfs of the same (final) matrix. Every hinted event is first checked: its hint is
 * verified (`verifyHint`) and its result equals a fresh `mfs` (size, and weight to 1e-9).
 *
 * Run: `pnpm vitest bench --run bench/imfs-cpu.bench.ts` (`ROUNDS=n`: rounds; `CLOCK=process`:
 * whole-process CPU time, for comparison).
 */
const ROUNDS = Number(process.env.ROUNDS ?? 15);

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
  // [name, run, index of the mfs case it is compared with (itself for an mfs case)]
  const cases: [string, () => unknown, number][] = [["mfs (plan)", () => mfs(hinted.plan), 0]];
  for (const [k, event] of hinted.events.entries()) {
    const ref = cases.length;
    cases.push([`mfs (final): ${event.name}`, () => mfs(event.matrix), ref]);
    cases.push([`imfs + hint: ${event.name}`, () => imfs(event.matrix, plan, event.options), ref]);
    const same = plain.events[k]!;
    cases.push([`imfs, no hint: ${same.name}`, () => imfs(same.matrix, plan, same.options), ref]);
  }
  for (const [, run] of cases) cpuMs(run); // warm-up round (compilation), not recorded
  calibrate();
  const times = cases.map(() => [] as number[]);
  const ratios = cases.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, [, run]] of cases.entries()) times[c]!.push(cpuMs(run));
    for (const [c, [, , ref]] of cases.entries()) {
      ratios[c]!.push(times[c]![round]! / times[ref]![round]!);
    }
  }
  return cases.map(([name], c) => [
    name,
    quantile(times[c]!, 0.5),
    `${quantile(times[c]!, 0.25).toFixed(2)} - ${quantile(times[c]!, 0.75).toFixed(2)}`,
    quantile(ratios[c]!, 0.5),
  ]);
}

const SEEDS = [4242, 1099, 5];

function report(ineligible: number): void {
  const label = ineligible === 0 ? "dense" : "30% ineligible";
  const before = loadavg()[0]!;
  const results = SEEDS.map((seed) => measure(ineligible, seed));
  const lines = [
    `1000 x 1000 ${label}: ${clockName()}, ms, median over ${ROUNDS} interleaved rounds [IQR] (median ratio to mfs of the final matrix), seeds ${SEEDS.join(", ")}; load average ${before.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
    `| case | ${SEEDS.map((seed) => `seed ${seed}`).join(" | ")} |`,
    `| --- |${SEEDS.map(() => " --- |").join("")}`,
  ];
  for (let c = 0; c < results[0]!.length; c++) {
    const isMfs = results[0]![c]![0].startsWith("mfs");
    const cells = results.map((r) => {
      const [, median, iqr, ratio] = r[c]!;
      return isMfs
        ? `${median.toFixed(1)} [${iqr}]`
        : `${median.toFixed(2)} [${iqr}] (${(100 * ratio).toFixed(1)}%)`;
    });
    lines.push(`| ${results[0]![c]![0]} | ${cells.join(" | ")} |`);
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
