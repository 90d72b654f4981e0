import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ExperimentMetric, type ExperimentRow, experimentCsv } from "../src/experiment.js";

/** An RFC 4180 reader (the oracle): quoted fields may hold commas, doubled quotes, line breaks. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += c;
  }
  return records;
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
