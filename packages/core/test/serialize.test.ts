import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createJob,
  createPlatform,
  ParseError,
  simulate,
  traceFromJSON,
  traceToJSON,
} from "../src/index.js";
import { arbJobs, arbPlatform } from "../src/testing/index.js";
import { chaos, greedy } from "./helpers.js";

describe("traceToJSON / traceFromJSON", () => {
  it("writes a fixed key order and reads it back deep-equal", () => {
    const platform = createPlatform({
      machines: [{ cores: 2, speed: 2 }],
      licenses: [{ name: "f", copies: 1 }],
    });
    const jobs = [
      createJob({ cores: 1, licenses: { f: 1 }, runtime: 4, submit: 0, id: 1, deadline: 9 }),
    ];
    const trace = simulate(jobs, platform, greedy());
    const text = traceToJSON(trace);
    expect(
      text.startsWith(
        '{"format":"@sched/trace","version":1,"scheduler":"greedy","platform":{"machines":[{"id":0,"name":"m0","cores":2,"speed":2,"cluster":0}]',
      ),
    ).toBe(true);
    expect(text).toContain(
      '"records":[{"job":{"id":1,"submit":0,"runtime":4,"estimate":4,"cores":1,"deadline":9,"licenses":{"f":1}},"intervals":[{"start":0,"end":2,"allocation":[{"machine":0,"cores":1}]}],"end":2,"outcome":"completed"}]',
    );
    expect(traceFromJSON(text)).toEqual(trace);
  });

  it("round-trips random traces, horizon and rejections included", () => {
    fc.assert(
      fc.property(
        arbPlatform().chain((p) => arbJobs(p).map((jobs) => ({ p, jobs }))),
        fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
        ({ p, jobs }, until) => {
          const trace = simulate(jobs, p, chaos(), until === undefined ? {} : { until });
          const text = traceToJSON(trace);
          const back = traceFromJSON(text);
          expect(back).toEqual(trace);
          expect(traceToJSON(back)).toBe(text);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("gives the same bytes for two runs with timings: false, and reads the time back as NaN", () => {
    const platform = createPlatform({ machines: [{ cores: 2 }] });
    const jobs = [createJob({ id: 1, submit: 0, runtime: 3, cores: 2 })];
    const a = traceToJSON(simulate(jobs, platform, greedy()), { timings: false });
    const b = traceToJSON(simulate(jobs, platform, greedy()), { timings: false });
    expect(a).toBe(b);
    expect(a).toContain('"stats":{"events":2,"decisions":2}');
    expect(traceFromJSON(a).stats.schedulerMs).toBeNaN();
  });

  it("reads back a platform's clusters with their links, and the links' latency", () => {
    const platform = createPlatform({
      machines: [{ cluster: 0 }, { cluster: 1 }],
      clusters: [{ name: "a", link: 1 }, { name: "b" }],
      links: [{ bandwidth: 1e9 }, { bandwidth: 2e9, latency: 0.25 }],
    });
    const trace = simulate(
      [createJob({ id: 1, submit: 0, runtime: 3, cores: 1 })],
      platform,
      greedy(),
    );
    const back = traceFromJSON(traceToJSON(trace)).platform;
    expect(back.clusters).toEqual([
      { id: 0, name: "a", link: 1 },
      { id: 1, name: "b" },
    ]);
    expect(back.links).toEqual([
      { id: 0, bandwidth: 1e9, latency: 0 },
      { id: 1, bandwidth: 2e9, latency: 0.25 },
    ]);
    expect(back).toEqual(platform);
  });

  it("throws ParseError naming the source and field", () => {
    expect(() => traceFromJSON("{", { source: "run.json" })).toThrow(ParseError);
    expect(() => traceFromJSON("{", { source: "run.json" })).toThrow(
      /run.json \(text\): is not JSON/,
    );
    expect(() => traceFromJSON('{"format":"x"}')).toThrow(
      '@sched/core/traceFromJSON: trace JSON format: is "x", expected "@sched/trace"',
    );
    const trace = simulate(
      [createJob({ id: 1, submit: 0, runtime: 1, cores: 1 })],
      createPlatform({ machines: [{}] }),
      greedy(),
    );
    const obj = JSON.parse(traceToJSON(trace));
    obj.records[0].intervals[0].end = "soon";
    expect(() => traceFromJSON(JSON.stringify(obj))).toThrow(
      'trace JSON records[0].intervals[0].end: is "soon", expected a finite number',
    );
    obj.records[0].intervals[0].end = 1;
    obj.records[0].job.cores = 0;
    expect(() => traceFromJSON(JSON.stringify(obj))).toThrow(
      /records\[0\].job: .*job 1.cores is 0/,
    );
  });
});

// biome-ignore lint/suspicious/noExplicitAny: a trace's JSON document, edited by hand in the tests
type Doc = Record<string, any>;

describe("traceFromJSON refuses keys the trace format does not have", () => {
  // They were dropped without a word: a hand-edited `"ende"` left the interval's `end` as
  // written, a misspelt `"reson"` lost the reason, a machine's `"speeds"` was ignored.
  const platform = createPlatform({
    machines: [
      { cores: 2, speed: 1 },
      { cores: 4, speed: 2 },
    ],
    referenceSpeed: 1,
  });
  const jobs = [createJob({ id: 1, submit: 0, runtime: 10, cores: 2 })];
  const text = traceToJSON(simulate(jobs, platform, greedy()), { timings: false });
  const edit = (f: (doc: Doc) => void): string => {
    const doc = JSON.parse(text);
    f(doc);
    return JSON.stringify(doc);
  };

  it("at every level, naming the key", () => {
    const cases: [(doc: Doc) => void, string][] = [
      [(d) => (d.horizn = 5), "trace JSON horizn: is not a key of the trace format here"],
      [(d) => (d.stats.event = 1), "trace JSON stats.event: is not a key"],
      [(d) => (d.records[0].reson = "x"), "trace JSON records[0].reson: is not a key"],
      [(d) => (d.records[0].intervals[0].ende = 3), "records[0].intervals[0].ende: is not a key"],
      [
        (d) => (d.records[0].intervals[0].allocation[0].core = 1),
        "records[0].intervals[0].allocation[0].core: is not a key",
      ],
      [(d) => (d.platform.machines[1].speeds = 3), "platform.machines[1].speeds: is not a key"],
      [(d) => (d.platform.links2 = []), "platform.links2: is not a key"],
    ];
    for (const [f, message] of cases) {
      expect(() => traceFromJSON(edit(f))).toThrow(ParseError);
      expect(() => traceFromJSON(edit(f))).toThrow(message);
    }
  });

  it("refuses a reason that is not a string", () => {
    const cases: [(doc: Doc) => void, string][] = [
      [(d) => (d.records[0].reason = 5), "trace JSON records[0].reason: is not a string"],
      [(d) => (d.records[0].reason = null), "trace JSON records[0].reason: is not a string"],
    ];
    for (const [f, message] of cases) {
      expect(() => traceFromJSON(edit(f))).toThrow(ParseError);
      expect(() => traceFromJSON(edit(f))).toThrow(message);
    }
  });

  it("refuses derived fields that disagree (a machine's id, totalCores)", () => {
    expect(() => traceFromJSON(edit((d) => (d.platform.machines[1].id = 0)))).toThrow(
      "trace JSON platform.machines[1].id: is 0, expected 1 (its index)",
    );
    expect(() => traceFromJSON(edit((d) => (d.platform.totalCores = 8)))).toThrow(
      "trace JSON platform.totalCores: is 8, but its machines have 6 cores",
    );
  });

  it("still reads what traceToJSON writes, with and without timings", () => {
    const trace = simulate(jobs, platform, greedy());
    for (const timings of [true, false]) {
      const back = traceFromJSON(traceToJSON(trace, { timings }));
      expect(back.records).toHaveLength(1);
      expect(traceToJSON(back, { timings: false })).toBe(traceToJSON(trace, { timings: false }));
    }
  });
});
