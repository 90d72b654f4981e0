import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The package's modules form no import cycle: a strategy never imports the factory that picks
// it, nor another strategy (type-only imports count: a cycle of types is still a cycle for a
// reader). The graph is read from the sources, so a cycle added later fails here.

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** The relative imports and re-exports of a module, as absolute .ts paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/g)) {
    out.push(resolve(dirname(file), m[1].replace(/\.js$/, ".ts")));
  }
  return out;
}

/** The first import cycle of the graph (as module paths, first = last), or null. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, number>(); // 1: on the stack, 2: done
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

describe("module graph of @sched/backfill", () => {
  it("findCycle finds a cycle of three modules and none in a chain", () => {
    expect(
      findCycle(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", ["a"]],
        ]),
      ),
    ).toEqual(["a", "b", "c", "a"]);
    expect(
      findCycle(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", []],
        ]),
      ),
    ).toBeNull();
  });

  it("has no import cycle inside src/ (type-only imports included)", () => {
    const files = sources(src);
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    for (const [f, deps] of graph) {
      for (const d of deps) expect(files, `${relative(src, f)} imports ${d}`).toContain(d);
    }
    const cycle = findCycle(graph);
    expect(cycle?.map((f) => relative(src, f)) ?? null).toBeNull();
  });
});
