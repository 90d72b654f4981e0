import { readFileSync } from "node:fs";
import { format } from "node:util";
import { expect, it } from "vitest";
import * as advanceReservation from "../src/index.js";

// The README's live-loop example, run as it is written there: the ```ts block that calls
// admissionPass, its import line dropped (the names it imports are passed in), its console.log
// captured as Node prints it, and the output compared with the "// " lines that end the block.

it("README live-loop example: admission on a hand-built state", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const block = blocks.find((b) => b.includes("admissionPass(state"));
  expect(block).toBeDefined();
  const lines = block!.split("\n");
  expect(lines.filter((l) => l.trim() !== "").length).toBeLessThan(22);
  const imported = lines
    .filter((l) => l.startsWith("import "))
    .flatMap((l) => /\{([^}]*)\}/.exec(l)![1]!.split(","))
    .map((name) => name.trim());
  const code = lines.filter((l) => !l.startsWith("import ")).join("\n");
  const expected = lines.filter((l) => l.startsWith("// ")).map((l) => l.slice(3));
  const printed: string[] = [];
  const log = (...args: unknown[]) => printed.push(format(...args));
  const values = imported.map((name) => (advanceReservation as Record<string, unknown>)[name]);
  expect(values.every((v) => v !== undefined)).toBe(true);
  new Function(...imported, "console", code)(...values, { log });
  expect(printed).toEqual(expected);
});
