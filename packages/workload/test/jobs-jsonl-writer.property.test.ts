import { InvalidInputError, type Job } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatJobJson, formatJobsJsonl, parseJobsJsonl } from "../src/jobs-json.js";
import { JobsJsonlWriter, type JobsJsonlWriterOptions } from "../src/jobs-jsonl-writer.js";
import { WORKLOAD_MODELS } from "../src/models.js";

/** What the writer gives its sink, chunks joined (each copied: the writer reuses its chunk). */
function writtenBytes(
  jobs: Iterable<Job>,
  meta?: Readonly<Record<string, unknown>>,
  options?: JobsJsonlWriterOptions,
): Buffer {
  const chunks: Buffer[] = [];
  const writer = new JobsJsonlWriter((bytes) => chunks.push(Buffer.from(bytes)), options);
  writer.header(meta);
  for (const j of jobs) writer.job(j);
  writer.flush();
  return Buffer.concat(chunks);
}

/** Finite numbers of every shape: -0, exponent forms, subnormals, integers past 2^53. */
const num = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 9, 10, 99, 100, 0.1, 552.21, 1e21, -1e21, 1e-7, 5e-324),
  fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 60), Number.MAX_SAFE_INTEGER, 1.5e300, 2 ** 31),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Strings with quotes, backslashes, control characters, non-ASCII, emoji and lone surrogates. */
const name = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.constantFrom('"', "\\", "\u0000\u001f\u007f", "\b\f\n\r\t", "😀", "\ud800", "x\udc00y"),
  fc.constantFrom("\u2028\u2029", "é", "10", "9", "0", "4294967295", "-1", "__proto__", "a"),
);

const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 });

/** Jobs with fields of any number: most are refused (formatJobJson's and the writer's errors are compared). */
const anyJob: fc.Arbitrary<Job> = fc
  .record({
    id: num,
    submit: num,
    runtime: num,
    estimate: optional(num),
    cores: num,
    deadline: optional(num),
    ready: optional(num),
    licenses: optional(fc.dictionary(name, num, { maxKeys: 5 })),
    input: optional(
      fc.array(fc.record({ size: num, machine: num }, { requiredKeys: [] }), { maxLength: 4 }),
    ),
    benchmark: optional(num),
    maxParallelism: optional(num),
    tasks: optional(num),
    user: optional(num),
    group: optional(num),
    queue: optional(num),
    partition: optional(num),
    priority: optional(num),
  })
  .map((j) => j as unknown as Job);

/** Valid jobs with the odd numbers a valid job may have: -0, 5e-324, 1e-7, past 2^53 (priority), 1e21 (benchmark). */
const validJob: fc.Arbitrary<Job> = fc
  .record({
    id: fc.oneof(fc.constantFrom(0, -0, Number.MAX_SAFE_INTEGER), fc.maxSafeNat()),
    submit: fc.oneof(
      fc.constantFrom(0, -0, 0.1, 552.21, 2 ** 31),
      fc.double({ min: 0, max: 1e9, noNaN: true }),
    ),
    runtime: fc.oneof(fc.constantFrom(1, 9, 99.5), fc.double({ min: 1, max: 1e7, noNaN: true })),
    estimate: optional(fc.double({ min: 1, max: 1e7, noNaN: true })),
    cores: fc.oneof(fc.integer({ min: 1, max: 4096 }), fc.constant(Number.MAX_SAFE_INTEGER)),
    deadline: optional(fc.double({ min: 0, max: 1e9, noNaN: true })),
    ready: optional(fc.double({ min: 0, max: 1e6, noNaN: true })),
    licenses: optional(fc.dictionary(name, fc.integer({ min: 1, max: 2 ** 40 }), { maxKeys: 5 })),
    input: optional(
      fc.array(
        fc.record({
          size: fc.oneof(
            fc.constantFrom(0, -0, 5e-324, 1e21),
            fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }),
          ),
          machine: fc.maxSafeNat(),
        }),
        { maxLength: 4 },
      ),
    ),
    benchmark: optional(
      fc.oneof(
        fc.constantFrom(1e21, 1e-7, 5e-324),
        fc.double({ min: 1e-3, max: 1e6, noNaN: true }),
      ),
    ),
    maxParallelism: optional(fc.integer({ min: 1, max: 1 << 20 })),
    tasks: optional(fc.integer({ min: 1, max: 1 << 20 })),
    user: optional(fc.maxSafeInteger()),
    group: optional(fc.integer()),
    queue: optional(fc.integer()),
    partition: optional(fc.integer()),
    priority: optional(num),
  })
  // ready and deadline as slack after submit; runtime at least 1 s at submit <= 1e9 + 1e6 s
  .map((j) => ({
    ...j,
    ready: j.ready === undefined ? undefined : j.submit + j.ready,
    deadline: j.deadline === undefined ? undefined : j.submit + j.deadline,
  }))
  .map((j) => j as unknown as Job);

/** Mostly valid jobs, some of any numbers. */
const job = fc.oneof({ arbitrary: validJob, weight: 4 }, { arbitrary: anyJob, weight: 1 });

/** What `f` gives, or the message it throws without its function's name (`field detail`). */
function outcome(f: () => string | Buffer): { ok: string } | { error: string } {
  try {
    const v = f();
    return { ok: typeof v === "string" ? v : v.toString("latin1") };
  } catch (error) {
    const message = (error as Error).message;
    return { error: message.slice(message.indexOf(": ") + 2) };
  }
}

const meta = fc.option(fc.dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), {
  nil: undefined,
});

describe("JobsJsonlWriter", () => {
  it("writes the bytes of formatJobsJsonl, on any job and chunk size", () => {
    fc.assert(
      fc.property(
        fc.array(job, { maxLength: 30 }),
        meta,
        fc.integer({ min: 4096, max: 12_000 }),
        (generated, m, chunkBytes) => {
          // distinct ids: a repeated one is refused (tested below)
          const jobs = generated.map((j, i) => ({ ...j, id: i }) as Job);
          const expected = outcome(() => Buffer.from(formatJobsJsonl(jobs, m), "utf8"));
          const written = outcome(() => writtenBytes(jobs, m, { chunkBytes }));
          // the same bytes, or the same error (named by formatJobJson, or meta's by each writer)
          expect(written).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes each job as formatJobJson's line, every optional field and odd license names", () => {
    fc.assert(
      fc.property(job, (j) => {
        const chunks: Buffer[] = [];
        const writer = new JobsJsonlWriter((bytes) => chunks.push(Buffer.from(bytes)));
        const line = outcome(() => `${formatJobJson(j)}\n`);
        const written = outcome(() => {
          writer.job(j);
          writer.flush();
          return Buffer.concat(chunks);
        });
        if ("ok" in line) {
          expect(written).toEqual({ ok: Buffer.from(line.ok, "utf8").toString("latin1") });
        } else expect(written).toEqual(line);
      }),
      { numRuns: 3000 },
    );
  });

  it("escapes license names as JSON.stringify does: quotes, controls, emoji, lone surrogates", () => {
    const names = ['a"b', "c\\d", "\u0000\u001f", "\b\f\n\r\t", "😀", "\ud83d", "\ude00x", "é€"];
    // the pairs at the ends of the low surrogates: U+10000 + 0x3ff and U+10FFFF
    names.push("\ud800\udfff", "\udbff\udfff", "\udbff\udc00");
    const j = {
      id: 1,
      submit: 0,
      runtime: 60,
      estimate: 60,
      cores: 1,
      licenses: Object.fromEntries(names.map((n, i) => [n, i + 1])),
    } as Job;
    const text = writtenBytes([j]).toString("utf8");
    expect(text).toBe(formatJobsJsonl([j]));
    expect(text).toContain('"\\u0000\\u001f":3');
    expect(text).toContain('"\\ud83d":6');
    expect(text).toContain('"\\ude00x":7');
    expect(text).toContain('"😀":5');
    for (const pair of ['"\u{103ff}":9', '"\u{10ffff}":10', '"\u{10fc00}":11']) {
      expect(text).toContain(pair);
    }
  });

  it("writes nothing of a usual job's line when its licenses fail after the fast check (a count that changes when read again)", () => {
    // The fast check reads each count once; a getter that gives 1, then NaN, passes it and fails
    // the write after the scalar fields are in the chunk: they are taken back.
    const good = { id: 1, submit: 0, runtime: 60, estimate: 60, cores: 1 } as Job;
    let reads = 0;
    const licenses = {};
    Object.defineProperty(licenses, "a", {
      enumerable: true,
      get: () => (reads++ === 0 ? 1 : Number.NaN),
    });
    const tricky = { ...good, id: 3, licenses } as Job;
    const chunks: Buffer[] = [];
    const writer = new JobsJsonlWriter((bytes) => chunks.push(Buffer.from(bytes)));
    writer.job(good);
    expect(() => writer.job(tricky)).toThrow(
      "@sched/workload/JobsJsonlWriter.job: job 3 licenses.a is NaN",
    );
    expect(reads).toBeGreaterThan(1);
    const next = { ...good, id: 2 };
    writer.job(next);
    writer.flush();
    expect(Buffer.concat(chunks).toString("utf8")).toBe(
      `${formatJobJson(good)}\n${formatJobJson(next)}\n`,
    );
  });

  it("orders license names as formatJobJson's sorted object enumerates them (index names first)", () => {
    for (const extra of ["", ',"__proto__":7']) {
      const licenses = JSON.parse(`{"b":1,"10":2,"9":3,"a":4,"-1":5,"01":6${extra}}`);
      const j = { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, licenses } as Job;
      const line = writtenBytes([j]).toString("utf8").split("\n")[1];
      expect(line).toBe(formatJobJson(j));
      // a license named __proto__ (an own key, as JSON.parse makes it) is written, not left out
      const proto = extra === "" ? "" : '"__proto__":7,';
      expect(line).toContain(`"licenses":{"9":3,"10":2,"-1":5,"01":6,${proto}"a":4,"b":1}}`);
      expect(parseJobsJsonl(line!).jobs[0]!.licenses).toEqual(licenses);
    }
    const j = { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1 } as Job;
    const plain = { ...j, licenses: { b: 1, a: 2, "-1": 3 } } as Job;
    expect(writtenBytes([plain]).toString("utf8").split("\n")[1]).toBe(formatJobJson(plain));
    // an index name of one digit 9 beside a name that sorts before it as text
    const nine = { ...j, licenses: { "-1": 3, "9": 1 } } as Job;
    expect(writtenBytes([nine]).toString("utf8").split("\n")[1]).toBe(formatJobJson(nine));
    expect(formatJobJson(nine)).toContain('"licenses":{"9":1,"-1":3}');
  });

  it("writes -0 as 0, 1e21 and 5e-324 in exponent form, integers past 2^53 as JSON does", () => {
    const j = {
      id: -0,
      submit: -0,
      runtime: 5e-324,
      estimate: 1e-7,
      cores: 7,
      benchmark: 1e21,
      priority: 2 ** 60,
    } as Job;
    const line =
      '{"id":0,"submit":0,"runtime":5e-324,"estimate":1e-7,"cores":7,"benchmark":1e+21,"priority":1152921504606847000}';
    expect(writtenBytes([j]).toString("utf8").split("\n")[1]).toBe(line);
    expect(formatJobJson(j)).toBe(line);
  });

  it("writes a line longer than its chunk whole (the chunk grows)", () => {
    const licenses = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`license-${i}`, i + 1]),
    );
    const jobs = [1, 2, 3].map(
      (id) => ({ id, submit: 0, runtime: 1, estimate: 1, cores: 1, licenses }) as Job,
    );
    const chunks: Buffer[] = [];
    const writer = new JobsJsonlWriter((bytes) => chunks.push(Buffer.from(bytes)), {
      chunkBytes: 4096,
    });
    for (const j of jobs) writer.job(j);
    writer.flush();
    expect(Buffer.concat(chunks).toString("utf8")).toBe(
      jobs.map((j) => `${formatJobJson(j)}\n`).join(""),
    );
    // Only whole lines go to the sink.
    for (const c of chunks) expect(c.at(-1)).toBe(0x0a);
  });

  it("writes every model's jobs as formatJobsJsonl does, across chunk boundaries", () => {
    for (const model of WORKLOAD_MODELS) {
      for (const seed of [1, 2]) {
        const out = model.generate({ seed });
        expect(out.jobs.length).toBeGreaterThan(0);
        const m = { model: model.name, seed };
        const expected = Buffer.from(formatJobsJsonl(out.jobs, m), "utf8");
        expect(writtenBytes(out.jobs, m, { chunkBytes: 4096 }).equals(expected)).toBe(true);
      }
    }
  });

  it("refuses values of an unexpected type as formatJobJson does, naming the field (they were written, and no reader took them back)", () => {
    const odd: [unknown, string][] = [
      [{ id: "7", submit: 0, runtime: 1, estimate: 1, cores: 1 }, 'job id is "7"'],
      [
        { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, priority: () => 1 },
        "job 1 priority is function, expected a finite number",
      ],
      [
        { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, licenses: { a: "x", b: 2 } },
        'job 1 licenses["a"] is "x"',
      ],
      [
        { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, input: [5, { size: "1" }] },
        "job 1 input[0] is 5, expected an object",
      ],
      [{ id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, licenses: 3 }, "job 1 licenses is 3"],
    ];
    for (const [j, message] of odd) {
      expect(() => formatJobJson(j as Job)).toThrow(`@sched/workload/formatJobJson: ${message}`);
      expect(() => writtenBytes([j as Job])).toThrow(
        `@sched/workload/JobsJsonlWriter.job: ${message}`,
      );
    }
  });

  it("rejects NaN and infinities as formatJobJson does, naming the job and field, writing nothing of the line", () => {
    const good = { id: 1, submit: 0, runtime: 60, estimate: 60, cores: 1 } as Job;
    const bad = [
      [{ ...good, id: 3, runtime: Number.NaN }, "job 3 runtime is NaN"],
      [{ ...good, id: 4, priority: Number.POSITIVE_INFINITY }, "job 4 priority is Infinity"],
      [{ ...good, id: 5, licenses: { b: 1, a: Number.NaN } }, "job 5 licenses.a is NaN"],
      [
        {
          ...good,
          id: 6,
          input: [
            { size: 1, machine: 0 },
            { size: -Infinity, machine: 0 },
          ],
        },
        "job 6 input[1].size is -Infinity",
      ],
      [{ ...good, id: 7, input: [null] }, "job 7 input[0] is null, expected an object"],
      [{ ...good, id: 8, user: 1n }, "job 8 user is bigint, expected an integer"],
    ] as unknown as [Job, string][];
    for (const [j, message] of bad) {
      const chunks: Buffer[] = [];
      const writer = new JobsJsonlWriter((bytes) => chunks.push(Buffer.from(bytes)));
      writer.job(good);
      expect(() => writer.job(j)).toThrow(InvalidInputError);
      expect(() => writer.job(j)).toThrow(`@sched/workload/JobsJsonlWriter.job: ${message}`);
      expect(() => formatJobJson(j)).toThrow(`@sched/workload/formatJobJson: ${message}`);
      const next = { ...good, id: 2 };
      writer.job(next);
      writer.flush();
      expect(Buffer.concat(chunks).toString("utf8")).toBe(
        `${formatJobJson(good)}\n${formatJobJson(next)}\n`,
      );
    }
  });

  it("prints the README example's two lines", () => {
    const chunks: Buffer[] = [];
    const writer = new JobsJsonlWriter((bytes) => chunks.push(Buffer.from(bytes)));
    writer.header({ generator: "example" });
    writer.job({ id: 1, submit: 0, runtime: 60, estimate: 90, cores: 4, licenses: { 'é"': 1 } });
    writer.flush();
    expect(Buffer.concat(chunks).toString("utf8")).toBe(
      '{"format":"@sched/jobs","version":1,"meta":{"generator":"example"}}\n' +
        '{"id":1,"submit":0,"runtime":60,"estimate":90,"cores":4,"licenses":{"é\\"":1}}\n',
    );
  });

  it("rejects a sink that is not a function and a chunk too small, naming the option", () => {
    expect(() => new JobsJsonlWriter(null as never)).toThrow(
      "@sched/workload/JobsJsonlWriter: sink is null",
    );
    expect(() => new JobsJsonlWriter(() => {}, { chunkBytes: 100 })).toThrow(
      "@sched/workload/JobsJsonlWriter: options.chunkBytes is 100, expected an integer from 4096 to 1073741824 (1 GiB)",
    );
  });
});
