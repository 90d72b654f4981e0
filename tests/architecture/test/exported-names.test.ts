import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sourcesOf, stripComments, workspacePackages } from "./repo.js";

// A name means one thing across the repository: no two packages declare the same exported name
// (or the same top-level class, interface, type or enum, exported or not: a reader meets those as
// concepts). A clash that must stay would be listed below with its reason; an entry that no longer
// clashes fails the test, so the list only shrinks. None is left.

const KNOWN: Readonly<Record<string, string>> = {};

/** Names a module declares at top level that other modules can meet as concepts. */
function declaredNames(text: string): string[] {
  const code = stripComments(text);
  const names: string[] = [];
  const exported =
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+([\w$]+)/gm;
  for (const m of code.matchAll(exported)) names.push(m[1]!);
  for (const m of code.matchAll(/^(?:abstract\s+)?(?:class|interface|type|enum)\s+([\w$]+)/gm)) {
    names.push(m[1]!);
  }
  return names;
}

/** Each name declared by two packages or more, with those packages. */
function clashes(): Map<string, string[]> {
  const owners = new Map<string, Set<string>>();
  for (const pkg of workspacePackages()) {
    for (const f of sourcesOf(pkg)) {
      for (const n of declaredNames(readFileSync(f, "utf8"))) {
        const set = owners.get(n) ?? new Set();
        set.add(pkg.name);
        owners.set(n, set);
      }
    }
  }
  return new Map(
    [...owners].filter(([, s]) => s.size > 1).map(([n, s]) => [n, [...s].sort()] as const),
  );
}

describe("one meaning per name across packages", () => {
  it("declaredNames reads exported declarations and top-level types, not locals or comments", () => {
    const text = [
      "export function f() { const local = 1; }",
      "export interface I {}",
      "class C {}",
      "type T = number;",
      "const notExported = 1;",
      "/** export class Doc {} */",
    ].join("\n");
    expect(declaredNames(text)).toEqual(["f", "I", "C", "T"]);
  });

  it("no two packages declare the same name, except the listed ones, which still clash", () => {
    const found = clashes();
    const unlisted = [...found]
      .filter(([n]) => !(n in KNOWN))
      .map(([n, p]) => `${n}: ${p.join(", ")}`);
    expect(unlisted).toEqual([]);
    const stale = Object.keys(KNOWN).filter((n) => !found.has(n));
    expect(stale).toEqual([]);
  });
});
