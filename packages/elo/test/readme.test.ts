import { readFileSync } from "node:fs";
import { format } from "node:util";
import * as core from "@sched/core";
import { expect, it } from "vitest";
import * as eloPackage from "../src/index.js";

// The live-loop example, run as it is written in the README: the ```ts block that calls
// competitivePass, its import lines dropped (the names they import are passed in), its
// console.log captured as Node prints it, and the output compared with the "// " lines that
// end the block.
it("README live-loop example: competitivePass across two calls", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const block = blocks.find((b) => b.includes("competitivePass({"));
  expect(block).toBeDefined();
  const lines = (block as string).split("\n");
  expect(lines.filter((l) => l.trim() !== "").length).toBeLessThan(15);
  const modules: Record<string, Record<string, unknown>> = {
    "@sched/core": core,
    "@sched/elo": eloPackage,
  };
  const imported = lines
    .filter((l) => l.startsWith("import "))
    .flatMap((l) => {
      const [, names, from] = /\{([^}]*)\} from "([^"]+)"/.exec(l) as RegExpExecArray;
      return (names as string).split(",").map((n) => [n.trim(), from as string] as const);
    });
  const values = imported.map(([name, from]) => modules[from]?.[name]);
  expect(values.every((v) => v !== undefined)).toBe(true);
  const code = lines.filter((l) => !l.startsWith("import ")).join("\n");
  const expected = lines.filter((l) => l.startsWith("// ")).map((l) => l.slice(3));
  const printed: string[] = [];
  const log = (...args: unknown[]) => printed.push(format(...args));
  new Function(...imported.map(([name]) => name), "console", code)(...values, { log });
  expect(printed).toEqual(expected);
});
