import { ParseError } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createSwfJobStream,
  parseSwf,
  readSwfLines,
  readSwfLinesSync,
  readSwfTrace,
  swfToJobs,
  swfToJobsAsync,
} from "../src/index.js";

/** What breaks one record for the conversion (each line still reads as 18 numbers). */
const CORRUPTIONS = [
  "run time 0",
  "processors -4 and -4",
  "requested time -1",
  "submit -3",
  "user -2",
  "size 2.5",
  "job number -1",
  "job number twice",
] as const;

/** The 18 fields of a valid job `id` submitted at `submit`, or of the corrupted one. */
function fields(id: number, submit: number, corruption?: (typeof CORRUPTIONS)[number]): number[] {
  const f = [id, submit, 0, 10, 4, -1, -1, 4, 20, -1, 1, 3, 1, 1, 1, -1, -1, -1];
  switch (corruption) {
    case "run time 0":
      f[3] = 0;
      break;
    case "processors -4 and -4":
      f[4] = -4;
      f[7] = -4;
      break;
    case "requested time -1":
      f[8] = -1;
      break;
    case "submit -3":
      f[1] = -3;
      break;
    case "user -2":
      f[11] = -2;
      break;
    case "size 2.5":
      f[4] = 2.5;
      break;
    case "job number -1":
      f[0] = -1;
      break;
    case "job number twice":
      f[0] = 1; // job 1 is the first record, the corrupted one comes after it
      break;
  }
  return f;
}

/** What goes between data lines: nothing, blank lines, late comments. */
const filler = fc.array(fc.constantFrom("", "   ", "\t", "; a late comment"), { maxLength: 3 });

/**
 * A valid SWF text of 2 to 30 jobs (a header, blank and comment lines between the records,
 * varied blanks between fields and one kind of line end), with record `bad` (>= 1) corrupted,
 * and the 1-based line it is on.
 */
const corruptedTrace = fc
  .record({
    header: fc.array(fc.constantFrom("; Version: 2.2", "; MaxProcs: 64", "; Note: x", ""), {
      maxLength: 4,
    }),
    jobs: fc.array(filler, { minLength: 2, maxLength: 30 }),
    sep: fc.constantFrom(" ", "  ", "\t"),
    eol: fc.constantFrom("\n", "\r\n", "\r"),
    lastEol: fc.boolean(),
    corruption: fc.constantFrom(...CORRUPTIONS),
    pick: fc.nat(),
  })
  .map(({ header, jobs, sep, eol, lastEol, corruption, pick }) => {
    const bad = 1 + (pick % (jobs.length - 1));
    const lines: string[] = [...header];
    let line = 0;
    jobs.forEach((before, i) => {
      lines.push(...before);
      lines.push(fields(i + 1, 10 * i, i === bad ? corruption : undefined).join(sep));
      if (i === bad) line = lines.length;
    });
    const text = lines.join(eol) + (lastEol ? eol : "");
    return { text, eol, line, corruption };
  });

const SOURCE = "traces/p.swf";

function expectAt(error: unknown, line: number): void {
  expect(error).toBeInstanceOf(ParseError);
  const e = error as ParseError;
  expect([e.source, e.line]).toEqual([SOURCE, line]);
  expect(e.message).toMatch(
    new RegExp(`^@sched/workload/\\w+: ${SOURCE}:${line}: \\(job [-\\d.]+\\) `),
  );
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return "no error";
}

describe("a corrupted record at a random line", () => {
  it("is named by exactly that line, whole-text and streamed, whatever the stream's pieces", async () => {
    await fc.assert(
      fc.asyncProperty(
        corruptedTrace,
        fc.array(fc.nat({ max: 60 }), { maxLength: 40 }),
        async ({ text, eol, line }, cuts) => {
          const lines = text.split(/\r\n|\n|\r/);
          // parseSwf splits at \n only (\r\n ends are trimmed, a lone \r is a blank)
          if (eol !== "\r") {
            expectAt(
              thrown(() => swfToJobs(parseSwf(text, { source: SOURCE }).records)),
              line,
            );
          }
          expectAt(
            thrown(() => swfToJobs(readSwfLinesSync(lines, { source: SOURCE }))),
            line,
          );
          let error: unknown = "no error";
          await swfToJobsAsync(readSwfLines(lines, { source: SOURCE })).catch((e) => {
            error = e;
          });
          expectAt(error, line);
          error = "no error";
          await readSwfTrace(lines, { source: SOURCE })
            .then((t) => swfToJobs(t.records))
            .catch((e) => {
              error = e;
            });
          expectAt(error, line);
          const streamed = thrown(() => {
            const s = createSwfJobStream({ source: SOURCE });
            let at = 0;
            for (const c of cuts) {
              s.push(text.slice(at, at + c));
              at = Math.min(text.length, at + c);
            }
            s.push(text.slice(at));
            s.end();
          });
          expectAt(streamed, line);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is dropped, not an error, by the clean-up when the clean-up drops it", () => {
    fc.assert(
      fc.property(corruptedTrace, ({ text, corruption }) => {
        const dropped = ["run time 0", "processors -4 and -4", "requested time -1"];
        const s = createSwfJobStream({ source: SOURCE, clean: true });
        const error = thrown(() => {
          s.push(text);
          s.end();
        });
        if (dropped.includes(corruption)) expect(error).toBe("no error");
        else expect(error).toBeInstanceOf(ParseError);
      }),
      { numRuns: 100 },
    );
  });
});
