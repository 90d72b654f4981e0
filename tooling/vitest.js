// @ts-check
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Aliases from every workspace package's export to its TypeScript source (the "@sched/source"
 * condition of its exports map), so tests run against sources without a prior build.
 * @returns {{ find: RegExp, replacement: string }[]}
 */
function sourceAliases() {
  /** @type {{ find: RegExp, replacement: string }[]} */
  const aliases = [];
  const dir = join(root, "packages");
  if (!existsSync(dir)) return aliases;
  for (const name of readdirSync(dir)) {
    const manifest = join(dir, name, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8"));
    for (const [key, target] of Object.entries(pkg.exports ?? {})) {
      if (target && typeof target === "object" && "@sched/source" in target) {
        const spec = pkg.name + key.slice(1);
        const escaped = spec.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
        aliases.push({
          find: new RegExp(`^${escaped}$`),
          replacement: join(dir, name, target["@sched/source"]),
        });
      }
    }
  }
  return aliases;
}

/**
 * The vitest preset: tests under test/, benchmarks under bench/, fast-check seeded in CI.
 * @param {{ testTimeout?: number }} [options]
 * @returns {import("vitest/config").UserConfig}
 */
export function vitestPreset(options = {}) {
  return {
    resolve: { alias: sourceAliases() },
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: [join(root, "tooling", "vitest-setup.js")],
      testTimeout: options.testTimeout ?? 60_000,
      pool: "threads",
      benchmark: { include: ["bench/**/*.bench.ts"] },
    },
  };
}
