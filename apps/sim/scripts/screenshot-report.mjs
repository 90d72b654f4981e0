// @ts-check
// Screenshots of `sched-sim report` pages for the README, taken in headless Chromium.
// Not a test (the browser test, test/report.browser.test.ts, checks the same pages). Build first,
// then run from apps/sim:
//
//   pnpm build && node scripts/screenshot-report.mjs [--dir RESULTS] [--run KEY-PREFIX]
//       [--figures EXPERIMENT,...] [--figures-dir DIR] [--trace SWF] [--docs DIR]
//
// It writes, into docs/ (or --docs):
// - report-plots.png, report-gantt.png: a sweep of experiments/load.json (200 runs, about 10 s on
//   2 cores; --dir reuses one): its metric plots, and the Gantt chart of run --run (default
//   easy.load=0.7.s1);
// - report-figures-EXPERIMENT.png: the paper's figures of each reproduction, `reproduce
//   EXPERIMENT` with its defaults (default elo: 500 runs, seconds; --figures-dir DIR reuses the
//   results directories DIR/EXPERIMENT);
// - report-gantt-heat.png, with --trace SWF: EASY on that trace (e.g. the 28,000-job KTH SP2 log),
//   whose Gantt chart aggregates (binned occupancy per machine).
// Chromium: $CHROMIUM_PATH, else /usr/bin/chromium (Debian: `apt-get install chromium`).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
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
    figures: { type: "string", default: "elo" },
    "figures-dir": { type: "string" },
    trace: { type: "string" },
    docs: { type: "string", default: join(app, "docs") },
  },
});
const cliPath = join(app, "dist", "cli.js");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(cliPath)) fail(`no ${cliPath}: run \`pnpm build\` in apps/sim first`);
if (!existsSync(chromiumPath)) {
  fail(`no Chromium at ${chromiumPath}: \`apt-get install chromium\` or set CHROMIUM_PATH`);
}

/** @param {string} message @returns {never} */
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

const scratch = mkdtempSync(join(tmpdir(), "sched-sim-shots-"));
const width = 1240;
mkdirSync(values.docs, { recursive: true });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
});
/** @type {string[]} */
const written = [];

/**
 * Open `report` and shoot the page region from the top of `from` to the bottom of `to`.
 * @param {string} report @param {string} file @param {string} from @param {string} to
 */
async function shoot(report, file, from, to) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(pathToFileURL(report).href, { waitUntil: "load" });
  if (problems.length > 0) fail(`${report} reported errors: ${problems.join("; ")}`);
  // Page coordinates (scroll-independent): the elements' offsets from the document's top.
  const box = await page.evaluate(
    ([a, b]) => {
      const top = document.querySelector(a)?.getBoundingClientRect();
      const bottoms = [...document.querySelectorAll(b)].map((e) => e.getBoundingClientRect());
      const bottom = bottoms[bottoms.length - 1];
      return top === undefined || bottom === undefined
        ? null
        : { y: top.top + window.scrollY, end: bottom.bottom + window.scrollY };
    },
    [from, to],
  );
  if (box === null) fail(`${report} has no ${from} or ${to}`);
  const path = join(values.docs, file);
  await page.screenshot({
    path,
    clip: { x: 0, y: Math.max(0, box.y - 10), width, height: box.end - box.y + 20 },
    fullPage: true,
  });
  await page.close();
  written.push(path);
}

try {
  // 1. A sweep: the generic plots and an exact Gantt chart.
  const dir = values.dir ?? join(scratch, "load");
  if (values.dir === undefined) {
    sim("sweep", join(app, "experiments", "load.json"), "--out", dir, "--quiet");
  }
  // Run keys end in a hash; the prefix names the run (`easy.load=0.7.s1` matches not `...s10`).
  const prefix = `${values.run}-`;
  const file = readdirSync(join(dir, "runs")).find((f) => f.startsWith(prefix));
  if (file === undefined) fail(`no run ${values.run} in ${join(dir, "runs")}`);
  const report = join(dir, "report.html");
  sim("report", dir, "--run", String(file).replace(/\.json$/, ""), "--out", report);
  await shoot(report, "report-plots.png", "h1", "figure.plot-figure:nth-of-type(2)");
  await shoot(report, "report-gantt.png", "#gantt", ".gantt");

  // 2. Reproductions: the paper's figures and their claims.
  for (const name of values.figures.split(",")) {
    const reuse = values["figures-dir"];
    const figures = join(reuse ?? scratch, name);
    if (reuse === undefined) sim("reproduce", name, "--out", figures, "--quiet");
    const figuresReport = join(figures, "report.html");
    sim("report", figures, "--no-gantt", "--out", figuresReport);
    await shoot(figuresReport, `report-figures-${name}.png`, "#figures", "section.paper-figure");
  }

  // 3. A long trace: the aggregated Gantt chart.
  if (values.trace !== undefined) {
    const exp = join(scratch, "trace.json");
    writeFileSync(
      exp,
      JSON.stringify({
        name: "trace",
        title: "EASY on a trace",
        workload: { type: "swf", path: resolve(values.trace), clean: true },
        schedulers: ["easy"],
      }),
    );
    const traceDir = join(scratch, "trace");
    sim("sweep", exp, "--out", traceDir, "--quiet");
    const traceReport = join(traceDir, "report.html");
    sim("report", traceDir, "--out", traceReport);
    await shoot(traceReport, "report-gantt-heat.png", "#gantt", ".heat-legend");
  }
  for (const p of written) console.log(`wrote ${p} (${Math.round(statSync(p).size / 1024)} KB)`);
} finally {
  await browser.close();
}
