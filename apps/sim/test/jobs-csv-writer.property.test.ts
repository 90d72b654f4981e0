import { easy } from "@sched/backfill";
import { identicalPool, type JobRecord, simulate } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JobsCsvWriter } from "../src/jobs-csv-writer.js";
import { JOBS_CSV_HEADER, jobsCsv, jobsCsvLine } from "../src/outputs.js";

/** The bytes a writer gives its sink for `records`, chunks copied and joined. */
function written(records: readonly JobRecord[], chunkBytes?: number): Buffer {
  const chunks: Buffer[] = [];
  const writer = new JobsCsvWriter((bytes) => chunks.push(Buffer.from(bytes)), chunkBytes);
  for (const r of records) writer.record(r);
  writer.flush();
  return Buffer.concat(chunks);
}

/** Numbers of every shape a time may hold (formatNumber rounds the others to 6 decimals). */
const time = fc.oneof(
  fc.constantFrom(0, -0, -1, 9, 10, 1e21, 2 ** 53, 1e-7, 5e-7, -4e-7, 0.1 + 0.2, 552.21),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true }),
);

const text = fc.oneof(
  fc.constantFrom("", "too wide", 'a "quoted", reason', "line\nbreak", "déjà vu ✓"),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ maxLength: 6000 }),
);

const jobRecord: fc.Arbitrary<JobRecord> = fc
  .record({
    id: time,
    submit: time,
    runtime: time,
    estimate: time,
    cores: time,
    starts: fc.array(time, { maxLength: 3 }),
    end: fc.option(time, { nil: null }),
    outcome: fc.constantFrom("completed", "rejected", "unfinished"),
    reason: fc.option(text, { nil: undefined }),
  })
  .map(({ id, submit, runtime, estimate, cores, starts, end, outcome, reason }) => {
    const r = {
      job: { id, submit, runtime, estimate, cores },
      intervals: starts.map((start) => ({ start, end: start })),
      end,
      outcome,
    };
    return (reason === undefined ? r : { ...r, reason }) as unknown as JobRecord;
  });

describe("JobsCsvWriter", () => {
  it("writes the bytes of jobsCsvLine, row after row, across chunk boundaries", () => {
    fc.assert(
      fc.property(
        fc.array(jobRecord, { maxLength: 40 }),
        fc.integer({ min: 4096, max: 10_000 }),
        (records, chunkBytes) => {
          const expected = Buffer.from(records.map(jobsCsvLine).join(""), "utf8");
          expect(written(records, chunkBytes).equals(expected)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes a simulated run's rows as jobsCsv does", () => {
    const jobs = Array.from({ length: 400 }, (_, i) => ({
      id: i + 1,
      submit: i * 7.5,
      runtime: 10 + ((i * 37) % 300) + (i % 3) / 3,
      estimate: 400,
      cores: 1 + ((i * 13) % 48),
    }));
    const trace = simulate(jobs, identicalPool(32), easy());
    expect(trace.records.some((r) => r.outcome === "rejected")).toBe(true);
    const bytes = Buffer.concat([Buffer.from(JOBS_CSV_HEADER), written(trace.records)]);
    expect(bytes.toString("utf8")).toBe(jobsCsv(trace));
  });
});
