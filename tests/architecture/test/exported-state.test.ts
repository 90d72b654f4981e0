import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root, sourcesOf, stripComments, workspacePackages } from "./repo.js";

// No exported mutable binding: a module exports no `let` or `var`, directly or through an
// `export { name }` list. State a caller (or a test) could reassign belongs in an options object.

/** The names a module declares with `let`/`var` at top level and also exports. */
function exportedMutableBindings(text: string): string[] {
  const code = stripComments(text);
  const found: string[] = [];
  for (const m of code.matchAll(/^export\s+(?:let|var)\s+([\w$]+)/gm)) found.push(m[1]!);
  const topLevel = new Set<string>();
  for (const m of code.matchAll(/^(?:let|var)\s+([\w$]+)/gm)) topLevel.add(m[1]!);
  for (const m of code.matchAll(/^export\s*\{([^}]*)\}\s*(?!\s*from)/gm)) {
    for (const part of m[1]!.split(",")) {
      const local = part
        .trim()
        .split(/\s+as\s+/)[0]!
        .trim();
      if (topLevel.has(local)) found.push(local);
    }
  }
  return found;
}

describe("exportedMutableBindings", () => {
  it("finds `export let`, `export var` and a let exported by a list, and nothing else", () => {
    expect(exportedMutableBindings("export let a = 1;\nexport var b;\n")).toEqual(["a", "b"]);
    expect(exportedMutableBindings("let c = 1;\nconst d = 2;\nexport { c as e, d };\n")).toEqual([
      "c",
    ]);
    expect(exportedMutableBindings("export const f = 1;\nfunction g() { let h = 1; }\n")).toEqual(
      [],
    );
    expect(exportedMutableBindings("/** export let x */\nexport { y } from './y.js';\n")).toEqual(
      [],
    );
  });
});

describe("no exported let or var in any package", () => {
  for (const pkg of workspacePackages()) {
    it(`${pkg.name}: src/ exports no mutable binding`, () => {
      const bad = sourcesOf(pkg).flatMap((f) =>
        exportedMutableBindings(readFileSync(f, "utf8")).map((n) => `${relative(root, f)}: ${n}`),
      );
      expect(bad).toEqual([]);
    });
  }
});
