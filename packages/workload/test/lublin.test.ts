import { InvalidInputError, validateJobs } from "@sched/core";
import { Random } from "@sched/random";
import { describe, expect, it } from "vitest";
import {
  ArrivalStream,
  generateLublin,
  LUBLIN_BATCH,
  LUBLIN_CYCLE_START,
  LUBLIN_TYPELESS,
  type LublinParameters,
  lublinDailyCycle,
  lublinHeader,
  lublinRecords,
  lublinRuntime,
  lublinSize,
  resolveLublinOptions,
} from "../src/lublin.js";
import { swfToJobs } from "../src/swf-jobs.js";
import { parseSwf } from "../src/swf-read.js";
import type { SwfRecord } from "../src/swf-record.js";
import { formatSwf } from "../src/swf-write.js";
import { fixtureText, TRACES } from "./fixtures.js";
import { chiSquare, exactSizePmf } from "./oracles.js";
import { chiSquareQuantile, diffs, gammaCdf, ks1, ks2, ks2Critical, mean } from "./stats.js";

const fixture = () => parseSwf(fixtureText(TRACES.lublin)).records;

describe("Lublin sizes", () => {
  const cases: [string, LublinParameters, number][] = [
    ["typeless, 256 processors", resolveLublinOptions({ procs: 256 }).typeless, 256],
    ["batch, 128 processors", LUBLIN_BATCH, 128],
    ["interactive, 128 processors", resolveLublinOptions().interactive, 128],
    [
      "typeless, 100 processors (not a power of two)",
      resolveLublinOptions({ procs: 100 }).typeless,
      100,
    ],
    [
      "LANL-CM5 style: no serial, all powers of two, 32..1024",
      { ...LUBLIN_TYPELESS, serialProb: 0, pow2Prob: 1, uLow: 4.5, uMed: 7, uHi: 10, uProb: 0.82 },
      1024,
    ],
  ];
  for (const [name, p, procs] of cases) {
    it(`${name}: counts match the exact distribution (chi-square below its 0.1% quantile)`, () => {
      const rng = new Random(1, name);
      const n = 100_000;
      const counts = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        const s = lublinSize(rng, p, procs);
        counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      const pmf = exactSizePmf(p, procs);
      expect([...pmf.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      const { chi, df } = chiSquare(counts, pmf, n);
      expect(chi).toBeLessThan(chiSquareQuantile(df, 3.09));
      expect(Math.max(...counts.keys())).toBeLessThanOrEqual(procs);
    });
  }
});

describe("Lublin run times", () => {
  for (const size of [1, 16, 100]) {
    it(`typeless, size ${size}: ln run time follows the hyper-gamma with p = pa * size + pb (KS, 0.1%)`, () => {
      const p = LUBLIN_TYPELESS;
      const q = Math.min(1, Math.max(0, p.pa * size + p.pb));
      const rng = new Random(2, `runtime ${size}`);
      const n = 20_000;
      const rs: number[] = [];
      for (let i = 0; i < n; i++) rs.push(lublinRuntime(rng, p, size, 12));
      // floor(e^g) <= r  <=>  g < ln(r + 1): compare the CDF at the integers
      const cdf = (r: number) => {
        const x = Math.log(r + 1);
        if (x >= 12) return 1;
        return q * gammaCdf(p.a1, p.b1, x) + (1 - q) * gammaCdf(p.a2, p.b2, x);
      };
      // a discrete sample: test the CDF at every observed value from both sides
      const sorted = Float64Array.from(rs).sort();
      let d = 0;
      for (let i = 0; i < n; ) {
        let j = i;
        while (j < n && sorted[j] === sorted[i]) j++;
        d = Math.max(d, Math.abs(j / n - cdf(sorted[i]!)));
        i = j;
      }
      expect(d).toBeLessThan(1.949 / Math.sqrt(n));
      expect(Math.min(...rs)).toBeGreaterThanOrEqual(1);
    });
  }

  it("caps the run time at e^maxLogRuntime", () => {
    const rng = new Random(3);
    const p = { ...LUBLIN_TYPELESS, a1: 50, b1: 1, pa: 0, pb: 1 }; // mean ln run time 50
    for (let i = 0; i < 100; i++) expect(lublinRuntime(rng, p, 1, 12)).toBe(162754);
  });
});

describe("Lublin arrivals", () => {
  it("the daily cycle averages 1 and follows the gamma density at b + 1.5, wrapped", () => {
    const r = lublinDailyCycle(8.1737, 3.9631);
    expect(r).toHaveLength(48);
    expect(r.reduce((a, b) => a + b, 0)).toBeCloseTo(48, 10);
    const f = (x: number) => x ** (8.1737 - 1) * Math.exp(-x / 3.9631);
    const wrapped = (b: number) => {
      let s = 0;
      for (let j = 0; j < 20; j++) s += f(b + 1.5 + 48 * j);
      return s;
    };
    for (const [b1, b2] of [
      [0, 27],
      [5, 40],
      [47, 20],
    ] as const) {
      expect(r[b1]! / r[b2]!).toBeCloseTo(wrapped(b1) / wrapped(b2), 10);
    }
    // the peak is near the gamma's mode, (anum - 1) * bnum - 1.5 = 26.9 half-hours after time 0
    expect(r.indexOf(Math.max(...r))).toBe(27);
  });

  it("each gap is arar * e^g / rate(bucket), g ~ gamma(aarr, barr) (KS of the recovered g, 0.1%)", () => {
    const p = LUBLIN_BATCH;
    const stream = new ArrivalStream(new Random(4, "arrivals"), p, 13);
    const rate = lublinDailyCycle(p.anum, p.bnum);
    const n = 20_000;
    const gs: number[] = [];
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const t = stream.next();
      const b = Math.floor(prev / 1800) % 48;
      gs.push(Math.log(((t - prev) * rate[b]!) / p.arar));
      prev = t;
    }
    expect(ks1(gs, (x) => (x >= 13 ? 1 : gammaCdf(p.aarr, p.barr, x)))).toBeLessThan(
      1.949 / Math.sqrt(n),
    );
  });

  it(`places time 0 at the cycle's start (bucket ${LUBLIN_CYCLE_START} of the day): most arrivals fall in its busy hours`, () => {
    const rs = [...lublinRecords({ jobs: 20_000, procs: 128, seed: 5, jobTypes: false })];
    const r = lublinDailyCycle(LUBLIN_TYPELESS.anum, LUBLIN_TYPELESS.bnum);
    const counts = new Array<number>(48).fill(0);
    for (const x of rs) counts[Math.floor(x.submitTime / 1800) % 48]!++;
    // The busiest 24 buckets of the cycle carry 74% of its rate. In phase, seeds 1-6 put
    // 0.69-0.71 of the arrivals there; shifted by 6 hours, 0.50-0.56: 0.62 tells them apart.
    const busy = [...r.keys()].sort((a, b) => r[b]! - r[a]!).slice(0, 24);
    const share = busy.reduce((s, b) => s + counts[b]!, 0) / rs.length;
    expect(share).toBeGreaterThan(0.62);
  });
});

describe("Lublin model against lublin_256.swf (the original code's output)", () => {
  const options = { jobs: 10_000, procs: 256, jobTypes: false } as const;
  const fx = fixture();
  const ia = (rs: readonly { submitTime: number }[]) => diffs(rs.map((r) => r.submitTime));
  const tod = (rs: readonly { submitTime: number }[]) => rs.map((r) => r.submitTime % 86400);
  const crit = ks2Critical(10_000, 10_000); // 0.0230

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: size, run time and inter-arrival agree (two-sample KS below the 1% critical value)`, () => {
      const g = [...lublinRecords({ ...options, seed })];
      expect(
        ks2(
          g.map((r) => r.allocatedProcs),
          fx.map((r) => r.allocatedProcs),
        ),
      ).toBeLessThan(crit);
      expect(
        ks2(
          g.map((r) => r.runTime),
          fx.map((r) => r.runTime),
        ),
      ).toBeLessThan(crit);
      expect(ks2(ia(g), ia(fx))).toBeLessThan(crit);
      // arrival times of day are strongly correlated (about 110 jobs a day over 90 days): two
      // runs of the model itself differ by up to ~0.06, so a looser bound
      expect(ks2(tod(g), tod(fx))).toBeLessThan(0.08);
    });
  }

  it("summary statistics agree: serial and power-of-two fractions, mean log sizes and run times", () => {
    const g = [...lublinRecords({ ...options, seed: 1 })];
    const summary = (rs: readonly SwfRecord[]) => {
      const par = rs.filter((r) => r.allocatedProcs > 1);
      return {
        serial: rs.filter((r) => r.allocatedProcs === 1).length / rs.length,
        pow2:
          par.filter((r) => (r.allocatedProcs & (r.allocatedProcs - 1)) === 0).length / par.length,
        log2Size: mean(par.map((r) => Math.log2(r.allocatedProcs))),
        lnRuntime: mean(rs.map((r) => Math.log(r.runTime))),
        maxSize: Math.max(...rs.map((r) => r.allocatedProcs)),
      };
    };
    const a = summary(g);
    const b = summary(fx);
    // binomial standard error of a fraction over 10,000 jobs is at most 0.005; two samples: 0.007
    expect(Math.abs(a.serial - b.serial)).toBeLessThan(4 * 0.0062);
    expect(Math.abs(a.pow2 - b.pow2)).toBeLessThan(4 * 0.0063);
    // sd of log2 size ~1.8 over ~7,500 parallel jobs: se of a difference 0.03
    expect(Math.abs(a.log2Size - b.log2Size)).toBeLessThan(0.12);
    // sd of ln run time ~2.8 over 10,000 jobs: se of a difference 0.04
    expect(Math.abs(a.lnRuntime - b.lnRuntime)).toBeLessThan(0.16);
    expect(a.maxSize).toBe(256);
  });
});

describe("generateLublin", () => {
  it("is deterministic: the same options give byte-identical SWF, another seed differs", () => {
    const text = (seed: number) => {
      const t = generateLublin({ jobs: 500, seed });
      return formatSwf(t.header, t.records);
    };
    expect(text(7)).toBe(text(7));
    expect(text(7)).not.toBe(text(8));
  });

  it("with job types: batch in queue 1, interactive in queue 0, each with its own sizes", () => {
    const rs = [...lublinRecords({ jobs: 20_000, procs: 128, seed: 6 })];
    const batch = rs.filter((r) => r.queue === 1);
    const inter = rs.filter((r) => r.queue === 0);
    expect(batch.length + inter.length).toBe(rs.length);
    expect(batch.length).toBeGreaterThan(0.1 * rs.length);
    expect(inter.length).toBeGreaterThan(0.1 * rs.length);
    // interactive: u < uHi = 5.5, so at most round(2^5.5) = 45 (2^round(u) <= 32); batch reaches 128
    expect(Math.max(...inter.map((r) => r.allocatedProcs))).toBe(45);
    expect(Math.max(...batch.map((r) => r.allocatedProcs))).toBe(128);
    for (let i = 1; i < rs.length; i++) {
      expect(rs[i]!.submitTime).toBeGreaterThanOrEqual(rs[i - 1]!.submitTime);
    }
  });

  it("arrivalFactor divides arrival times and leaves sizes and run times alone", () => {
    const a = [...lublinRecords({ jobs: 2000, seed: 9 })];
    const b = [...lublinRecords({ jobs: 2000, seed: 9, arrivalFactor: 2 })];
    for (let i = 0; i < a.length; i++) {
      expect(b[i]!.allocatedProcs).toBe(a[i]!.allocatedProcs);
      expect(b[i]!.runTime).toBe(a[i]!.runTime);
      expect(Math.abs(b[i]!.submitTime - a[i]!.submitTime / 2)).toBeLessThanOrEqual(1);
    }
  });

  it("writes a header naming the model and every parameter, which parses back", () => {
    const t = generateLublin({ jobs: 10, procs: 256, seed: 3, jobTypes: false });
    expect(t.header).toMatchObject({
      maxJobs: 10,
      maxProcs: 256,
      maxNodes: 256,
      maxRuntime: 162754,
    });
    expect(t.header.notes.join("\n")).toContain("seed=3 jobs=10 procs=256 jobTypes=false");
    expect(t.header.notes.join("\n")).toContain("uHi=8 uProb=0.86");
    expect(t.header.notes.join("\n")).toContain("uMed=5.5");
    expect(parseSwf(formatSwf(t.header, t.records))).toEqual(t);
    expect(lublinHeader({ jobs: 10, procs: 256, seed: 3, jobTypes: false })).toEqual(t.header);
  });

  it("gives valid @sched/core jobs via swfToJobs with estimate: runtime", () => {
    const { jobs, report } = swfToJobs(generateLublin({ jobs: 3000, seed: 4 }).records, {
      estimate: "runtime",
    });
    expect(report.jobs).toBe(3000);
    expect(validateJobs(jobs)).toEqual(jobs);
  });
});

describe("resolveLublinOptions", () => {
  it("shifts the published uHi and uMed by log2(procs) - 7", () => {
    const o = resolveLublinOptions({ procs: 256 });
    expect([o.typeless.uHi, o.typeless.uMed]).toEqual([8, 5.5]);
    expect([o.batch.uHi, o.batch.uMed]).toEqual([8, 6]);
    expect([o.interactive.uHi, o.interactive.uMed]).toEqual([6.5, 4]);
    expect(o.typeless.uLow).toBe(0.8);
    const p = resolveLublinOptions({ procs: 256, typeless: { uMed: 7 } });
    expect([p.typeless.uHi, p.typeless.uMed]).toEqual([8, 7]);
  });

  it("names the option that is out of range", () => {
    const cases: [Parameters<typeof resolveLublinOptions>[0], string][] = [
      [{ jobs: -1 }, "options.jobs is -1, expected an integer >= 0"],
      [{ procs: 0 }, "options.procs is 0, expected an integer >= 1"],
      [{ seed: 0.5 }, "options.seed is 0.5, expected a safe integer"],
      [{ arrivalFactor: 0 }, "options.arrivalFactor is 0, expected a finite number > 0"],
      [
        { typeless: { serialProb: 1.2 } },
        "options.typeless.serialProb is 1.2, expected a probability in [0, 1]",
      ],
      [
        { batch: { serialProb: 0.5, pow2Prob: 0.6 } },
        "options.batch.pow2Prob is 0.6, expected serialProb + pow2Prob <= 1 (both are fractions of all jobs)",
      ],
      [
        { typeless: { uMed: 9 } },
        "options.typeless.uMed is 9, expected uLow (0.8) <= uMed <= uHi (7)",
      ],
      [{ interactive: { a1: 0 } }, "options.interactive.a1 is 0, expected > 0"],
      [
        { typeless: { nope: 1 } as Partial<LublinParameters> },
        "options.typeless.nope is not a Lublin parameter",
      ],
      [{ typeless: { pb: Number.NaN } }, "options.typeless.pb is NaN, expected a finite number"],
    ];
    for (const [opts, message] of cases) {
      expect(() => resolveLublinOptions(opts)).toThrow(InvalidInputError);
      expect(() => resolveLublinOptions(opts)).toThrow(`@sched/workload/lublin: ${message}`);
    }
  });

  it("refuses at once what no array holds, and null options (it generated for days, or threw a TypeError)", () => {
    expect(() => generateLublin({ jobs: 1e12 })).toThrow(
      "@sched/workload/lublin: options.jobs is 1000000000000, more records than an array holds (4294967295); stream them with lublinRecords",
    );
    expect(() => generateLublin(null as never)).toThrow(
      "@sched/workload/lublin: options is null, expected an object",
    );
  });
});
