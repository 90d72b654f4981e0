import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

type Matching = typeof import("../src/index.js");

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * This package as it ships: `src/index.ts` bundled by tsup (esbuild), as `dist/` is, into a
 * fresh folder, and imported natively. The benchmarks time this rather than the sources that
 * vitest transforms on the fly: the transformed modules cost `imfs` about 0.2 ms more per call
 * (measured in one process, both versions interleaved: 0.47 against 0.24 ms for a hinted call
 * with nothing to do on 1000 x 1000), which is not code any user runs. `@sched/errors` is
 * bundled in from its sources, so that no other package has to be built first.
 *
 * `MATCHING_SRC` (a folder holding another version's `src/`, e.g. one exported from `main` with
 * `git archive main packages/matching/src`, placed inside this package so that `@sched/errors`
 * resolves) builds that version instead: to time two versions with the same bench, one run
 * after the other.
 */
export async function builtMatching(
  /** The `src/` folder to build (default: `MATCHING_SRC`, else this package's). */
  src: string = process.env.MATCHING_SRC ?? join(packageDir, "src"),
): Promise<{ lib: Matching; remove: () => Promise<void> }> {
  // Inside node_modules, so that anything left external resolves as it would for dist/.
  const outDir = await mkdtemp(join(packageDir, "node_modules", ".matching-bench-"));
  const remove = () => rm(outDir, { recursive: true, force: true });
  const config = join(outDir, "tsup.config.mjs");
  await writeFile(
    config,
    `export default ${JSON.stringify({
      entry: { index: join(src, "index.ts") },
      format: ["esm"],
      outDir,
      target: "node20",
      platform: "node",
      splitting: false,
      treeshake: false,
      dts: false,
      clean: false,
      noExternal: ["@sched/errors"],
    }).slice(0, -1)}, esbuildOptions(o) { o.conditions = ["@sched/source"]; } };`,
  );
  const r = spawnSync("pnpm", ["exec", "tsup", "--config", config, "--silent"], {
    cwd: packageDir,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  if (r.status !== 0) {
    await remove();
    throw new Error(`building @sched/matching for the benchmark failed: ${r.stderr}${r.stdout}`);
  }
  const lib = (await import(pathToFileURL(join(outDir, "index.js")).href)) as Matching;
  return { lib, remove };
}
