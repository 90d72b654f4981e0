import { describe, expect, it } from "vitest";
import {
  benchmarkOf,
  createJob,
  defaultExecutionModel,
  eligibleMachines,
  firstFitAllocation,
  fitsMachine,
  InvalidInputError,
  identicalPool,
  licensesFreeOn,
  MetricSums,
  maxCoresOf,
  ResourceLedger,
  whyNeverFits,
} from "../src/index.js";
import { makeView } from "../src/testing/index.js";

// Defects the API fuzz suite found (api-fuzz.property.test.ts), one example each: a silently
// accepted value of the wrong type or a raw TypeError before, an InvalidInputError naming the
// argument or field now.

const job = createJob({ id: 1, submit: 0, runtime: 10, cores: 2, licenses: { cad: 1 } });
const pool = identicalPool(2, { cores: 2, licenses: [{ name: "cad", copies: 1 }] });

describe("eligibility checks the job, the platform and the machine it is asked about", () => {
  it("a job whose cores are a string (fitsMachine answered true)", () => {
    expect(() => fitsMachine({ ...job, cores: "abc" as never }, pool, 0)).toThrow(
      '@sched/core/fitsMachine: job.cores is "abc", expected an integer >= 1',
    );
  });

  it('a machine given as a string (fitsMachine read machine "1" as machine 1)', () => {
    expect(() => fitsMachine(job, pool, "1" as never)).toThrow(
      '@sched/core/fitsMachine: machine is "1", expected a machine index (an integer)',
    );
    expect(fitsMachine(job, pool, 7)).toBe(false); // an integer that is no machine: false, as documented
  });

  it("a platform built by hand without a machine's cores (eligibleMachines answered [])", () => {
    const { cores: _c, ...machine } = pool.machines[0]!;
    const platform = { ...pool, machines: [machine, pool.machines[1]!] } as never;
    expect(() => eligibleMachines(job, platform)).toThrow(
      "@sched/core/eligibleMachines: platform.machines[0].cores is undefined, expected an integer >= 1",
    );
  });

  it("licensesFreeOn checks its options (a 1 was read as true, an unknown key ignored)", () => {
    const view = { platform: pool, freeLicenses: () => 1 };
    expect(() => licensesFreeOn(job, view, 0, { first: 1 as never })).toThrow(
      "@sched/core/licensesFreeOn: options.first is 1, expected true or false",
    );
    expect(() => licensesFreeOn(job, view, 0, { frist: false } as never)).toThrow(
      "@sched/core/licensesFreeOn: options.frist is not a known key (did you mean `first`?)",
    );
  });

  it('whyNeverFits checks options.singleMachine ("yes" was read as true)', () => {
    expect(() => whyNeverFits(job, pool, { singleMachine: "yes" as never })).toThrow(
      '@sched/core/whyNeverFits: options.singleMachine is "yes", expected true or false',
    );
  });

  it("benchmarkOf and maxCoresOf check the job (a string benchmark was returned, null a TypeError)", () => {
    expect(() => benchmarkOf({ ...job, benchmark: "2" as never }, pool)).toThrow(
      '@sched/core/benchmarkOf: job.benchmark is "2", expected a finite number > 0',
    );
    expect(() => maxCoresOf(null as never)).toThrow(InvalidInputError);
    expect(() => maxCoresOf(null as never)).toThrow("@sched/core/maxCoresOf: job is null");
  });
});

describe("defaultExecutionModel.duration checks what it reads (a policy reaches it through view.duration)", () => {
  const duration = (j: unknown, a: unknown, p: unknown, s: unknown) =>
    defaultExecutionModel.duration(j as never, a as never, p as never, s as never);
  const W = "@sched/core/defaultExecutionModel.duration";
  const speeds = { ...pool, machines: [pool.machines[0]!, { ...pool.machines[1]!, speed: 4 }] };

  it("answers seconds x benchmark / the slowest speed of the allocation", () => {
    expect(duration(job, [{ machine: 1, cores: 1 }], speeds, 100)).toBe(25);
    expect(duration({ ...job, benchmark: 2 }, [{ machine: 1, cores: 1 }], speeds, 100)).toBe(50);
    expect(
      duration(
        job,
        [
          { machine: 1, cores: 1 },
          { machine: 0, cores: 1 },
        ],
        speeds,
        100,
      ),
    ).toBe(100);
  });

  it("a machine that is not on the platform (a raw TypeError before)", () => {
    expect(() => duration(job, [{ machine: 9, cores: 1 }], pool, 10)).toThrow(
      `${W}: allocation[0].machine is 9, expected a machine index from 0 to 1`,
    );
    expect(() => duration(job, [{ machine: 0, cores: 1 }, null], pool, 10)).toThrow(
      `${W}: allocation[1] is null, expected a part { machine, cores }`,
    );
  });

  it("at its bounds: 0 s takes 0 s; an infinite benchmark, a machine index as a string are refused", () => {
    expect(duration(job, [{ machine: 0, cores: 1 }], pool, 0)).toBe(0);
    expect(() =>
      duration(
        { ...job, benchmark: Number.POSITIVE_INFINITY },
        [{ machine: 0, cores: 1 }],
        pool,
        10,
      ),
    ).toThrow(`${W}: job.benchmark is Infinity, expected a finite number > 0 (or none)`);
    expect(() => duration(job, [{ machine: "0", cores: 1 }], pool, 10)).toThrow(
      `${W}: allocation[0].machine is "0", expected a machine index from 0 to 1`,
    );
  });

  it("an empty allocation (0 s before: no machine sets the pace)", () => {
    expect(() => duration(job, [], pool, 10)).toThrow(
      `${W}: allocation is empty, expected at least one part`,
    );
  });

  it("seconds and the benchmark must be numbers (a string was multiplied, NaN returned)", () => {
    expect(() => duration(job, [{ machine: 0, cores: 1 }], pool, "10")).toThrow(
      `${W}: seconds is "10", expected a finite number >= 0`,
    );
    expect(() => duration(job, [{ machine: 0, cores: 1 }], pool, Number.NaN)).toThrow(
      `${W}: seconds is NaN, expected a finite number >= 0`,
    );
    expect(() =>
      duration({ ...job, benchmark: "2" }, [{ machine: 0, cores: 1 }], pool, 10),
    ).toThrow(`${W}: job.benchmark is "2", expected a finite number > 0 (or none)`);
    expect(() => duration(null, [{ machine: 0, cores: 1 }], pool, 10)).toThrow(
      `${W}: job is null, expected a job`,
    );
  });
});

describe("the resource ledger checks what it is given", () => {
  it("give refuses what was never taken (the free cores went above the machine's)", () => {
    const ledger = new ResourceLedger(identicalPool(2, { cores: 2 }));
    const rigid = createJob({ id: 1, submit: 0, runtime: 1, cores: 1 });
    ledger.take(rigid, [{ machine: 1, cores: 1 }]);
    expect(() => ledger.give(rigid, [{ machine: 0, cores: 1 }])).toThrow(
      "@sched/core/ResourceLedger.give: allocation[0].cores is 1, but machine 0 has 2 of 2 cores free: more than was taken",
    );
    expect(ledger.freeCores(0)).toBe(2);
    ledger.give(rigid, [{ machine: 1, cores: 1 }]);
    expect(ledger.totalFreeCores).toBe(4);
  });

  it("take refuses a job of NaN cores (any allocation was accepted for it)", () => {
    const ledger = new ResourceLedger(identicalPool(2));
    expect(() =>
      ledger.take({ ...job, licenses: undefined, cores: Number.NaN } as never, [
        { machine: 0, cores: 1 },
      ]),
    ).toThrow("@sched/core/ResourceLedger: job.cores is NaN, expected an integer >= 1");
  });

  it('the queries refuse a machine that is not a number (freeCores("0") read machine 0)', () => {
    const ledger = new ResourceLedger(identicalPool(2, { cores: 2 }));
    expect(() => ledger.freeCores("0" as never)).toThrow(
      '@sched/core/ResourceLedger.freeCores: machine is "0", expected a number (a machine index)',
    );
    expect(() => ledger.nextFreeMachine(Number.NaN)).toThrow("from is NaN");
    expect(ledger.freeCores(9)).toBe(0); // a number that is no machine: 0, as documented
  });

  it("firstFitAllocation refuses a fractional core count (gave a part of 1.5 cores)", () => {
    const view = makeView(identicalPool(3, { cores: 2 }));
    expect(() => firstFitAllocation(view, 1.5)).toThrow(
      "@sched/core/firstFitAllocation: cores is 1.5, expected an integer (null for fewer than 1)",
    );
    expect(firstFitAllocation(view, 0)).toBeNull();
  });
});

describe("MetricSums checks the types of what it adds", () => {
  it("a string submit (was coerced, and kept as the window's start)", () => {
    const sums = new MetricSums(4);
    expect(() => sums.addCompletedRun("5" as never, 5, 20, 2)).toThrow(
      '@sched/core/MetricSums.addCompletedRun: submit is "5", expected a finite number',
    );
    expect(() => sums.addRejected(1n as never)).toThrow(
      "@sched/core/MetricSums.addRejected: submit is bigint, expected a finite number",
    );
    expect(() => sums.addInterval(0, 5, Symbol() as never)).toThrow(
      "@sched/core/MetricSums.addInterval: cores is symbol, expected a finite number >= 0",
    );
  });

  it("addDeadline takes a boolean (a 1 counted as missed)", () => {
    expect(() => new MetricSums(4).addDeadline(1 as never)).toThrow(
      "@sched/core/MetricSums.addDeadline: missed is 1, expected true or false",
    );
  });

  it("metrics() checks the usages and stats it passes through (a string was returned as is)", () => {
    const sums = new MetricSums(4);
    sums.addCompletedRun(0, 0, 10, 1);
    expect(() => sums.metrics({ licenseUsage: "0.5" as never })).toThrow(
      '@sched/core/MetricSums: metrics(options.licenseUsage) is "0.5", expected a number >= 0',
    );
    expect(() =>
      sums.metrics({ stats: { events: 1, decisions: "2" as never, schedulerMs: 1 } }),
    ).toThrow('metrics(options.stats).decisions is "2", expected an integer >= 0');
    expect(sums.metrics({ machineUsage: Number.NaN }).makespan).toBe(10);
  });
});

describe("makeView (@sched/core/testing) checks the state it is given", () => {
  const full = createJob({ id: 2, submit: 0, runtime: 10, cores: 1 });
  it("a waiting entry's progress outside [0, 1) (was handed to the policy as is)", () => {
    expect(() => makeView(pool, { waiting: [{ job: full, progress: 2, preemptions: 0 }] })).toThrow(
      "@sched/core/testing/makeView: options.waiting[0].progress is 2, expected a number in [0, 1)",
    );
  });

  it("a string as the queue, a freeLicenses that is no function (were raw TypeErrors)", () => {
    expect(() => makeView(pool, { waiting: "abc" as never })).toThrow(
      '@sched/core/testing/makeView: options.waiting is "abc", expected an array',
    );
    const view = () => makeView(pool, { freeLicenses: "x" as never });
    expect(view).toThrow(
      '@sched/core/testing/makeView: options.freeLicenses is "x", expected a function (license, machine) => copies',
    );
  });

  it("a running job's start that is not finite (was handed to the policy as is)", () => {
    const running = [
      {
        job: full,
        allocation: [{ machine: 0, cores: 1 }],
        start: Number.NaN,
        progressAtStart: 0,
        progress: 0,
        estimatedEnd: 10,
      },
    ];
    expect(() => makeView(pool, { running })).toThrow(
      "@sched/core/testing/makeView: options.running[0].start is NaN, expected a finite number",
    );
  });
});

describe("MetricSums: a horizon is finite", () => {
  it("an infinite horizon with an unfinished job (made the makespan Infinity, silently)", () => {
    const sums = new MetricSums(4);
    sums.addUnfinished(0);
    expect(() => sums.makespan(Infinity)).toThrow(
      "@sched/core/MetricSums: horizon is Infinity, expected a finite number (or absent)",
    );
    expect(sums.makespan(30)).toBe(30);
  });
});
