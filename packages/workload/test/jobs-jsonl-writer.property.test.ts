import { InvalidInputError, type Job } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatJobJson, formatJobsJsonl } from "../src/jobs-json.js";
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

const job: fc.Arbitrary<Job> = fc
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
        (jobs, m, chunkBytes) => {
          const expected = Buffer.from(formatJobsJsonl(jobs, m), "utf8");
          expect(writtenBytes(jobs, m, { chunkBytes }).equals(expected)).toBe(true);
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
        writer.job(j);
        writer.flush();
        expect(Buffer.concat(chunks).toString("utf8")).toBe(`${formatJobJson(j)}\n`);
        expect(Buffer.concat(chunks).equals(Buffer.from(`${formatJobJson(j)}\n`, "utf8"))).toBe(
          true,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("escapes license names as JSON.stringify does: quotes, controls, emoji, lone surrogates", () => {
    const names = ['a"b', "c\\d", "\u0000\u001f", "\b\f\n\r\t", "😀", "\ud83d", "\ude00x", "é€"];
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
  });

  it("orders license names as formatJobJson's sorted object enumerates them (index names first)", () => {
    for (const extra of ["", ',"__proto__":7']) {
      const licenses = JSON.parse(`{"b":1,"10":2,"9":3,"a":4,"-1":5,"01":6${extra}}`);
      const j = { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, licenses } as Job;
      const line = writtenBytes([j]).toString("utf8").split("\n")[1];
      expect(line).toBe(formatJobJson(j));
      // __proto__ is no own key of formatJobJson's sorted copy: left out
      expect(line).toContain('"licenses":{"9":3,"10":2,"-1":5,"01":6,"a":4,"b":1}}');
    }
    const j = { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1 } as Job;
    const plain = { ...j, licenses: { b: 1, a: 2, "-1": 3 } } as Job;
    expect(writtenBytes([plain]).toString("utf8").split("\n")[1]).toBe(formatJobJson(plain));
  });

  it("writes -0 as 0, 1e21 and 5e-324 in exponent form, integers past 2^53 as JSON does", () => {
    const j = { id: -0, submit: 1e21, runtime: 5e-324, estimate: 2 ** 60, cores: -7 } as Job;
    expect(writtenBytes([j]).toString("utf8").split("\n")[1]).toBe(
      '{"id":0,"submit":1e+21,"runtime":5e-324,"estimate":1152921504606847000,"cores":-7}',
    );
    expect(formatJobJson(j)).toBe(
      '{"id":0,"submit":1e+21,"runtime":5e-324,"estimate":1152921504606847000,"cores":-7}',
    );
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

  it("writes values of an unexpected type as JSON.stringify does (formatJobJson's bytes)", () => {
    const odd = [
      { id: "7", submit: 0, runtime: 1, estimate: 1, cores: 1 },
      { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, priority: () => 1 },
      { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, licenses: { a: "x", b: 2 } },
      { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, input: [5, { size: "1" }] },
      { id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, licenses: 3, user: [1, Number.NaN] },
    ] as unknown as Job[];
    for (const j of odd) expect(writtenBytes([j]).toString("utf8")).toBe(formatJobsJsonl([j]));
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
      [{ ...good, id: 7, input: [null] }, "job 7 cannot be written as JSON"],
      [{ ...good, id: 8, user: 1n }, "job 8 cannot be written as JSON"],
    ] as unknown as [Job, string][];
    for (const [j, message] of bad) {
      const chunks: Buffer[] = [];
      const writer = new JobsJsonlWriter((bytes) => chunks.push(Buffer.from(bytes)));
      writer.job(good);
      expect(() => writer.job(j)).toThrow(InvalidInputError);
      expect(() => writer.job(j)).toThrow(`@sched/workload/formatJobJson: ${message}`);
      expect(() => formatJobJson(j)).toThrow(`@sched/workload/formatJobJson: ${message}`);
      writer.job(good);
      writer.flush();
      expect(Buffer.concat(chunks).toString("utf8")).toBe(
        `${formatJobJson(good)}\n${formatJobJson(good)}\n`,
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
