#!/usr/bin/env node
// Paired differences between two policies of `sched-sim reproduce`/`sweep` results that ran the
// same jobs (same grid point, same seed): mean of A - B over seeds and its Student-t 95%
// half-width, per grid point, with each side's own mean.
//
//   node paired.mjs A B [--metric latePct] [--by interArrival]
//
// A and B are DIR:LABEL[?param=value&...]: a results directory (its runs.csv), a policy label,
// and optional filters on the other swept parameters (e.g. out/late:cs-ip?deadlineLate=min).
// Rows are paired on the --by parameters (default interArrival) and the seed; every pair must
// exist on both sides. Output: one markdown table row per value of --by.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { commandLine, meanCi } from "./common.mjs";

function fail(message) {
  process.stderr.write(`paired.mjs: ${message}\n`);
  process.exit(2);
}

const { args, flag } = commandLine();
const metric = flag("metric", "latePct");
const by = flag("by", "interArrival").split(",");
if (args.length !== 2) fail("expected two sides, DIR:LABEL[?param=value&...]");

/** Rows of one side: key (by values + seed) -> value. */
function side(spec) {
  const m = /^(.*):([^:?]+)(?:\?(.*))?$/.exec(spec);
  if (m === null) fail(`'${spec}' is not DIR:LABEL[?filters]`);
  const [, dir, label, query] = m;
  const filters = new URLSearchParams(query ?? "");
  const [head, ...lines] = readFileSync(join(dir, "runs.csv"), "utf8").trimEnd().split("\n");
  const cols = head.split(",");
  for (const [k] of filters) if (!cols.includes(k)) fail(`${dir}: no column '${k}'`);
  for (const k of by) if (!cols.includes(k)) fail(`${dir}: no column '${k}'`);
  const out = new Map();
  for (const line of lines) {
    const cells = line.split(",");
    const row = Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
    if (row.scheduler !== label || row.metric !== metric) continue;
    if ([...filters].some(([k, v]) => Number(row[k]) !== Number(v) && row[k] !== v)) continue;
    const key = JSON.stringify([...by.map((k) => row[k]), row.seed]);
    if (out.has(key)) fail(`${spec}: two rows for ${key} (filter the other swept parameters)`);
    out.set(key, Number(row.value));
  }
  if (out.size === 0) fail(`${spec}: no rows of ${metric}`);
  return out;
}

const [a, b] = args.map(side);
const groups = new Map();
for (const [key, va] of a) {
  const vb = b.get(key);
  if (vb === undefined) fail(`${args[1]} has no row for ${key}`);
  const parsed = JSON.parse(key);
  const g = JSON.stringify(parsed.slice(0, -1));
  if (!groups.has(g)) groups.set(g, []);
  groups.get(g).push([va, vb]);
}
const fixed = (x) => (Number.isFinite(x) ? x.toFixed(2) : "NaN");
process.stdout.write(`| ${by.join(", ")} | ${args[0]} | ${args[1]} | A - B (paired) | seeds |\n`);
process.stdout.write("| --- | ---: | ---: | ---: | ---: |\n");
const sorted = [...groups.keys()].sort((x, y) => {
  const [px, py] = [JSON.parse(x), JSON.parse(y)];
  for (let i = 0; i < px.length; i++) {
    const d = Number(px[i]) - Number(py[i]);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return x < y ? -1 : x > y ? 1 : 0;
});
for (const g of sorted) {
  const pairs = groups.get(g);
  const sa = meanCi(pairs.map((p) => p[0]));
  const sb = meanCi(pairs.map((p) => p[1]));
  const d = meanCi(pairs.map((p) => p[0] - p[1]));
  process.stdout.write(
    `| ${JSON.parse(g).join(", ")} | ${fixed(sa.mean)} ± ${fixed(sa.ci)} | ${fixed(sb.mean)} ± ${fixed(sb.ci)} | ${fixed(d.mean)} ± ${fixed(d.ci)} | ${d.n} |\n`,
  );
}
