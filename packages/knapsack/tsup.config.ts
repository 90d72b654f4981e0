import { tsupPreset } from "@sched/tooling/tsup";
import { defineConfig } from "tsup";

export default defineConfig(
  tsupPreset({
    entry: { index: "src/index.ts", "reproduction/index": "src/reproduction/index.ts" },
  }),
);
