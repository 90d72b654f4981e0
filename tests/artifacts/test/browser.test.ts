import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromiumLaunchOptions, hasChromium, noChromiumMessage } from "@sched/tooling/chromium";
import { build } from "esbuild";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HERE, PUBLISHED, ROOT, run } from "./helpers.js";

// Every published package, bundled by esbuild for the browser exactly as a user's app would
// (platform "browser", its built files through their export conditions, no plugins, no polyfills),
// then run in headless Chromium (Debian's, driven by playwright-core): each package's case in
// cases/ must give the same JSON as in Node. @sched/multicluster solves a small OAS MIP with HiGHS'
// WebAssembly build, loaded the browser's way.

if (!hasChromium) console.warn(noChromiumMessage("browser.test.ts (the in-browser runs)"));

/** The fake origin the pages are served from (by request interception; no server, no network). */
const ORIGIN = "http://sched.test";
const CASES = join(HERE, "cases");
const NAMES = readdirSync(CASES)
  .filter((f) => f.endsWith(".js"))
  .map((f) => f.slice(0, -3))
  .sort();

/** HiGHS' binary as installed for @sched/multicluster (the `highs/runtime` export). */
const WASM = readFileSync(
  createRequire(join(ROOT, "packages/multicluster/package.json")).resolve("highs/runtime"),
);

const bundles = new Map<string, string>();
let warnings: string[] = [];
let reference: Record<string, string> = {};
let browser: Browser | undefined;

beforeAll(async () => {
  const [result, node] = await Promise.all([
    build({
      entryPoints: NAMES.map((n) => join(CASES, `${n}.js`)),
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      outdir: "/bundles",
      write: false,
      logLevel: "silent",
    }),
    run(process.execPath, [join(CASES, "node.mjs")], HERE),
  ]);
  warnings = result.warnings.map((w) => `${w.location?.file ?? ""}: ${w.text}`);
  for (const f of result.outputFiles) bundles.set(f.path.replace(/^.*[\\/]/, ""), f.text);
  reference = JSON.parse(node);
  if (!hasChromium) return;
  browser = await chromium.launch(chromiumLaunchOptions());
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/**
 * A page at `${ORIGIN}${path}index.html` that serves the bundles under /bundles/ and HiGHS'
 * binary at each of `wasmAt` (404 elsewhere), recording page errors.
 */
async function openPage(path: string, wasmAt: readonly string[]) {
  const page = (await (browser as Browser).newPage()) as Page;
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    if (url.pathname === `${path}index.html`) {
      return route.fulfill({
        contentType: "text/html",
        body: "<!doctype html><title>@sched</title>",
      });
    }
    const bundle = url.pathname.startsWith("/bundles/")
      ? bundles.get(url.pathname.slice(9))
      : undefined;
    if (bundle !== undefined)
      return route.fulfill({ contentType: "text/javascript", body: bundle });
    if (wasmAt.includes(url.pathname)) {
      return route.fulfill({ contentType: "application/wasm", body: WASM });
    }
    return route.fulfill({ status: 404, body: "not found" });
  });
  await page.goto(`${ORIGIN}${path}index.html`);
  return { page, errors };
}

/** What the multicluster page reports: the load failure, the result, a late loadSolver call. */
interface Steps {
  failure: { name: string; code: string; message: string } | null;
  result: string;
  late: string | null;
}

describe("browser bundles", () => {
  it("there is a case for every published package", () => {
    expect(NAMES).toEqual(PUBLISHED.map((p) => p.dir));
  });

  it("every package bundles for the browser with esbuild, without errors or warnings", () => {
    expect(warnings).toEqual([]);
    expect([...bundles.keys()].sort()).toEqual(NAMES.map((n) => `${n}.js`));
    for (const [file, text] of bundles) {
      // no Node built-in left for the browser to fail on
      expect(text, file).not.toMatch(
        /\bfrom\s*["']node:|\bimport\(\s*["']node:|require\(\s*["']node:/,
      );
    }
  });

  it.skipIf(!hasChromium)(
    "every package computes in Chromium what it computes in Node (HiGHS found beside the page by default)",
    async () => {
      const { page, errors } = await openPage("/", ["/highs.wasm"]);
      const inBrowser: Record<string, string> = {};
      for (const name of NAMES) {
        inBrowser[name] = await page.evaluate<string>(
          `import("${ORIGIN}/bundles/${name}.js").then(async (m) => JSON.stringify(await m.compute()))`,
        );
      }
      expect(errors).toEqual([]);
      expect(inBrowser).toEqual(reference);
      expect(JSON.parse(reference.multicluster as string)).toMatchObject({
        status: "optimal",
        violations: [],
      });
      await page.close();
    },
  );

  it.skipIf(!hasChromium)(
    "@sched/multicluster says where it looked for highs.wasm, then loads it from where locateFile says",
    async () => {
      const { page } = await openPage("/app/", ["/assets/highs.wasm"]);
      // A string, so that vitest leaves its import() alone.
      const steps = await page.evaluate<Steps>(`(async () => {
        const m = await import("${ORIGIN}/bundles/multicluster.js");
        const failure = await m.compute().then(
          () => null,
          (e) => ({ name: e.name, code: e.code, message: e.message }),
        );
        await m.loadSolver({ locateFile: (f) => new URL("/assets/" + f, location.href).href });
        const result = JSON.stringify(await m.compute());
        const late = await m.loadSolver({ locateFile: (f) => f }).then(
          () => null,
          (e) => e.name + ": " + e.message,
        );
        return { failure, result, late };
      })()`);
      expect(steps.failure).toMatchObject({ name: "SchedError", code: "SOLVER_LOAD" });
      expect(steps.failure?.message).toContain(
        `could not load HiGHS from ${ORIGIN}/app/highs.wasm`,
      );
      expect(steps.failure?.message).toContain("locateFile");
      expect(steps.result).toBe(reference.multicluster);
      expect(steps.late).toMatch(
        /^InvalidInputError: @sched\/multicluster\/loadSolver: options were given after/,
      );
      await page.close();
    },
  );
});
