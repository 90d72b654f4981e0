import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const dir = new URL("../src/", import.meta.url);
const files = readdirSync(dir).filter((file) => file.endsWith(".ts"));

describe("no exported mutable state", () => {
  it("every exported object of src/ is frozen (functions, classes and primitives aside)", async () => {
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const exports: Record<string, unknown> = await import(new URL(file, dir).href);
      for (const [name, value] of Object.entries(exports)) {
        if (typeof value === "function" || value === null || typeof value !== "object") continue;
        expect(Object.isFrozen(value), `src/${file}: export ${name} is a mutable object`).toBe(
          true,
        );
      }
    }
  });

  it("no module of src/ exports a `let` or `var` binding", () => {
    for (const file of files) {
      const text = readFileSync(new URL(file, dir), "utf8");
      expect(text, `src/${file}`).not.toMatch(/^\s*export\s+(let|var)\s/m);
    }
  });
});
