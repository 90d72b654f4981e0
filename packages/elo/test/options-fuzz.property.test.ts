import { createJob, createPlatform, simulate } from "@sched/core";
import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import {
  betaParameters,
  competitivePass,
  competitiveScheduler,
  expectedResult,
  expectedTime,
  isWin,
  jobLevel,
  jobSize,
  maxMin,
  maxMinScheduler,
  mct,
  mctScheduler,
  minMin,
  minMinScheduler,
  randomScheduler,
  TierList,
  tierOf,
  tierPreference,
  tierRange,
  updateRating,
  winCondition,
} from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const platform = () => createPlatform({ machines: [9, 7, 5, 3].map((speed) => ({ speed })) });
const run = (policy: unknown) =>
  simulate(
    Array.from({ length: 6 }, (_, id) =>
      createJob({ id, submit: 20 * id, runtime: 100 + ((id * 37) % 10) * 100, cores: 1 }),
    ),
    platform(),
    policy as never,
  ).records.length;
const problem = () => ({
  tasks: 2,
  machines: 2,
  etc: [1, 2, 3, Number.POSITIVE_INFINITY],
  ready: [0, 1],
});

const cases: FuzzCase[] = [
  {
    name: "@sched/elo/competitiveScheduler",
    params: ["options"],
    args: () => [
      {
        maxSpeed: 9,
        overhead: 0.5,
        levelScale: "linear",
        tierSearch: "nearest",
        tiers: 4,
        tierWidth: 500,
        baseRating: 1250,
        stickyTopTier: true,
        growth: 20,
        minRating: 1,
      },
    ],
    call: (o) => run(competitiveScheduler(o as never)),
  },
  {
    name: "@sched/elo/competitivePass",
    params: ["state", "options"],
    strictKeys: ["state", "options"],
    args: () => [
      {
        now: 0,
        platform: createPlatform({ machines: [{ speed: 9 }, { speed: 3 }], referenceSpeed: 9 }),
        completed: [],
        queue: [{ id: 1, cores: 1, estimate: 10 }],
        free: [0, 1],
      },
      { maxSpeed: 9 },
    ],
    call: (s, o) => competitivePass(s as never, o as never),
  },
  {
    name: "@sched/elo/TierList",
    params: ["machines", "options", "machine", "jobLevel", "won"],
    // zero machines is a valid (empty) list: then record(machine) says so
    names: (place, message) =>
      message.includes(place.split(/[.[]/).pop() ?? place) || message.includes("no machines"),
    args: () => [3, { tiers: 3, tierWidth: 400, baseRating: 1000 }, 1, 2, true],
    call: (n, o, m, l, w) => {
      const t = new TierList(n as never, o as never);
      t.record(m as never, l as never, w as never);
      t.rating(m as never);
      t.tier(m as never);
      t.members(1);
      return t.snapshot();
    },
  },
  {
    name: "@sched/elo/updateRating",
    params: ["rating", "won", "expected", "options"],
    args: () => [1250, true, 0.6, { growth: 20, minRating: 1 }],
    call: (r, w, e, o) => updateRating(r as never, w as never, e as never, o as never),
  },
  {
    name: "@sched/elo/tierOf",
    params: ["rating", "options"],
    args: () => [1250, { tiers: 4, tierWidth: 500 }],
    call: (r, o) => [tierOf(r as never, o as never), tierRange(2, o as never)],
  },
  {
    name: "@sched/elo/tierRange",
    params: ["tier", "options"],
    args: () => [2, { tiers: 4 }],
    call: (t, o) => tierRange(t as never, o as never),
  },
  {
    name: "@sched/elo/jobLevel",
    params: ["options"],
    args: () => [{ size: 50, minSize: 10, maxSize: 100, tiers: 4, scale: "log" }],
    call: (o) => jobLevel(o as never),
  },
  {
    name: "@sched/elo/expectedResult",
    params: ["tierLevel", "jobLevel"],
    args: () => [2, 3],
    call: (t, j) => [
      expectedResult(t as never, j as never),
      betaParameters(t as never, j as never),
    ],
  },
  {
    name: "@sched/elo/isWin",
    params: ["outcome", "options"],
    args: () => [
      { size: 90, elapsed: 12, tierLevel: 2 },
      { maxSpeed: 9, overhead: 1 },
    ],
    call: (out, o) => [isWin(out as never, o as never), winCondition(2, o as never)],
  },
  {
    name: "@sched/elo/mct",
    params: ["problem"],
    args: () => [problem()],
    call: (p) => mct(p as never),
  },
  {
    name: "@sched/elo/minMin",
    params: ["problem"],
    args: () => [problem()],
    call: (p) => minMin(p as never),
  },
  {
    name: "@sched/elo/maxMin",
    params: ["problem"],
    args: () => [problem()],
    call: (p) => maxMin(p as never),
  },
  {
    name: "@sched/elo/randomScheduler",
    params: ["options"],
    args: () => [{ seed: 3 }],
    call: (o) => run(randomScheduler(o as never)),
  },
  {
    name: "@sched/elo/minMinScheduler",
    params: ["options"],
    args: () => [{ speeds: [9, 7, 5, 3] }],
    call: (o) => [
      run(minMinScheduler(o as never)),
      run(maxMinScheduler(o as never)),
      run(mctScheduler(o as never)),
    ],
  },
  {
    name: "@sched/elo/expectedTime",
    params: ["job", "machine", "speed"],
    args: () => [createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }), 1, 4],
    fixed: ["job"],
    call: (j, m, sp) => [
      expectedTime(j as never, m as never, platform(), sp as never),
      jobSize(j as never, platform()),
    ],
  },
  {
    name: "@sched/elo/tierPreference",
    params: ["level", "tiers", "search"],
    args: () => [2, 4, "slower-first"],
    call: (l, t, s) => tierPreference(l as never, t as never, s as never),
  },
];

describe("options fuzz: @sched/elo ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
