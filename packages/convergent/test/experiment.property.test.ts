import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ExperimentMetric, type ExperimentRow, experimentCsv } from "../src/experiment.js";

/**
 * The oracle, an RFC 4180 reader: one field at a time, quoted (`""` inside is a quote; commas and
 * line breaks are text) or bare, each ended by a comma or a line break.
 */
function readCsv(text: string): string[][] {
  const field = /(?:"((?:[^"]|"")*)"|([^,"\r\n]*))(,|\n)/y;
  const records: string[][] = [[]];
  let read = 0;
  for (let m = field.exec(text); m !== null; m = field.exec(text)) {
    read = field.lastIndex;
    (records.at(-1) as string[]).push(
      m[1] === undefined ? (m[2] as string) : m[1].replaceAll('""', '"'),
    );
    if (m[3] === "\n") records.push([]);
  }
  expect(read, "the whole text is fields").toBe(text.length);
  return records.slice(0, -1);
}

const METRICS: readonly ExperimentMetric[] = [
  "latePct",
  "slowdownNoDeadline",
  "machineUsage",
  "licenseUsage",
  "meanWorkload",
  "schedTimeMs",
];

const row = fc.record({
  scheduler: fc.string({ unit: fc.constantFrom("a", "B", ",", '"', "\n", "\r", " ", "é") }),
  interArrival: fc.double({ min: 0.001, max: 1e6, noNaN: true }),
  run: fc.nat(100),
  metric: fc.constantFrom(...METRICS),
  value: fc.double({ noNaN: true }),
});

describe("experimentCsv (RFC 4180)", () => {
  it("every row reads back as its five fields, whatever the scheduler's name holds", () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 8 }), (rows: ExperimentRow[]) => {
        const records = readCsv(experimentCsv(rows));
        expect(records[0]).toEqual(["scheduler", "interArrival", "run", "metric", "value"]);
        expect(records.slice(1)).toEqual(
          rows.map((r) => [
            r.scheduler,
            String(r.interArrival),
            String(r.run),
            r.metric,
            String(r.value),
          ]),
        );
      }),
    );
  });

  it("quotes only fields that need it", () => {
    const base = { interArrival: 4, run: 0, metric: "latePct" as const, value: 1.5 };
    expect(experimentCsv([{ ...base, scheduler: "CS_ip" }])).toBe(
      "scheduler,interArrival,run,metric,value\nCS_ip,4,0,latePct,1.5\n",
    );
    expect(experimentCsv([{ ...base, scheduler: 'BF, "easy"' }])).toBe(
      'scheduler,interArrival,run,metric,value\n"BF, ""easy""",4,0,latePct,1.5\n',
    );
  });
});
