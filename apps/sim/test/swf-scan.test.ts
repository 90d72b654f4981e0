import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  createSwfJobStream,
  parseSwf,
  type SwfCleanupReport,
  type SwfHeader,
} from "@sched/workload";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  GZIP,
  type ScanSwfOptions,
  type ScanSwfResult,
  scanSwf,
  scanSwfFile,
  scanSwfGzip,
} from "../src/fast/swf-scan.js";
import { tempDir } from "./helpers.js";

// The byte scanner against the general reader (`createSwfJobStream`): on every file the scanner
// reads to the end, the same header, jobs (in order) and report; files it leaves (null) are
// those the general reader rejects or that leave the plain case.

const REPO_FIXTURES = new URL("../../../packages/workload/fixtures/", import.meta.url).pathname;

interface Read {
  readonly header: SwfHeader | undefined;
  readonly jobs: string[];
  readonly report: SwfCleanupReport;
}

type Options = { readonly clean: boolean; readonly estimate: "requested" | "runtime" };

function general(text: string, options: Options): Read | string {
  try {
    const stream = createSwfJobStream({ source: "x.swf", ...options });
    const jobs = [...stream.push(text), ...stream.end()].map(
      (j) => `${j.id} ${j.submit} ${j.runtime} ${j.estimate} ${j.cores}`,
    );
    return { header: stream.header, jobs, report: stream.report() };
  } catch (error) {
    return String(error);
  }
}

/** A reader of the byte scanner: {@link scanSwfFile} (plain files), {@link scanSwfGzip}, {@link scanSwf}. */
type Scan = (
  path: string,
  options: ScanSwfOptions,
) => ScanSwfResult | null | typeof GZIP | Promise<ScanSwfResult | null>;

/** The file's text, gunzipped when it is gzip. */
function textOf(path: string): string {
  const bytes = readFileSync(path);
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString("utf8");
}

async function scanned(
  path: string,
  options: Options,
  scan: Scan = scanSwfFile,
): Promise<Read | null> {
  const jobs: string[] = [];
  let header: SwfHeader | undefined;
  const r = await scan(path, {
    ...options,
    onHeader: (h) => {
      header = h;
    },
    onJobs: (c) => {
      for (let i = 0; i < c.count; i++) {
        jobs.push(`${c.id[i]} ${c.submit[i]} ${c.runtime[i]} ${c.estimate[i]} ${c.cores[i]}`);
      }
    },
  });
  if (r === null) return null;
  if (r === GZIP) throw new Error(`${path}: the plain scanner was given a gzip file`);
  expect(r.header).toBe(header);
  const bytes = readFileSync(path);
  expect(r.gzip).toBe(bytes[0] === 0x1f && bytes[1] === 0x8b);
  // Whether some record has a requested time, whatever the estimate read (inspect's "auto").
  const { records } = parseSwf(textOf(path));
  expect(r.requested).toBe(records.some((record) => record.requestedTime > 0));
  return { header, jobs, report: r.report };
}

const OPTIONS: readonly Options[] = [
  { clean: true, estimate: "requested" },
  { clean: true, estimate: "runtime" },
  { clean: false, estimate: "requested" },
  { clean: false, estimate: "runtime" },
];

/** Scanned equals the general reader's result, or the scanner left the file (null). */
async function expectAgrees(
  path: string,
  text: string,
  options: Options,
  scan: Scan = scanSwfFile,
): Promise<"read" | "left"> {
  const a = general(text, options);
  const b = await scanned(path, options, scan);
  if (b === null) return "left";
  expect(typeof a).not.toBe("string");
  expect(b).toEqual(a);
  return "read";
}

describe("scanSwfFile", () => {
  for (const name of ["KTH-SP2-1996-2.1-cln.swf", "hpc2n-alea-3171.swf", "lublin_256.swf"]) {
    it(`reads ${name} as the general reader does`, async () => {
      const path = `${REPO_FIXTURES}${name}`;
      const text = readFileSync(path, "utf8");
      const outcomes: string[] = [];
      for (const o of OPTIONS) outcomes.push(await expectAgrees(path, text, o));
      // The clean-up reads every real trace here; without it, what the conversion rejects is left.
      expect(outcomes[0]).toBe("read");
    });
  }

  it("hands gzip files on to scanSwfGzip", () => {
    const path = `${REPO_FIXTURES}NASA-iPSC-1993-3.1-cln.swf.gz`;
    expect(scanSwfFile(path, { ...OPTIONS[0]!, onHeader: () => {}, onJobs: () => {} })).toBe(GZIP);
  });

  it("reads gzip traces (NASA-iPSC, and KTH-SP2 gzipped: 2.6 MB, several buffers) as the general reader, and as the plain file", async () => {
    const dir = await tempDir();
    const kth = `${REPO_FIXTURES}KTH-SP2-1996-2.1-cln.swf`;
    const kthGz = join(dir, "kth.swf.gz");
    writeFileSync(kthGz, gzipSync(readFileSync(kth)));
    const nasa = `${REPO_FIXTURES}NASA-iPSC-1993-3.1-cln.swf.gz`;
    for (const [path, plain] of [
      [nasa, undefined],
      [kthGz, kth],
    ] as const) {
      const text = textOf(path);
      for (const o of OPTIONS) {
        const outcome = await expectAgrees(path, text, o, scanSwfGzip);
        if (o.clean) expect(outcome).toBe("read");
        // scanSwf takes either form, and a gzip file gives what the plain file gives.
        expect(await scanned(path, o, scanSwf)).toEqual(await scanned(path, o, scanSwfGzip));
        if (plain !== undefined)
          expect(await scanned(path, o, scanSwfGzip)).toEqual(await scanned(plain, o));
      }
    }
  });

  it("leaves corrupt or cut gzip data to the general reader (null), and reads a trace in several gzip members", async () => {
    const dir = await tempDir();
    const text = readFileSync(`${REPO_FIXTURES}lublin_256.swf`, "utf8");
    const whole = gzipSync(text);
    const cut = join(dir, "cut.swf.gz");
    writeFileSync(cut, whole.subarray(0, whole.length >> 1));
    expect(await scanned(cut, OPTIONS[0]!, scanSwfGzip)).toBeNull();
    const corrupt = join(dir, "corrupt.swf.gz");
    const bad = Buffer.from(whole);
    bad[bad.length >> 1] = bad[bad.length >> 1]! ^ 0xff;
    writeFileSync(corrupt, bad);
    expect(await scanned(corrupt, OPTIONS[0]!, scanSwfGzip)).toBeNull();
    // Two members, split inside a line (what `cat a.gz b.gz` makes): one text, as gunzip reads it.
    const at = text.length >> 1;
    const members = join(dir, "members.swf.gz");
    writeFileSync(members, Buffer.concat([gzipSync(text.slice(0, at)), gzipSync(text.slice(at))]));
    expect(await expectAgrees(members, text, OPTIONS[0]!, scanSwfGzip)).toBe("read");
  });

  it("leaves what the general reader rejects or reads otherwise", async () => {
    const dir = await tempDir();
    const ok = "1 0 5 60 2 -1 -1 2 120 -1 1 1 1 -1 -1 -1 -1 -1";
    const cases = [
      `; MaxProcs: 4\n${ok}\r2 1 5 60 2 -1 -1 2 120 -1 1 1 1 -1 -1 -1 -1 -1\n`, // lone CR
      `; MaxProcs: 4\n; Comment: caf\u00e9\n${ok}\n`, // non-ASCII
      `; MaxProcs: 4\n1 0 5 6e1 2 -1 -1 2 120 -1 1 1 1 -1 -1 -1 -1 -1\n`, // exponent
      `; MaxProcs: 4\n${ok}\n${ok}\n`, // duplicate job number
      `; MaxProcs: 4\n1 0 5 60 2 -1 -1 2 120 -1 1 1\n`, // 12 fields
      `; MaxProcs: four\n${ok}\n`, // bad header value
      `; MaxProcs: 4\n1 0 5 0 2 -1 -1 2 120 -1 1 1 1 -1 -1 -1 -1 -1\n`, // run time 0, no clean-up
      `; MaxProcs: 4\n1 0 5 60 2 -1 -1 2 120 -1 1 1 1 -1 -1 -2 -1 -1\n`, // partition -2
      `; MaxProcs: 4\n1 0 5 60 2 -1 -1 2 120 -1 1 1 1 -1 2.5 -1 -1 -1\n`, // queue 2.5
    ];
    for (const [i, text] of cases.entries()) {
      const path = join(dir, `case-${i}.swf`);
      writeFileSync(path, text);
      expect(await scanned(path, { clean: false, estimate: "requested" }), `case ${i}`).toBeNull();
      // and so does scanSwfGzip, the same text gzipped
      writeFileSync(`${path}.gz`, gzipSync(text));
      expect(
        await scanned(`${path}.gz`, { clean: false, estimate: "requested" }, scanSwfGzip),
        `case ${i}, gzip`,
      ).toBeNull();
    }
  });

  it("reads the last line of a file that does not end with a line end (plain and gzip)", async () => {
    const dir = await tempDir();
    const line = (id: number) => `${id} ${id} -1 5 1 -1 -1 1 10 -1 1 1 1 -1 1 1 -1 -1`;
    for (const [i, text] of [
      `; MaxProcs: 4\n${line(1)}\n${line(2)}`,
      `; MaxProcs: 4\r\n${line(1)}\r\n${line(2)}`,
      `; MaxProcs: 4\n${line(1)}`,
    ].entries()) {
      const path = join(dir, `no-eol-${i}.swf`);
      writeFileSync(path, text);
      writeFileSync(`${path}.gz`, gzipSync(text));
      for (const o of OPTIONS) {
        expect(await expectAgrees(path, text, o), `case ${i}`).toBe("read");
        expect(await expectAgrees(`${path}.gz`, text, o, scanSwfGzip), `case ${i} gz`).toBe("read");
      }
      expect((general(text, OPTIONS[0]!) as Read).jobs).toHaveLength(i === 2 ? 1 : 2);
    }
  });

  it("leaves a field of 16 digits or more, whose value one division would not give exactly", async () => {
    // 921.4655305560443: 16 digits form m = 9214655305560443 > 2^53, rounded before the
    // division by 10^13, which then rounds again: 921.4655305560444, not Number's ...443.
    const dir = await tempDir();
    for (const [i, runtime] of [
      "921.4655305560443",
      "99279.08776006309",
      "978485207572154.3",
    ].entries()) {
      const text = `; MaxProcs: 4\n1 0 -1 ${runtime} 1 -1 -1 1 ${runtime} -1 1 1 1 -1 1 1 -1 -1\n`;
      const path = join(dir, `digits-${i}.swf`);
      writeFileSync(path, text);
      for (const o of OPTIONS) expect(await expectAgrees(path, text, o), runtime).toBe("left");
    }
  });

  it("checks job times as jobTimeProblem does: whole and fractional, up to 15 digits", async () => {
    const dir = await tempDir();
    // Submit times up to 15 digits, where times move in steps of 1/8 s: a run time or estimate of
    // 0.1 s is too short to survive the addition (the general reader rejects it), a whole one is
    // exact.
    const time = fc.oneof(
      fc.constantFrom("999999999999999", "100000000000000", "0"),
      fc.integer({ min: 0, max: 999_999_999 }).map(String),
    );
    const span = fc.constantFrom("1", "5", ".1", "0.3", "7.7", ".5", "999999999999999", "12345.6");
    let n = 0;
    let read = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(time, span, span), { minLength: 1, maxLength: 4 }),
        fc.constantFrom("requested" as const, "runtime" as const),
        async (jobs, estimate) => {
          let submit = 0n;
          const lines = jobs.map(([t, runtime, requested], i) => {
            // Submit times in order: each at least the one before.
            submit = BigInt(t) > submit ? BigInt(t) : submit;
            return `${i + 1} ${submit} -1 ${runtime} 1 -1 -1 1 ${requested} -1 1 1 1 -1 1 1 -1 -1`;
          });
          const text = `; MaxProcs: 4\n${lines.join("\n")}\n`;
          const path = join(dir, `t${n++}.swf`);
          writeFileSync(path, text);
          const a = general(text, { clean: false, estimate });
          const b = await scanned(path, { clean: false, estimate });
          if (typeof a === "string") expect(b).toBeNull();
          else if (b !== null) {
            expect(b).toEqual(a);
            read++;
          }
        },
      ),
      { numRuns: 150 },
    );
    expect(read).toBeGreaterThan(10);
  });

  it("reads random plain traces (CRLF, tabs, signs, fractions, blank and comment lines) as the general reader", async () => {
    const dir = await tempDir();
    const num = fc.oneof(
      fc.integer({ min: -1, max: 500 }).map(String),
      fc.constantFrom("-1", "+7", "5.", ".5", "12.25", "0", "-0", "3.000"),
    );
    const id = fc.constantFrom("-1", "0", "3", "12");
    // Fields 2 to 18; 12, 13, 15 and 16 (user, group, queue, partition) ids or -1.
    const line = fc
      .tuple(
        fc.array(num, { minLength: 10, maxLength: 10 }),
        fc.tuple(id, id, num, id, id, num, num),
      )
      .map(([a, [user, group, exe, queue, partition, prev, think]]) => [
        ...a,
        user,
        group,
        exe,
        queue,
        partition,
        prev,
        think,
      ]);
    const trace = fc.record({
      header: fc.constantFrom("; MaxProcs: 8\n", "; MaxNodes: 6\n;\n", ""),
      lines: fc.array(line, { maxLength: 25 }),
      end: fc.constantFrom("\n", "\r\n"),
      extra: fc.constantFrom("", "\n", "; a comment after data\n", "   \n"),
      clean: fc.boolean(),
      estimate: fc.constantFrom("requested" as const, "runtime" as const),
    });
    let read = 0;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(trace, async ({ header, lines, end, extra, clean, estimate }) => {
        const body = lines
          .map((fields, i) => [String(i + 1), ...fields].join(i % 3 === 0 ? "\t" : " "))
          .join(end);
        const text = `${header}${body}${end}${extra}`;
        const path = join(dir, `t${n++}.swf`);
        writeFileSync(path, text);
        if ((await expectAgrees(path, text, { clean, estimate })) === "read") read++;
        // The same text gzipped, through scanSwfGzip: the same outcome.
        writeFileSync(`${path}.gz`, gzipSync(text));
        expect(await scanned(`${path}.gz`, { clean, estimate }, scanSwfGzip)).toEqual(
          await scanned(path, { clean, estimate }),
        );
      }),
      { numRuns: 200 },
    );
    // Most of these traces are read, not left.
    expect(read).toBeGreaterThan(20);
  });
});
