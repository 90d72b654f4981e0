import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import { imfs, mfs, mis } from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const input = () => ({ rows: 3, cols: 3, weights: [9, 8, 0, 8, 0, 0, 0, 7, 1] });
const cases: FuzzCase[] = [
  {
    name: "@sched/matching/mfs",
    params: ["matrix"],
    args: () => [input()],
    call: (m) => mfs(m as never),
  },
  {
    name: "@sched/matching/mis",
    params: ["matrix"],
    args: () => [input()],
    call: (m) => mis(m as never),
  },
  {
    name: "@sched/matching/imfs",
    params: ["matrix", "previous", "options"],
    opaque: ["previous"],
    args: () => [
      { rows: 3, cols: 3, weights: [9, 8, 0, 0, 7, 1, 0, 0, 5] },
      mfs(input()),
      { rowOrigin: [0, 2, -1], colOrigin: [0, 1, 2] },
    ],
    call: (m, p, o) => imfs(m as never, p as never, o as never),
  },
];

describe("options fuzz: @sched/matching ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
