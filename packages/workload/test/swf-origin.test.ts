import { InvalidInputError, ParseError } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  createSwfJobStream,
  parseSwf,
  readSwfLines,
  readSwfLinesSync,
  readSwfTrace,
  type SwfRecord,
  swfRecord,
  swfToJobs,
  swfToJobsAsync,
} from "../src/index.js";

const ok = (id: number) => `${id} ${id} -1 10 4 -1 -1 4 10 -1 1 1 1 1 1 -1 -1 -1`;
/** Job 2 with processors -4 and -4: read fine, refused by the conversion. */
const badProcs = "2 5 0 10 -4 -1 -1 -4 10 -1 1 1 1 1 1 -1 -1 -1";
const PROCS =
  "(job 2) processors (fields 5 and 8) are -4 and -4, expected one > 0 (or set options.clean to drop such jobs)";

/** The error `run` throws, or a failure when it throws none. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

async function rejected(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

/** The ParseError's location and the message after its function's name. */
function located(error: unknown) {
  expect(error).toBeInstanceOf(ParseError);
  const e = error as ParseError;
  return { source: e.source, line: e.line, message: e.message.slice(e.where.length + 2) };
}

/** Every reader of a whole text, converted with swfToJobs (or swfToJobsAsync): the error. */
async function everyReader(text: string, source: string): Promise<unknown[]> {
  const lines = text.split(/\r\n|\n|\r/);
  const stream = (cut: number) =>
    thrown(() => {
      const s = createSwfJobStream({ source });
      for (let at = 0; at < text.length; at += cut) s.push(text.slice(at, at + cut));
      s.end();
    });
  return [
    thrown(() => swfToJobs(parseSwf(text, { source }).records)),
    thrown(() => swfToJobs(readSwfLinesSync(lines, { source }))),
    await rejected(async () => swfToJobsAsync(readSwfLines(lines, { source }))),
    await rejected(async () => swfToJobs((await readSwfTrace(lines, { source })).records)),
    stream(text.length),
    stream(1),
    stream(7),
  ];
}

describe("a record that fails the conversion is named by its file and line", () => {
  it("after comment and blank lines, by every reader, whatever the pieces of the stream", async () => {
    const text = `; Version: 2.2\n; MaxProcs: 8\n\n${ok(1)}\n   \n; a late comment\n${badProcs}\n${ok(3)}\n`;
    for (const error of await everyReader(text, "/tmp/bad2.swf")) {
      expect(located(error)).toEqual({
        source: "/tmp/bad2.swf",
        line: 7,
        message: `/tmp/bad2.swf:7: ${PROCS}`,
      });
      expect((error as ParseError).field).toBeUndefined();
    }
  });

  it("in a \\r\\n file, and with a line split across the stream's pieces at every point", async () => {
    const text = `; Version: 2.2\r\n${ok(1)}\r\n\r\n${badProcs}\r\n${ok(3)}\r\n`;
    for (const error of await everyReader(text, "crlf.swf")) {
      expect(located(error).message).toBe(`crlf.swf:4: ${PROCS}`);
    }
    const start = text.indexOf(badProcs);
    for (let cut = start - 2; cut <= start + badProcs.length + 2; cut++) {
      const error = thrown(() => {
        const s = createSwfJobStream({ source: "crlf.swf" });
        s.push(text.slice(0, cut));
        s.push(text.slice(cut));
        s.end();
      });
      expect(located(error).message).toBe(`crlf.swf:4: ${PROCS}`);
    }
  });

  it("a last line without its line end, and lone \\r line ends in the stream", () => {
    const error = thrown(() => {
      const s = createSwfJobStream({ source: "cr.swf" });
      s.push(`${ok(1)}\r\r${ok(3)}\r`);
      s.push(badProcs);
      s.end();
    });
    expect(located(error).message).toBe(`cr.swf:4: ${PROCS}`);
  });

  it("names each rule's field, with the library's hints and the default source", () => {
    const cases: [string, string][] = [
      ["1 0 0 0 4 -1 -1 4 10", "(job 1) run time (field 4) is 0, expected > 0"],
      ["1 -3 0 10 4 -1 -1 4 10", "(job 1) submit time (field 2) is -3, expected a number >= 0"],
      ["1.5 0 0 10 4 -1 -1 4 10", "(job 1.5) job number (field 1) is 1.5, expected an integer"],
      ["1 0 0 10 2.5 -1 -1 4 10", "(job 1) processors (fields 5 and 8) is 2.5, expected an"],
      ["1 0 0 10 4 -1 -1 4 -1", "(job 1) requested time (field 9) is -1, expected > 0 (or"],
    ];
    for (const [fields, message] of cases) {
      const text = `; c\n${fields} -1 1 1 1 1 1 -1 -1 -1\n`;
      const error = thrown(() => swfToJobs(parseSwf(text).records));
      expect(located(error).message).toContain(`<swf>:2: ${message}`);
    }
    const user = thrown(() =>
      swfToJobs(parseSwf(`${ok(1)}\n\n1 0 0 10 4 -1 -1 4 10 -1 1 -2 1 1 1 -1 -1 -1`).records),
    );
    // the duplicate is named at its second line; the user id on line 3 comes after it
    expect(located(user).message).toBe("<swf>:3: (job 1) job number (field 1) 1 appears twice");
  });

  it("names the line of a record of parseSwf's array sorted in place; records[i] of a new array", () => {
    const { records } = parseSwf(`${ok(1)}\n${ok(3)}\n;\n${badProcs}\n`, { source: "k.swf" });
    (records as SwfRecord[]).sort((a, b) => a.jobNumber - b.jobNumber);
    expect(located(thrown(() => swfToJobs(records))).message).toBe(`k.swf:4: ${PROCS}`);
    // a filtered copy is an array of the caller's: its index is what the caller can look up
    const filtered = thrown(() => swfToJobs(records.filter((r) => r.jobNumber !== 1)));
    expect((filtered as InvalidInputError).field).toBe(
      "records[0] (job 2) processors (fields 5 and 8)",
    );
  });

  it("keeps records[i] for records the caller built, or mixed into the read ones", () => {
    const built = swfRecord({ jobNumber: 9, submitTime: 0, runTime: 0, allocatedProcs: 1 });
    const error = thrown(() => swfToJobs([built]));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).not.toBeInstanceOf(ParseError);
    expect((error as Error).message).toBe(
      "@sched/workload/swfToJobs: records[0] (job 9) run time (field 4) is 0, expected > 0 (or set options.clean to drop such jobs)",
    );
    const { records } = parseSwf(`${ok(1)}\n`);
    const mixed = thrown(() => swfToJobs([...records, built]));
    expect((mixed as InvalidInputError).field).toBe("records[1] (job 9) run time (field 4)");
    // the array parseSwf returned, with the caller's record pushed onto it
    (records as SwfRecord[]).push(built);
    const extended = thrown(() => swfToJobs(records));
    expect((extended as InvalidInputError).field).toBe("records[1] (job 9) run time (field 4)");
  });

  it("counts the lines a generator read before it was handed over", () => {
    const gen = readSwfLinesSync([ok(1), "", ok(3), badProcs], { source: "g.swf" });
    expect(gen.next().value).toMatchObject({ jobNumber: 1 });
    expect(located(thrown(() => swfToJobs(gen))).line).toBe(4);
  });
});
