import { createPlatform } from "@sched/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type BackfillState, backfillPass } from "../src/pass.js";
import type { Reservation } from "../src/strategy.js";

// backfillPass on hand-built states: each decision worked out by hand.

const deepFreeze = <T>(x: T): T => {
  if (typeof x === "object" && x !== null) {
    for (const v of Object.values(x)) deepFreeze(v);
    Object.freeze(x);
  }
  return x;
};

describe("backfillPass: hand-worked decisions", () => {
  // 8 cores, 4 held by job 1 until 160. Job 2 needs all 8: it gets the reservation at 160.
  // Job 3 (2 cores, 60 s) ends at 160 and backfills; job 4 (2 cores, 90 s) would end at 190
  // and delay job 2, so it waits.
  const state: BackfillState = {
    now: 100,
    cores: 8,
    running: [{ id: 1, cores: 4, end: 160 }],
    queue: [
      { id: 2, cores: 8, estimate: 50 },
      { id: 3, cores: 2, estimate: 60 },
      { id: 4, cores: 2, estimate: 90 },
    ],
  };

  it("EASY (the default): job 3 backfills, job 2 holds the reservation at 160", () => {
    const d = backfillPass(state);
    expect(d.start).toEqual([3]);
    expect(d.allocations).toEqual([[{ machine: 0, cores: 2 }]]);
    expect(d.reservations).toEqual([{ id: 2, time: 160 }]);
    expect(d.rejected).toEqual([]);
    expect(d.preempted).toEqual([]);
    expect(d.wakeAt).toBeUndefined();
  });

  it("the fields a loop carries between calls may hold undefined (a first call)", () => {
    // With exactOptionalPropertyTypes, a loop's `let reservations: Reservation[] | undefined`
    // must be accepted by the type as it is at run time.
    const none = <T>(): T | undefined => undefined;
    const first = backfillPass(
      {
        ...state,
        reservations: none<readonly Reservation[]>(),
        completed: none<readonly number[]>(),
        arrived: none<readonly number[]>(),
      },
      { policy: "conservative" },
    );
    expect(first).toEqual(backfillPass(state, { policy: "conservative" }));
  });

  it("FCFS: job 2 blocks the queue; nobody starts", () => {
    expect(backfillPass(state, { policy: "fcfs" }).start).toEqual([]);
    expect(backfillPass(state, { reservations: 0 }).start).toEqual([]);
  });

  it("two reservations: job 4 gets the second one, at 160 + 50", () => {
    const d = backfillPass(state, { reservations: 2 });
    expect(d.start).toEqual([3]);
    expect(d.reservations).toEqual([
      { id: 2, time: 160 },
      { id: 4, time: 210 },
    ]);
  });

  it("shortest estimate first: job 3 first, then job 2's reservation, job 4 waits", () => {
    const d = backfillPass(state, { order: "sjf" });
    expect(d.start).toEqual([3]);
    expect(d.reservations).toEqual([{ id: 2, time: 160 }]);
  });

  it("never mutates the state it reads", () => {
    const frozen = deepFreeze(structuredClone(state));
    expect(backfillPass(frozen, { reservations: Number.POSITIVE_INFINITY }).start).toEqual([3]);
  });
});

describe("backfillPass: conservative remembers through its reservations", () => {
  // 4 cores held by job 1 until 100. Jobs 2 (2 cores, 50 s), 3 (4 cores, 30 s), 4 (2 cores,
  // 40 s) queue: 2 at 100, 3 at 150 (after 2), 4 at 100 beside 2.
  const queue = [
    { id: 2, cores: 2, estimate: 50 },
    { id: 3, cores: 4, estimate: 30 },
    { id: 4, cores: 2, estimate: 40 },
  ];
  const first = backfillPass(
    { now: 0, cores: 4, running: [{ id: 1, cores: 4, end: 100 }], queue },
    { reservations: Number.POSITIVE_INFINITY },
  );

  it("every job gets a reservation on arrival, and a timer at the earliest", () => {
    expect(first.start).toEqual([]);
    expect(first.reservations).toEqual([
      { id: 2, time: 100 },
      { id: 3, time: 150 },
      { id: 4, time: 100 },
    ]);
    expect(first.wakeAt).toBe(100);
  });

  it("job 1 ends early at 60: compression moves 2 and 4 to 60 and 3 to 140, in queue order", () => {
    // Job 3 is re-placed while job 4 still holds [100, 140): the classic rule.
    const d = backfillPass(
      { now: 60, cores: 4, running: [], queue, reservations: first.reservations, completed: [1] },
      { reservations: Number.POSITIVE_INFINITY },
    );
    expect(d.start).toEqual([2, 4]);
    expect(d.reservations).toEqual([{ id: 3, time: 140 }]);
    expect(d.wakeAt).toBe(140);
  });

  it("with no completion reported, reservations stay where they are", () => {
    const d = backfillPass(
      {
        now: 60,
        cores: 4,
        running: [{ id: 1, cores: 4, end: 100 }],
        queue: [...queue, { id: 5, cores: 1, estimate: 10, submit: 60 }],
        reservations: first.reservations,
        completed: [],
      },
      { reservations: Number.POSITIVE_INFINITY },
    );
    expect(d.start).toEqual([]);
    expect(d.reservations).toEqual([...first.reservations, { id: 5, time: 140 }]);
  });
});

describe("backfillPass: wakeAt covers queued jobs' ready times", () => {
  // 4 free cores. Job 2 (2 cores) is ready at 130, job 3 (1 core) at 120: neither starts now;
  // the next call that can start one is at 120.
  const queue = [
    { id: 2, cores: 2, estimate: 50, ready: 130 },
    { id: 3, cores: 1, estimate: 50, ready: 120 },
  ];

  it("EASY: the earliest ready time to come, then the next one at that call", () => {
    const d = backfillPass({ now: 100, cores: 4, running: [], queue });
    expect(d.start).toEqual([]);
    expect(d.wakeAt).toBe(120);
    const at120 = backfillPass({ now: 120, cores: 4, running: [], queue });
    expect(at120.start).toEqual([3]);
    expect(at120.wakeAt).toBe(130);
    const at130 = backfillPass({
      now: 130,
      cores: 4,
      running: [{ id: 3, cores: 1, end: 170 }],
      queue: [queue[0]!],
    });
    expect(at130.start).toEqual([2]);
    expect(at130).not.toHaveProperty("wakeAt");
  });

  it("a ready time passed, or of a job rejected, is not a reason to call", () => {
    const d = backfillPass({
      now: 100,
      cores: 4,
      running: [{ id: 1, cores: 4, end: 300 }],
      queue: [
        { id: 2, cores: 1, estimate: 5, ready: 90 },
        { id: 3, cores: 5, estimate: 5, ready: 150 },
      ],
    });
    expect(d.start).toEqual([]);
    expect(d.rejected.map((r) => r.id)).toEqual([3]);
    expect(d).not.toHaveProperty("wakeAt");
  });

  it("conservative: its next reservation or an earlier ready time, whichever comes first", () => {
    // 8 cores, 4 held by job 1 until 200: job 2 (8 cores) is reserved at 200, job 3 (8 cores)
    // after it at 250; job 3's ready time is 300 (reserved then), or 150 (still reserved at 250)
    const decide = (ready: number) =>
      backfillPass(
        {
          now: 100,
          cores: 8,
          running: [{ id: 1, cores: 4, end: 200 }],
          queue: [
            { id: 2, cores: 8, estimate: 50 },
            { id: 3, cores: 8, estimate: 10, ready },
          ],
        },
        { policy: "conservative" },
      );
    const late = decide(300);
    expect(late.reservations).toEqual([
      { id: 2, time: 200 },
      { id: 3, time: 300 },
    ]);
    expect(late.wakeAt).toBe(200);
    const early = decide(150);
    expect(early.reservations).toEqual([
      { id: 2, time: 200 },
      { id: 3, time: 250 },
    ]);
    expect(early.wakeAt).toBe(150);
  });
});

describe("backfillPass: conservative given reservations that overbook the plan (README)", () => {
  const state: BackfillState = {
    now: 100,
    cores: 8,
    running: [{ id: 1, cores: 4, end: 160 }],
    queue: [
      { id: 2, cores: 8, estimate: 50, submit: 95 },
      { id: 3, cores: 2, estimate: 60, submit: 96 },
      { id: 4, cores: 2, estimate: 90, submit: 97 },
      { id: 5, cores: 8, estimate: 10, submit: 99 },
    ],
  };
  const conservative = { policy: "conservative" } as const;

  it("keeps them and compresses in queue order: the one that no longer fits is made again", () => {
    const d = backfillPass(
      {
        ...state,
        reservations: [
          { id: 2, time: 160 },
          { id: 5, time: 160 },
        ],
      },
      conservative,
    );
    expect(d.start).toEqual([3]);
    expect(d.reservations).toEqual([
      { id: 2, time: 170 },
      { id: 5, time: 160 },
      { id: 4, time: 220 },
    ]);
  });

  it("plans again from scratch, in queue order, when given no reservations", () => {
    const d = backfillPass(state, conservative);
    expect(d.start).toEqual([3]);
    expect(d.reservations).toEqual([
      { id: 2, time: 160 },
      { id: 4, time: 210 },
      { id: 5, time: 300 },
    ]);
  });
});

describe("backfillPass: conservative given licensed reservations that overbook the cores", () => {
  it("a licensed reservation over cores that went negative is made again, as an unlicensed one is", () => {
    // Job 1's end moved from 10 to 20 (it overran, and the caller says so): the reservations of
    // the previous call, job 2 at 10 and job 3 at 15, now overbook the two cores. Job 2 asks for
    // a license whose profile is fine: only the cores say it cannot stay at 10. (`completed`
    // unknown: conservative compresses.)
    const platform = createPlatform({
      machines: [{ cores: 2 }],
      licenses: [{ name: "a", copies: 1 }],
    });
    const d = backfillPass(
      {
        now: 10,
        platform,
        running: [{ id: 1, cores: 2, start: 0, end: 20, allocation: [{ machine: 0, cores: 2 }] }],
        queue: [
          { id: 2, cores: 1, estimate: 5, submit: 0, licenses: { a: 1 } },
          { id: 3, cores: 2, estimate: 5, submit: 1 },
        ],
        reservations: [
          { id: 2, time: 10 },
          { id: 3, time: 15 },
        ],
      },
      { policy: "conservative" },
    );
    expect(d.start).toEqual([]);
    expect(d.reservations).toEqual([
      { id: 2, time: 20 },
      { id: 3, time: 25 },
    ]);
  });
});

describe("backfillPass: conservative after a walltime extension, told that nothing ended", () => {
  // The state of the test above with `completed: []`: nothing ended, but job 1's end moved from
  // 10 to 20, so the kept reservations overbook; each is made again, as when `completed` is
  // unknown.
  const platform = createPlatform({
    machines: [{ cores: 2 }],
    licenses: [{ name: "a", copies: 1 }],
  });
  const state = (licensed: boolean): BackfillState => ({
    now: 10,
    platform,
    running: [{ id: 1, cores: 2, start: 0, end: 20, allocation: [{ machine: 0, cores: 2 }] }],
    queue: [
      { id: 2, cores: 1, estimate: 5, submit: 0, ...(licensed ? { licenses: { a: 1 } } : {}) },
      { id: 3, cores: 2, estimate: 5, submit: 1 },
    ],
    reservations: [
      { id: 2, time: 10 },
      { id: 3, time: 15 },
    ],
    completed: [],
  });

  it("makes the reservations that no longer hold again, licensed or not, pooled or on one machine", () => {
    for (const licensed of [false, true]) {
      const d = backfillPass(state(licensed), { policy: "conservative" });
      expect(d.reservations, `licensed ${licensed}`).toEqual([
        { id: 2, time: 20 },
        { id: 3, time: 25 },
      ]);
      expect(d.wakeAt).toBe(20);
      const s = state(licensed);
      const one = backfillPass(
        { ...s, reservations: s.reservations!.map((r) => ({ ...r, machine: 0 })) },
        { policy: "conservative", singleMachine: true },
      );
      expect(one.reservations, `singleMachine, licensed ${licensed}`).toEqual([
        { id: 2, time: 20, machine: 0 },
        { id: 3, time: 25, machine: 0 },
      ]);
    }
    // The license alone overbooked: job 1 holds the one copy until 20 now, not 10.
    const d = backfillPass(
      {
        now: 10,
        platform: createPlatform({
          machines: [{ cores: 4 }],
          licenses: [{ name: "a", copies: 1 }],
        }),
        running: [
          {
            id: 1,
            cores: 1,
            start: 0,
            end: 20,
            licenses: { a: 1 },
            allocation: [{ machine: 0, cores: 1 }],
          },
        ],
        queue: [{ id: 2, cores: 1, estimate: 5, submit: 0, licenses: { a: 1 } }],
        reservations: [{ id: 2, time: 10 }],
        completed: [],
      },
      { policy: "conservative" },
    );
    expect(d.reservations).toEqual([{ id: 2, time: 20 }]);
  });

  it("keeps reservations that still hold where they are, without compressing them", () => {
    // Job 1's end moved from 10 to 12 on 3 cores: job 2 (1 core) still fits at 10; job 3 at 15
    // (2 cores) holds; nothing ended, so job 3 does not move to 12 though it would fit there.
    const d = backfillPass(
      {
        now: 10,
        cores: 3,
        running: [{ id: 1, cores: 2, start: 0, end: 12 }],
        queue: [
          { id: 2, cores: 1, estimate: 5, submit: 0 },
          { id: 3, cores: 2, estimate: 5, submit: 1 },
        ],
        reservations: [
          { id: 2, time: 10 },
          { id: 3, time: 15 },
        ],
        completed: [],
      },
      { policy: "conservative" },
    );
    expect(d.start).toEqual([2]);
    expect(d.reservations).toEqual([{ id: 3, time: 15 }]);
  });

  it("never returns reservations that overbook the cores, whatever the running jobs' ends became", () => {
    const job = fc.record({
      cores: fc.integer({ min: 1, max: 4 }),
      estimate: fc.integer({ min: 1, max: 20 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: 8 }),
        fc.array(job, { minLength: 1, maxLength: 3 }),
        fc.array(job, { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 3, maxLength: 3 }),
        fc.boolean(),
        (cores, runningJobs, queued, extensions, singleMachine) => {
          const options = { policy: "conservative", singleMachine } as const;
          // Running jobs that fit the machine now, then a first decision.
          let used = 0;
          const fitting = runningJobs.filter((r) => {
            if (used + r.cores > cores) return false;
            used += r.cores;
            return true;
          });
          const running = fitting.map((r, i) => ({
            id: 100 + i,
            cores: r.cores,
            start: 0,
            end: r.estimate,
          }));
          const queue = queued.map((q, i) => ({
            id: i,
            cores: q.cores,
            estimate: q.estimate,
            submit: 0,
          }));
          const first = backfillPass({ now: 0, cores, running, queue }, options);
          const started = new Set(first.start);
          // Some running jobs' ends move later; the jobs started now run to their estimates.
          const nowRunning = [
            ...running.map((r, i) => ({ ...r, end: r.end + extensions[i]! })),
            ...queue
              .filter((q) => started.has(q.id))
              .map((q) => ({ id: q.id, cores: q.cores, start: 0, end: q.estimate })),
          ];
          const waiting = queue.filter((q) => !started.has(q.id));
          const d = backfillPass(
            {
              now: 0,
              cores,
              running: nowRunning,
              queue: waiting,
              reservations: first.reservations,
              completed: [],
            },
            options,
          );
          const estimate = new Map(waiting.map((q) => [q.id, q] as const));
          const intervals = [
            ...nowRunning.map((r) => ({ start: 0, end: r.end, cores: r.cores })),
            ...queue
              .filter((q) => d.start.includes(q.id))
              .map((q) => ({ start: 0, end: q.estimate, cores: q.cores })),
            ...d.reservations.map((r) => {
              const q = estimate.get(r.id)!;
              return { start: r.time, end: r.time + q.estimate, cores: q.cores };
            }),
          ];
          expect(d.reservations.length + d.start.length).toBe(waiting.length);
          for (const { start: t } of intervals) {
            let busy = 0;
            for (const i of intervals) if (i.start <= t && t < i.end) busy += i.cores;
            expect(busy, `at ${t}`).toBeLessThanOrEqual(cores);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("backfillPass: EASY keeps a license copy for the head's reservation", () => {
  it("a one-copy job that fits the cores but would hold the copy past the reservation waits", () => {
    const platform = createPlatform({
      machines: [{ cores: 4 }],
      licenses: [{ name: "a", copies: 1 }],
    });
    const state: BackfillState = {
      now: 0,
      platform,
      running: [{ id: 1, cores: 3, end: 10, allocation: [{ machine: 0, cores: 3 }] }],
      queue: [
        // the head: 3 cores and the copy, reserved at 10 (one core stays free then)
        { id: 2, cores: 3, estimate: 10, submit: 0, licenses: { a: 1 } },
        // one core is free now and from 10 on, the copy now only: it would hold it until 20
        { id: 3, cores: 1, estimate: 20, submit: 0, licenses: { a: 1 } },
        // the same job without the license backfills
        { id: 4, cores: 1, estimate: 20, submit: 0 },
      ],
    };
    const d = backfillPass(state, { policy: "easy" });
    expect(d.start).toEqual([4]);
    expect(d.reservations).toEqual([{ id: 2, time: 10 }]);
  });
});

describe("backfillPass: EDF's arrivals", () => {
  it("by default only jobs submitted at now are arrivals: an older queued job does not preempt", () => {
    const state: BackfillState = {
      now: 10,
      cores: 1,
      running: [{ id: 1, cores: 1, end: 100, start: 0, deadline: 200 }],
      queue: [{ id: 2, cores: 1, estimate: 5, submit: 4, deadline: 30 }],
    };
    expect(backfillPass(state, { policy: "edf" }).preempted).toEqual([]);
    // submitted now, or named in arrived: it preempts job 1
    const now = { ...state, queue: [{ ...state.queue[0]!, submit: 10 }] };
    expect(backfillPass(now, { policy: "edf" }).preempted).toEqual([1]);
    expect(backfillPass({ ...state, arrived: [2] }, { policy: "edf" }).preempted).toEqual([1]);
  });
});

describe("backfillPass: BF-unrm keeps the holder first", () => {
  it("the job that held the reservation keeps it though a higher-priority job came", () => {
    const state: BackfillState = {
      now: 0,
      cores: 4,
      running: [{ id: 1, cores: 4, end: 100 }],
      queue: [
        { id: 2, cores: 4, estimate: 10, priority: 1 },
        { id: 3, cores: 4, estimate: 10, priority: 5 },
      ],
    };
    const priority = (w: { job: { priority?: number } }) => w.job.priority ?? 0;
    const rm = backfillPass(state, { policy: "flexible", priority });
    expect(rm.reservations).toEqual([{ id: 3, time: 100 }]);
    const kept = backfillPass(
      { ...state, reservations: [{ id: 2, time: 100 }] },
      { policy: "flexible", priority, variant: "unrm" },
    );
    expect(kept.reservations).toEqual([{ id: 2, time: 100 }]);
  });
});

describe("backfillPass: the platform form", () => {
  const platform = createPlatform({
    machines: [
      { cores: 2, speed: 2 },
      { cores: 2, speed: 1 },
    ],
  });

  it("EDF frees the fastest machine whose jobs all have a later deadline, for a job that just arrived", () => {
    // Job 1, on the fast machine 0, is due before job 3: it stays; job 2, due later, goes.
    const d = backfillPass(
      {
        now: 10,
        platform,
        running: [
          { id: 1, cores: 2, end: 50, deadline: 20, allocation: [{ machine: 0, cores: 2 }] },
          { id: 2, cores: 2, end: 50, deadline: 200, allocation: [{ machine: 1, cores: 2 }] },
        ],
        queue: [{ id: 3, cores: 2, estimate: 10, deadline: 30, submit: 10 }],
      },
      { policy: "edf" },
    );
    expect(d.preempted).toEqual([2]);
    expect(d.start).toEqual([3]);
    expect(d.allocations).toEqual([[{ machine: 1, cores: 2 }]]);
  });

  it("a job that arrived earlier does not preempt (state.arrived)", () => {
    const d = backfillPass(
      {
        now: 10,
        platform,
        running: [
          { id: 1, cores: 2, end: 50, deadline: 100, allocation: [{ machine: 0, cores: 2 }] },
          { id: 2, cores: 2, end: 50, deadline: 200, allocation: [{ machine: 1, cores: 2 }] },
        ],
        queue: [{ id: 3, cores: 2, estimate: 10, deadline: 30, submit: 10 }],
        arrived: [],
      },
      { policy: "edf" },
    );
    expect(d.preempted).toEqual([]);
    expect(d.start).toEqual([]);
  });

  it("plans a preempted job for the work it has left (its progress), pooled or on one machine", () => {
    // One machine of 4 cores, 2 held until 100. Job 2 (4 cores) is reserved at 100; job 3 has
    // 160 s of work, half done: 80 s left, so it ends by 100 and starts now (160 s would not).
    // Conservative planned every queued job for its whole estimate (reserved at 110).
    const one = createPlatform({ machines: [{ cores: 4 }] });
    const queue = [
      { id: 2, cores: 4, estimate: 10 },
      { id: 3, cores: 2, estimate: 160, progress: 0.5 },
    ];
    for (const policy of ["easy", "conservative"] as const) {
      const single = backfillPass(
        {
          now: 0,
          platform: one,
          running: [{ id: 1, cores: 2, end: 100, allocation: [{ machine: 0, cores: 2 }] }],
          queue,
        },
        { policy, singleMachine: true },
      );
      expect(single.start, policy).toEqual([3]);
      expect(single.reservations, policy).toEqual([{ id: 2, time: 100, machine: 0 }]);
      const pooled = backfillPass(
        { now: 0, cores: 4, running: [{ id: 1, cores: 2, end: 100 }], queue },
        { policy },
      );
      expect(pooled.start, policy).toEqual([3]);
      expect(pooled.reservations, policy).toEqual([{ id: 2, time: 100 }]);
    }
  });

  it("exclusive: a machine running several jobs (a cluster's state) comes back when the last ends", () => {
    // Machine 0 runs jobs 1 (until 200) and 2 (until 100), machine 1 runs job 5 until 300. Job 3
    // needs a whole machine: machine 0 from 200, not from 100 (job 2, the last listed, ends).
    const two = createPlatform({ machines: [{ cores: 4 }, { cores: 4 }] });
    const state: BackfillState = {
      now: 0,
      platform: two,
      running: [
        { id: 1, cores: 1, end: 200, allocation: [{ machine: 0, cores: 1 }] },
        { id: 2, cores: 1, end: 100, allocation: [{ machine: 0, cores: 1 }] },
        { id: 5, cores: 1, end: 300, allocation: [{ machine: 1, cores: 1 }] },
      ],
      queue: [
        { id: 3, cores: 4, estimate: 10 },
        { id: 4, cores: 2, estimate: 150 },
      ],
    };
    expect(backfillPass(state, { exclusive: true }).reservations).toEqual([
      { id: 3, time: 200, machine: 0 },
    ]);
    expect(backfillPass(state, { policy: "conservative", exclusive: true }).reservations).toEqual([
      { id: 3, time: 200, machine: 0 },
      { id: 4, time: 210, machine: 0 },
    ]);
  });

  it("singleMachine reservations name a machine; jobs no machine can host are rejected", () => {
    const d = backfillPass(
      {
        now: 0,
        platform,
        running: [{ id: 1, cores: 2, end: 20, allocation: [{ machine: 0, cores: 2 }] }],
        queue: [
          { id: 2, cores: 3, estimate: 10 },
          { id: 3, cores: 2, estimate: 40 },
          { id: 4, cores: 2, estimate: 10 },
        ],
      },
      { policy: "conservative", singleMachine: true },
    );
    expect(d.rejected).toEqual([
      {
        id: 2,
        reason: "needs 3 cores on one machine, the largest where its licenses are usable has 2",
      },
    ]);
    // Job 3 starts on machine 1, the one free now; job 4 is reserved machine 0 from 20, when
    // job 1 gives it back (machine 1 is job 3's for longer).
    expect(d.start).toEqual([3]);
    expect(d.reservations).toEqual([{ id: 4, time: 20, machine: 0 }]);
  });
});

describe("backfillPass: bad input names the field", () => {
  const ok: BackfillState = { now: 0, cores: 2, running: [], queue: [] };
  const where = "@sched/backfill/backfillPass";

  it("a state with neither cores nor platform, or both, is a type error and refused", () => {
    const platform = createPlatform({ machines: [{ cores: 2 }] });
    // @ts-expect-error neither the pool form (cores) nor the platform form (platform)
    const neither: BackfillState = { now: 0, running: [], queue: [] };
    // @ts-expect-error both forms at once
    const both: BackfillState = { now: 0, cores: 2, platform, running: [], queue: [] };
    expect(() => backfillPass(neither)).toThrow(
      `${where}: state.cores is missing: give cores or platform`,
    );
    expect(() => backfillPass(both)).toThrow(
      `${where}: state.cores is set beside state.platform: give one`,
    );
    expect(backfillPass({ now: 0, platform, running: [], queue: [] }).start).toEqual([]);
  });
  const cases: [string, unknown, RegExp][] = [
    ["now", { ...ok, now: Number.NaN }, /state\.now is NaN/],
    ["cores", { ...ok, cores: 0 }, /state\.cores is 0, expected an integer >= 1/],
    // more than a machine holds: the ledger's 32-bit counts used to wrap (a nonsense message)
    [
      "cores 2^31",
      { ...ok, cores: 2 ** 31 },
      /state\.cores is 2147483648, expected at most 2147483647/,
    ],
    ["no cores", { now: 0, running: [], queue: [] }, /state\.cores is missing/],
    ["both", { ...ok, platform: createPlatform({ machines: [{}] }) }, /state\.cores is set beside/],
    [
      "queue cores",
      {
        ...ok,
        queue: [
          { id: 1, cores: 1, estimate: 1 },
          { id: 2, cores: 1.5, estimate: 1 },
        ],
      },
      /state\.queue\[1\]\.cores is 1\.5/,
    ],
    [
      "estimate",
      { ...ok, queue: [{ id: 1, cores: 1, estimate: 0 }] },
      // this reason, not the plan's spacing check, which would refuse 0 too
      /state\.queue\[0\]\.estimate is 0, expected a duration > 0$/,
    ],
    [
      "duplicate id",
      { ...ok, running: [{ id: 1, cores: 1, end: 5 }], queue: [{ id: 1, cores: 1, estimate: 1 }] },
      /state\.queue\[0\]\.id is 1, already the id of state\.running\[0\]$/,
    ],
    [
      "running too big",
      { ...ok, running: [{ id: 1, cores: 3, end: 5 }] },
      /state\.running\[0\] does not fit/,
    ],
    [
      "allocation missing",
      {
        now: 0,
        platform: createPlatform({ machines: [{}] }),
        running: [{ id: 1, cores: 1, end: 5 }],
        queue: [],
      },
      /state\.running\[0\]\.allocation is missing: in the platform form a running job gives where it runs, the decision's allocations\[i\] for start\[i\]$/,
    ],
    ["queue not an array", { ...ok, queue: 3 }, /state\.queue is 3, expected an array/],
    // null read as "object"
    ["queue null", { ...ok, queue: null }, /state\.queue is null, expected an array/],
    // Inconsistent states a live loop can hand over: each was read silently as something else.
    [
      "a completed job still running (finished twice, or not removed)",
      { ...ok, running: [{ id: 1, cores: 1, end: 5 }], completed: [1] },
      /state\.completed\[0\] is 1, the id of state\.running\[0\]: a job that completed is neither running nor queued/,
    ],
    [
      "a completed job still queued",
      { ...ok, queue: [{ id: 1, cores: 1, estimate: 1 }], completed: [7, 1] },
      /state\.completed\[1\] is 1, the id of state\.queue\[0\]/,
    ],
    [
      "a completed id not an integer",
      { ...ok, completed: ["3"] },
      /state\.completed\[0\] is "3", expected an integer/,
    ],
    [
      "an arrived id not an integer",
      { ...ok, arrived: [Number.NaN] },
      /state\.arrived\[0\] is NaN, expected an integer/,
    ],
    [
      "a running job started after now (the clock went backwards)",
      { ...ok, now: 10, running: [{ id: 1, cores: 1, end: 80, start: 50 }] },
      /state\.running\[0\]\.start is 50, after state\.now \(10\)/,
    ],
    [
      "a running job that ends before it starts",
      { ...ok, now: 10, running: [{ id: 1, cores: 1, end: 3, start: 5 }] },
      /state\.running\[0\]\.end is 3, before its start \(5\)/,
    ],
    [
      "a queued job submitted after now (the clock went backwards)",
      { ...ok, now: 10, queue: [{ id: 1, cores: 1, estimate: 1, submit: 11 }] },
      /state\.queue\[0\]\.submit is 11, after state\.now \(10\): a job is queued once submitted/,
    ],
    [
      "two reservations for one job",
      {
        ...ok,
        queue: [{ id: 1, cores: 1, estimate: 1 }],
        reservations: [
          { id: 1, time: 5 },
          { id: 1, time: 9 },
        ],
      },
      /state\.reservations\[1\]\.id is 1, already the id of state\.reservations\[0\]/,
    ],
    [
      "progress",
      { ...ok, queue: [{ id: 1, cores: 1, estimate: 1, progress: 1 }] },
      /state\.queue\[0\]\.progress is 1/,
    ],
  ];
  for (const [name, state, message] of cases) {
    it(`${name}`, () => {
      expect(() => backfillPass(state as BackfillState)).toThrow(message);
      expect(() => backfillPass(state as BackfillState)).toThrow(where);
    });
  }

  it("accepts the boundaries of a running job's interval: started at now, ended at its start", () => {
    // started right now, and an estimate of 0 (end = start, an overrun from the start)
    const d = backfillPass({
      ...ok,
      now: 10,
      running: [
        { id: 1, cores: 1, end: 20, start: 10 },
        { id: 2, cores: 1, end: 5, start: 5 },
      ],
      queue: [{ id: 3, cores: 2, estimate: 4 }],
    });
    expect(d.start).toEqual([]);
    expect(d.reservations).toEqual([{ id: 3, time: 20 }]);
  });

  it("refuses estimates whose plan overflows the doubles, naming the largest term", () => {
    // 1.2e308 is finite, but planning the second job after the first would reach Infinity
    expect(() =>
      backfillPass({
        ...ok,
        queue: [
          { id: 1, cores: 2, estimate: 6e307 },
          { id: 2, cores: 2, estimate: 6e307 },
        ],
      }),
    ).toThrow(/state\.queue\[0\]\.estimate is 6e\+307: with it the plan may reach 1\.2e\+308 s/);
  });

  it("options: an unknown policy and a bad option name themselves", () => {
    expect(() => backfillPass(ok, { policy: "sjf" } as never)).toThrow(/options\.policy is "sjf"/);
    expect(() => backfillPass(ok, { reservations: -1 })).toThrow(
      /backfillPass: options\.reservations is -1/,
    );
  });

  // A user trial: a misspelt optional field was ignored without a word (EDF started the job as
  // if it had no deadline). Records may carry the caller's own fields; near misses are refused.
  it("a misspelt field of a record is refused, naming it and the field meant", () => {
    const job = { id: 3, cores: 2, estimate: 5 };
    expect(() =>
      backfillPass({ ...ok, queue: [{ ...job, deadlin: 4 } as never] }, { policy: "edf" }),
    ).toThrow(`${where}: state.queue[0].deadlin is not a field (did you mean \`deadline\`?)`);
    expect(() => backfillPass({ ...ok, queue: [{ ...job, Ready: 4 } as never] })).toThrow(
      "state.queue[0].Ready is not a field (did you mean `ready`?)",
    );
    expect(() =>
      backfillPass({ ...ok, running: [{ id: 1, cores: 1, end: 9, strat: 0 } as never] }),
    ).toThrow("state.running[0].strat is not a field (did you mean `start`?)");
    expect(() =>
      backfillPass(
        { ...ok, queue: [job], reservations: [{ id: 3, tme: 5 } as never] },
        { policy: "conservative" },
      ),
    ).toThrow("state.reservations[0].tme is not a field (did you mean `time`?)");
    expect(() => backfillPass({ ...ok, reservations: [null as never] })).toThrow(
      "state.reservations[0] is null, expected an object",
    );
  });

  it("a record's own fields far from every field are kept for the caller and ignored", () => {
    const mine = { user: "ana", state: "PENDING", partition: "batch", nodes: 1 };
    const plain: BackfillState = {
      now: 10,
      cores: 4,
      running: [{ id: 1, cores: 2, end: 20, start: 5 }],
      queue: [
        { id: 2, cores: 4, estimate: 5 },
        { id: 3, cores: 2, estimate: 5 },
      ],
    };
    const extended: BackfillState = {
      ...plain,
      running: plain.running.map((r) => ({ ...r, ...mine, state: "RUNNING" })),
      queue: plain.queue.map((q) => ({ ...q, ...mine })),
    };
    expect(backfillPass(extended)).toEqual(backfillPass(plain));
    expect(backfillPass(extended).start).toEqual([3]);
  });

  it("a single-machine reservation without its machine", () => {
    const platform = createPlatform({ machines: [{ cores: 2 }] });
    expect(() =>
      backfillPass(
        {
          now: 0,
          platform,
          running: [],
          queue: [{ id: 1, cores: 1, estimate: 1 }],
          reservations: [{ id: 1, time: 5 }],
        },
        { policy: "conservative", singleMachine: true },
      ),
    ).toThrow(/state\.reservations\[0\]\.machine is undefined/);
  });
});
