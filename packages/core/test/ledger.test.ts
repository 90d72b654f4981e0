import { describe, expect, it } from "vitest";
import {
  benchmarkOf,
  ConstraintViolationError,
  createJob,
  createPlatform,
  defaultExecutionModel,
  firstFitAllocation,
  identicalPool,
  oneCoreAllocation,
  ResourceLedger,
  type SchedulerView,
} from "../src/index.js";
import { makeView } from "../src/testing/index.js";

const platform = createPlatform({
  machines: [{ cores: 2 }, { cores: 4 }, { cores: 1 }],
  licenses: [
    { name: "f", copies: 2, machines: [0, 1] },
    { name: "n", kind: "node-locked", copies: 1, machines: [1, 2] },
  ],
});
const job = (cores: number, licenses?: Record<string, number>) =>
  createJob(
    licenses === undefined
      ? { id: 9, submit: 0, runtime: 1, cores }
      : { id: 9, submit: 0, runtime: 1, cores, licenses },
  );

describe("ResourceLedger", () => {
  it("tracks free cores per machine and in total, take then give", () => {
    const l = new ResourceLedger(platform);
    const j = job(3);
    const alloc = [
      { machine: 1, cores: 2 },
      { machine: 2, cores: 1 },
    ];
    l.take(j, alloc);
    expect([l.freeCores(0), l.freeCores(1), l.freeCores(2), l.totalFreeCores]).toEqual([
      2, 2, 0, 4,
    ]);
    l.give(j, alloc);
    expect(l.totalFreeCores).toBe(7);
  });

  it("throws ConstraintViolationError naming job and resource, leaving the ledger untouched", () => {
    const l = new ResourceLedger(platform);
    const j = job(3);
    let err: unknown;
    try {
      l.take(
        j,
        [
          { machine: 0, cores: 2 },
          { machine: 2, cores: 2 },
        ],
        "here",
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConstraintViolationError);
    expect((err as ConstraintViolationError).jobId).toBe(9);
    expect((err as ConstraintViolationError).resource).toBe("machine 2 cores");
    expect((err as Error).message).toBe(
      "here: job 9: machine 2 cores: needs 2 cores, 1 of 1 are free",
    );
    expect(l.totalFreeCores).toBe(7);
  });

  it("floating licenses: shared pool, only on their machines", () => {
    const l = new ResourceLedger(platform);
    expect(l.freeLicenses("f", 0)).toBe(2);
    expect(l.freeLicenses("f", 2)).toBe(0);
    l.take(job(1, { f: 2 }), [{ machine: 0, cores: 1 }]);
    expect(l.freeLicenses("f", 1)).toBe(0);
    expect(() => l.take(job(1, { f: 1 }), [{ machine: 1, cores: 1 }])).toThrow(
      "job 9: license f: needs 1 copies, 0 are free",
    );
    expect(() =>
      new ResourceLedger(platform).take(job(1, { f: 1 }), [{ machine: 2, cores: 1 }]),
    ).toThrow("job 9: license f: is not usable on machine 2");
  });

  it("node-locked licenses: copies per machine, taken on the allocation's first machine", () => {
    const l = new ResourceLedger(platform);
    l.take(job(2, { n: 1 }), [
      { machine: 2, cores: 1 },
      { machine: 0, cores: 1 },
    ]);
    expect(l.freeLicenses("n", 2)).toBe(0);
    expect(l.freeLicenses("n", 1)).toBe(1);
    expect(() => l.take(job(1, { n: 1 }), [{ machine: 0, cores: 1 }])).toThrow(
      "job 9: license n: needs 1 node-locked copies on machine 0 (the allocation's first), 0 are free there",
    );
  });

  it("nextFreeMachine finds the lowest machine with a free core", () => {
    const l = new ResourceLedger(identicalPool(10));
    const j = createJob({ id: 1, submit: 0, runtime: 1, cores: 1 });
    for (const m of [0, 1, 2, 5, 9]) l.take(j, [{ machine: m, cores: 1 }]);
    expect([0, 3, 4, 5, 6, 9, 10].map((f) => l.nextFreeMachine(f))).toEqual([
      3, 3, 4, 6, 6, -1, -1,
    ]);
    // the lowest index >= from: a fractional from, or one out of range, too
    expect(
      [-7, 0.5, 4.5, 5.2, 8.9, 9.5, Number.NEGATIVE_INFINITY, Infinity].map((f) =>
        l.nextFreeMachine(f),
      ),
    ).toEqual([3, 3, 6, 6, -1, -1, 3, -1]);
  });

  it("nextFreeMachine skips multi-core machines filled by one-core allocations read as ranges", () => {
    // 20 machines of 2 cores; two jobs of one core on each (20 parts: the allocation carries its
    // ranges, which the ledger applies range by range)
    const p = createPlatform({ machines: Array.from({ length: 20 }, () => ({ cores: 2 })) });
    const l = new ResourceLedger(p);
    const all = Array.from({ length: 20 }, (_, m) => m);
    const wide = (id: number) => createJob({ id, submit: 0, runtime: 1, cores: 20 });
    l.take(wide(1), oneCoreAllocation(p, all));
    expect(l.nextFreeMachine(0)).toBe(0);
    l.take(wide(2), oneCoreAllocation(p, all));
    expect(l.totalFreeCores).toBe(0);
    expect(l.nextFreeMachine(0)).toBe(-1);
    l.give(wide(1), oneCoreAllocation(p, all.slice(5)));
    expect(l.nextFreeMachine(0)).toBe(5);
  });

  it("freeLicenses is 0 on a machine the platform does not have", () => {
    const l = new ResourceLedger(
      createPlatform({ machines: [{}, {}], licenses: [{ name: "g", copies: 3 }] }),
    );
    expect(l.freeLicenses("g", 1)).toBe(3);
    expect([-1, 2, 7].map((m) => l.freeLicenses("g", m))).toEqual([0, 0, 0]);
  });
});

describe("firstFitAllocation", () => {
  const view = (free: number[]): SchedulerView =>
    makeView(createPlatform({ machines: free.map(() => ({ cores: 8 })) }), { freeCores: free });

  it("takes free cores lowest machine first, spanning machines; null when short", () => {
    expect(firstFitAllocation(view([1, 0, 4]), 3)).toEqual([
      { machine: 0, cores: 1 },
      { machine: 2, cores: 2 },
    ]);
    expect(firstFitAllocation(view([1, 0, 4]), 6)).toBeNull();
    expect(firstFitAllocation(view([1, 0, 4]), 5)).toHaveLength(2);
  });

  it("gives the same answer through the engine's nextFreeMachine", () => {
    const l = new ResourceLedger(
      createPlatform({ machines: [{ cores: 2 }, { cores: 2 }, { cores: 2 }] }),
    );
    const j = createJob({ id: 1, submit: 0, runtime: 1, cores: 2 });
    l.take(j, [{ machine: 1, cores: 2 }]);
    const v: SchedulerView = {
      ...makeView(l.platform, { freeCores: [2, 0, 2] }),
      nextFreeMachine: (f) => l.nextFreeMachine(f),
    };
    expect(firstFitAllocation(v, 3)).toEqual([
      { machine: 0, cores: 2 },
      { machine: 2, cores: 1 },
    ]);
  });
});

describe("default execution model", () => {
  it("scales runtime by benchmark(job) / slowest speed of the allocation", () => {
    const p = createPlatform({ machines: [{ speed: 200 }, { speed: 400 }], referenceSpeed: 400 });
    const j = createJob({ id: 1, submit: 0, runtime: 100, cores: 2 });
    expect(benchmarkOf(j, p)).toBe(400);
    expect(defaultExecutionModel.duration(j, [{ machine: 1, cores: 1 }], p, 100)).toBe(100);
    expect(
      defaultExecutionModel.duration(
        j,
        [
          { machine: 0, cores: 1 },
          { machine: 1, cores: 1 },
        ],
        p,
        100,
      ),
    ).toBe(200);
    const k = createJob({ id: 2, submit: 0, runtime: 100, cores: 1, benchmark: 200 });
    expect(defaultExecutionModel.duration(k, [{ machine: 1, cores: 1 }], p, 100)).toBe(50);
  });
});
