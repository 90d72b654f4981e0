import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkSchedule,
  createJob,
  type JobRecord,
  type ScheduleTrace,
  simulate,
  type ViolationKind,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos } from "./helpers.js";

/** A valid trace (chaos preempts, so multi-interval records are common) and a record index. */
const validTrace = arbPlatform()
  .chain((platform) => arbJobs(platform).map((jobs) => ({ platform, jobs })))
  .map(({ platform, jobs }) => simulate(jobs, platform, chaos()))
  .filter((t) => t.records.some((r) => r.outcome === "completed"))
  .chain((trace) => {
    const completed = trace.records
      .map((r, i) => (r.outcome === "completed" ? i : -1))
      .filter((i) => i >= 0);
    return fc.constantFrom(...completed).map((index) => ({ trace, index }));
  });

const withRecord = (trace: ScheduleTrace, index: number, record: JobRecord): ScheduleTrace => ({
  ...trace,
  records: trace.records.map((r, i) => (i === index ? record : r)),
});

const reports = (trace: ScheduleTrace, kind: ViolationKind, jobId: number) =>
  checkSchedule(trace).some((v) => v.kind === kind && v.jobId === jobId);

describe("checkSchedule detects injected violations (properties)", () => {
  it("a valid trace has no violation", () => {
    fc.assert(
      fc.property(validTrace, ({ trace }) => {
        expect(checkSchedule(trace)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it("overlap: a job's interval duplicated", () => {
    fc.assert(
      fc.property(validTrace, ({ trace, index }) => {
        const r = trace.records[index]!;
        const bad = withRecord(trace, index, {
          ...r,
          intervals: [...r.intervals, r.intervals[0]!],
        });
        expect(reports(bad, "overlap", r.job.id)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("over-capacity: a new job filling a machine while another job uses it", () => {
    fc.assert(
      fc.property(validTrace, ({ trace, index }) => {
        const r = trace.records[index]!;
        const iv = r.intervals[0]!;
        const m = iv.allocation[0]!.machine;
        const machine = trace.platform.machines[m]!;
        const id = Math.max(...trace.records.map((x) => x.job.id)) + 1;
        const len = iv.end - iv.start;
        const intruder: JobRecord = {
          job: createJob({
            id,
            submit: iv.start,
            runtime: (len * machine.speed) / trace.platform.referenceSpeed,
            cores: machine.cores,
          }),
          intervals: [
            { start: iv.start, end: iv.end, allocation: [{ machine: m, cores: machine.cores }] },
          ],
          end: iv.end,
          outcome: "completed",
        };
        const bad = { ...trace, records: [...trace.records, intruder] };
        const found = checkSchedule(bad).filter((v) => v.kind === "capacity");
        expect(found.length).toBeGreaterThan(0);
        expect(found.some((v) => v.message.includes(`machine ${m}`))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("early start: the first interval moved before submit", () => {
    fc.assert(
      fc.property(validTrace, fc.integer({ min: 1, max: 50 }), ({ trace, index }, shift) => {
        const r = trace.records[index]!;
        const first = r.intervals[0]!;
        const start = r.job.submit - shift;
        const bad = withRecord(trace, index, {
          ...r,
          intervals: [{ ...first, start, end: first.end }, ...r.intervals.slice(1)],
        });
        expect(reports(bad, "start-before-submit", r.job.id)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("lost job: a completed job turned unfinished (no horizon)", () => {
    fc.assert(
      fc.property(validTrace, ({ trace, index }) => {
        const r = trace.records[index]!;
        const bad = withRecord(trace, index, { ...r, end: null, outcome: "unfinished" });
        expect(reports(bad, "lost", r.job.id)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("work not conserved: the last interval cut short", () => {
    fc.assert(
      fc.property(validTrace, ({ trace, index }) => {
        const r = trace.records[index]!;
        const ivs = [...r.intervals];
        const last = ivs[ivs.length - 1]!;
        const end = last.start + (last.end - last.start) / 2;
        ivs[ivs.length - 1] = { ...last, end };
        const bad = withRecord(trace, index, { ...r, intervals: ivs, end });
        expect(reports(bad, "work", r.job.id)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("reports every violation, not just the first", () => {
    fc.assert(
      fc.property(validTrace, ({ trace, index }) => {
        const r = trace.records[index]!;
        const others = trace.records.filter((_, i) => i !== index);
        const lost = { ...r, end: null, outcome: "unfinished" as const };
        const dup = { ...r, intervals: [...r.intervals, r.intervals[0]!] };
        const bad = {
          ...trace,
          records: [...others, lost, { ...dup, job: { ...dup.job, id: 1e6 } }],
        };
        const kinds = new Set(checkSchedule(bad).map((v) => v.kind));
        expect(kinds.has("lost")).toBe(true);
        expect(kinds.has("overlap")).toBe(true);
      }),
      { numRuns: 30 },
    );
  });
});
