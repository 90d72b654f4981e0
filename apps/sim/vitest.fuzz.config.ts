import { vitestPreset } from "@sched/tooling/vitest";
import { defineConfig } from "vitest/config";

// `pnpm fuzz`: the large fuzz run (scripts/fuzz-run.ts), not part of `pnpm test`.
const preset = vitestPreset({ testTimeout: 0 });
export default defineConfig({
  ...preset,
  test: {
    ...preset.test,
    include: ["scripts/fuzz-run.ts"],
    disableConsoleIntercept: true,
  },
});
