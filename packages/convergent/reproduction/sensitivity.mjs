#!/usr/bin/env node
// The sensitivity table of the README: for each results directory of a sensitivity sweep
// (sensitivity/*.json), each combination of its swept readings and each policy, the late % at
// each inter-arrival time (mean ± 95% CI over the seeds), and its paired difference with a
// reference policy of the default run on the same seeds (mean ± 95% CI of the per-seed
// differences: both ran the same jobs).
//
//   node sensitivity.mjs --base FULL_DIR [--against edf] [--metric latePct] DIR...
//
// FULL_DIR is the default reproduction (`reproduce convergent --out FULL_DIR`); its seeds 1..n
// pair with the sweeps' seeds 1..n. The table also lists each policy at the defaults (from
// FULL_DIR, the same seeds) first.
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { commandLine, meanCi } from "./common.mjs";

const { args, flag } = commandLine();
const base = flag("base", undefined);
const against = flag("against", "edf");
const metric = flag("metric", "latePct");
if (base === undefined || args.length === 0) {
  process.stderr.write("sensitivity.mjs: --base FULL_DIR DIR...\n");
  process.exit(2);
}

function runs(dir) {
  const [head, ...lines] = readFileSync(join(dir, "runs.csv"), "utf8").trimEnd().split("\n");
  const cols = head.split(",");
  const params = cols.slice(2, cols.indexOf("seed"));
  const rows = lines
    .map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])))
    .filter((r) => r.metric === metric);
  return { params, rows };
}

const fmt = ({ mean, ci }) => `${mean.toFixed(1)} ± ${Number.isNaN(ci) ? "-" : ci.toFixed(1)}`;

const full = runs(base);
const seedsOf = (rows) => [...new Set(rows.map((r) => r.seed))];
const baseValue = (scheduler, ta, seed) =>
  Number(
    full.rows.find((r) => r.scheduler === scheduler && r.interArrival === ta && r.seed === seed)
      ?.value,
  );

const sweeps = args.map((dir) => ({ dir, ...runs(dir) }));
const tas = [...new Set(sweeps.flatMap((s) => s.rows.map((r) => r.interArrival)))].sort(
  (a, b) => Number(a) - Number(b),
);
const seeds = seedsOf(sweeps[0].rows);
const out = [];
out.push(
  `| reading | policy | ${tas.map((t) => `T_a=${t}`).join(" | ")} | ${tas.map((t) => `${against} default − policy, T_a=${t}`).join(" | ")} |`,
);
out.push(`| --- | --- |${tas.map(() => " ---: |").join("")}${tas.map(() => " ---: |").join("")}`);

/** One table row: the policy's values at each T_a, and EDF's default minus them, paired. */
function row(reading, policy, at) {
  const cells = [];
  const diffs = [];
  for (const ta of tas) {
    const xs = seeds.map((s) => at(ta, s));
    if (xs.some((x) => Number.isNaN(x))) {
      cells.push("-");
      diffs.push("-");
      continue;
    }
    cells.push(fmt(meanCi(xs)));
    diffs.push(
      reading === "defaults" && policy === against
        ? "-"
        : fmt(meanCi(seeds.map((s, k) => baseValue(against, ta, s) - xs[k]))),
    );
  }
  out.push(`| ${reading} | ${policy} | ${cells.join(" | ")} | ${diffs.join(" | ")} |`);
}

const policies = [...new Set(sweeps.flatMap((s) => s.rows.map((r) => r.scheduler)))];
for (const p of [...new Set([...policies, against])]) {
  row("defaults", p, (ta, s) => baseValue(p, ta, s));
}
for (const sweep of sweeps) {
  const others = sweep.params.filter((p) => p !== "interArrival");
  const combos = [
    ...new Set(sweep.rows.map((r) => JSON.stringify(others.map((p) => [p, r[p]])))),
  ].map((c) => JSON.parse(c));
  for (const combo of combos) {
    const reading = combo.map(([p, v]) => `${p}=${v}`).join(", ") || basename(sweep.dir);
    for (const p of [...new Set(sweep.rows.map((r) => r.scheduler))]) {
      row(reading, p, (ta, s) =>
        Number(
          sweep.rows.find(
            (r) =>
              r.scheduler === p &&
              r.interArrival === ta &&
              r.seed === s &&
              combo.every(([k, v]) => r[k] === v),
          )?.value,
        ),
      );
    }
  }
}
process.stdout.write(`${out.join("\n")}\n`);
