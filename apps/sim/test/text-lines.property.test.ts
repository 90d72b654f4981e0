import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textLineBatches, textLines } from "../src/text-lines.js";

// textLineBatches (a chunk's lines at once, what `run` reads native input with) against a
// reference: the whole text split at once, the line and line-count limits applied line by line.
// Whatever the chunks, the lines before an error all arrive, then the error.

/** The bytes in pieces cut at `cuts` (byte offsets, inside a character too). */
async function* pieces(bytes: Buffer, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const c of [...new Set(cuts.map((x) => x % (bytes.length + 1)))].sort((a, b) => a - b)) {
    yield bytes.subarray(at, c);
    at = c;
  }
  yield bytes.subarray(at);
}

/** The lines and the error (if any) of the reference reading. */
function reference(
  text: string,
  maxLineLength: number,
  maxLines: number,
): { lines: string[]; error: string | null } {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const all = body === "" ? [] : body.split(/\r\n|\r|\n/);
  if (body !== "" && /[\r\n]$/.test(body)) all.pop();
  const lines: string[] = [];
  for (const [i, l] of all.entries()) {
    if (l.length > maxLineLength) {
      return {
        lines,
        error: `t: f:${i + 1}: is longer than ${maxLineLength} characters, the limit of a line (a trace line is a few hundred at most)`,
      };
    }
    if (i + 1 > maxLines) {
      return { lines, error: `t: f: has more than ${maxLines} lines, the limit of a trace` };
    }
    lines.push(l);
  }
  return { lines, error: null };
}

const text = fc
  .array(fc.constantFrom("a", "b", "\n", "\r", "\r\n", "é", "\uFEFF", "xyz"), { maxLength: 30 })
  .map((parts) => parts.join(""));

describe("textLineBatches", () => {
  it("gives the reference's lines, then its error, however the bytes are cut (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom(1, 2, 3, 5, Number.POSITIVE_INFINITY),
        fc.constantFrom(1, 2, 4, Number.POSITIVE_INFINITY),
        async (t, cuts, maxLineLength, maxLines) => {
          const options = { where: "t", source: "f", maxLineLength, maxLines };
          const lines: string[] = [];
          let error: string | null = null;
          try {
            for await (const batch of textLineBatches(pieces(Buffer.from(t), cuts), options)) {
              expect(batch.length).toBeGreaterThan(0);
              lines.push(...batch);
            }
          } catch (e) {
            error = (e as Error).message;
          }
          expect({ lines, error }).toEqual(reference(t, maxLineLength, maxLines));
          // textLines, a line at a time, gives the same
          const one: string[] = [];
          let oneError: string | null = null;
          try {
            for await (const l of textLines(pieces(Buffer.from(t), cuts), options)) one.push(l);
          } catch (e) {
            oneError = (e as Error).message;
          }
          expect({ lines: one, error: oneError }).toEqual({ lines, error });
        },
      ),
      { numRuns: 500, seed: 5 },
    );
  });

  it("hands the lines before an error over first: a reader that stops at one never sees it", async () => {
    const source = pieces(Buffer.from("a\nb\nccccccc\n"), []);
    const batches = textLineBatches(source, { where: "t", source: "f", maxLineLength: 3 });
    const first = await batches.next();
    expect(first.value).toEqual(["a", "b"]);
    await expect(batches.next()).rejects.toThrow("t: f:3: is longer than 3 characters");
    const stopped = textLineBatches(pieces(Buffer.from("a\nb\nccccccc\n"), []), {
      where: "t",
      source: "f",
      maxLineLength: 3,
    });
    for await (const batch of stopped) {
      expect(batch).toEqual(["a", "b"]);
      break;
    }
  });
});
