import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { tsupPreset } from "@sched/tooling/tsup";
import { defineConfig, type Options } from "tsup";
import manifest from "./package.json" with { type: "json" };

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

// HiGHS' Emscripten loader (highs/build/highs.mjs) runs in Node and in browsers, but it names
// Node's `node:module` in a dynamic import (run only in Node) that browser bundlers cannot resolve.
// The browser build (the "browser" export condition) inlines the loader with that import answered
// from `process.getBuiltinModule`, and with its default `new URL("highs.wasm", import.meta.url)`
// (which bundlers would try to resolve beside our dist/) read through its own `locateFile`; the
// binary itself stays in the `highs` package (see src/solver.ts for where the browser finds it).
// The inlined loader must match the binary, so `highs` is pinned to the exact version.
const highsBuild = dirname(createRequire(import.meta.url).resolve("highs")); // .../highs/build
const highsVersion = (
  JSON.parse(readFileSync(join(highsBuild, "..", "package.json"), "utf8")) as { version: string }
).version;
if (manifest.dependencies.highs !== highsVersion) {
  throw new Error(
    `@sched/multicluster: dependencies.highs is "${manifest.dependencies.highs}", expected exactly the installed ${highsVersion}: the browser build inlines its loader`,
  );
}

/** Replaces `from` by `to` in `text`, requiring exactly one occurrence. */
function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) {
    throw new Error(`highs ${highsVersion} loader: expected exactly one "${from}"`);
  }
  return text.slice(0, at) + to + text.slice(at + from.length);
}

const highsForBrowser: Plugin = {
  name: "highs-for-browser",
  setup(build) {
    build.onResolve({ filter: /^node:module$/ }, () => ({
      path: "module",
      namespace: "node-shim",
    }));
    build.onLoad({ filter: /.*/, namespace: "node-shim" }, () => ({
      contents:
        "export const createRequire = (url) => globalThis.process.getBuiltinModule('node:module').createRequire(url);",
      loader: "js",
    }));
    // In a namespace of its own, so the source map names it "highs:build/highs.mjs", not a path
    // on the machine that built it.
    build.onResolve({ filter: /^highs$/ }, () => ({ path: "build/highs.mjs", namespace: "highs" }));
    build.onLoad({ filter: /.*/, namespace: "highs" }, async () => ({
      resolveDir: highsBuild,
      contents: replaceOnce(
        await readFile(join(highsBuild, "highs.mjs"), "utf8"),
        'new URL("highs.wasm",import.meta.url).href',
        'locateFile("highs.wasm")',
      ),
      loader: "js",
    }));
  },
};

export default defineConfig([
  // dist/browser/ is the browser build's, below.
  tsupPreset({ entry: ["src/index.ts"], clean: ["!browser/**"] }),
  {
    ...tsupPreset({ entry: { index: "src/index.ts" }, dts: false }),
    format: ["esm"],
    platform: "browser",
    outDir: "dist/browser",
    noExternal: ["highs"],
    esbuildPlugins: [highsForBrowser],
    removeNodeProtocol: false,
  },
]);
