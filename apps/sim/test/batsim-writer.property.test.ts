import type { Job } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BatsimWriter, batsimToJobs, jobsToBatsim } from "../src/batsim.js";
import { stableJson } from "../src/format.js";

// The Batsim writer streams the document stableJson writes whole: the oracle below is the
// document built as one object (how `convert --to batsim` built it before it streamed).

function wholeDocument(jobs: readonly Job[], nbRes: number): string {
  const profiles: Record<string, { type: "delay"; delay: number }> = {};
  const out = jobs.map((j) => {
    const profile = `delay${j.runtime}`;
    profiles[profile] = { type: "delay", delay: j.runtime };
    return { id: j.id, subtime: j.submit, walltime: j.estimate, res: j.cores, profile };
  });
  return stableJson({ nb_res: nbRes, jobs: out, profiles });
}

const time = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000 }),
  fc.double({ min: 0, max: 1e7, noNaN: true, noDefaultInfinity: true }),
);

const job = fc
  .record({
    id: fc.integer({ min: 0, max: 1_000_000 }),
    submit: time,
    runtime: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.double({ min: 0.001, max: 1e5 })),
    estimate: fc.oneof(fc.integer({ min: 1, max: 200_000 }), fc.double({ min: 0.001, max: 2e5 })),
    cores: fc.integer({ min: 1, max: 4096 }),
  })
  .map((j) => j as unknown as Job);

describe("BatsimWriter", () => {
  it("writes the bytes of the whole document, in any chunking, for any jobs", () => {
    fc.assert(
      fc.property(fc.array(job, { maxLength: 60 }), fc.integer({ min: 1, max: 1e6 }), (jobs, n) => {
        const whole = wholeDocument(jobs, n);
        expect(jobsToBatsim(jobs, n).text).toBe(whole);
        const parts: string[] = [];
        const writer = new BatsimWriter((t) => parts.push(t));
        for (const j of jobs) writer.job(j);
        writer.end(n);
        expect(parts.join("")).toBe(whole);
      }),
    );
  });

  it("flushes long documents in parts that add up to the whole", () => {
    const jobs = Array.from(
      { length: 3000 },
      (_, i) =>
        ({
          id: i,
          submit: i * 10,
          runtime: 1 + (i % 97),
          estimate: 200,
          cores: 1 + (i % 8),
        }) as Job,
    );
    const parts: string[] = [];
    const writer = new BatsimWriter((t) => parts.push(t));
    for (const j of jobs) writer.job(j);
    writer.end(64);
    expect(parts.length).toBeGreaterThan(2);
    const text = parts.join("");
    expect(text).toBe(wholeDocument(jobs, 64));
    // and it reads back as the jobs it was written from
    const back = batsimToJobs(text, "w.json", "convert");
    expect(back.nbRes).toBe(64);
    expect(back.jobs.map((j) => [j.id, j.submit, j.runtime, j.estimate, j.cores])).toEqual(
      jobs.map((j) => [j.id, j.submit, j.runtime, j.estimate, j.cores]),
    );
  });

  it("names the fields Batsim drops", () => {
    const jobs = [
      { id: 1, submit: 0, runtime: 5, estimate: 9, cores: 2, user: 3 },
      { id: 2, submit: 1, runtime: 5, estimate: 9, cores: 2, deadline: 50, user: undefined },
    ] as unknown as Job[];
    expect(jobsToBatsim(jobs, 4).dropped).toEqual(["deadline", "user"]);
  });
});
