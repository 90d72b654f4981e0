import { type FuzzCase, fuzzOptions } from "@sched/tooling/fuzz";
import { describe, it } from "vitest";
import { deriveSeed, indexHash, Random } from "../src/index.js";

// Every public function of the package, called validly, then with one argument, option or field
// made hostile (tooling/fuzz.js): a result or a typed @sched error naming the place, never a raw
// JavaScript error or a silently accepted value of the wrong type. FUZZ_RUNS=n samples more;
// FUZZ_EXHAUSTIVE=1 tries every mutation and lists every defect.
const cases: FuzzCase[] = [
  {
    name: "@sched/random/Random",
    params: ["seed", "name", "stream", "lo", "hi", "p", "mean", "cv", "shape", "scale"],
    args: () => [42, "sizes", "small", 1, 8, 0.5, 600, 2, 2, 3],
    call: (seed, name, stream, lo, hi, p, mean, cv, shape, scale) => {
      const r = new Random(seed as never, name as never).stream(stream as never);
      return [
        r.next(),
        r.uniform(lo as never, hi as never),
        r.integer(lo as never, hi as never),
        r.chance(p as never),
        r.normal(),
        r.exponential(mean as never),
        r.hyperExponential(mean as never, cv as never),
        r.gamma(shape as never, scale as never),
      ];
    },
  },
  {
    name: "@sched/random/deriveSeed",
    params: ["seed", "name"],
    args: () => [42, "run=3"],
    call: (s, n) => deriveSeed(s as never, n as never),
  },
  {
    name: "@sched/random/indexHash",
    params: ["index"],
    args: () => [7],
    call: (i) => indexHash(i as never),
  },
];

describe("options fuzz: @sched/random ends in a result or an error naming the place", () => {
  for (const c of cases) it(c.name, () => fuzzOptions(c));
});
