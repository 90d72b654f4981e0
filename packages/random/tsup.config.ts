import { tsupPreset } from "@sched/tooling/tsup";
import { defineConfig } from "tsup";

export default defineConfig(tsupPreset({ entry: ["src/index.ts"] }));
