import { copyFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { tsupPreset } from "@sched/tooling/tsup";
import { defineConfig } from "tsup";

// @sched/multicluster's MIP runs HiGHS compiled to WebAssembly; bundled, HiGHS loads highs.wasm
// from the bundle's folder, so the build copies it there.
const here = createRequire(join(process.cwd(), "package.json"));
const highsWasm = createRequire(here.resolve("@sched/multicluster/package.json")).resolve(
  "highs/runtime",
);

// The CLI is an application: one ESM bundle for Node, with its shebang, no declarations.
export default defineConfig((options) => ({
  ...tsupPreset({ entry: ["src/cli.ts"], platform: "node", dts: false }),
  format: ["esm"],
  // Commands are loaded when used (src/cli.ts): `run` and `gen` do not compile the sweep
  // machinery, the report or HiGHS. Chunks sit beside cli.js (highs.wasm too).
  splitting: true,
  noExternal: [/^@sched\//],
  async onSuccess() {
    await copyFile(highsWasm, join(options.outDir ?? "dist", "highs.wasm"));
  },
}));
