import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers.js";

describe("sched-sim reproduce --params / --set / --vary", () => {
  it("--params lists every knob of convergent: the heuristics' constants, workload parameters, readings, and the policies' options", async () => {
    const r = await cli("reproduce", "convergent", "--params");
    expect(r.code, r.stderr).toBe(0);
    for (const name of [
      "antiAging",
      "deadlineMax",
      "deadlineK",
      "licenseWeight",
      "inputWeight",
      "waitWeight",
      "overheadPreemptive",
      "overheadNonPreemptive",
      "interArrival",
      "jobs",
      "machines",
      "licenses",
      "deadlineSlackMin",
      "baselineExclusive",
      "knapsack",
      "cs-ip.antiAging",
      "easy.machineOrder",
    ]) {
      expect(r.stdout, name).toMatch(new RegExp(`^  ${name.replace(".", "\\.")}\\s`, "m"));
    }
    expect(r.stdout).toMatch(
      /antiAging\s+Anti-aging: AA .* Default 0\.02; .* Source:\s+paper §6, footnote 1/s,
    );
    const quick = await cli("reproduce", "convergent", "--params", "--quick");
    expect(quick.stdout).toMatch(/^ {2}jobs\s+Jobs per run\. Default 300;/m);
  });

  it("--params says how many seeds a point runs by default, with and without --quick", async () => {
    const full = await cli("reproduce", "ar-load", "--params");
    expect(full.stdout).toMatch(/^ar-load: parameters; seeds 1\.\.5 per point unless --seeds N\n/);
    const quick = await cli("reproduce", "ar-load", "--params", "--quick");
    expect(quick.stdout).toMatch(
      /^ar-load: parameters \(--quick defaults\); seeds 1\.\.2 per point unless --seeds N\n/,
    );
  });

  it("--params tells the scheduler's own default apart from the value the experiment gives", async () => {
    const r = await cli("reproduce", "ar-load", "--params");
    // ar(policy=PE_B).policy: the experiment gives PE_B, the scheduler's own default is FF
    const block = r.stdout.slice(r.stdout.indexOf("  ar(policy=PE_B).policy"));
    expect(block).toMatch(
      /^ {2}ar\(policy=PE_B\)\.policy\s+Allocation policy \(scheduler default FF\)/,
    );
    expect(block.slice(0, block.indexOf("Source:"))).toMatch(/Default PE_B;/);
    expect(block.slice(0, block.indexOf("Source:"))).not.toMatch(/\(default FF\)/);
  });

  it("the readings waitSup (convergent), clusterSelection, clusterProximity and dynamicAllotment (space-sharing) and tierSearch (elo) are listed, and a bad value exits 2 naming the choices", async () => {
    const conv = await cli("reproduce", "convergent", "--params");
    expect(conv.stdout).toMatch(
      /^ {2}waitSup\s+Wait minimization, SupRemaining .*Default global; one of\s+global, row\./ms,
    );
    const ss = await cli("reproduce", "space-sharing", "--params");
    expect(ss.stdout).toMatch(
      /^ {2}clusterSelection\s+The dynamic policy's cluster .*Default fastest;/ms,
    );
    const badSup = await cli("reproduce", "convergent", "--quick", "--set", "waitSup=job");
    expect(badSup.code).toBe(2);
    expect(badSup.stderr).toContain("--set waitSup=job: expected one of global, row, got 'job'");
    expect(ss.stdout).toMatch(
      /^ {2}dynamicAllotment\s+Processors the dynamic policy gives .*Default pool;/ms,
    );
    const badAllot = await cli("reproduce", "space-sharing", "--set", "dynamicAllotment=all");
    expect(badAllot.code).toBe(2);
    expect(badAllot.stderr).toContain(
      "--set dynamicAllotment=all: expected one of pool, target, got 'all'",
    );
    const badCluster = await cli(
      "reproduce",
      "space-sharing",
      "--vary",
      "clusterSelection=fastest,near",
    );
    expect(badCluster.code).toBe(2);
    expect(badCluster.stderr).toContain(
      "expected one of fastest, best-fit, lowest-index, got 'near'",
    );
    expect(ss.stdout).toMatch(
      /^ {2}clusterProximity\s+How the dynamic policy spreads a job no cluster can hold .*Default line;/ms,
    );
    const badProximity = await cli(
      "reproduce",
      "space-sharing",
      "--vary",
      "clusterProximity=line,ring",
    );
    expect(badProximity.code).toBe(2);
    expect(badProximity.stderr).toContain(
      "expected one of line, fewest-clusters, fastest, got 'ring'",
    );
    const elo = await cli("reproduce", "elo-stream", "--params");
    expect(elo.stdout).toMatch(/^ {2}tierSearch\s+The 'next best tier' .*Default faster-first;/ms);
    const badTier = await cli("reproduce", "elo", "--set", "tierSearch=up");
    expect(badTier.code).toBe(2);
    expect(badTier.stderr).toContain(
      "--set tierSearch=up: expected one of faster-first, slower-first, nearest, got 'up'",
    );
  });

  it("-q is refused (it meant --quick here, --quiet in sweep and worker): nothing runs", async () => {
    const r = await cli("reproduce", "fcfs-load", "-q", "--params");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "sched-sim: reproduce: option -q is not taken: it was short for --quick here but is short for --quiet in sweep and worker; give --quick or --quiet; see 'sched-sim reproduce --help'\n",
    );
    expect(r.stdout).toBe("");
  });

  it("an unknown name or an ill-typed value exits 2, naming it and listing the valid names", async () => {
    const unknown = await cli("reproduce", "convergent", "--quick", "--set", "noSuchKnob=1");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /reproduce: option --set noSuchKnob=1: unknown parameter 'noSuchKnob'; valid names: interArrival, jobs, .*antiAging/,
    );
    const typo = await cli("reproduce", "convergent", "--set", "antiAgin=0");
    expect(typo.stderr).toContain("(did you mean antiAging?)");
    const bad = await cli("reproduce", "convergent", "--set", "antiAging=lots");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--set antiAging=lots: expected a number, got 'lots'");
    const range = await cli("reproduce", "convergent", "--set", "noDeadline=1.5");
    expect(range.stderr).toContain("expected a number >= 0 and <= 1, got '1.5'");
    const both = await cli("reproduce", "fcfs-load", "--set", "jobs=10", "--vary", "jobs=10,20");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("parameter 'jobs' is both set and varied");
    const cross = await cli("reproduce", "convergent", "--set", "estimateMin=4000");
    expect(cross.code).toBe(2);
    expect(cross.stderr).toContain("estimateMin (4000) must not exceed estimateMax (3000)");
    const noEq = await cli("reproduce", "convergent", "--set", "antiAging");
    expect(noEq.code).toBe(2);
  });

  it("a parameter set twice or varied twice, or a word without NAME=, exits 2 naming the option and the word", async () => {
    const said = async (...words: string[]) => {
      const r = await cli("reproduce", "fcfs-load", ...words);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      return r.stderr;
    };
    expect(await said("--set", "jobs=10", "--set", "jobs=20")).toContain(
      "reproduce: option --set jobs=20: 'jobs' set twice\n",
    );
    expect(await said("--vary", "jobs=10,20", "--vary", "jobs=30")).toContain(
      "reproduce: option --vary jobs=30: 'jobs' varied twice\n",
    );
    const params = "; see 'sched-sim reproduce fcfs-load --params'\n";
    expect(await said("--set", "=10")).toContain(
      `reproduce: option --set =10: expected NAME=VALUE${params}`,
    );
    expect(await said("--vary", "=10,20")).toContain(
      `reproduce: option --vary =10,20: expected NAME=VALUES (comma-separated)${params}`,
    );
    expect(await said("--set", "jobs")).toContain(
      `reproduce: option --set jobs: expected NAME=VALUE${params}`,
    );
  });

  it("--set antiAging=0 changes convergent's results; the output directory records the value, and a resume with another value is refused", async () => {
    const base = await tempDir();
    const changed = await tempDir();
    // a small contended farm: 40 machines, 8 licences, 80 jobs every 4 s
    const args = [
      ...["reproduce", "convergent", "--quick", "--set", "interArrival=4", "--set", "jobs=80"],
      ...["--set", "machines=40", "--set", "licenses=8", "--set", "interArrivalScale=1"],
      ...["--seeds", "1", "--quiet"],
    ];
    const a = await cli(...args, "--out", base);
    expect(a.code, a.stderr).toBe(0);
    const b = await cli(...args, "--set", "antiAging=0", "--out", changed);
    expect(b.code, b.stderr).toBe(0);
    const csv = (dir: string) => readFile(join(dir, "results.csv"), "utf8");
    const [x, y] = [await csv(base), await csv(changed)];
    expect(x.split("\n")[0]).toBe("scheduler,interArrival,metric,mean,ci95,runs");
    expect(y).not.toBe(x);
    // the baselines do not use anti-aging: EASY's rows are the same
    const easyRows = (t: string) => t.split("\n").filter((l) => l.startsWith("easy,"));
    expect(easyRows(y)).toEqual(easyRows(x));
    const plan = JSON.parse(await readFile(join(changed, "experiment.json"), "utf8")).plan;
    expect(plan.source.parameters.antiAging).toBe(0);
    expect(plan.source.parameters.deadlineMax).toBe(10);
    const resumed = await cli(...args, "--set", "antiAging=0.5", "--out", changed);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain("holds results of a different experiment");
  }, 60_000);

  it("--vary adds a parameter as a grid axis: a column of results.csv and runs.csv", async () => {
    const dir = await tempDir();
    const r = await cli(
      "reproduce",
      "fcfs-load",
      "--quick",
      "--seeds",
      "1",
      "--set",
      "jobs=200",
      "--vary",
      "load=0.4",
      "--vary",
      "procs=64,128",
      "--out",
      dir,
      "--quiet",
    );
    expect(r.code, r.stderr).toBe(0);
    // the printed results say which readings produced them (before: only compare said it)
    expect(r.stdout).toContain(
      "\nparameters of 'fcfs-load' (--quick): defaults except jobs=200 (default 1000); swept: load=0.4; procs=64,128\n",
    );
    const lines = (await readFile(join(dir, "results.csv"), "utf8")).trimEnd().split("\n");
    expect(lines[0]).toBe("scheduler,load,procs,metric,mean,ci95,runs");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toContain("easy,0.4,64");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 3).join(","))).toContain("easy,0.4,128");
    const runs = await readFile(join(dir, "runs.csv"), "utf8");
    expect(runs.split("\n")[0]).toBe("key,scheduler,load,procs,seed,metric,value,events,decisions");
  });

  it("an experiment file names a registry experiment and sets and varies its parameters like the command line", async () => {
    const dir = await tempDir();
    const file = join(dir, "exp.json");
    await writeFile(
      file,
      JSON.stringify({
        name: "small-load",
        experiment: "fcfs-load",
        quick: true,
        set: { jobs: 200 },
        grid: { load: [0.3], procs: [32, 64] },
        seeds: 1,
        schedulers: ["easy"],
      }),
    );
    const out = join(dir, "out");
    const r = await cli("sweep", file, "--out", out, "--quiet");
    expect(r.code, r.stderr).toBe(0);
    const lines = (await readFile(join(out, "results.csv"), "utf8")).trimEnd().split("\n");
    expect(lines[0]).toBe("scheduler,load,procs,metric,mean,ci95,runs");
    expect(new Set(lines.slice(1).map((l) => l.split(",")[0]))).toEqual(new Set(["easy"]));
    // the same runs as the command line's
    const cliOut = join(dir, "cli");
    const c = await cli(
      "reproduce",
      "fcfs-load",
      "--quick",
      "--seeds",
      "1",
      "--set",
      "jobs=200",
      "--vary",
      "load=0.3",
      "--vary",
      "procs=32,64",
      "--out",
      cliOut,
      "--quiet",
    );
    expect(c.code, c.stderr).toBe(0);
    const easy = (t: string) => t.split("\n").filter((l) => l.startsWith("easy,"));
    expect(easy(await readFile(join(cliOut, "results.csv"), "utf8"))).toEqual(
      easy(await readFile(join(out, "results.csv"), "utf8")),
    );
    for (const [doc, message] of [
      [{ name: "x", experiment: "convergnt" }, "experiment: expected one of"],
      [{ name: "x", experiment: "convergent", set: { nope: 1 } }, "unknown parameter 'nope'"],
      [
        { name: "x", experiment: "convergent", set: { antiAging: "0" } },
        "set.antiAging: expected a number",
      ],
      [
        { name: "x", experiment: "convergent", workload: {} },
        'workload: unknown key with "experiment"',
      ],
      [{ name: "x", experiment: "convergent", schedulers: ["cs-zz"] }, "has no scheduler 'cs-zz'"],
    ] as const) {
      await writeFile(file, JSON.stringify(doc));
      const bad = await cli("sweep", file, "--out", join(dir, "bad"));
      expect(bad.code, JSON.stringify(doc)).toBe(2);
      expect(bad.stderr).toContain(message);
    }
  });
});
