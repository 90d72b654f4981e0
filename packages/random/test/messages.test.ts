import { InvalidInputError } from "@sched/errors";
import { describe, expect, it } from "vitest";
import { deriveSeed, Random } from "../src/index.js";

describe("messages quote a string value", () => {
  it("a string seed reads as a string, not as a bare word or number", () => {
    expect(() => new Random("a" as never)).toThrow(InvalidInputError);
    expect(() => new Random("a" as never)).toThrow('seed is "a", expected a safe integer');
    expect(() => new Random("5" as never)).toThrow('seed is "5", expected a safe integer');
    expect(() => deriveSeed("5" as never, "x")).toThrow('seed is "5"');
  });
});
