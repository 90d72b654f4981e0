// @ts-check
// The calibration behind @sched/workload's AR_LANL_CM5_ARAR (advance-reservation README,
// Interpretation 15): the long-run mean gap between submissions of the advance-reservation
// workload's arrival process (Lublin-Feitelson typeless, LANL-CM5 sizes) for a given arrival-rate
// ratio `arar`. Not a test. Build first, then run from apps/sim:
//
//   pnpm build && node scripts/ar-mean-gap.mjs [ARAR ...] [--jobs N] [--seeds K]
//
// Defaults: the published 1.0225 and AR_LANL_CM5_ARAR, 10^6 arrivals, seeds 1..12 (about 0.4 s of
// CPU per 10^6 arrivals). Prints, per arar, each seed's mean gap, their mean and standard
// deviation; the target is the cleaned LANL-CM5 log's 62,294,400 s / 122,060 jobs = 510.4 s.
import { AR_LANL_CM5, AR_LANL_CM5_ARAR, LUBLIN_TYPELESS, lublinRecords } from "@sched/workload";

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [v] = args.splice(i, 2).slice(1);
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`${name} expects an integer >= 1, got ${v}`);
  return n;
};
const jobs = flag("--jobs", 1_000_000);
const seeds = flag("--seeds", 12);
const ratios = args.length > 0 ? args.map(Number) : [LUBLIN_TYPELESS.arar, AR_LANL_CM5_ARAR];
for (const arar of ratios) {
  if (!(arar > 0)) throw new Error(`ARAR must be a number > 0, got ${arar}`);
  const gaps = [];
  for (let seed = 1; seed <= seeds; seed++) {
    let first = 0;
    let last = 0;
    let n = 0;
    const typeless = { ...AR_LANL_CM5, uMed: 7, arar };
    for (const r of lublinRecords({ jobs, procs: 1024, seed, jobTypes: false, typeless })) {
      if (n === 0) first = r.submitTime;
      last = r.submitTime;
      n++;
    }
    gaps.push((last - first) / (n - 1));
  }
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  console.log(
    `arar ${arar}: mean gap ${mean.toFixed(1)} s (sd ${sd.toFixed(1)} s over ${seeds} seeds of ${jobs} arrivals; per seed ${gaps.map((g) => g.toFixed(1)).join(" ")})`,
  );
}
