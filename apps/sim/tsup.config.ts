import { tsupPreset } from "@sched/tooling/tsup";
import { defineConfig } from "tsup";

// The CLI is an application: one ESM bundle for Node, with its shebang, no declarations.
export default defineConfig({
  ...tsupPreset({ entry: ["src/cli.ts"], platform: "node", dts: false }),
  format: ["esm"],
  noExternal: [/^@sched\//],
});
