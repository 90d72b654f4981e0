import { existsSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { filesUnder, root } from "./repo.js";

// File names are kebab-case, enforced by Biome's useFilenamingConvention (so `pnpm lint` names
// the file). The files that do not conform yet are listed in biome.json's overrides, each one
// explicitly; this test keeps that list exact: no file outside it breaks the rule, and no entry
// in it is stale (missing, or already conforming).

interface BiomeConfig {
  linter: { rules: { style: Record<string, unknown> } };
  overrides?: {
    includes: string[];
    linter?: { rules?: { style?: Record<string, unknown> } };
  }[];
}

const biome = JSON.parse(readFileSync(join(root, "biome.json"), "utf8")) as BiomeConfig;

/** `name` is kebab-case: every dot-separated part before the extension is `a-z0-9` words joined by `-`. */
function isKebab(name: string): boolean {
  const parts = name.split(".");
  return parts.slice(0, -1).every((p) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(p));
}

const exceptions = (biome.overrides ?? [])
  .filter((o) => o.linter?.rules?.style?.useFilenamingConvention === "off")
  .flatMap((o) => o.includes);

describe("file names", () => {
  it("isKebab accepts kebab-case names with suffixes and rejects camelCase, snake_case, capitals", () => {
    expect(
      ["avail-rect-list.ts", "knapsack01.ts", "scaling.bench.ts", "a.property.test.ts"].map(
        isKebab,
      ),
    ).toEqual([true, true, true, true]);
    expect(["antiAging.ts", "swf_read.ts", "Plan.ts", "x-.ts"].map(isKebab)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it("biome.json enforces kebab-case file names as an error", () => {
    expect(biome.linter.rules.style.useFilenamingConvention).toEqual({
      level: "error",
      options: { filenameCases: ["kebab-case"], requireAscii: true },
    });
  });

  it("every source file is kebab-case, except exactly the files biome.json lists", () => {
    const files = ["packages", "apps", "tests", "tooling"].flatMap((d) =>
      filesUnder(join(root, d), [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"]),
    );
    const offending = files.filter((f) => !isKebab(basename(f))).map((f) => relative(root, f));
    expect(offending.sort()).toEqual([...exceptions].sort());
    for (const e of exceptions) {
      expect(existsSync(join(root, e)), `${e} is listed in biome.json but does not exist`).toBe(
        true,
      );
    }
  });
});
