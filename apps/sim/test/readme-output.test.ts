import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./helpers.js";

const README = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
const KTH = new URL("../../../packages/workload/fixtures/KTH-SP2-1996-2.1-cln.swf", import.meta.url)
  .pathname;

/** The lines of the README's ```text block that starts with `$ COMMAND`, without that line. */
function shownOutput(command: string): string {
  const start = README.indexOf(`\`\`\`text\n$ ${command}\n`);
  expect(start, `README has a text block starting with '$ ${command}'`).toBeGreaterThanOrEqual(0);
  const body = README.indexOf("\n", README.indexOf("\n", start) + 1) + 1;
  return README.slice(body, README.indexOf("```", body));
}

describe("README: the outputs it shows are what the commands print", () => {
  it("`pnpm sim` (sched-sim demo)", async () => {
    const r = await cli("demo");
    expect(r.code).toBe(0);
    expect(shownOutput("pnpm sim")).toBe(r.stdout);
  });

  it("`sched-sim inspect KTH-SP2-1996-2.1-cln.swf --clean`", async () => {
    const r = await cli("inspect", KTH, "--clean");
    expect(r.code).toBe(0);
    expect(shownOutput("sched-sim inspect KTH-SP2-1996-2.1-cln.swf --clean")).toBe(
      r.stdout.replace(KTH, "KTH-SP2-1996-2.1-cln.swf"),
    );
  });
});
