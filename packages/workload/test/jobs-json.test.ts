import { type Job, ParseError, validateJobs } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { advanceReservationWorkload } from "../src/advance-reservation.js";
import { convergentWorkload } from "../src/convergent.js";
import {
  formatJobJson,
  formatJobsJsonl,
  formatPlatformJson,
  JOB_JSON_SCHEMA,
  parseJobsJsonl,
  parsePlatformJson,
  readJobsLines,
} from "../src/jobs-json.js";
import { multiclusterWorkload } from "../src/multicluster.js";
import { jobsToSwf } from "../src/swf-from-jobs.js";
import { swfToJobs } from "../src/swf-jobs.js";
import { parseSwf } from "../src/swf-read.js";
import { formatSwf } from "../src/swf-write.js";

function parseErrorOf(f: () => unknown): ParseError {
  try {
    f();
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error("expected a ParseError");
}

describe("native jobs format (JSON Lines)", () => {
  it("writes one job per line after a header, fields in a fixed order", () => {
    const jobs: Job[] = [
      {
        id: 1,
        submit: 0,
        runtime: 60,
        estimate: 90,
        cores: 4,
        licenses: { b: 1, a: 2 },
        deadline: 500,
      },
      { id: 2, submit: 5.5, runtime: 1, estimate: 1, cores: 1 },
    ];
    expect(formatJobsJsonl(jobs, { generator: "test" })).toBe(
      [
        '{"format":"@sched/jobs","version":1,"meta":{"generator":"test"}}',
        '{"id":1,"submit":0,"runtime":60,"estimate":90,"cores":4,"deadline":500,"licenses":{"a":2,"b":1}}',
        '{"id":2,"submit":5.5,"runtime":1,"estimate":1,"cores":1}',
        "",
      ].join("\n"),
    );
  });

  it("round-trips every generator's jobs, deadlines, licenses, input and tasks included", () => {
    for (const w of [
      convergentWorkload({ jobs: 300, seed: 1 }),
      advanceReservationWorkload({ jobs: 300, seed: 1 }),
      multiclusterWorkload({ jobs: 300, seed: 1 }),
    ]) {
      const back = parseJobsJsonl(formatJobsJsonl(w.jobs, { seed: 1 }));
      expect(back.jobs).toEqual(w.jobs);
      expect(back.header).toEqual({ format: "@sched/jobs", version: 1, meta: { seed: 1 } });
    }
  });

  it("fills estimate from runtime and accepts a file without a header", () => {
    const { header, jobs } = parseJobsJsonl('\n{"id":1,"submit":0,"runtime":60,"cores":4}\n\n');
    expect(jobs).toEqual([{ id: 1, submit: 0, runtime: 60, estimate: 60, cores: 4 }]);
    expect(header).toEqual({ format: "@sched/jobs", version: 1 });
  });

  it("names the source, line and field of every kind of error", () => {
    const head = '{"format":"@sched/jobs","version":1}';
    const ok = '{"id":1,"submit":0,"runtime":60,"cores":4}';
    const cases: [string, string][] = [
      [
        `${head}\n${ok}\n{"id":2,"submit":0,"runtime":60,"cores":1.5}`,
        "j.jsonl:3 cores: is 1.5, expected an integer >= 1",
      ],
      [
        `${ok}\n{"id":2,"submit":0,"runtime":-1,"cores":1}`,
        "j.jsonl:2 runtime: is -1, expected a finite number > 0",
      ],
      [
        `${ok}\n{"id":2,"submit":0,"runtime":60,"cores":1,"colour":"red"}`,
        "j.jsonl:2 colour: is not a job field (expected one of id, submit, runtime, estimate, cores, deadline, ready, licenses, input, benchmark, maxParallelism, tasks, user, group, queue, partition, priority)",
      ],
      [`${ok}\n{"id":2,"submit":0,"cores":1}`, "j.jsonl:2 runtime: is missing"],
      [`${ok}\n${ok}`, "j.jsonl:2 id: 1 appears twice"],
      [`${ok}\n{"id":2,`, "j.jsonl:2: is not valid JSON"],
      [`${ok}\n[1,2]`, "j.jsonl:2: expected a JSON object (one job per line)"],
      [
        '{"format":"@sched/trace","version":1}',
        'j.jsonl:1 format: is "@sched/trace", expected "@sched/jobs"',
      ],
      [
        '{"format":"@sched/jobs","version":2}',
        "j.jsonl:1 version: is 2, this reader knows version 1",
      ],
      [
        `{"id":3,"submit":0,"runtime":1,"cores":1,"licenses":{"x":0}}`,
        'j.jsonl:1 licenses["x"]: is 0, expected an integer >= 1',
      ],
      [
        `{"id":3,"submit":0,"runtime":1,"cores":1,"input":[{"size":1,"machine":0,"where":"x"}]}`,
        "j.jsonl:1 input[0].where: is not an input field (size, machine)",
      ],
    ];
    for (const [text, message] of cases) {
      const e = parseErrorOf(() => parseJobsJsonl(text, { source: "j.jsonl" }));
      expect(e.message).toContain(`@sched/workload/parseJobsJsonl: ${message}`);
    }
  });

  it("streams jobs and reports the header", async () => {
    const w = convergentWorkload({ jobs: 50, seed: 2 });
    const lines = formatJobsJsonl(w.jobs, { n: 50 }).split("\n");
    const got: Job[] = [];
    const headers: unknown[] = [];
    for await (const j of readJobsLines(lines, { onHeader: (h) => headers.push(h) })) got.push(j);
    expect(got).toEqual(w.jobs);
    expect(headers).toEqual([{ format: "@sched/jobs", version: 1, meta: { n: 50 } }]);
  });

  it("the schema names exactly the fields the reader accepts", () => {
    const line = JSON.parse(
      formatJobJson({
        id: 1,
        submit: 0,
        runtime: 2,
        estimate: 3,
        cores: 4,
        deadline: 9,
        ready: 1,
        licenses: { a: 1 },
        input: [{ size: 5, machine: 0 }],
        benchmark: 300,
        maxParallelism: 8,
        tasks: 8,
        user: 1,
        group: 2,
        queue: 3,
        partition: 4,
        priority: 0.5,
      }),
    ) as Record<string, unknown>;
    expect(Object.keys(line)).toEqual(Object.keys(JOB_JSON_SCHEMA.properties));
    expect(parseJobsJsonl(JSON.stringify(line)).jobs[0]).toEqual(line);
  });

  it("parse(format(jobs)) is the identity on arbitrary valid jobs (property)", () => {
    const job = fc.record(
      {
        id: fc.nat(),
        submit: fc.double({ min: 0, max: 1e9, noNaN: true }),
        runtime: fc.double({ min: 1e-3, max: 1e7, noNaN: true }),
        estimate: fc.double({ min: 1e-3, max: 1e7, noNaN: true }),
        cores: fc.integer({ min: 1, max: 1024 }),
        deadline: fc.double({ min: 0, max: 1e9, noNaN: true }),
        licenses: fc.dictionary(
          fc.string({ minLength: 1, maxLength: 5 }),
          fc.integer({ min: 1, max: 9 }),
        ),
        tasks: fc.integer({ min: 1, max: 64 }),
        user: fc.integer({ min: -1, max: 1000 }),
      },
      { requiredKeys: ["id", "submit", "runtime", "estimate", "cores"] },
    );
    fc.assert(
      fc.property(fc.uniqueArray(job, { selector: (j) => j.id, maxLength: 10 }), (specs) => {
        const jobs = validateJobs(specs.map((s) => ({ ...s, submit: s.submit + 0 })));
        expect(parseJobsJsonl(formatJobsJsonl(jobs)).jobs).toEqual(jobs);
      }),
      { numRuns: 200 },
    );
  });
});

describe("platform JSON", () => {
  it("round-trips generated platforms (licenses, clusters, links)", () => {
    for (const p of [
      convergentWorkload({ jobs: 0, seed: 3 }).platform,
      multiclusterWorkload({ jobs: 0 }).platform,
    ]) {
      expect(parsePlatformJson(formatPlatformJson(p))).toEqual(p);
    }
  });

  it("accepts a bare PlatformSpec and names the field of an error", () => {
    expect(parsePlatformJson('{"machines":[{"cores":4},{"cores":2}]}').totalCores).toBe(6);
    expect(() => parsePlatformJson('{"machines":[{"cores":0}]}', { source: "farm.json" })).toThrow(
      "@sched/workload/parsePlatformJson: farm.json spec.machines[0].cores: is 0, expected an integer >= 1",
    );
    expect(() => parsePlatformJson("{", { source: "farm.json" })).toThrow(ParseError);
    expect(() => parsePlatformJson('{"format":"x","machines":[]}')).toThrow(
      'format: is "x", expected "@sched/platform"',
    );
  });
});

describe("jobsToSwf", () => {
  it("gives back the same jobs through swfToJobs when they have only SWF's fields", () => {
    const jobs: Job[] = [
      { id: 1, submit: 0, runtime: 60, estimate: 90, cores: 4, user: 3, queue: 1 },
      { id: 2, submit: 7, runtime: 5, estimate: 5, cores: 1 },
    ];
    const swf = jobsToSwf(jobs, { maxProcs: 16 });
    expect(swf.header).toMatchObject({ maxProcs: 16, maxNodes: 16, maxJobs: 2 });
    const text = formatSwf(swf.header, swf.records);
    expect(swfToJobs(parseSwf(text).records).jobs).toEqual(jobs);
  });

  it("notes which fields SWF could not hold", () => {
    const { jobs } = convergentWorkload({ jobs: 20, seed: 4 });
    const { header } = jobsToSwf(jobs, { notes: ["model convergent seed=4"] });
    expect(header.notes[2]).toBe("model convergent seed=4");
    expect(header.notes[1]).toMatch(
      /^20 of 20 jobs had fields SWF cannot hold, dropped: .*deadline.*input.*benchmark/,
    );
  });
});
