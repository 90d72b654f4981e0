#!/usr/bin/env node
// The README's tables from a results directory of `sched-sim reproduce`/`sweep`: one markdown
// table per metric, a row per policy (and value of the other swept parameters), a column per
// value of the first swept parameter, each cell "mean ± 95% CI half-width".
//
//   node tables.mjs DIR [--metrics latePct,slowdownNoDeadline] [--digits 1] [--timing]
//
// --timing reads DIR/timing.csv (wall clock) instead of DIR/results.csv.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { commandLine } from "./common.mjs";

const { args, flag } = commandLine();
const timing = args.includes("--timing");
if (timing) args.splice(args.indexOf("--timing"), 1);
const wanted = flag("metrics", undefined)?.split(",");
const digits = Number(flag("digits", "1"));
if (args.length !== 1) {
  process.stderr.write("tables.mjs: expected one results directory\n");
  process.exit(2);
}
const [head, ...lines] = readFileSync(join(args[0], timing ? "timing.csv" : "results.csv"), "utf8")
  .trimEnd()
  .split("\n");
const cols = head.split(",");
const params = cols.slice(1, cols.indexOf("metric"));
const [axis, ...others] = params;
const rows = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [cols[i], v])));
const metrics = wanted ?? [...new Set(rows.map((r) => r.metric))];
const cell = (r) =>
  r === undefined || r.mean === ""
    ? "-"
    : r.ci95 === ""
      ? Number(r.mean).toFixed(digits)
      : `${Number(r.mean).toFixed(digits)} ± ${Number(r.ci95).toFixed(digits)}`;
for (const metric of metrics) {
  const mine = rows.filter((r) => r.metric === metric);
  const xs = [...new Set(mine.map((r) => r[axis]))];
  const labels = [
    ...new Set(mine.map((r) => [r.scheduler, ...others.map((p) => `${p}=${r[p]}`)].join(", "))),
  ];
  process.stdout.write(
    `**${metric}**\n\n| policy | ${xs.map((x) => `${axis}=${x}`).join(" | ")} |\n`,
  );
  process.stdout.write(`| --- |${xs.map(() => " ---: |").join("")}\n`);
  for (const label of labels) {
    const cells = xs.map((x) =>
      cell(
        mine.find(
          (r) =>
            r[axis] === x &&
            [r.scheduler, ...others.map((p) => `${p}=${r[p]}`)].join(", ") === label,
        ),
      ),
    );
    process.stdout.write(`| ${label} | ${cells.join(" | ")} |\n`);
  }
  process.stdout.write("\n");
}
