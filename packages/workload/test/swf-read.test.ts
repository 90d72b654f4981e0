import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { createGunzip } from "node:zlib";
import { ParseError } from "@sched/core";
import { describe, expect, it } from "vitest";
import type { SwfHeader } from "../src/swf-header.js";
import { parseSwf, readSwfLines, readSwfLinesSync } from "../src/swf-read.js";
import type { SwfRecord } from "../src/swf-record.js";
import { fixturePath, fixtureText, TRACES } from "./fixtures.js";

const LINE =
  "   12   342343      5    553   40 552.21    -1   40  43200    -1  1   4   1  -1 -1  1 -1 -1";

function errorOf(f: () => unknown): ParseError {
  try {
    f();
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error("expected a ParseError");
}

describe("parseSwf", () => {
  it("reads the 18 fields of a data line, floats and -1 included", () => {
    const { records } = parseSwf(LINE);
    expect(records).toEqual<SwfRecord[]>([
      {
        jobNumber: 12,
        submitTime: 342343,
        waitTime: 5,
        runTime: 553,
        allocatedProcs: 40,
        avgCpuTime: 552.21,
        usedMemory: -1,
        requestedProcs: 40,
        requestedTime: 43200,
        requestedMemory: -1,
        status: 1,
        userId: 4,
        groupId: 1,
        executable: -1,
        queue: -1,
        partition: 1,
        precedingJob: -1,
        thinkTime: -1,
      },
    ]);
  });

  it("types every directive, joins continuation lines and keeps the rest raw", () => {
    const text = [
      "; a free comment",
      "; Version: 2.2",
      "; Computer: IBM SP2",
      "; Installation: KTH",
      "; Acknowledge: Lars",
      "; Information: http://a.example/",
      ";              http://b.example/",
      "; Conversion: Dror 2012",
      "; MaxJobs: 28490",
      "; MaxRecords: 28476",
      "; Preemption: No",
      "; UnixStartTime: 843480031",
      "; TimeZone: -28800",
      "; TimeZoneString: Europe/Stockholm",
      "; StartTime: Mon Sep 23 14:00:31 CEST 1996",
      "; EndTime:   Fri Aug 29 10:55:01 CEST 1997",
      "; MaxNodes: 100",
      "; MaxProcs: 128",
      "; MaxRuntime: 162754",
      "; MaxMemory: 524288",
      "; AllowOveruse: Yes",
      "; MaxQueues: 1",
      "; Queue:  1 [fque:1] ",
      "; MaxPartitions: 2",
      "; Partition:  1 DEFAULT ",
      "; Partition:  2 ALL     ",
      "; Note: first note",
      ";       continued",
      ";",
      "; Note: second",
      "; Computer: a second computer line",
      "; Weird: kept raw",
      ";",
      LINE,
      "; a comment after the data is skipped",
      "",
    ].join("\r\n");
    const { header, records } = parseSwf(text);
    expect(records).toHaveLength(1);
    expect(header).toEqual<SwfHeader>({
      version: "2.2",
      computer: "IBM SP2",
      installation: "KTH",
      acknowledge: "Lars",
      information: "http://a.example/\nhttp://b.example/",
      conversion: "Dror 2012",
      maxJobs: 28490,
      maxRecords: 28476,
      preemption: "No",
      unixStartTime: 843480031,
      timeZone: -28800,
      timeZoneString: "Europe/Stockholm",
      startTime: "Mon Sep 23 14:00:31 CEST 1996",
      endTime: "Fri Aug 29 10:55:01 CEST 1997",
      maxNodes: 100,
      maxProcs: 128,
      maxRuntime: 162754,
      maxMemory: 524288,
      allowOveruse: true,
      maxQueues: 1,
      queues: ["1 [fque:1]"],
      maxPartitions: 2,
      partitions: ["1 DEFAULT", "2 ALL"],
      notes: ["first note\ncontinued", "second"],
      other: [
        { key: "Computer", value: "a second computer line" },
        { key: "Weird", value: "kept raw" },
      ],
      comments: [" a free comment"],
    });
  });

  it("ends a continuation at a comment, a number or a boolean; keeps indented and blank-ended comments as comments", () => {
    const { header } = parseSwf(
      [
        "; Note: a",
        "; a comment",
        ";    indented after a comment",
        "; Note: b",
        "; MaxProcs: 4",
        ";    indented after a number",
        "; Note: c",
        "; AllowOveruse: Yes",
        ";    indented after a boolean",
        ";   Weird: three blanks before a key",
        "; trailing blanks   ",
      ].join("\n"),
    );
    expect(header.notes).toEqual(["a", "b", "c"]);
    expect(header.other).toEqual([]);
    expect(header.comments).toEqual([
      " a comment",
      "    indented after a comment",
      "    indented after a number",
      "    indented after a boolean",
      "   Weird: three blanks before a key",
      " trailing blanks",
    ]);
  });

  it("reads AllowOveruse True, true and YES as true", () => {
    for (const v of ["True", "true", "YES"]) {
      expect(parseSwf(`; AllowOveruse: ${v}`).header.allowOveruse).toBe(true);
    }
  });

  it("reads AllowOveruse No and False as false", () => {
    expect(parseSwf("; AllowOveruse: No").header.allowOveruse).toBe(false);
    expect(parseSwf("; AllowOveruse: false").header.allowOveruse).toBe(false);
  });

  it("names the source, the line and the field of a bad number", () => {
    const text = `; Version: 2.2\n\n${LINE.replace(" 553 ", " 1a3 ")}\n`;
    const e = errorOf(() => parseSwf(text, { source: "kth.swf" }));
    expect(e.message).toBe(
      '@sched/workload/parseSwf: kth.swf:3 run time (field 4): "1a3" is not a number',
    );
    expect(e.source).toBe("kth.swf");
    expect(e.line).toBe(3);
    expect(e.field).toBe("run time (field 4)");
  });

  it("refuses a text that is not a string with a typed error (a TypeError before)", () => {
    expect(() => parseSwf(null as never)).toThrow(
      "@sched/workload/parseSwf: text is null, expected the trace as a string",
    );
    expect(() => parseSwf(Buffer.from("1") as never)).toThrow(/text is object/);
  });

  it("rejects hexadecimal, NaN and Infinity", () => {
    for (const bad of ["0x10", "NaN", "Infinity", "1e", "--1", "1.2.3"]) {
      const e = errorOf(() => parseSwf(LINE.replace("552.21", bad)));
      expect(e.message).toBe(
        `@sched/workload/parseSwf: <swf>:1 average CPU time (field 6): ${JSON.stringify(bad)} is not a number`,
      );
    }
  });

  it("rejects a data line with fewer or more than 18 fields", () => {
    expect(errorOf(() => parseSwf("1 2 3")).message).toBe(
      "@sched/workload/parseSwf: <swf>:1: expected 18 whitespace-separated fields, found 3",
    );
    expect(errorOf(() => parseSwf(`;\n${LINE} 7`)).message).toBe(
      "@sched/workload/parseSwf: <swf>:2: expected 18 whitespace-separated fields, found 19",
    );
  });

  it("rejects a typed header directive of the wrong kind", () => {
    expect(errorOf(() => parseSwf("; Version: 2\n; MaxProcs: many")).message).toBe(
      '@sched/workload/parseSwf: <swf>:2 header MaxProcs: "many" is not a number; expected an integer >= 1',
    );
    expect(errorOf(() => parseSwf("; AllowOveruse: perhaps")).message).toBe(
      '@sched/workload/parseSwf: <swf>:1 header AllowOveruse: "perhaps" is not Yes, No, True or False',
    );
  });

  it("refuses a numeric directive given again with another value, naming both lines; keeps a same-value repeat", () => {
    expect(
      errorOf(() => parseSwf(`; MaxProcs: 64\n; Note: x\n; MaxProcs: 32\n${LINE}`)).message,
    ).toBe(
      "@sched/workload/parseSwf: <swf>:3 header MaxProcs: is given again as 32, after 64 on line 1; a trace states it once",
    );
    expect(errorOf(() => parseSwf("; MaxRuntime: 10\n; maxruntime: 10.5")).message).toContain(
      "<swf>:2 header MaxRuntime: is given again as 10.5, after 10 on line 1",
    );
    const same = parseSwf(`; MaxProcs: 64\n; MaxProcs: 64\n${LINE}`).header;
    expect(same.maxProcs).toBe(64);
    expect(same.other).toEqual([{ key: "MaxProcs", value: "64" }]);
    // Text directives and lists repeat as before: the first string wins, lists collect.
    const text = parseSwf("; Computer: A\n; Computer: B\n; Note: 1\n; Note: 2").header;
    expect([text.computer, text.other, text.notes]).toEqual([
      "A",
      [{ key: "Computer", value: "B" }],
      ["1", "2"],
    ]);
  });

  it("says what is wrong with a machine size that is not a count, never that it is missing (issue 23)", () => {
    const cases: [string, string][] = [
      [
        "MaxProcs: 1e308",
        '"1e308" is beyond ±9007199254740991 (2^53 − 1), where numbers are no longer exact; expected an integer >= 1',
      ],
      ["MaxProcs: 0.5", "0.5 is not an integer; expected an integer >= 1"],
      [
        "MaxProcs: 9007199254740993",
        '"9007199254740993" is beyond ±9007199254740991 (2^53 − 1), where numbers are no longer exact; expected an integer >= 1',
      ],
      ["MaxNodes: 0", "0 is below 1; expected an integer >= 1"],
      ["MaxJobs: -3", "-3 is below 0; expected an integer >= 0"],
      ["TimeZone: 1.5", "1.5 is not an integer; expected an integer"],
      ["MaxRuntime: -1", "-1 is below 0; expected a number >= 0"],
    ];
    for (const [line, detail] of cases) {
      const key = line.slice(0, line.indexOf(":"));
      expect(errorOf(() => parseSwf(`; ${line}`)).message).toBe(
        `@sched/workload/parseSwf: <swf>:1 header ${key}: ${detail}`,
      );
    }
    // a machine size as large as a double holds exactly is read as it is (the simulator limits it)
    expect(parseSwf("; MaxNodes: 4294967296").header.maxNodes).toBe(4294967296);
  });

  it("rejects a field beyond 2^53 - 1 instead of rounding it (issue 23)", () => {
    const fields = LINE.trim().split(/\s+/);
    for (const [column, text] of [
      [0, "9007199254740993"],
      [1, "1e20"],
      [3, "-1e300"],
    ] as const) {
      const bad = fields.map((f, i) => (i === column ? text : f)).join(" ");
      const e = errorOf(() => parseSwf(bad, { source: "t.swf" }));
      expect(e.message).toContain(`t.swf:1 `);
      expect(e.message).toContain(`(field ${column + 1}): "${text}" is beyond ±9007199254740991`);
    }
    // a huge token is shown shortened, not copied whole into the message
    const huge = fields.map((f, i) => (i === 3 ? "9".repeat(5000) : f)).join(" ");
    expect(errorOf(() => parseSwf(huge)).message.length).toBeLessThan(300);
  });

  it("reads an empty text as an empty trace", () => {
    const { header, records } = parseSwf("");
    expect(records).toEqual([]);
    expect(header).toEqual({ queues: [], partitions: [], notes: [], other: [], comments: [] });
  });
});

describe("readSwfLines", () => {
  async function* lines(text: string): AsyncGenerator<string> {
    for (const l of text.split("\n")) yield l;
  }

  it("streams the same records as parseSwf and reports the header once", async () => {
    const text = fixtureText(TRACES.hpc2n);
    const whole = parseSwf(text);
    const headers: SwfHeader[] = [];
    const got: SwfRecord[] = [];
    for await (const r of readSwfLines(lines(text), { onHeader: (h) => headers.push(h) })) {
      got.push(r);
    }
    expect(got).toEqual(whole.records);
    expect(headers).toEqual([whole.header]);
  });

  it("reports the header of a trace with no data line at the end", async () => {
    const headers: SwfHeader[] = [];
    for await (const _ of readSwfLines(["; MaxProcs: 8"], { onHeader: (h) => headers.push(h) })) {
      throw new Error("no record expected");
    }
    expect(headers.map((h) => h.maxProcs)).toEqual([8]);
  });

  it("reads a gzipped file through a readline stream, one record at a time", async () => {
    const input = createReadStream(fixturePath(TRACES.nasa)).pipe(createGunzip());
    const rl = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    let n = 0;
    let last = 0;
    for await (const r of readSwfLines(rl, { source: TRACES.nasa })) {
      n++;
      last = r.jobNumber;
    }
    expect(n).toBe(18239);
    expect(last).toBe(42264); // the cleaned log keeps the original job numbers
  });

  it("names the line of an error in a stream", async () => {
    const run = async () => {
      for await (const _ of readSwfLines(lines(`${LINE}\n${LINE}\n1 2`), { source: "s.swf" })) {
        // consume
      }
    };
    await expect(run()).rejects.toThrow(
      "@sched/workload/readSwfLines: s.swf:3: expected 18 whitespace-separated fields, found 2",
    );
  });
});

describe("readSwfLinesSync", () => {
  it("streams the same records as parseSwf", () => {
    const text = fixtureText(TRACES.lublin);
    let header: SwfHeader | undefined;
    const got = [...readSwfLinesSync(text.split("\n"), { onHeader: (h) => (header = h) })];
    const whole = parseSwf(text);
    expect(got).toEqual(whole.records);
    expect(header).toEqual(whole.header);
  });
});

describe("parseSwf on the archive traces", () => {
  it("reads KTH-SP2: 28,476 jobs and its header", () => {
    const { header, records } = parseSwf(fixtureText(TRACES.kth), { source: TRACES.kth });
    expect(records).toHaveLength(28476);
    expect(records[0]!.jobNumber).toBe(15);
    expect(header.maxRecords).toBe(28476);
    expect(header.maxJobs).toBe(28490);
    expect(header.maxProcs).toBe(100);
    expect(header.maxNodes).toBe(100);
    expect(header.unixStartTime).toBe(843480031);
    expect(header.timeZone).toBe(3600);
    expect(header.timeZoneString).toBe("Europe/Stockholm");
    expect(header.preemption).toBe("No");
    expect(header.endTime).toBe("Fri Aug 29 10:55:01 CEST 1997");
    expect(header.notes).toEqual([
      "uses the EASY scheduler",
      "THIS IS A CLEANED VERSION OF THE LOG!\nThe filter used to produce it was\njob<=14 (14 jobs removed)",
    ]);
    expect(header.information).toBe(
      "http://www.pdc.kth.se/\nhttp://www.cs.huji.ac.il/labs/parallel/workload/",
    );
    expect(header.other).toEqual([]);
    expect(header.comments).toEqual([]);
  });

  it("reads HPC2N: 3,170 jobs, queues, partitions and float CPU times", () => {
    const { header, records } = parseSwf(fixtureText(TRACES.hpc2n));
    expect(records).toHaveLength(3170);
    expect(header.maxProcs).toBe(240);
    expect(header.maxQueues).toBe(1);
    expect(header.queues).toEqual(["1 [fque:1]"]);
    expect(header.maxPartitions).toBe(2);
    expect(header.partitions).toEqual(["1 DEFAULT", "2 ALL"]);
    expect(records.find((r) => r.jobNumber === 12)!.avgCpuTime).toBe(552.21);
  });

  it("reads NASA iPSC (gzipped): 18,239 jobs, two queues and four notes", () => {
    const { header, records } = parseSwf(fixtureText(TRACES.nasa));
    expect(records).toHaveLength(18239);
    expect(header.maxProcs).toBe(128);
    expect(header.timeZone).toBe(-28800);
    expect(header.queues).toEqual(["0  interactive", "1  batch"]);
    expect(header.notes).toHaveLength(4);
    expect(header.notes[0]).toBe(
      "There is no information on wait times - the given submit\ntimes are actually start times",
    );
    expect(records.every((r) => r.requestedTime === -1)).toBe(true);
  });

  it("reads lublin_256: 10,000 jobs, version 2, MaxRuntime", () => {
    const { header, records } = parseSwf(fixtureText(TRACES.lublin));
    expect(records).toHaveLength(10000);
    expect(header.version).toBe("2");
    expect(header.maxNodes).toBe(256);
    expect(header.maxRuntime).toBe(162754);
    // the header's MaxRuntime is not reached by these 10,000 jobs
    expect(Math.max(...records.map((r) => r.runTime))).toBe(124707);
  });
});
