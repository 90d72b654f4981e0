import { InvalidInputError, type Job } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatJobJson, formatJobsJsonl, parseJobsJsonl } from "../src/jobs-json.js";
import { JobsJsonlWriter } from "../src/jobs-jsonl-writer.js";
import { JobsToSwfTally, jobsToSwf, jobToSwfRecord } from "../src/swf-from-jobs.js";
import { swfToJobs } from "../src/swf-jobs.js";
import { parseSwf } from "../src/swf-read.js";
import { formatSwf } from "../src/swf-write.js";

// Every jobs writer either refuses its input, naming the field, or writes what its reader gives
// back as that input: the jobs as `createJob` builds them (`-0` reads back as `0`, a field set
// to undefined as absent), for SWF without the fields it cannot hold (which a Note counts).

/** Where JobsJsonlWriter.job's errors come from. */
const WRITER_JOB = "@sched/workload/JobsJsonlWriter.job";

/** Values of the wrong kind for any field. */
const wrong = fc.constantFrom<unknown>(
  null,
  "1",
  "",
  true,
  [],
  [1],
  {},
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  1n,
  () => 1,
);

/** Mostly `right`, sometimes a value of the wrong kind. */
const loose = (right: fc.Arbitrary<unknown>) =>
  fc.oneof({ arbitrary: right, weight: 40 }, { arbitrary: wrong, weight: 1 });
const optional = (a: fc.Arbitrary<unknown>) => fc.option(a, { nil: undefined, freq: 2 });
/** Mostly `usual`, sometimes a number at the edge of a rule. */
const edgy = (usual: fc.Arbitrary<unknown>) =>
  loose(fc.oneof({ arbitrary: usual, weight: 12 }, { arbitrary: edge, weight: 1 }));

/** Numbers near every rule's edge: -0, 5e-324, 1e-7, fractions, past 2^53, negatives. */
const edge = fc.constantFrom(0, -0, -1, 0.5, 1.5, 5e-324, 1e-7, 2 ** 53 - 1, 2 ** 53, 1e21, -1e300);
const time = edgy(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e6, noNaN: true })));
const span = edgy(fc.double({ min: 1, max: 1e5, noNaN: true }));
const count = edgy(fc.integer({ min: 1, max: 64 }));
const anyInteger = edgy(fc.integer({ min: -3, max: 20 }));
const anyNumber = edgy(fc.double({ noNaN: true, noDefaultInfinity: true }));

/** License names with quotes, controls, surrogates, index-like names and `__proto__`. */
const name = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('a"b', "c\\d", "\n", "\ud800", "😀", "10", "-1", "__proto__", "toString", ""),
);

/** A dictionary that may have an own `__proto__` key, as `JSON.parse` makes one. */
const dictionary = (value: fc.Arbitrary<unknown>) =>
  fc.array(fc.tuple(name, value), { maxLength: 4 }).map((pairs) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of pairs)
      Object.defineProperty(o, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return o;
  });

const inputItem = loose(
  fc
    .record(
      {
        size: loose(fc.oneof(fc.double({ min: 0, max: 1e12, noNaN: true }), edge)),
        machine: count,
        site: fc.constant(3),
      },
      { requiredKeys: ["size", "machine"] },
    )
    .chain((d) => fc.constantFrom(d, { size: d.size, machine: d.machine })),
);

/** Jobs with every field, of any value but mostly of the right kind, and now and then an unknown field. */
const looseJob: fc.Arbitrary<Job> = fc
  .record({
    id: loose(
      fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: 5 }), weight: 4 },
        { arbitrary: fc.maxSafeNat(), weight: 1 },
        { arbitrary: edge, weight: 1 },
      ),
    ),
    submit: time,
    runtime: span,
    estimate: optional(span),
    cores: count,
    deadline: optional(time),
    ready: optional(time),
    licenses: optional(loose(dictionary(count))),
    input: optional(loose(fc.array(inputItem, { maxLength: 3 }))),
    benchmark: optional(loose(fc.oneof(fc.double({ min: 1e-3, max: 1e3, noNaN: true }), edge))),
    maxParallelism: optional(count),
    tasks: optional(count),
    user: optional(anyInteger),
    group: optional(anyInteger),
    queue: optional(anyInteger),
    partition: optional(anyInteger),
    priority: optional(anyNumber),
    // now and then a field no reader takes
    extra: fc.oneof(
      { arbitrary: fc.constant(null), weight: 19 },
      { arbitrary: fc.constantFrom("deadLine", "colour", "format", "Cores"), weight: 1 },
    ),
    // ready and deadline mostly given as the slack after submit
    slack: fc.boolean(),
    // absent fields left out (as createJob leaves them), or set to undefined
    strip: fc.boolean(),
  })
  .map(({ extra, slack, strip, ...j }) => {
    const job: Record<string, unknown> = extra === null ? j : { ...j, [extra]: 1 };
    if (strip) for (const k of Object.keys(job)) if (job[k] === undefined) delete job[k];
    if (slack && typeof j.submit === "number") {
      for (const k of ["ready", "deadline"]) {
        if (typeof job[k] === "number") job[k] = j.submit + (job[k] as number);
      }
    }
    return job as unknown as Job;
  });

/** Header metadata of any value, mostly JSON data. */
const looseMeta: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  {
    arbitrary: dictionary(
      fc.oneof(
        { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 6 },
        { arbitrary: wrong, weight: 1 },
        {
          arbitrary: fc.constantFrom(
            new Date(0),
            new Map(),
            Object.assign([1, 2], { x: 3 }),
            [undefined],
            undefined,
          ),
          weight: 1,
        },
      ),
    ),
    weight: 6,
  },
  {
    arbitrary: fc.record({ procs: loose(fc.oneof(fc.integer({ min: 1, max: 1e6 }), edge)) }),
    weight: 2,
  },
  { arbitrary: wrong, weight: 1 },
);

/** `v` with every -0 as 0, and keys set to undefined left out (what JSON keeps of data). */
function zeroed(v: unknown): unknown {
  if (typeof v === "number") return v === 0 ? 0 : v;
  if (Array.isArray(v)) return v.map(zeroed);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) {
        Object.defineProperty(out, k, {
          value: zeroed(x),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out;
  }
  return v;
}

/**
 * What a job should read back as: itself, every -0 as 0, fields set to undefined absent, the
 * estimate defaulted to the run time (as `createJob` does); input items and licenses as given
 * (not as `createJob` copies them: it keeps only `size` and `machine` of an item).
 */
function asWritten(j: Job): unknown {
  const e = zeroed(j) as Record<string, unknown>;
  if (e.estimate === undefined) e.estimate = e.runtime;
  return e;
}

/** What `f` returns, or the InvalidInputError it throws (anything else fails the test). */
function attempt<T>(f: () => T): { value: T } | { error: InvalidInputError } {
  try {
    return { value: f() };
  } catch (error) {
    if (error instanceof InvalidInputError) return { error };
    throw error;
  }
}

/** A refusal names a field: `job 7 cores`, `job id`, `job 3 licenses["a"]`, `meta.procs`, `options.notes[0]`. */
const FIELD = /^(job( \d+)? [a-zA-Z]|meta|options\.)/;

/** The fields SWF cannot hold (jobsToSwf drops them and a Note counts them). */
const NOT_SWF = [
  "deadline",
  "ready",
  "licenses",
  "input",
  "benchmark",
  "maxParallelism",
  "tasks",
  "priority",
];

describe("the jobs writers write what reads back, or refuse naming a field (property)", () => {
  it("formatJobsJsonl: refused naming a field, or parseJobsJsonl gives back the jobs and the meta", () => {
    let written = 0;
    fc.assert(
      fc.property(fc.array(looseJob, { maxLength: 3 }), looseMeta, (jobs, meta) => {
        const out = attempt(() => formatJobsJsonl(jobs, meta as Record<string, unknown>));
        // the streaming writer: the same bytes, or the same refusal
        const chunks: Buffer[] = [];
        const streamed = attempt(() => {
          const writer = new JobsJsonlWriter((b) => chunks.push(Buffer.from(b)));
          writer.header(meta as Record<string, unknown>);
          for (const j of jobs) writer.job(j);
          writer.flush();
          return Buffer.concat(chunks).toString("utf8");
        });
        if ("error" in out) {
          expect(out.error.field).toMatch(FIELD);
          expect("error" in streamed && streamed.error.field).toBe(out.error.field);
          return;
        }
        expect(streamed).toEqual(out);
        written++;
        const back = parseJobsJsonl(out.value);
        expect(back.jobs).toEqual(jobs.map(asWritten));
        expect(back.header.meta).toEqual(meta === undefined ? undefined : zeroed(meta));
      }),
      { numRuns: 2000 },
    );
    // the generator is loose, not hopeless: a good share of the cases are written
    expect(written).toBeGreaterThan(250);
  });

  it("formatJobJson and JobsJsonlWriter refuse the same jobs, naming the same field; the line reads back", () => {
    fc.assert(
      fc.property(looseJob, (j) => {
        const line = attempt(() => formatJobJson(j));
        const writer = new JobsJsonlWriter(() => {});
        const streamed = attempt(() => writer.job(j));
        if ("error" in line) {
          expect(line.error.field).toMatch(FIELD);
          // the same message, from the function called
          expect("error" in streamed && streamed.error.message).toBe(
            line.error.message.replace(/^@sched\/workload\/formatJobJson:/, `${WRITER_JOB}:`),
          );
        } else {
          expect(streamed).toEqual({ value: undefined });
          expect(parseJobsJsonl(line.value).jobs).toEqual([asWritten(j)]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("jobsToSwf: refused naming a field, or swfToJobs gives back the jobs but the fields SWF cannot hold", () => {
    const options = fc.record(
      {
        maxProcs: loose(fc.oneof(fc.integer({ min: 1, max: 1e6 }), edge)),
        notes: loose(
          fc.array(
            fc.oneof(
              fc.string({ maxLength: 8 }),
              fc.constantFrom("a\nb", " MaxProcs: 64", "x\r", "ok", "", 7),
            ),
            { maxLength: 2 },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    let written = 0;
    fc.assert(
      fc.property(fc.array(looseJob, { maxLength: 3 }), options, (jobs, opts) => {
        const out = attempt(() => jobsToSwf(jobs, opts as never));
        if ("error" in out) {
          expect(out.error.field).toMatch(FIELD);
          return;
        }
        // the two-pass form gives the same header and records
        const tally = new JobsToSwfTally();
        for (const j of jobs) tally.add(j);
        expect(tally.header(opts as never)).toEqual(out.value.header);
        expect(jobs.map(jobToSwfRecord)).toEqual(out.value.records);
        const trace = attempt(() => formatSwf(out.value.header, out.value.records));
        if ("error" in trace) throw trace.error; // jobsToSwf gave what formatSwf refuses
        written++;
        const read = parseSwf(trace.value);
        expect(read.header).toEqual(out.value.header);
        const notes = out.value.header.notes;
        const given = (opts.notes ?? []) as string[];
        expect(notes.slice(notes.length - given.length)).toEqual(given);
        const expected = jobs.map((j) => {
          const e = asWritten(j) as Record<string, unknown>;
          for (const k of NOT_SWF) delete e[k];
          return e;
        });
        expect(swfToJobs(read.records).jobs).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
    expect(written).toBeGreaterThan(250);
  });
});

describe("the jobs writers: what the old code wrote instead of refusing", () => {
  const base = { id: 1, submit: 0, runtime: 60, estimate: 60, cores: 2 };
  const refusal = (f: () => unknown) => {
    const out = attempt(f);
    if (!("error" in out)) throw new Error(`not refused: ${JSON.stringify(out.value)}`);
    return out.error.message;
  };

  it("writes a license named __proto__ (it was left out: the line read back without it)", () => {
    const licenses = JSON.parse('{"__proto__":2,"b":1}');
    const line = formatJobJson({ ...base, licenses });
    expect(line).toBe(
      '{"id":1,"submit":0,"runtime":60,"estimate":60,"cores":2,"licenses":{"__proto__":2,"b":1}}',
    );
    expect(parseJobsJsonl(line).jobs[0]!.licenses).toEqual(licenses);
  });

  it("refuses a job the readers refuse (it was written: the file did not read back)", () => {
    const cases: [unknown, string][] = [
      // written without the field
      [{ ...base, deadLine: 99 }, "job 1 deadLine is not a job field (expected one of id,"],
      [
        { ...base, input: [{ size: 1, machine: 0, site: 3 }] },
        "job 1 input[0].site is not an input field (size, machine)",
      ],
      // written, and refused by the reader
      [{ ...base, id: "7" }, 'job id is "7", expected an integer >= 0'],
      [{ ...base, cores: 1.5 }, "job 1 cores is 1.5, expected an integer >= 1"],
      [{ ...base, submit: 10, ready: 5 }, "job 1 ready is 5, expected a time >= submit (10)"],
      // a raw TypeError's text in the message
      [{ ...base, input: null }, "job 1 input is null, expected an array"],
    ];
    for (const [job, message] of cases) {
      expect(refusal(() => formatJobJson(job as Job))).toContain(
        `@sched/workload/formatJobJson: ${message}`,
      );
      expect(refusal(() => new JobsJsonlWriter(() => {}).job(job as Job))).toContain(
        `${WRITER_JOB}: ${message}`,
      );
    }
  });

  it("refuses a repeated id, and header meta that would not read back", () => {
    expect(refusal(() => formatJobsJsonl([base, { ...base }]))).toBe(
      "@sched/workload/formatJobsJsonl: job 1 id 1 appears twice (every reader refuses a file with a repeated job id)",
    );
    const writer = new JobsJsonlWriter(() => {});
    writer.job(base);
    expect(refusal(() => writer.job(base))).toContain(`${WRITER_JOB}: job 1 id 1 appears twice`);
    const metas: [unknown, string][] = [
      // was {"load":null,"when":"1970-01-01T00:00:00.000Z"}, f left out
      [{ load: Number.NaN }, "meta.load is NaN, expected a finite number"],
      [{ when: new Date(0) }, "meta.when is "],
      [{ f: () => 1 }, "meta.f is function"],
      // written, and refused by the reader
      [{ procs: 0 }, "meta.procs is 0, expected an integer >= 1"],
      [[1, 2], "meta is an array, expected an object (or none)"],
    ];
    for (const [meta, message] of metas) {
      expect(refusal(() => formatJobsJsonl([base], meta as never))).toContain(
        `@sched/workload/formatJobsJsonl: ${message}`,
      );
      expect(refusal(() => new JobsJsonlWriter(() => {}).header(meta as never))).toContain(
        `@sched/workload/JobsJsonlWriter.header: ${message}`,
      );
    }
  });

  it("jobsToSwf refuses what swfToJobs would not give back, naming the job or the option", () => {
    const cases: [unknown[], object, string][] = [
      // user -1 was written as SWF's "unknown": read back without a user
      [[{ ...base, user: -1 }], {}, "job 1 user is -1, expected an integer >= 0"],
      [[{ ...base, cores: 1.5 }], {}, "job 1 cores is 1.5, expected an integer >= 1"],
      [[base, base], {}, "job 1 id 1 appears twice"],
      // dropped without a word (not one of the fields the Note counts)
      [[{ ...base, deadLine: 5 }], {}, "job 1 deadLine is not a job field"],
      // refused later by formatSwf as header.maxNodes, header.notes[1]
      [[base], { maxProcs: 1.5 }, "options.maxProcs is 1.5, expected an integer >= 1"],
      [[base], { notes: [" MaxProcs: 64"] }, "options.notes[0] "],
      // after the lossy note of a job with a deadline: still the caller's index
      [[{ ...base, deadline: 99 }], { notes: ["fine", "bad "] }, "options.notes[1] "],
    ];
    for (const [jobs, options, message] of cases) {
      expect(refusal(() => jobsToSwf(jobs as Job[], options))).toContain(
        `@sched/workload/jobsToSwf: ${message}`,
      );
    }
    expect(refusal(() => new JobsToSwfTally().add({ ...base, user: -1 }))).toContain(
      "@sched/workload/JobsToSwfTally.add: job 1 user is -1",
    );
    expect(refusal(() => jobToSwfRecord({ ...base, queue: -2 }))).toContain(
      "@sched/workload/jobToSwfRecord: job 1 queue is -2",
    );
  });

  it("jobsToSwf writes a job without an estimate with its run time (formatSwf refused record 0's requestedTime)", () => {
    const { runtime, id, submit, cores } = base;
    const trace = jobsToSwf([{ id, submit, runtime, cores } as Job]);
    expect(trace.records[0]!.requestedTime).toBe(runtime);
    expect(swfToJobs(parseSwf(formatSwf(trace.header, trace.records)).records).jobs).toEqual([
      { id, submit, runtime, estimate: runtime, cores },
    ]);
  });
});
