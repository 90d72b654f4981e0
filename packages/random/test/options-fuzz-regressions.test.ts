import { describe, expect, it } from "vitest";
import { Random } from "../src/index.js";

// A defect the options fuzz suite found (options-fuzz.property.test.ts).
describe("Random.stream(name) takes a string", () => {
  it("a number or a symbol is refused (a number was coerced to its text, a symbol threw raw)", () => {
    const r = new Random(1, "a");
    expect(() => r.stream(0 as never)).toThrow(
      "@sched/random/Random/stream: name is 0, expected a string",
    );
    expect(() => r.stream(Symbol() as never)).toThrow("name is symbol, expected a string");
    expect(r.stream("0").name).toBe("a/0");
  });
});
