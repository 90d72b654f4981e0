import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createJob,
  createPlatform,
  InvalidInputError,
  type JobRecord,
  type ScheduleTrace,
  simulate,
  traceFromJSON,
  traceToJSON,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos, greedy } from "./helpers.js";

// traceToJSON either refuses a trace, naming the field, or writes what traceFromJSON gives back
// as that trace (`-0` read back as `0`, a member set to undefined as absent, the time left out).

/** License names with quotes, controls, surrogates, index-like names and `__proto__`. */
const name = fc.oneof(
  fc.string({ maxLength: 5 }),
  fc.constantFrom('a"b', "c\\d", "\n", "\ud800", "😀", "10", "-1", "__proto__", "toString", ""),
);

/** An object whose keys are set as own data properties (`__proto__` too, as `JSON.parse` does). */
function own(pairs: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of pairs) {
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return o;
}

/** Values for a caller's own job field: mostly JSON data, sometimes not. */
const extraValue = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 8 },
  {
    arbitrary: fc.constantFrom<unknown>(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1n,
      () => 1,
      new Date(0),
      new Map(),
      [undefined],
      Object.assign([1], { x: 2 }),
      -0,
      { toJSON: () => 1 },
    ),
    weight: 2,
  },
);

/** Changes to a recorded job: licenses by odd names, fields of the caller's, -0 times. */
const decoration = fc.record({
  licenses: fc.option(fc.array(fc.tuple(name, fc.integer({ min: 1, max: 9 })), { maxLength: 3 })),
  extra: fc.option(
    fc.array(fc.tuple(fc.constantFrom("tag", "owner", "__proto__", "x y", "meta"), extraValue), {
      maxLength: 2,
    }),
  ),
  negativeZero: fc.boolean(),
});

/** `v` with every -0 as 0 and members set to undefined left out (what JSON keeps of data). */
function zeroed(v: unknown): unknown {
  if (typeof v === "number") return v === 0 ? 0 : v;
  if (Array.isArray(v)) return v.map(zeroed);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined) continue;
      Object.defineProperty(out, k, {
        value: zeroed(x),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return v;
}

describe("traceToJSON writes what traceFromJSON gives back, or refuses naming the field (property)", () => {
  it("on simulated traces whose jobs carry odd license names, fields of the caller's and -0", () => {
    let written = 0;
    fc.assert(
      fc.property(
        arbPlatform().chain((p) => arbJobs(p).map((jobs) => ({ p, jobs }))),
        fc.array(decoration, { minLength: 1, maxLength: 5 }),
        ({ p, jobs }, decorations) => {
          const run = simulate(jobs, p, chaos());
          const records: JobRecord[] = run.records.map((r, i) => {
            const d = decorations[i % decorations.length]!;
            const job: Record<string, unknown> = { ...r.job };
            if (d.licenses !== null) job.licenses = own(d.licenses);
            if (d.extra !== null) {
              for (const [k, v] of d.extra) {
                Object.defineProperty(job, k, {
                  value: v,
                  enumerable: true,
                  writable: true,
                  configurable: true,
                });
              }
            }
            if (d.negativeZero) job.submit = -0;
            return { ...r, job: job as unknown as JobRecord["job"] };
          });
          const trace: ScheduleTrace = { ...run, records };
          let text: string;
          try {
            text = traceToJSON(trace, { timings: false });
          } catch (error) {
            expect(error).toBeInstanceOf(InvalidInputError);
            expect((error as InvalidInputError).field).toMatch(/^trace\.records\[\d+\]\.job\./);
            return;
          }
          written++;
          const back = traceFromJSON(text);
          expect(back.records.map((r) => r.job)).toEqual(records.map((r) => zeroed(r.job)));
          expect(zeroed(back)).toEqual(
            zeroed({ ...trace, stats: { ...trace.stats, schedulerMs: Number.NaN } }),
          );
          // and the same bytes again
          expect(traceToJSON(back, { timings: false })).toBe(text);
        },
      ),
      { numRuns: 150 },
    );
    expect(written).toBeGreaterThan(30);
  });
});

describe("traceToJSON: what the old code wrote", () => {
  const platform = createPlatform({ machines: [{ cores: 2 }] });
  const trace = simulate(
    [createJob({ id: 1, submit: 0, runtime: 4, cores: 1 })],
    platform,
    greedy(),
  );
  const withJob = (job: Record<string, unknown>): ScheduleTrace => ({
    ...trace,
    records: trace.records.map((r) => ({ ...r, job: { ...r.job, ...job } as never })),
  });

  it("writes a license named __proto__ (it was left out of the trace)", () => {
    const licenses = JSON.parse('{"__proto__":1,"b":2}');
    const text = traceToJSON(withJob({ licenses }));
    expect(text).toContain('"licenses":{"__proto__":1,"b":2}');
    expect(traceFromJSON(text).records[0]!.job.licenses).toEqual(licenses);
  });

  it("writes a job's licenses by name, whatever their order in the job: same trace, same bytes", () => {
    const ab = traceToJSON(withJob({ licenses: { a: 1, b: 2 } }));
    const ba = traceToJSON(withJob({ licenses: { b: 2, a: 1 } }));
    expect(ba).toContain('"licenses":{"a":1,"b":2}');
    expect(ba).toBe(ab);
  });

  it("writes a caller's object that appears twice (not a cycle), refuses an array with other keys", () => {
    const shared = { n: 1 };
    const text = traceToJSON(withJob({ tag: { a: shared, b: [shared] } }));
    expect(text).toContain('"tag":{"a":{"n":1},"b":[{"n":1}]}');
    const cyclic: Record<string, unknown> = { n: 1 };
    cyclic.self = cyclic;
    expect(() => traceToJSON(withJob({ tag: cyclic }))).toThrow(
      "trace.records[0].job.tag.self is ",
    );
    // JSON.stringify writes an array's elements only: the key would be lost.
    const keyed = Object.assign([1, 2], { note: "x" });
    expect(() => traceToJSON(withJob({ tag: keyed }))).toThrow("trace.records[0].job.tag is ");
  });

  it("writes a field of the caller's that traceFromJSON keeps (it was left out), and refuses one that would not read back", () => {
    const text = traceToJSON(withJob({ tag: { team: "a", runs: [1, 2] } }));
    expect(text).toContain('"cores":1,"tag":{"team":"a","runs":[1,2]}}');
    expect(traceFromJSON(text).records[0]!.job).toMatchObject({ tag: { team: "a", runs: [1, 2] } });
    expect(() => traceToJSON(withJob({ tag: Number.NaN }))).toThrow(
      "@sched/core/traceToJSON: trace.records[0].job.tag is NaN, expected JSON data",
    );
    expect(() => traceToJSON(withJob({ when: new Date(0) }))).toThrow(
      "trace.records[0].job.when is ",
    );
    expect(() => traceToJSON(withJob(JSON.parse('{"__proto__":{"a":1}}')))).toThrow(
      "trace.records[0].job.__proto__ is a field traceFromJSON cannot give back",
    );
  });
});
