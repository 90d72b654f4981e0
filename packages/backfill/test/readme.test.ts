import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { backfillPass } from "../src/pass.js";

// The README's live-loop example, run as it is written there: the first ```ts block that calls
// backfillPass, its import line dropped, its console.log captured, and the output compared with
// the "// " lines that follow it in the block.

it("README live-loop example: EASY on a hand-built state", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const block = blocks.find((b) => b.includes("backfillPass({"));
  expect(block).toBeDefined();
  const lines = (block as string).split("\n");
  expect(lines.filter((l) => l.trim() !== "").length).toBeLessThan(15);
  const code = lines.filter((l) => !l.startsWith("import ")).join("\n");
  const expected = lines.filter((l) => l.startsWith("// ")).map((l) => l.slice(3));
  const printed: string[] = [];
  const format = (v: unknown): string =>
    Array.isArray(v)
      ? `[ ${v.map(format).join(", ")} ]`
      : typeof v === "object" && v !== null
        ? `{ ${Object.entries(v)
            .map(([k, x]) => `${k}: ${format(x)}`)
            .join(", ")} }`
        : String(v);
  const log = (...args: unknown[]) => printed.push(args.map(format).join(" "));
  new Function("backfillPass", "console", code)(backfillPass, { log });
  expect(printed).toEqual(expected);
});
