#!/usr/bin/env node
// Table 1 of the paper from a results directory of `sched-sim reproduce mkp`: one row per
// licence-ratio bin, as the paper prints it (per solver: mean time per event, the smallest (Sml),
// mean (Avg) and best (Bst) licence usage over every sampled event of the bin's streams), then
// the greedy's mean gap below the exact optimum (± 95% CI over the streams), its time as a share
// of the exact solver's (mean time over mean time) and the events proven optimal.
//
//   node table1.mjs DIR
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { meanCi } from "./common.mjs";

if (process.argv.length !== 3) {
  process.stderr.write("table1.mjs: expected one results directory of 'reproduce mkp'\n");
  process.exit(2);
}
const [head, ...lines] = readFileSync(join(process.argv[2], "runs.csv"), "utf8")
  .trimEnd()
  .split("\n");
const cols = head.split(",");
const rows = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])));
const values = (scheduler, bin, metric) =>
  rows
    .filter((r) => r.scheduler === scheduler && r.licenseRatioMin === bin && r.metric === metric)
    .sort((a, b) => Number(a.seed) - Number(b.seed))
    .map((r) => Number(r.value));
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
const f = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : "-");
const bins = [...new Set(rows.map((r) => r.licenseRatioMin))].sort((a, b) => a - b);
const solver = (s, bin) => {
  const events = values(s, bin, "sampledEvents");
  const usage = values(s, bin, "usagePct");
  // Avg over events: each stream's mean weighted by its events.
  const total = events.reduce((a, b) => a + b, 0);
  const avg = usage.reduce((a, u, k) => a + u * events[k], 0) / total;
  const time = values(s, bin, "timeMs").reduce((a, t, k) => a + t * events[k], 0) / total;
  return {
    time,
    sml: Math.min(...values(s, bin, "usageMinPct")),
    avg,
    bst: Math.max(...values(s, bin, "usageMaxPct")),
  };
};
process.stdout.write(
  "| License ratio | streams | events | exact: time (ms) | Sml (%) | Avg (%) | Bst (%) | greedy: time (ms) | Sml (%) | Avg (%) | Bst (%) | gap (%) | time, % of exact's | proven optimal |\n" +
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
);
for (const bin of bins) {
  const events = values("exact", bin, "sampledEvents");
  const total = events.reduce((a, b) => a + b, 0);
  const proven = values("exact", bin, "optimal").reduce((a, o, k) => a + o * events[k], 0);
  const e = solver("exact", bin);
  const g = solver("greedy", bin);
  const gaps = values("greedy", bin, "gapPct");
  const lo = Number(bin);
  process.stdout.write(
    `| [${Math.round(lo * 100)}-${Math.round(lo * 100) + 5}] | ${events.length} | ${total} | ` +
      `${f(e.time, 1)} | ${f(e.sml, 1)} | ${f(e.avg, 1)} | ${f(e.bst, 1)} | ` +
      `${f(g.time, 2)} | ${f(g.sml, 1)} | ${f(g.avg, 1)} | ${f(g.bst, 1)} | ` +
      `${f(mean(gaps), 2)} ± ${f(meanCi(gaps).ci, 2)} | ${f((100 * g.time) / e.time, 2)} | ${Math.round(proven)}/${total} |\n`,
  );
}
