import { JOB_FIELDS, type Job, ParseError, validateJobs } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { advanceReservationWorkload } from "../src/advance-reservation.js";
import { convergentWorkload } from "../src/convergent.js";
import {
  createJobsLineReader,
  forEachLine,
  formatJobJson,
  formatJobsJsonl,
  formatPlatformJson,
  JOB_JSON_SCHEMA,
  parseJobsJsonl,
  parsePlatformJson,
  readJobsLines,
} from "../src/jobs-json.js";
import { WORKLOAD_MODELS } from "../src/models.js";
import { multiclusterWorkload } from "../src/multicluster.js";
import { JobsToSwfTally, jobsToSwf, jobToSwfRecord } from "../src/swf-from-jobs.js";
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
      // out of order: 7, 3, 5 then 3 again (the ids in a run and those outside it)
      [
        [7, 3, 5, 8, 3].map((id) => `{"id":${id},"submit":0,"runtime":60,"cores":4}`).join("\n"),
        "j.jsonl:5 id: 3 appears twice",
      ],
      [`${ok}\n{"id":2,`, "j.jsonl:2:9: is not valid JSON (Expected double-quoted property name)"],
      // the column is on the line as the file has it, leading spaces included
      [
        `${ok}\n   {"id":2 "submit":0}`,
        "j.jsonl:2:12: is not valid JSON (Expected ',' or '}' after property value)",
      ],
      [`${ok}\n[1,2]`, "j.jsonl:2: expected a JSON object (one job per line)"],
      [
        '{"format":"@sched/trace","version":1}',
        'j.jsonl:1 format: is "@sched/trace", expected "@sched/jobs"',
      ],
      [
        '{"format":"@sched/jobs","version":2}',
        "j.jsonl:1 version: is 2, this reader knows version 1",
      ],
      // a header is the first line only: a second one, after a job, is a job line
      [`${ok}\n{"format":"@sched/jobs","version":1}`, "j.jsonl:2 format: is not a job field"],
      ['{"format":"@sched/jobs","version":1,"meta":[8]}', "j.jsonl:1 meta: expected an object"],
      [
        '{"format":"@sched/jobs","version":1,"meta":{"procs":0}}',
        "j.jsonl:1 meta.procs: is 0, expected an integer >= 1 (the machine's processors)",
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
      // the same, line by line
      const reader = createJobsLineReader({ source: "j.jsonl" });
      const byLine = parseErrorOf(() => {
        for (const line of text.split("\n")) reader.next(line);
      });
      expect(byLine.message).toBe(e.message.replace("/parseJobsJsonl:", "/createJobsLineReader:"));
    }
  });

  it("createJobsLineReader: readJobsLines's jobs and header, one line at a time", async () => {
    const w = convergentWorkload({ jobs: 50, seed: 2 });
    const lublin = WORKLOAD_MODELS.find((m) => m.name === "lublin")!.generate({
      jobs: 50,
      seed: 4,
    }).jobs;
    for (const [jobs, meta] of [
      [w.jobs, { n: 50 }],
      [lublin, undefined],
    ] as const) {
      const text = formatJobsJsonl(jobs, meta);
      const streamed: Job[] = [];
      for await (const j of readJobsLines(text.split("\n"))) streamed.push(j);
      const headers: unknown[] = [];
      const reader = createJobsLineReader({ onHeader: (h) => headers.push(h) });
      expect(reader.header).toBeUndefined();
      const got: Job[] = [];
      for (const line of text.split("\n")) {
        const job = reader.next(line);
        if (job !== null) got.push(job);
      }
      expect(got).toEqual(streamed);
      expect(got).toEqual(jobs);
      const header =
        meta === undefined
          ? { format: "@sched/jobs", version: 1 }
          : { format: "@sched/jobs", version: 1, meta };
      expect(headers).toEqual([header]);
      expect(reader.header).toEqual(header);
    }
    // lines that are not strings (a stream's Buffers): said, where it was a TypeError
    const job = '{"id":1,"submit":0,"runtime":6,"cores":1}';
    await expect(async () => {
      for await (const _ of readJobsLines([job, Buffer.from(job) as unknown as string])) {
      }
    }).rejects.toThrow(
      "@sched/workload/readJobsLines: line 2 is object, expected a string (a line of the file without its line end: decode a stream's bytes first)",
    );
    expect(() => createJobsLineReader().next(5 as unknown as string)).toThrow(
      "@sched/workload/createJobsLineReader: line 1 is 5, expected a string",
    );
    const bare = createJobsLineReader();
    expect(bare.next('{"id":1,"submit":0,"runtime":6,"cores":1}')).toEqual({
      id: 1,
      submit: 0,
      runtime: 6,
      cores: 1,
      estimate: 6,
    });
    expect(bare.header).toBeUndefined();
    expect(() => createJobsLineReader({ sorce: "x" } as never)).toThrow(
      "@sched/workload/createJobsLineReader: options.sorce",
    );
  });

  it("rejects the values issue 23 found accepted: negative times, bad meta.procs, beyond 2^53", () => {
    const job = (fields: string): string => `{"id":1,"submit":0,"runtime":60,"cores":1,${fields}}`;
    const cases: [string, string][] = [
      [
        '{"id":1,"submit":-5,"runtime":60,"cores":1}',
        "j.jsonl:1 submit: is -5, expected a time >= 0",
      ],
      [job('"deadline":-50'), "j.jsonl:1 deadline: is -50, expected a time >= submit (0)"],
      [job('"ready":-1e308'), "j.jsonl:1 ready: is -1e+308, expected a time >= submit (0)"],
      [
        '{"format":"@sched/jobs","version":1,"meta":{"procs":-5}}',
        "j.jsonl:1 meta.procs: is -5, expected an integer >= 1 (the machine's processors)",
      ],
      [
        '{"format":"@sched/jobs","version":1,"meta":{"procs":"8"}}',
        `j.jsonl:1 meta.procs: is "8", expected an integer >= 1 (the machine's processors)`,
      ],
      [
        '{"id":9007199254740993,"submit":0,"runtime":60,"cores":1}',
        "j.jsonl:1 id: is 9007199254740992, expected an integer >= 0",
      ],
      [
        '{"id":1,"submit":9007199254740993,"runtime":60,"cores":1}',
        "j.jsonl:1 submit: is 9007199254740992, beyond 2^53 − 1 = 9007199254740991 s",
      ],
      [
        '{"id":1,"submit":1e20,"runtime":100,"cores":1}',
        "j.jsonl:1 submit: is 100000000000000000000, beyond 2^53 − 1",
      ],
      [
        '{"id":1,"submit":1e15,"runtime":0.1,"cores":1}',
        "j.jsonl:1 runtime: is 0.1, too short for submit 1000000000000000",
      ],
      [
        '{"id":1,"submit":0,"ready":1e15,"runtime":60,"estimate":0.01,"cores":1}',
        "j.jsonl:1 estimate: is 0.01, too short for ready 1000000000000000",
      ],
      // a key given twice: JSON.parse would keep the last value without a word
      [
        '{"id":1,"submit":0,"runtime":5,"runtime":500,"cores":1}',
        "j.jsonl:1 runtime: appears twice in one object (JSON would keep the last; give it once)",
      ],
      [
        '{"id":1,"submit":0,"runtime":5,"cores":1,"licenses":{"a":1,"a":2}}',
        "j.jsonl:1 licenses.a: appears twice in one object",
      ],
      // wrong JSON types are errors, never converted
      [
        '{"id":"1","submit":0,"runtime":60,"cores":1}',
        'j.jsonl:1 id: is "1", expected an integer >= 0',
      ],
      [
        '{"id":1,"submit":null,"runtime":60,"cores":1}',
        "j.jsonl:1 submit: is null, expected a finite number",
      ],
      [
        '{"id":1,"submit":true,"runtime":60,"cores":1}',
        "j.jsonl:1 submit: is boolean, expected a finite number",
      ],
      [
        '{"id":1,"submit":0,"runtime":60,"cores":[3]}',
        "j.jsonl:1 cores: is an array, expected an integer >= 1",
      ],
    ];
    for (const [text, message] of cases) {
      const e = parseErrorOf(() => parseJobsJsonl(text, { source: "j.jsonl" }));
      expect(e.message).toContain(`@sched/workload/parseJobsJsonl: ${message}`);
    }
  });

  it("forEachLine gives the lines of split(/\\r\\n?|\\n/), empty ones included (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "bc", "\r", "\n", "\r\n", "\n\r", " "), { maxLength: 12 }),
        (parts) => {
          const text = parts.join("");
          const lines: string[] = [];
          forEachLine(text, (l) => lines.push(l));
          expect(lines).toEqual(text.split(/\r\n?|\n/));
        },
      ),
      { numRuns: 2000, seed: 3 },
    );
  });

  it("reads \\r\\n and lone \\r line ends as a line stream does", async () => {
    const lines = [
      '{"format":"@sched/jobs","version":1}',
      '{"id":1,"submit":0,"runtime":6,"cores":1}',
      '{"id":2,"submit":1,"runtime":6,"cores":2}',
    ];
    const expected = parseJobsJsonl(lines.join("\n")).jobs;
    expect(expected).toHaveLength(2);
    for (const end of ["\r\n", "\r"]) {
      expect(parseJobsJsonl(lines.join(end) + end).jobs).toEqual(expected);
    }
    const streamed: Job[] = [];
    for await (const j of readJobsLines(lines)) streamed.push(j);
    expect(streamed).toEqual(expected);
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

  it("writes a field set to undefined as absent, a job's or not (as JSON.stringify leaves it out)", () => {
    const good = { id: 1, submit: 0, runtime: 60, estimate: 60, cores: 2 } as Job;
    for (const extra of [{ deadline: undefined }, { comment: undefined }, { input: undefined }]) {
      const j = { ...good, ...extra } as Job;
      expect(formatJobJson(j)).toBe(formatJobJson(good));
      expect(formatJobsJsonl([j])).toBe(formatJobsJsonl([good]));
    }
    // a field that is not a job's, set to a value, is refused (no reader would take it back)
    expect(() => formatJobJson({ ...good, comment: "x" } as Job)).toThrow(
      /job 1 comment is not a job field/,
    );
  });

  it("parse(format(jobs)) is the identity on arbitrary valid jobs (property)", () => {
    const job = fc.record(
      {
        id: fc.nat(),
        submit: fc.double({ min: 0, max: 1e9, noNaN: true }),
        // at least a second: at submit times up to 1e9 s a double holds such a run time to far
        // better than jobTimeProblem's one part in a million (tested in job-times.test.ts)
        runtime: fc.double({ min: 1, max: 1e7, noNaN: true }),
        estimate: fc.double({ min: 1, max: 1e7, noNaN: true }),
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
        // A deadline is not before its job's submit time: the generated one is the slack after it.
        const jobs = validateJobs(
          specs.map((s) => {
            const submit = s.submit + 0;
            return s.deadline === undefined
              ? { ...s, submit }
              : { ...s, submit, deadline: submit + s.deadline };
          }),
        );
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
    // a syntax error names the line and column, as the experiment files do
    expect(() =>
      parsePlatformJson('{\n "machines": [\n  {"cores": 4},\n ]\n}', { source: "farm.json" }),
    ).toThrow(/^@sched\/workload\/parsePlatformJson: farm\.json:4:2: is not valid JSON \(/);
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

  it("JobsToSwfTally, jobToSwfRecord: the header and records of jobsToSwf, one job at a time", () => {
    // SWF's own fields, and each field SWF cannot hold, one of which (or none) a job has
    const lost: [string, unknown][] = [
      ["deadline", 50],
      ["ready", 3],
      ["licenses", { a: 1 }],
      ["input", [{ size: 10, machine: 0 }]],
      ["benchmark", 1.5],
      ["priority", 2],
      ["maxParallelism", 2],
      ["tasks", 3],
    ];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            submit: fc.integer({ min: 0, max: 1000 }),
            runtime: fc.integer({ min: 1, max: 100 }),
            cores: fc.integer({ min: 1, max: 16 }),
            user: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
            extra: fc.integer({ min: -1, max: lost.length - 1 }),
          }),
          { maxLength: 30 },
        ),
        fc.option(fc.integer({ min: 1, max: 64 }), { nil: undefined }),
        (specs, maxProcs) => {
          const jobs = specs.map(({ extra, user, ...s }, i) => {
            const job: Record<string, unknown> = { id: i + 1, ...s, estimate: s.runtime };
            if (user !== undefined) job.user = user;
            if (extra >= 0) {
              const [k, v] = lost[extra]!;
              // a ready time or deadline is one after the submit time
              job[k] = k === "ready" || k === "deadline" ? s.submit + (v as number) : v;
            }
            return job as unknown as Job;
          });
          const tally = new JobsToSwfTally();
          for (const j of jobs) tally.add(j);
          const options = maxProcs === undefined ? {} : { maxProcs };
          const whole = jobsToSwf(jobs, options);
          const header = tally.header(options);
          expect(header).toEqual(whole.header);
          expect(jobs.map(jobToSwfRecord)).toEqual(whole.records);
          // the oracle: counted here, by hand
          expect(tally.jobs).toBe(jobs.length);
          expect(header.maxJobs).toBe(jobs.length);
          expect(header.maxProcs).toBe(maxProcs);
          const lossy = specs.filter((s) => s.extra >= 0);
          // in jobsToSwf's order (the order of the Job interface)
          const named = JOB_FIELDS.filter((k) => lossy.some((s) => lost[s.extra]![0] === k));
          expect(header.notes.slice(1)).toEqual(
            lossy.length === 0
              ? []
              : [
                  `${lossy.length} of ${jobs.length} jobs had fields SWF cannot hold, dropped: ${named.join(", ")}`,
                ],
          );
          // the records give back the jobs' SWF fields
          const back = swfToJobs(parseSwf(formatSwf(header, whole.records)).records).jobs;
          expect(back.map((j) => [j.id, j.submit, j.runtime, j.cores, j.user])).toEqual(
            jobs.map((j) => [j.id, j.submit, j.runtime, j.cores, j.user]),
          );
        },
      ),
      { numRuns: 100, seed: 22 },
    );
  });
});
