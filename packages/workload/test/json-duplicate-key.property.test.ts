import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { duplicateJsonKey, mayRepeatJsonKey } from "../src/json-duplicate-key.js";

/**
 * A JSON document as a tree whose objects are lists of [key, value] pairs (keys may repeat),
 * written out by hand: the oracle knows where the first repeated key is.
 */
type Tree = number | string | null | Tree[] | { pairs: [string, Tree][] };

const key = fc.constantFrom("a", "b", "id", 'a"', "\\a", "é", "\u0061", "x y", "__proto__");

const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.integer(),
    fc.constantFrom("s", "{", "}", "[", ",", '"', "\\", ":"),
    fc.constant(null),
    fc.array(tie("tree"), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie("tree")), { maxLength: 4 }).map((pairs) => ({ pairs })),
  ),
})).tree;

function write(t: Tree, escapeKeys: boolean): string {
  if (t === null || typeof t === "number") return JSON.stringify(t);
  if (typeof t === "string") return JSON.stringify(t);
  if (Array.isArray(t)) return `[${t.map((x) => write(x, escapeKeys)).join(", ")}]`;
  const k = (s: string) =>
    escapeKeys
      ? `"${[...s].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`
      : JSON.stringify(s);
  return `{${t.pairs.map(([name, v]) => `${k(name)}: ${write(v, escapeKeys)}`).join(", ")}}`;
}

/** The first key met a second time in its object, walking the text in order; its path. */
function firstRepeat(t: Tree, p: string): string | null {
  if (t === null || typeof t !== "object") return null;
  if (Array.isArray(t)) {
    for (const [i, y] of t.entries()) {
      const found = firstRepeat(y, `${p}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  const seen = new Set<string>();
  for (const [name, v] of t.pairs) {
    const path = p === "" ? name : `${p}.${name}`;
    if (seen.has(name)) return path;
    seen.add(name);
    const found = firstRepeat(v, path);
    if (found !== null) return found;
  }
  return null;
}

describe("duplicateJsonKey", () => {
  it("finds the first key given twice in one object, with its path, escaped or not (oracle)", () => {
    fc.assert(
      fc.property(tree, fc.boolean(), (t, escapeKeys) => {
        const text = write(t, escapeKeys);
        JSON.parse(text); // valid JSON, as the readers call it
        expect(duplicateJsonKey(text)).toBe(firstRepeat(t, ""));
      }),
      { numRuns: 2000 },
    );
  });

  it("mayRepeatJsonKey(text, JSON.parse(text)) is true exactly when a key is given twice", () => {
    fc.assert(
      fc.property(
        tree,
        fc.boolean(),
        fc.constantFrom("", " ", "\n\t ", "\r\n", "\r"),
        (t, escapeKeys, ws) => {
          // White space around the colons too (the count looks past it).
          const text = write(t, escapeKeys).replaceAll(": ", `${ws}:${ws}`);
          expect(mayRepeatJsonKey(text, JSON.parse(text))).toBe(firstRepeat(t, "") !== null);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("examples", () => {
    expect(mayRepeatJsonKey('{"a":1,"b":{"a":2}}', { a: 1, b: { a: 2 } })).toBe(false);
    expect(mayRepeatJsonKey('{"a":1,"a":2}', { a: 2 })).toBe(true);
    // a repeated key beside a key written with a carriage return before its colon
    expect(mayRepeatJsonKey('{"a":1,"a":2,"b"\r:3}', { a: 2, b: 3 })).toBe(true);
    expect(mayRepeatJsonKey('{"a":"x:","b":["c",":"]}', { a: "x:", b: ["c", ":"] })).toBe(false);
    expect(duplicateJsonKey('{"id":1,"runtime":5,"runtime":500}')).toBe("runtime");
    expect(duplicateJsonKey('{"jobs":[{"id":1},{"id":2,"res":1,"res":2}]}')).toBe("jobs[1].res");
    expect(duplicateJsonKey('{"a":1,"\\u0061":2}')).toBe("a");
    expect(duplicateJsonKey('{"a":{"b":1},"c":{"b":2},"s":"\\"a\\":1"}')).toBeNull();
    expect(duplicateJsonKey("[1,2,3]")).toBeNull();
  });
});
