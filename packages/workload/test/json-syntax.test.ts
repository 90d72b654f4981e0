import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSyntaxError, jsonSyntaxErrorAt } from "../src/json-syntax.js";

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
      // at the first character no JSON text can have there: "tru" starts "true", "}" does not
      ['{"a": tru}', [1, 10]],
      ["[fal4e]", [1, 5]],
      ["[2E}", [1, 4]],
      ["[-.5]", [1, 3]],
      ["[2.]", [1, 4]],
      ["[01]", [1, 3]],
      ['["\t"]', [1, 3]],
      ["{'a': 1}", [1, 2]],
      ["[1,\r\n 2,\r\n ]", [3, 2]],
      // every escape JSON has, then an error after it (the escapes are not the error)
      ['["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9", x]', [1, 28]],
      ['["\\x"]', [1, 4]],
      // a bad \u escape: at its first character that is not a hex digit, as JSON.parse says
      ['["\\u12x4"]', [1, 7]],
      ['["\\uzzzz"]', [1, 5]],
      ['["\\u12', [1, 7]],
      ['["\\u00E9\\u0"]', [1, 12]],
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

  it("is where JSON.parse says the error is, whenever it gives a position (oracle)", () => {
    // Node 20 says "at position N" for errors in numbers, literals, strings and escapes.
    const alphabet = fc.constantFrom(...'{}[],:"\\ \n0123456789.-+eEtrufalsn\tuAbx'.split(""));
    const text = fc.oneof(
      fc
        .json()
        .chain((j) =>
          fc
            .tuple(fc.nat({ max: j.length }), fc.string({ unit: alphabet, maxLength: 3 }))
            .map(([at, s]) => j.slice(0, at) + s + j.slice(at + 1)),
        ),
      fc.string({ unit: alphabet, maxLength: 12 }),
    );
    let positions = 0;
    fc.assert(
      fc.property(text, (t) => {
        let said: string;
        try {
          JSON.parse(t);
          return;
        } catch (e) {
          said = (e as Error).message;
        }
        const position = /at position (\d+)/.exec(said);
        if (position === null) return;
        positions++;
        const at = Number(position[1]);
        const before = t.slice(0, at);
        const line = before.split("\n").length;
        const column = at - (before.lastIndexOf("\n") + 1) + 1;
        expect(jsonSyntaxErrorAt(t), `${JSON.stringify(t)}: ${said}`).toEqual({ line, column });
      }),
      { numRuns: 3000 },
    );
    expect(positions).toBeGreaterThan(300); // the property was not vacuous
  });

  it("gives up (null) on nesting deeper than the stack instead of throwing", () => {
    expect(jsonSyntaxErrorAt("[".repeat(1_000_000))).toBe(null);
  });
});

describe("jsonSyntaxError", () => {
  const refused = (text: string): unknown => {
    try {
      JSON.parse(text);
    } catch (error) {
      return error;
    }
    throw new Error(`${text} is valid JSON`);
  };

  it("gives the line and column, and JSON.parse's words without the position and snippet they make redundant", () => {
    const text = '{\n  "a": [1,]\n}';
    expect(jsonSyntaxError(text, refused(text))).toEqual({
      line: 2,
      column: 11,
      message: "Unexpected token ']'",
    });
    expect(jsonSyntaxError("[1] 2", refused("[1] 2"))).toEqual({
      line: 1,
      column: 5,
      message: "Unexpected non-whitespace character after JSON",
    });
  });

  it("is one line with the position of jsonSyntaxErrorAt, on any text JSON.parse refuses", () => {
    const alphabet = fc.constantFrom(...'{}[],:"\\ \n\r\u20280123456789.-etrufalsnx'.split(""));
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 16 }), (t) => {
        if (parses(t)) return;
        const e = jsonSyntaxError(t, refused(t));
        expect(e.message).not.toMatch(/[\r\n\u2028\u2029]/);
        expect(e.message).not.toBe("");
        const at = jsonSyntaxErrorAt(t);
        expect(e.line === undefined ? null : { line: e.line, column: e.column }).toEqual(at);
      }),
      { numRuns: 1000 },
    );
  });
});
