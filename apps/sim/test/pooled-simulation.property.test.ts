import { easy, fcfs } from "@sched/backfill";
import {
  createSimulation,
  InvalidInputError,
  identicalPool,
  type Job,
  type JobRecord,
  type SimulationSummary,
} from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPooledSimulation, type PooledPolicy } from "../src/fast/pooled-simulation.js";

// The pooled kernel against the general engine (`createSimulation` on `identicalPool` with
// `easy()` / `fcfs()`), on small pools and traces made of ties: equal submit times, equal
// estimates, run times past their estimates, fractional times, ids out of order within a
// submit time, jobs wider than the pool. Records, counts and metrics must be equal bit for bit.

/** A record as text: everything `jobs.csv` and the metrics read of it. */
function recordText(r: JobRecord): string {
  const iv = r.intervals.map((i) => `${i.start}-${i.end}`).join("|");
  return `${r.job.id} ${r.job.submit} ${r.job.runtime} ${r.job.estimate} ${r.job.cores} [${iv}] ${r.end} ${r.outcome} ${r.reason ?? ""}`;
}

interface Run {
  readonly records: string[];
  readonly summary: SimulationSummary;
}

function general(jobs: readonly Job[], procs: number, policy: PooledPolicy): Run {
  const records: string[] = [];
  const sim = createSimulation(identicalPool(procs), policy === "easy" ? easy() : fcfs(), {
    onRecord: (r) => records.push(recordText(r)),
  });
  sim.push(jobs);
  return { records, summary: sim.end() };
}

function pooled(
  jobs: readonly Job[],
  procs: number,
  policy: PooledPolicy,
  cuts: readonly number[],
): Run {
  const records: string[] = [];
  const sim = createPooledSimulation({
    policy,
    procs,
    onRecord: (r) => records.push(recordText(r)),
  });
  // Pushed in chunks cut at `cuts` (a streamed read), which must not change the run.
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    const to = Math.min(cut, jobs.length);
    if (to > from) {
      sim.push(jobs.slice(from, to));
      from = to;
    }
  }
  sim.push(jobs.slice(from));
  return { records, summary: sim.end() };
}

/** Every number of the metrics and stats, compared with Object.is (NaN equal, bit for bit). */
function expectSameSummary(a: SimulationSummary, b: SimulationSummary): void {
  expect(b.jobs).toBe(a.jobs);
  expect(b.platform).toEqual(a.platform);
  expect(b.platform).toBe(b.platform);
  expect(b.stats.events).toBe(a.stats.events);
  expect(b.stats.decisions).toBe(a.stats.decisions);
  const ma = a.metrics!;
  const mb = b.metrics!;
  for (const key of Object.keys(ma) as (keyof typeof ma)[]) {
    if (key === "schedulerMsPerDecision") continue;
    const va = ma[key];
    const vb = mb[key];
    if (typeof va === "number") {
      expect(Object.is(va, vb), `${key}: ${va} vs ${String(vb)}`).toBe(true);
    } else {
      expect(vb).toEqual(va);
    }
  }
  expect(Object.keys(mb).sort()).toEqual(Object.keys(ma).sort());
}

/** A trace on a pool of `procs`: sorted by submit, ids shuffled within it. */
const traceArb = fc.integer({ min: 1, max: 8 }).chain((procs) =>
  fc
    .array(
      fc.record({
        gap: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 6 })),
        runtime: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0.5, 2.5, 1e-3)),
        estimate: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0.5, 2.5, 4)),
        cores: fc.integer({ min: 1, max: procs + 1 }),
      }),
      { maxLength: 40 },
    )
    .chain((specs) =>
      fc.record({
        procs: fc.constant(procs),
        ids: fc.shuffledSubarray(
          Array.from({ length: specs.length * 2 }, (_, i) => i + 1),
          { minLength: specs.length, maxLength: specs.length },
        ),
        specs: fc.constant(specs),
        cuts: fc.array(fc.integer({ min: 0, max: specs.length }), { maxLength: 4 }),
        start: fc.constantFrom(0, 1e9),
      }),
    )
    .map(({ procs, ids, specs, cuts, start }) => {
      let submit = start;
      const jobs: Job[] = specs.map((s, i) => {
        submit += s.gap;
        return {
          id: ids[i]!,
          submit,
          runtime: s.runtime,
          estimate: s.estimate,
          cores: s.cores,
        };
      });
      return { procs, jobs, cuts };
    }),
);

describe("createPooledSimulation", () => {
  for (const policy of ["easy", "fcfs"] as const) {
    it(`${policy}: the same records, counts and metrics as the general engine`, () => {
      fc.assert(
        fc.property(traceArb, ({ procs, jobs, cuts }) => {
          const a = general(jobs, procs, policy);
          const b = pooled(jobs, procs, policy, cuts);
          expect(b.records).toEqual(a.records);
          expectSameSummary(a.summary, b.summary);
        }),
        { numRuns: 400 },
      );
    });
  }

  it("the same run as the general engine on a long trace (the job arrays grow and compact)", () => {
    // 6000 jobs on 8 processors, pushed in chunks of 50: more than the kernel's first arrays
    // hold; a very long job every 1500 keeps old slots alive while later ones end, so the arrays
    // are compacted in place at times and grown at others (both paths run).
    const jobs: Job[] = [];
    let x = 12345;
    const next = () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
    for (let i = 0; i < 6000; i++) {
      jobs.push({
        id: i + 1,
        submit: i * 15,
        runtime: 1 + Math.floor(next() * (i % 1500 === 700 ? 30000 : 40)),
        estimate: 1 + Math.floor(next() * 60),
        cores: 1 + Math.floor(next() * 8),
      });
    }
    const cuts = Array.from({ length: 119 }, (_, i) => (i + 1) * 50);
    for (const policy of ["easy", "fcfs"] as const) {
      const a = general(jobs, 8, policy);
      const b = pooled(jobs, 8, policy, cuts);
      expect(b.records).toEqual(a.records);
      expectSameSummary(a.summary, b.summary);
    }
  });

  it("a hand-worked EASY case: the head's reservation lets a short job pass, not a long one", () => {
    // 4 processors. Job 1 runs 0-10 on 3. Job 2 (4 procs) waits: reserved at 10.
    // Job 3 (1 proc, estimate 5) fits now and ends by 10: starts at 2.
    // Job 4 (1 proc, estimate 20) would delay job 2: waits until 10 + 8 = 18.
    const jobs: Job[] = [
      { id: 1, submit: 0, runtime: 10, estimate: 10, cores: 3 },
      { id: 2, submit: 1, runtime: 8, estimate: 8, cores: 4 },
      { id: 3, submit: 2, runtime: 5, estimate: 5, cores: 1 },
      { id: 4, submit: 3, runtime: 20, estimate: 20, cores: 1 },
    ];
    const rows: string[] = [];
    const sim = createPooledSimulation({
      policy: "easy",
      procs: 4,
      onRecord: (r) => rows.push(`${r.job.id}:${r.intervals[0]?.start}-${r.end}`),
    });
    sim.push(jobs);
    const { metrics, stats } = sim.end();
    expect(rows).toEqual(["1:0-10", "2:10-18", "3:2-7", "4:18-38"]);
    expect(metrics!.meanWait).toBe((0 + 9 + 0 + 15) / 4);
    expect(stats.events).toBe(8);
  });

  it("rejects a job wider than the pool when it arrives, with the engine's reason", () => {
    const rows: string[] = [];
    const sim = createPooledSimulation({
      policy: "fcfs",
      procs: 2,
      onRecord: (r) => rows.push(`${r.job.id} ${r.outcome} ${r.end} ${r.reason}`),
    });
    sim.push([{ id: 7, submit: 5, runtime: 1, estimate: 1, cores: 3 }]);
    expect(sim.end().metrics!.rejected).toBe(1);
    expect(rows).toEqual(["7 rejected 5 needs 3 cores, the platform has 2"]);
  });

  it("names the job and field of bad input, and the option of a bad pool", () => {
    const sim = createPooledSimulation({ policy: "easy", procs: 2 });
    expect(() => sim.push([{ id: 1, submit: 0, runtime: 0, estimate: 1, cores: 1 }])).toThrow(
      /jobs\[0\]\.runtime is 0, expected a finite number > 0/,
    );
    const unsorted = createPooledSimulation({ policy: "easy", procs: 2 });
    expect(() =>
      unsorted.push([
        { id: 1, submit: 5, runtime: 1, estimate: 1, cores: 1 },
        { id: 2, submit: 4, runtime: 1, estimate: 1, cores: 1 },
      ]),
    ).toThrow(/jobs\[1\] \(job 2\)\.submit is 4, before the previous job's submit 5/);
    for (const cores of [0, 1.5, -1]) {
      const bad = createPooledSimulation({ policy: "easy", procs: 2 });
      expect(() => bad.push([{ id: 1, submit: 0, runtime: 1, estimate: 1, cores }])).toThrow(
        `jobs[0].cores is ${cores}, expected an integer >= 1`,
      );
    }
    const benchmark = createPooledSimulation({ policy: "easy", procs: 2 });
    expect(() =>
      benchmark.push([{ id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, benchmark: 2 }]),
    ).toThrow(/jobs\[0\] has a ready time, deadline, licenses or benchmark/);
    const ready = createPooledSimulation({ policy: "fcfs", procs: 2 });
    expect(() =>
      ready.push([{ id: 1, submit: 0, runtime: 1, estimate: 1, cores: 1, ready: 3 }]),
    ).toThrow(InvalidInputError);
    expect(() => createPooledSimulation({ policy: "easy", procs: 0 })).toThrow(
      /options\.procs is 0, expected an integer >= 1/,
    );
    expect(() =>
      createPooledSimulation({ policy: "conservative" as PooledPolicy, procs: 4 }),
    ).toThrow(/options\.policy/);
  });
});
