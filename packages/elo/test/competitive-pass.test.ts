import { createPlatform, InvalidInputError } from "@sched/core";
import { describe, expect, it } from "vitest";
import {
  type CompetitiveMemory,
  type CompetitiveState,
  competitivePass,
} from "../src/competitive-pass.js";
import { expectedResult } from "../src/expected-result.js";

const platform = createPlatform({
  machines: [{ speed: 9 }, { speed: 3 }, { speed: 3, cores: 2 }],
  referenceSpeed: 9,
  licenses: [{ name: "cad", copies: 1 }],
});
const base: CompetitiveState = { now: 0, platform, completed: [], queue: [], free: [0, 1, 2] };

/** The field an InvalidInputError names, or "no error". */
function fieldOf(state: unknown, options?: object): string {
  try {
    competitivePass(state as CompetitiveState, options);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidInputError);
    return (e as InvalidInputError).field;
  }
  return "no error";
}

describe("competitivePass", () => {
  it("hand-worked: a win raises the machine's rating by C x (1 - E)", () => {
    // 3 tiers of width 100, base 150: every machine starts in tier 2, equal ratings (index 0 first)
    const options = { tiers: 3, tierWidth: 100, baseRating: 150 };
    const job = { id: 7, cores: 1, estimate: 10 };
    const first = competitivePass({ ...base, queue: [job] }, options);
    expect(first.start).toEqual([{ id: 7, machine: 0 }]);
    expect(first.updates).toEqual([]);
    const second = competitivePass(
      { ...base, now: 10, completed: [{ id: 7, machine: 0 }], memory: first.memory },
      options,
    );
    expect(second.updates).toHaveLength(1);
    const u = second.updates[0];
    expect(u?.machine).toBe(0);
    expect(u?.won).toBe(true); // 90 units in 10 at MAXSPEED 9
    expect(u?.tierBefore).toBe(2);
    const e = expectedResult(2, u?.jobLevel ?? 0);
    expect(u?.expected).toBe(e);
    expect(u?.ratingAfter).toBeCloseTo(150 + 20 * (1 - e), 12); // equation (1), C = 20
    expect(second.snapshot.ratings[0]).toBe(u?.ratingAfter);
  });

  it("counts a job that completes at its start (0 s measured: it ended as it was launched) as a loss", () => {
    const options = { tiers: 3, tierWidth: 100, baseRating: 150 };
    // (a memory is used once: each completion follows a start of its own)
    const at = (now: number) => {
      const first = competitivePass(
        { ...base, queue: [{ id: 7, cores: 1, estimate: 10 }] },
        options,
      );
      expect(first.start).toEqual([{ id: 7, machine: 0 }]);
      return competitivePass(
        { ...base, now, completed: [{ id: 7, machine: 0 }], memory: first.memory },
        options,
      ).updates[0]!;
    };
    expect(at(0)).toMatchObject({ won: false, elapsed: 0 });
    expect(at(0).ratingAfter).toBeLessThan(150);
    // the least time that measures anything is a win on the fastest machine
    expect(at(Number.MIN_VALUE)).toMatchObject({ won: true, elapsed: Number.MIN_VALUE });
  });

  it("rejects what no machine can run, and leaves a job whose license is taken waiting", () => {
    const d = competitivePass({
      ...base,
      queue: [
        { id: 1, cores: 3, estimate: 5 },
        { id: 2, cores: 1, estimate: 5, licenses: { cad: 1 } },
        { id: 3, cores: 1, estimate: 5, licenses: { cad: 1 } },
        { id: 4, cores: 2, estimate: 5 },
      ],
    });
    expect(d.rejected.map((r) => r.id)).toEqual([1]);
    expect(d.start.map((s) => s.id)).toEqual([2, 4]);
    expect(d.start[1]?.machine).toBe(2);
    const again = competitivePass({
      ...base,
      queue: [{ id: 3, cores: 1, estimate: 5, licenses: { cad: 1 } }],
      free: [1],
      memory: d.memory,
    });
    expect(again.start).toEqual([]); // job 2 still holds the only copy
  });

  it("starts a job needing a floating license only where the license is usable", () => {
    // `cad` may be used on machine 1 only; machine 0 (tried first: equal ratings) cannot run it
    const restricted = createPlatform({
      machines: [{ speed: 9 }, { speed: 9 }],
      referenceSpeed: 9,
      licenses: [{ name: "cad", copies: 2, machines: [1] }],
    });
    const job = { id: 1, cores: 1, estimate: 10, licenses: { cad: 1 } };
    const state = { now: 0, platform: restricted, completed: [], free: [0, 1] };
    expect(competitivePass({ ...state, queue: [job] }).start).toEqual([{ id: 1, machine: 1 }]);
    // with machine 1 busy, it waits rather than take machine 0
    const waits = competitivePass({ ...state, queue: [job], free: [0] });
    expect(waits.start).toEqual([]);
    expect(waits.rejected).toEqual([]);
  });

  it("takes a job queued again after its completion (same id) as a new arrival", () => {
    const one = createPlatform({ machines: [{ speed: 9 }], referenceSpeed: 9 });
    const state = { platform: one, free: [0] };
    const first = competitivePass({
      ...state,
      now: 0,
      completed: [],
      queue: [{ id: 1, cores: 1, estimate: 10 }],
    });
    expect(first.start).toEqual([{ id: 1, machine: 0 }]);
    const done = competitivePass({
      ...state,
      now: 10,
      completed: [{ id: 1, machine: 0 }],
      queue: [],
      memory: first.memory,
    });
    // id 1 again, now asking more cores than the machine has: rejected, as a first arrival is
    const again = competitivePass({
      ...state,
      now: 20,
      completed: [],
      queue: [{ id: 1, cores: 2, estimate: 10 }],
      memory: done.memory,
    });
    expect(again.start).toEqual([]);
    expect(again.rejected.map((r) => r.id)).toEqual([1]);
  });

  it("throws a typed error naming the state field", () => {
    expect(fieldOf(null)).toBe("state");
    expect(fieldOf({ ...base, now: Number.NaN })).toBe("state.now");
    expect(fieldOf({ ...base, free: [0, 3] })).toBe("state.free[1]");
    expect(fieldOf({ ...base, free: [1, 1] })).toBe("state.free[1]");
    expect(fieldOf({ ...base, queue: [{ id: 1, cores: 1, estimate: 0 }] })).toBe(
      "state.queue[0].estimate",
    );
    expect(fieldOf({ ...base, queue: [{ id: 1, cores: 1.5, estimate: 1 }] })).toBe(
      "state.queue[0].cores",
    );
    expect(fieldOf({ ...base, queue: [1, 1].map((id) => ({ id, cores: 1, estimate: 1 })) })).toBe(
      "state.queue[1].id",
    );
    expect(fieldOf({ ...base, completed: [{ id: 9, machine: 0 }] })).toBe("state.completed[0].id");
    expect(fieldOf({ ...base, freeLicenses: { cad: -1 } })).toBe("state.freeLicenses.cad");
    expect(fieldOf({ ...base, freeLicenses: { gpu: 1 } })).toBe("state.freeLicenses.gpu");
    expect(fieldOf({ ...base, memory: { kind: "competitive-memory" } })).toBe("state.memory");
    expect(fieldOf(base, { levelScale: "cubic" })).toBe("options.levelScale");
    expect(fieldOf(base, { tierSearch: "sideways" as never })).toBe("options.tierSearch");
    expect(fieldOf(base, null as never)).toBe("options"); // a TypeError before
    const d = competitivePass({ ...base, queue: [{ id: 1, cores: 1, estimate: 1 }] });
    expect(fieldOf({ ...base, completed: [{ id: 1, machine: 2 }], memory: d.memory })).toBe(
      "state.completed[0].machine",
    );
    expect(fieldOf({ ...base, memory: d.memory }, { tiers: 3 })).toBe("options");
    expect(fieldOf({ ...base, memory: d.memory })).toBe("state.free"); // job 1 runs on 0
    expect(fieldOf({ ...base, queue: [{ id: 1, cores: 1, estimate: 1 }], memory: d.memory })).toBe(
      "state.queue[0].id",
    );
    const twice = [0, 0].map(() => ({ id: 1, machine: 0 }));
    expect(fieldOf({ ...base, completed: twice, memory: d.memory })).toBe("state.completed[1].id");
    const other = createPlatform({ machines: [{ speed: 1 }] });
    expect(fieldOf({ ...base, platform: other, free: [0], memory: d.memory })).toBe(
      "state.platform",
    );
    competitivePass({ ...base, free: [1, 2], memory: d.memory });
    expect(fieldOf({ ...base, free: [1, 2], memory: d.memory })).toBe("state.memory"); // used once
  });

  it("a job not ready yet: wakeAt is the earliest ready time to come, and it starts at that call", () => {
    const queue = [
      { id: 1, cores: 1, estimate: 10, ready: 50 },
      { id: 2, cores: 1, estimate: 10, ready: 30 },
      { id: 3, cores: 1, estimate: 10, ready: 0 },
      { id: 4, cores: 5, estimate: 10, ready: 20 }, // no machine has 5 cores: rejected
    ];
    const d = competitivePass({ ...base, queue });
    expect(d.start).toEqual([{ id: 3, machine: 0 }]);
    expect(d.rejected.map((r) => r.id)).toEqual([4]);
    expect(d.wakeAt).toBe(30);
    const at30 = competitivePass({
      ...base,
      now: 30,
      queue: queue.slice(0, 2),
      free: [1, 2],
      memory: d.memory,
    });
    expect(at30.start).toEqual([{ id: 2, machine: 1 }]);
    expect(at30.wakeAt).toBe(50);
    const at50 = competitivePass({
      ...base,
      now: 50,
      queue: queue.slice(0, 1),
      free: [2],
      memory: at30.memory,
    });
    expect(at50.start).toEqual([{ id: 1, machine: 2 }]);
    expect(Object.keys(at50).sort()).toEqual([
      "memory",
      "rejected",
      "snapshot",
      "start",
      "updates",
    ]);
  });

  // A user trial: `redy: 5` was ignored and the job started at 0.
  it("refuses a misspelt field of a queued job or completion; keeps the caller's own fields", () => {
    const job = { id: 1, cores: 1, estimate: 10 };
    expect(competitivePass({ ...base, queue: [{ ...job, ready: 5 }] }).start).toEqual([]);
    expect(() => competitivePass({ ...base, queue: [{ ...job, redy: 5 } as never] })).toThrow(
      "@sched/elo/competitivePass: state.queue[0].redy is not a field (did you mean `ready`?)",
    );
    expect(fieldOf({ ...base, queue: [{ ...job, licences: { cad: 1 } }] })).toBe(
      "state.queue[0].licences",
    );
    const first = competitivePass({ ...base, queue: [job] });
    expect(
      fieldOf({
        ...base,
        now: 10,
        completed: [{ id: 1, Machine: 0 }],
        memory: first.memory,
      }),
    ).toBe("state.completed[0].Machine");
    const mine = { user: "ana", state: "PENDING", partition: "batch" };
    expect(competitivePass({ ...base, queue: [{ ...job, ...mine }] }).start).toEqual(
      competitivePass({ ...base, queue: [job] }).start,
    );
  });

  it("a job queued again in the call that lists its completion is a new arrival (a resubmission), as one call later", () => {
    const job = { id: 1, cores: 1, estimate: 10 };
    const other = { id: 2, cores: 1, estimate: 30 };
    const first = competitivePass({ ...base, queue: [job, other] });
    expect(first.start).toEqual([
      { id: 1, machine: 0 },
      { id: 2, machine: 1 },
    ]);
    // together: machine 0 is free again and job 1 is queued again at once
    const together = competitivePass({
      ...base,
      now: 12,
      completed: [{ id: 1, machine: 0 }],
      queue: [job],
      free: [0, 2],
      memory: first.memory,
    });
    // apart: the completion, then the resubmission at the same instant
    const done = competitivePass({
      ...base,
      now: 12,
      completed: [{ id: 1, machine: 0 }],
      free: [0, 2],
      memory: competitivePass({ ...base, queue: [job, other] }).memory,
    });
    const again = competitivePass({
      ...base,
      now: 12,
      queue: [job],
      free: [0, 2],
      memory: done.memory,
    });
    expect(together.updates).toEqual(done.updates);
    expect(together.start).toEqual(again.start);
    expect(together.start).toHaveLength(1);
    expect(together.snapshot).toEqual(again.snapshot);
    // still running (no completion listed): refused, naming the queue entry
    expect(() =>
      competitivePass({ ...base, now: 13, queue: [other], free: [], memory: together.memory }),
    ).toThrow(
      "@sched/elo/competitivePass: state.queue[0].id is 2, a job this chain started that is still running (a resubmission goes with its completion in state.completed)",
    );
  });

  it("a completion given without state.memory says the memory is missing", () => {
    const d = competitivePass({ ...base, queue: [{ id: 1, cores: 1, estimate: 10 }] });
    expect(() => competitivePass({ ...base, now: 12, completed: [{ id: 1, machine: 0 }] })).toThrow(
      "@sched/elo/competitivePass: state.completed[0].id is 1, not a running job this chain started: state.memory is not given, so this call starts a chain with no job running (give each call the previous decision's memory)",
    );
    // with the memory, an id the chain never started is named without that hint
    expect(() =>
      competitivePass({ ...base, now: 12, completed: [{ id: 7, machine: 0 }], memory: d.memory }),
    ).toThrow(/state\.completed\[0\]\.id is 7, not a running job this chain started$/);
  });

  it("refuses a clock that went backwards since the memory's call, and the memory stays usable", () => {
    // Job 1 starts on machine 0 at 12; a completion reported at 5 would be measured as taking
    // -7 s and rated as a win.
    const d = competitivePass({ ...base, now: 12, queue: [{ id: 1, cores: 1, estimate: 10 }] });
    const back = { ...base, now: 5, completed: [{ id: 1, machine: 0 }], memory: d.memory };
    expect(fieldOf(back)).toBe("state.now");
    expect(() => competitivePass(back)).toThrow(
      "@sched/elo/competitivePass: state.now is 5, before the time of the call that returned state.memory (12): the clock went backwards",
    );
    const same = competitivePass({ ...back, now: 12 }); // the same instant is fine
    expect(same.updates.map((u) => u.elapsed)).toEqual([0]);
  });

  it("memory may hold undefined (a first call), as a loop's variable does before it", () => {
    const none = (): CompetitiveMemory | undefined => undefined;
    const state = { ...base, queue: [{ id: 1, cores: 1, estimate: 1 }] };
    expect(competitivePass({ ...state, memory: none() }).start).toEqual(
      competitivePass(state).start,
    );
  });

  it("same state, same decision", () => {
    const state = { ...base, queue: [3, 1, 2].map((id) => ({ id, cores: 1, estimate: id * 7 })) };
    expect(competitivePass(state)).toEqual(competitivePass(state));
  });
});
