import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CommandSpec, parseCommandArgs } from "../src/args.js";
import { UsageError } from "../src/usage-error.js";

const spec: CommandSpec = {
  name: "try",
  summary: "",
  description: "",
  options: [
    { name: "alpha", type: "string", description: "" },
    { name: "beta", type: "string", description: "" },
    { name: "flag", type: "boolean", description: "" },
  ],
  positionals: [{ name: "x", description: "", required: false }],
  examples: [],
};

const value = fc.stringMatching(/^[a-z0-9=.]{0,8}$/);

describe("parseCommandArgs properties", () => {
  it("the order of options does not change what is parsed, in either --k v or --k=v form", () => {
    fc.assert(
      fc.property(
        value,
        value,
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        (a, b, withFlag, eqForm, seed) => {
          const groups = [
            eqForm ? [`--alpha=${a}`] : ["--alpha", a === "" ? "=" : a],
            eqForm ? [`--beta=${b}`] : ["--beta", b === "" ? "=" : b],
            ...(withFlag ? [["--flag"]] : []),
          ];
          const shuffled = groups
            .map((g, i) => ({ g, k: (seed * (i + 7)) % 11 }))
            .sort((p, q) => p.k - q.k)
            .flatMap((p) => p.g);
          const parsed = parseCommandArgs(spec, ["pos", ...shuffled]);
          expect(parsed.values.alpha).toBe(eqForm ? a : a === "" ? "=" : a);
          expect(parsed.values.beta).toBe(eqForm ? b : b === "" ? "=" : b);
          expect(parsed.values.flag).toBe(withFlag ? true : undefined);
          expect(parsed.positionals).toEqual(["pos"]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("any unknown long option is a UsageError naming it", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z-]{0,10}$/), (name) => {
        fc.pre(!["alpha", "beta", "flag", "help", "debug"].includes(name));
        expect(() => parseCommandArgs(spec, [`--${name}`])).toThrow(UsageError);
        expect(() => parseCommandArgs(spec, [`--${name}`])).toThrow(`unknown option --${name}`);
      }),
      { numRuns: 300 },
    );
  });
});
