import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { relativeImports, root, sourcesOf, workspacePackages } from "./repo.js";

// Inside a package, modules form no import cycle (type-only imports count: a cycle of types is
// still a cycle for a reader). The graph is read from the sources, so a cycle added later
// fails here.

/** The first import cycle of the graph (as module names, first = last), or null. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 1 | 2>(); // 1: on the stack, 2: done
  const stack: string[] = [];
  const visit = (n: string): string[] | null => {
    state.set(n, 1);
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      const s = state.get(m);
      if (s === 1) return [...stack.slice(stack.indexOf(m)), m];
      if (s === undefined) {
        const c = visit(m);
        if (c !== null) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return null;
  };
  for (const n of [...graph.keys()].sort()) {
    if (state.get(n) === undefined) {
      const c = visit(n);
      if (c !== null) return c;
    }
  }
  return null;
}

describe("findCycle", () => {
  it("finds a cycle of three modules, a self-import, and none in a chain or a diamond", () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(findCycle(g({ a: ["b"], b: ["c"], c: ["a"] }))).toEqual(["a", "b", "c", "a"]);
    expect(findCycle(g({ a: ["a"] }))).toEqual(["a", "a"]);
    expect(findCycle(g({ a: ["b"], b: ["c"], c: [] }))).toBeNull();
    expect(findCycle(g({ a: ["b", "c"], b: ["d"], c: ["d"], d: [] }))).toBeNull();
  });
});

describe("no import cycle inside a package", () => {
  for (const pkg of workspacePackages()) {
    it(`${pkg.name}: src/ has no import cycle`, () => {
      const files = sourcesOf(pkg);
      expect(files.length).toBeGreaterThan(0);
      const graph = new Map(files.map((f) => [f, relativeImports(f)]));
      for (const [f, deps] of graph) {
        // A module of src/ imports modules of src/ (a JSON file, such as package.json, is data).
        for (const d of deps.filter((x) => !x.endsWith(".json"))) {
          expect(files, `${relative(root, f)} imports ${relative(root, d)}`).toContain(d);
        }
      }
      const cycle = findCycle(graph);
      expect(cycle?.map((f) => relative(root, f)) ?? null).toBeNull();
    });
  }
});
