// @ts-check
// Screenshots of a `sched-sim report` page for the README, taken in headless Chromium.
// Not a test. Build first, then run from apps/sim:
//
//   pnpm build && node scripts/screenshot-report.mjs [--dir RESULTS] [--run KEY-PREFIX] [--docs DIR]
//
// Without --dir it sweeps experiments/load.json (200 runs, about 10 s on 2 cores) into a temporary
// directory. It writes DIR/report.html's metric plots to docs/report-plots.png and the Gantt chart
// of the chosen run (default easy.load=0.7.s1) to docs/report-gantt.png, and prints their sizes.
// Chromium: $CHROMIUM_PATH, else /usr/bin/chromium (Debian: `apt-get install chromium`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const app = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    run: { type: "string", default: "easy.load=0.7.s1" },
    docs: { type: "string", default: join(app, "docs") },
  },
});
const cliPath = join(app, "dist", "cli.js");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(cliPath)) fail(`no ${cliPath}: run \`pnpm build\` in apps/sim first`);
if (!existsSync(chromiumPath)) {
  fail(`no Chromium at ${chromiumPath}: \`apt-get install chromium\` or set CHROMIUM_PATH`);
}

/** @param {string} message */
function fail(message) {
  console.error(`screenshot-report: ${message}`);
  process.exit(1);
}

/** Run the built CLI; stop on failure. @param {string[]} args */
function sim(...args) {
  const r = spawnSync(process.execPath, [cliPath, ...args], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) fail(`sched-sim ${args.join(" ")} exited with ${r.status}`);
}

const dir = values.dir ?? join(mkdtempSync(join(tmpdir(), "sched-sim-shots-")), "load");
if (values.dir === undefined) {
  sim("sweep", join(app, "experiments", "load.json"), "--out", dir, "--quiet");
}
// Run keys end in a hash; the prefix names the run (`easy.load=0.7.s1` matches not `...s10`).
const prefix = `${values.run}-`;
const file = readdirSync(join(dir, "runs")).find((f) => f.startsWith(prefix));
if (file === undefined) fail(`no run ${values.run} in ${join(dir, "runs")}`);
const report = join(dir, "report.html");
sim("report", dir, "--run", String(file).replace(/\.json$/, ""), "--out", report);

mkdirSync(values.docs, { recursive: true });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1040, height: 900 } });
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(pathToFileURL(report).href, { waitUntil: "load" });
  if (problems.length > 0) fail(`the page reported errors: ${problems.join("; ")}`);

  // The metric plots: from the title to the bottom of the second plot (a screenful).
  const top = await page.locator("h1").boundingBox();
  const second = await page.locator("figure.plot-figure").nth(1).boundingBox();
  if (top === null || second === null) fail("the report has no title or fewer than two plots");
  const plots = join(values.docs, "report-plots.png");
  await page.screenshot({
    path: plots,
    clip: {
      x: 0,
      y: Math.max(0, top.y - 8),
      width: 1040,
      height: second.y + second.height - top.y + 16,
    },
    fullPage: true,
  });

  // The Gantt chart: its heading, notes, controls, bars, utilization curve and axis.
  const heading = await page.locator("#gantt").boundingBox();
  const chart = await page.locator(".gantt").boundingBox();
  if (heading === null || chart === null) fail("the report has no Gantt chart");
  const gantt = join(values.docs, "report-gantt.png");
  await page.screenshot({
    path: gantt,
    clip: {
      x: 0,
      y: heading.y - 8,
      width: 1040,
      height: chart.y + chart.height - heading.y + 16,
    },
    fullPage: true,
  });
  for (const p of [plots, gantt])
    console.log(`wrote ${p} (${Math.round(statSync(p).size / 1024)} KB)`);
} finally {
  await browser.close();
}
