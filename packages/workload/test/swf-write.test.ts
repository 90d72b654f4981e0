import { InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import { jobsToSwf } from "../src/swf-from-jobs.js";
import { emptySwfHeader, formatSwfHeader } from "../src/swf-header.js";
import { parseSwf } from "../src/swf-read.js";
import { swfRecord } from "../src/swf-record.js";
import { formatSwf, formatSwfRecord, writeSwfLines } from "../src/swf-write.js";
import { fixtureText, TRACES } from "./fixtures.js";

describe("formatSwfRecord", () => {
  it("writes the 18 fields right-aligned, in their shortest exact form", () => {
    const line = formatSwfRecord(
      swfRecord({ jobNumber: 12, submitTime: 342343, runTime: 553, avgCpuTime: 552.21 }),
    );
    expect(line).toBe(
      "    12    342343      -1     553    -1  552.21     -1    -1      -1     -1  -1   -1   -1   -1  -1  -1  -1  -1",
    );
    expect(line.trim().split(/\s+/)).toHaveLength(18);
  });

  it("rejects a field that is not a finite number", () => {
    expect(() => formatSwfRecord(swfRecord({ jobNumber: 3, runTime: Number.NaN }))).toThrow(
      InvalidInputError,
    );
    expect(() => formatSwfRecord(swfRecord({ jobNumber: 3, runTime: Number.NaN }))).toThrow(
      "@sched/workload/formatSwfRecord: record 3 runTime is NaN, expected a finite number (-1 for unknown)",
    );
  });
});

describe("formatSwfHeader", () => {
  it("writes comments, then typed directives in the standard's order, then the others", () => {
    const lines = formatSwfHeader({
      ...emptySwfHeader(),
      maxProcs: 64,
      version: "2.2",
      allowOveruse: false,
      notes: ["one\ntwo"],
      other: [{ key: "Extra", value: "x" }],
      comments: [" hello"],
    });
    expect(lines).toEqual([
      "; hello",
      "; Version: 2.2",
      "; MaxProcs: 64",
      "; AllowOveruse: No",
      "; Note: one",
      ";        two",
      "; Extra: x",
    ]);
  });
});

describe("formatSwf", () => {
  it("ends every line with a newline and matches writeSwfLines", () => {
    const header = { ...emptySwfHeader(), version: "2.2" };
    const records = [swfRecord({ jobNumber: 1 }), swfRecord({ jobNumber: 2 })];
    const text = formatSwf(header, records);
    expect(text.endsWith("\n")).toBe(true);
    expect(text).toBe(`${[...writeSwfLines(header, records)].join("\n")}\n`);
  });

  for (const name of Object.values(TRACES)) {
    it(`round-trips ${name}: writing what was read gives the same header and fields`, () => {
      const first = parseSwf(fixtureText(name));
      const again = parseSwf(formatSwf(first.header, first.records));
      expect(again.header).toEqual(first.header);
      expect(again.records).toEqual(first.records);
      // and the text is a fixed point after one round
      expect(formatSwf(again.header, again.records)).toBe(formatSwf(first.header, first.records));
    });
  }
});

describe("formatSwf and jobsToSwf: input that is not a header or a list", () => {
  it("is a typed error naming the argument (a TypeError before)", () => {
    expect(() => formatSwf(null as never, [])).toThrow(
      "@sched/workload/formatSwf: header is null, expected an SWF header (emptySwfHeader() for none)",
    );
    expect(() => formatSwf(emptySwfHeader(), 7 as never)).toThrow(
      "@sched/workload/formatSwf: records is number, expected an iterable of SWF records",
    );
    expect(() => jobsToSwf(null as never)).toThrow(InvalidInputError);
    expect(() => jobsToSwf(null as never)).toThrow(
      "@sched/workload/jobsToSwf: jobs is null, expected an iterable of jobs",
    );
  });
});
