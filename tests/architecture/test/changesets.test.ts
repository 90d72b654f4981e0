import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { root, workspacePackages } from "./repo.js";

// `changeset version` refuses the whole release when one changeset names both an ignored package
// (the private CLI, the artifact tests) and a published one ("Mixed changesets … are not
// allowed"), or names a package that does not exist. Four such changesets once sat in .changeset
// unnoticed: nothing ran `changeset status` before a release.

const dir = join(root, ".changeset");
const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as { ignore?: string[] };
const ignored = new Set(config.ignore ?? []);
const known = new Set(workspacePackages().map((p) => p.name));

/** The packages and bumps of a changeset's front matter, or null when it has none. */
function frontMatter(text: string): [string, string][] | null {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (m === null) return null;
  return m[1]!
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const kv = /^\s*"([^"]+)"\s*:\s*(\S+)\s*$/.exec(line);
      return kv === null ? [line, "unparsed"] : [kv[1]!, kv[2]!];
    });
}

describe("changesets", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md");

  it("each names existing packages with a patch, minor or major bump", () => {
    const bad: string[] = [];
    for (const f of files) {
      const entries = frontMatter(readFileSync(join(dir, f), "utf8"));
      if (entries === null || entries.length === 0) {
        bad.push(`${f}: no front matter`);
        continue;
      }
      for (const [name, bump] of entries) {
        if (!known.has(name) && !ignored.has(name)) bad.push(`${f}: ${name} is no package`);
        if (!["patch", "minor", "major"].includes(bump)) bad.push(`${f}: ${name}: ${bump}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("none mixes ignored packages with published ones (changeset version refuses it)", () => {
    const mixed: string[] = [];
    for (const f of files) {
      const names = (frontMatter(readFileSync(join(dir, f), "utf8")) ?? []).map(([n]) => n);
      const some = names.filter((n) => ignored.has(n));
      if (some.length > 0 && some.length < names.length) mixed.push(`${f}: ${names.join(", ")}`);
    }
    expect(mixed).toEqual([]);
  });
});
