import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Scheduler } from "@sched/core";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { SchedulerChoice } from "../src/schedulers.js";
import { cli, fixture, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

// `demo` runs the compared policies and a sweep the registry's: neither takes a policy module,
// so these tests put the fixtures' policies (test/fixtures/policies) in the registry's place: a
// demo's list of policies, and a sweep's registry names (checked by the experiment file's loader
// as ever) that the run resolves to a fixture.
const state = vi.hoisted(() => ({ demo: null as readonly string[] | null }));

/** The sweep's scheduler (name and --opt words) -> the fixture its runs use. */
const SWEEP_FIXTURES: Readonly<Record<string, string>> = {
  easy: "idle",
  "easy order=sjf": "partial",
  conservative: "wait-timer",
};

vi.mock("../src/schedulers.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/schedulers.js")>();
  const load = async (name: string): Promise<() => Scheduler> => {
    const url = new URL(`./fixtures/policies/${name}.mjs`, import.meta.url).href;
    const d = ((await import(url)) as { default: Scheduler | (() => Scheduler) }).default;
    return typeof d === "function" ? d : () => d;
  };
  const fixtures = new Map<string, () => Scheduler>();
  for (const name of ["idle", "partial", "wait-timer"]) fixtures.set(name, await load(name));
  const fixture = (name: string): SchedulerChoice => ({
    entry: { name, description: `fixture ${name}`, options: [], create: fixtures.get(name)! },
    options: {},
    label: name,
  });
  return {
    ...real,
    chooseScheduler: (name: string, opts: readonly string[], command: string) => {
      const f = SWEEP_FIXTURES[[name, ...opts].join(" ")];
      return f === undefined ? real.chooseScheduler(name, opts, command) : fixture(f);
    },
    comparedSchedulers: () =>
      state.demo === null
        ? real.comparedSchedulers()
        : state.demo.map((n) =>
            fixtures.has(n) ? fixture(n) : real.comparedSchedulers().find((c) => c.label === n)!,
          ),
  };
});

beforeEach(() => {
  state.demo = null;
});

const WHAT_TO_DO =
  "the run ended with them waiting and nothing left to happen (no arrival, completion or timer), so they would never start. A policy must start or reject every job it is given; one that waits for a time must set a timer (ctx.wakeAt) to be called again then";

describe("sched-sim demo: a policy that loses jobs fails the demo", () => {
  it("a policy that starts nothing: exit 1 naming it, no table", async () => {
    state.demo = ["fcfs", "idle"];
    const r = await cli("demo", "--jobs", "40", "--procs", "16");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `sched-sim: demo: policy "idle" left 40 of the 40 jobs unfinished (ids 1, 2, 3, 4, 5, ...): ${WHAT_TO_DO}\n`,
    );
  });

  it("a policy that starts jobs 1 and 2 only: the 38 others", async () => {
    state.demo = ["partial"];
    const r = await cli("demo", "--jobs", "40", "--procs", "16");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^sched-sim: demo: policy "partial" left 38 of the 40 jobs unfinished \(ids 3, 4, 5, 6, 7, \.\.\.\): /,
    );
  });

  it("a policy that waits on a timer passes", async () => {
    state.demo = ["wait-timer", "fcfs"];
    const r = await cli("demo", "--jobs", "40", "--procs", "16");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\nwait-timer\s+40\s/);
  });
});

describe("sched-sim sweep: a run that loses jobs is a failed run", () => {
  it("fails with the reason, exit 1, shown by compare --missing; the timer-waiting policy passes", async () => {
    const file = await writeExperiment({
      name: "lost",
      workload: { type: "synthetic", jobs: 30 },
      platform: { procs: 16 },
      schedulers: [
        "fcfs",
        { name: "easy", label: "idle" },
        { name: "easy", options: { order: "sjf" }, label: "partial" },
        { name: "conservative", label: "wait-timer" },
      ],
      seeds: 1,
      metrics: ["meanWait"],
    });
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("2 of 4 runs failed:");
    expect(r.stderr).toMatch(
      /\n {2}idle\.s1-[0-9a-f]{8}: run: policy "idle" left 30 of the 30 jobs unfinished \(ids 1, 2, 3, 4, 5, \.\.\.\): the run ended/,
    );
    expect(r.stderr).toMatch(
      /partial\.s1-[0-9a-f]{8}: run: policy "partial" left 28 of the 30 jobs unfinished \(ids 3, 4, 5, 6, 7, \.\.\.\)/,
    );
    expect((await readdir(join(out, "runs"))).sort()).toEqual([
      expect.stringMatching(/^fcfs\.s1-/),
      expect.stringMatching(/^wait-timer\.s1-/),
    ]);
    const failed = await readdir(join(out, "failed"));
    expect(failed).toHaveLength(2);
    const missing = await cli("compare", out, "--missing");
    expect(missing.code).toBe(0);
    const rows = missing.stdout.trim().split("\n");
    expect(rows).toHaveLength(3);
    expect(rows.find((l) => l.startsWith("idle."))).toMatch(
      /,failed,.*policy ""idle"" left 30 of the 30 jobs unfinished/,
    );
    const one = await readFile(join(out, "failed", failed[0]!), "utf8");
    expect(one).toContain("jobs unfinished");
  });

  it("on an SWF trace (streamed from the file, no trace kept): the lost jobs named as well", async () => {
    const file = await writeExperiment({
      name: "lost-swf",
      workload: { type: "swf", path: fixture("small.swf"), clean: true },
      schedulers: [
        "fcfs",
        { name: "easy", options: { order: "sjf" }, label: "partial" },
        { name: "conservative", label: "wait-timer" },
      ],
      seeds: 1,
      metrics: ["meanWait"],
    });
    const out = await tempDir();
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("1 of 3 runs failed:");
    // small.swf --clean: jobs 3, 4, 5 and 7 (job 6 dropped), as `run` names them.
    expect(r.stderr).toMatch(
      /\n {2}partial\.s1-[0-9a-f]{8}: run: policy "partial" left 4 of the 6 jobs unfinished \(ids 3, 4, 5, 7\): the run ended/,
    );
  });
});
