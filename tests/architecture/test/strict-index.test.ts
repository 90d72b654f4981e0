import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { stripComments, workspacePackages } from "./repo.js";

// `noUncheckedIndexedAccess` makes `a[i]` read as `T | undefined`, so an out-of-range read is
// a type error instead of a silent `undefined`. It is off in tsconfig.base.json while some
// packages still have unchecked reads; the packages below are clean and turn it on in their own
// tsconfig.json. This test keeps them on, and keeps the pending list exact: a package that turns
// the flag on must move to STRICT, and a new package must be placed in one list or the other.

const STRICT = [
  "@sched/advance-reservation",
  "@sched/backfill",
  "@sched/convergent",
  "@sched/core",
  "@sched/elo",
  "@sched/errors",
  "@sched/knapsack",
  "@sched/matching",
  "@sched/multicluster",
  "@sched/random",
  "@sched/sim",
  "@sched/workload",
];

const PENDING: Readonly<Record<string, string>> = {};

interface TsConfig {
  extends?: string;
  compilerOptions?: Record<string, unknown>;
}

/** The value `option` takes in the tsconfig at `file`, following `extends` (relative paths). */
function effectiveOption(file: string, option: string): unknown {
  const config = JSON.parse(stripComments(readFileSync(file, "utf8"))) as TsConfig;
  const own = config.compilerOptions?.[option];
  if (own !== undefined) return own;
  if (config.extends === undefined) return undefined;
  let parent = resolve(dirname(file), config.extends);
  if (!parent.endsWith(".json")) parent += ".json";
  return effectiveOption(parent, option);
}

const flagOf = (dir: string): unknown =>
  effectiveOption(join(dir, "tsconfig.json"), "noUncheckedIndexedAccess");

describe("noUncheckedIndexedAccess", () => {
  const packages = workspacePackages().filter((p) => existsSync(join(p.dir, "tsconfig.json")));

  it("effectiveOption follows extends to the base and lets a package override it", () => {
    const core = packages.find((p) => p.name === "@sched/core");
    expect(core).toBeDefined();
    expect(effectiveOption(join(core!.dir, "tsconfig.json"), "strict")).toBe(true);
    expect(effectiveOption(join(core!.dir, "tsconfig.json"), "noSuchOption")).toBeUndefined();
  });

  it("is on in every package listed as strict", () => {
    const off = STRICT.filter((name) => {
      const pkg = packages.find((p) => p.name === name);
      return pkg === undefined || flagOf(pkg.dir) !== true;
    });
    expect(off).toEqual([]);
  });

  it("every package is listed as strict or pending, and the pending ones are still off", () => {
    const unlisted = packages
      .map((p) => p.name)
      .filter((n) => !STRICT.includes(n) && !(n in PENDING));
    expect(unlisted).toEqual([]);
    const stale = packages.filter((p) => p.name in PENDING && flagOf(p.dir) === true);
    expect(stale.map((p) => p.name)).toEqual([]);
  });
});
