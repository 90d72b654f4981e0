#!/usr/bin/env node
// The `sched-sim` command (package.json "bin"): runs the built CLI, dist/cli.js. A launcher that
// is in the repository rather than the bundle itself, so that `pnpm install` on a fresh clone
// links the command before anything is built (pnpm skips a bin whose file is missing).
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    "sched-sim: the CLI is not built (no apps/sim/dist/cli.js): run `pnpm build` first\n",
  );
  process.exit(1);
}
await import(cli.href);
