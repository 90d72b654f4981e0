import { tsupPreset } from "@sched/tooling/tsup";
import { defineConfig } from "tsup";

export default defineConfig({
  ...tsupPreset({ entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts" } }),
  // The testing entry imports the test runner and fast-check; users bring their own.
  external: ["vitest", "fast-check"],
});
