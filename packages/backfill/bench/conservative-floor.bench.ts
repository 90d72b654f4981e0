import { identicalPool, simulate } from "@sched/core";
import { bench, describe } from "vitest";
import { conservative, easy } from "../src/presets.js";
import { UncheckedProfile } from "../src/profile.js";
import { measure } from "./lublin.js";

// What conservative backfilling's profile changes alone cost, against all of EASY, at load 1.01
// (the workload of bench/conservative-ratio.bench.ts: 100,000 Lublin jobs, seed 2, 256
// processors, arrival factor 1.1). Issue 22 asks for conservative at most 2× EASY per job; this
// bench measures a floor under any compression that re-places the reservations one by one in
// queue order (the classic rule) on this profile structure: the changes it makes to its
// profiles, with no search, no engine and no policy around them.
//
// How: while conservative runs, every change to an UncheckedProfile (`add`, `trimBefore`,
// `load`, `loadSorted`) is recorded with its arguments; a profile seen for the first
// time gets a mirror, a copy of its state then. Every RECORD_OPS changes (and at the end) the
// recorded changes are applied to the mirrors, in order, and only that replay is timed (process
// CPU time, as `measure` times EASY). At the end every mirror must equal its profile, segment for segment, or the bench
// fails: the replay did exactly what the run did. EASY runs before, unpatched, in the same
// process. Prints "[conservative-floor]" lines: EASY's CPU µs per job, the replayed changes'
// µs per job and per change, changes per job, and changes / EASY (2 is the whole budget
// for conservative).

const ROUNDS = 2;
const RECORD_OPS = 1 << 20;
const once = { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 };
const breathe = () => new Promise((resolve) => setTimeout(resolve, 0));
const workload = { jobs: 100_000, procs: 256, seed: 2, arrivalFactor: 1.1, deadlines: false };

type Proto = {
  add(start: number, end: number, delta: number): void;
  trimBefore(t: number): void;
  load(origin: number, free: number, t: ArrayLike<number>, a: ArrayLike<number>, n: number): void;
  loadSorted(
    origin: number,
    free: number,
    t: ArrayLike<number>,
    a: ArrayLike<number>,
    n: number,
  ): void;
  clone(): UncheckedProfile;
};
const proto = UncheckedProfile.prototype as unknown as Proto;
const original = {
  add: proto.add,
  trimBefore: proto.trimBefore,
  load: proto.load,
  loadSorted: proto.loadSorted,
  clone: proto.clone,
};

const ADD = 0;
const TRIM = 1;
const LOAD = 2;
const LOAD_SORTED = 3;

/** Records the changes of every profile and replays them on mirrors, timing the replay only. */
class Recorder {
  readonly index = new Map<UncheckedProfile, number>();
  readonly profiles: UncheckedProfile[] = [];
  readonly mirrors: UncheckedProfile[] = [];
  // op k: code, profile index, three numbers
  private ops = new Float64Array(RECORD_OPS * 5);
  private loads: { t: Float64Array; a: Float64Array }[] = [];
  private count = 0;
  changes = 0;
  replayUs = 0;

  /** The index of `p`, giving it a mirror (a copy of its current state) when first seen. */
  of(p: UncheckedProfile): number {
    let i = this.index.get(p);
    if (i === undefined) {
      i = this.profiles.length;
      this.index.set(p, i);
      this.profiles.push(p);
      this.mirrors.push(original.clone.call(p));
    }
    return i;
  }

  push(code: number, p: UncheckedProfile, x: number, y: number, z: number): void {
    const i = this.of(p);
    const o = this.count * 5;
    this.ops[o] = code;
    this.ops[o + 1] = i;
    this.ops[o + 2] = x;
    this.ops[o + 3] = y;
    this.ops[o + 4] = z;
    this.changes++;
    if (++this.count === RECORD_OPS) this.replay();
  }

  pushLoad(
    sorted: boolean,
    p: UncheckedProfile,
    origin: number,
    free: number,
    t: ArrayLike<number>,
    a: ArrayLike<number>,
    n: number,
  ): void {
    this.loads.push({
      t: Float64Array.from({ length: n }, (_, k) => t[k]!),
      a: Float64Array.from({ length: n }, (_, k) => a[k]!),
    });
    this.push(sorted ? LOAD_SORTED : LOAD, p, origin, free, this.loads.length - 1);
  }

  /** Applies the recorded changes to the mirrors, in order; only this is timed. */
  replay(): void {
    const ops = this.ops;
    const m = this.mirrors;
    const { add, trimBefore, load, loadSorted } = original;
    const t0 = process.cpuUsage();
    for (let k = 0; k < this.count; k++) {
      const o = k * 5;
      const p = m[ops[o + 1]!]!;
      switch (ops[o]) {
        case ADD:
          add.call(p, ops[o + 2]!, ops[o + 3]!, ops[o + 4]!);
          break;
        case TRIM:
          trimBefore.call(p, ops[o + 2]!);
          break;
        case LOAD:
        case LOAD_SORTED: {
          const l = this.loads[ops[o + 4]!]!;
          (ops[o] === LOAD ? load : loadSorted).call(
            p,
            ops[o + 2]!,
            ops[o + 3]!,
            l.t,
            l.a,
            l.t.length,
          );
          break;
        }
      }
    }
    const t = process.cpuUsage(t0);
    this.replayUs += t.user + t.system;
    this.count = 0;
    this.loads = [];
  }

  /** Every mirror equals its profile (throws otherwise). */
  check(): void {
    for (let i = 0; i < this.profiles.length; i++) {
      const a = JSON.stringify(this.profiles[i]!.toArray());
      const b = JSON.stringify(this.mirrors[i]!.toArray());
      if (a !== b) throw new Error(`conservative-floor: mirror ${i} differs from its profile`);
    }
  }
}

/** Runs `f` with every profile change recorded by `r`. */
function recording<T>(r: Recorder, f: () => T): T {
  proto.add = function (this: UncheckedProfile, start: number, end: number, delta: number) {
    r.push(ADD, this, start, end, delta);
    original.add.call(this, start, end, delta);
  };
  proto.trimBefore = function (this: UncheckedProfile, t: number) {
    r.push(TRIM, this, t, 0, 0);
    original.trimBefore.call(this, t);
  };
  proto.load = function (this: UncheckedProfile, origin, free, t, a, n) {
    r.pushLoad(false, this, origin, free, t, a, n);
    original.load.call(this, origin, free, t, a, n);
  };
  proto.loadSorted = function (this: UncheckedProfile, origin, free, t, a, n) {
    r.pushLoad(true, this, origin, free, t, a, n);
    original.loadSorted.call(this, origin, free, t, a, n);
  };
  proto.clone = () => {
    // a copy would be a profile the recorder has not seen: refuse rather than replay wrongly
    throw new Error("conservative-floor: the policy cloned a profile; teach the recorder clones");
  };
  try {
    return f();
  } finally {
    Object.assign(proto, original);
  }
}

describe("conservative's profile changes alone against all of EASY, load 1.01", () => {
  bench(
    `${ROUNDS} rounds`,
    async () => {
      const pool = identicalPool(256);
      for (let round = 1; round <= ROUNDS; round++) {
        await breathe();
        const e = measure(`floor r${round} easy`, workload, pool, easy(), simulate);
        await breathe();
        const r = new Recorder();
        const c = recording(r, () =>
          measure(
            `floor r${round} conservative, recording (not a timing)`,
            workload,
            pool,
            conservative(),
            simulate,
          ),
        );
        r.replay();
        r.check();
        const eu = (e.cpuMs * 1000) / e.jobs;
        const fu = r.replayUs / c.jobs;
        console.log(
          `[conservative-floor] round ${round}: easy ${eu.toFixed(1)} us/job; conservative's ` +
            `profile changes alone ${fu.toFixed(1)} us/job (${(r.changes / c.jobs).toFixed(1)} ` +
            `changes/job, ${((r.replayUs * 1000) / r.changes).toFixed(0)} ns/change, ` +
            `${r.profiles.length} profiles); changes / easy ${(fu / eu).toFixed(2)} ` +
            `(the target allows conservative 2 in all)`,
        );
      }
    },
    once,
  );
});
