import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSyntaxErrorAt } from "../src/json-syntax.js";
import { cli } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("jsonSyntaxErrorAt", () => {
  it("finds the first error at the place worked by hand", () => {
    const cases: [string, [number, number] | null][] = [
      ['{"a": 1}', null],
      [' [1, 2.5e-3, "x\\u00e9", true, null, {}] ', null],
      ['{\n  "a": [1,]\n}', [2, 11]],
      ['{\n  "name": "x"\n  "workload": {}\n}', [3, 3]],
      ['{"a":', [1, 6]],
      ["", [1, 1]],
      ["[1] 2", [1, 5]],
      ['{"a": tru}', [1, 7]],
      ["[01]", [1, 3]],
      ['["\t"]', [1, 3]],
      ["{'a': 1}", [1, 2]],
      ["[1,\r\n 2,\r\n ]", [3, 2]],
    ];
    for (const [text, want] of cases) {
      const got = jsonSyntaxErrorAt(text);
      expect(got === null ? null : [got.line, got.column], JSON.stringify(text)).toEqual(want);
    }
  });

  it("says valid exactly when JSON.parse does (oracle), on JSON and on JSON cut or altered", () => {
    const alphabet = fc.constantFrom(...'{}[],:"\\ \n0123456789.-+eEtrufalsn\tx'.split(""));
    const text = fc.oneof(
      fc.json(),
      fc
        .json()
        .chain((j) =>
          fc
            .tuple(fc.nat({ max: j.length }), fc.string({ unit: alphabet, maxLength: 3 }))
            .map(([at, s]) => j.slice(0, at) + s + j.slice(at + 1)),
        ),
      fc.string({ unit: alphabet, maxLength: 12 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(jsonSyntaxErrorAt(t) === null, JSON.stringify(t)).toBe(parses(t));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives up (null) on nesting deeper than the stack instead of throwing", () => {
    expect(jsonSyntaxErrorAt("[".repeat(1_000_000))).toBe(null);
  });
});

describe("sweep: an experiment file that is not JSON", () => {
  it("names the line and column (before: only 'at position 18', or nothing)", async () => {
    const file = await writeExperiment(
      '{\n  "name": "x",\n  "workload": {"type": "synthetic"},\n  "schedulers": ["easy",],\n  "seeds": 1\n}\n',
    );
    const r = await cli("sweep", file, "--out", `${file}.out`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^sched-sim: sweep: ${file}: line 4, column 25: not valid JSON: [^\\n]*\\n$`),
    );
  });
});
