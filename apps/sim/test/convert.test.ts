import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";

describe("sched-sim convert", () => {
  it("swf -> batsim: delay profiles shared by run time, walltime = requested, nb_res from the header", async () => {
    const r = await cli("convert", fixture("small.swf"), "--clean", "--to", "batsim");
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      nb_res: number;
      jobs: { id: number; subtime: number; walltime: number; res: number; profile: string }[];
      profiles: Record<string, { type: string; delay: number }>;
    };
    expect(doc.nb_res).toBe(8);
    expect(doc.jobs.map((j) => j.id)).toEqual([1, 2, 3, 4, 5, 7]);
    expect(doc.jobs[0]).toEqual({ id: 1, subtime: 0, walltime: 200, res: 4, profile: "delay100" });
    // job 7 ran 90 s past its 60 s request: the clean-up capped it at 60
    expect(doc.jobs[5]).toEqual({ id: 7, subtime: 60, walltime: 60, res: 2, profile: "delay60" });
    expect(doc.profiles.delay60).toEqual({ type: "delay", delay: 60 });
    expect(Object.keys(doc.profiles)).toHaveLength(6);
    expect(r.stderr).toContain(
      "the batsim format cannot hold these job fields, dropped: group, user",
    );
  });

  it("swf -> batsim -> swf -> native round trip keeps every job's submit, run time, estimate and size", async () => {
    const dir = await tempDir();
    const b = join(dir, "w.json");
    const s = join(dir, "w.swf");
    const n = join(dir, "w.jsonl");
    expect(
      (await cli("convert", fixture("small.swf"), "--clean", "--to", "batsim", "--out", b)).code,
    ).toBe(0);
    // --to inferred from the --out name (.swf -> swf)
    expect((await cli("convert", b, "--out", s)).code).toBe(0);
    const swf = await readFile(s, "utf8");
    expect(swf).toMatch(/^; MaxProcs: 8$/m);
    expect((await cli("convert", s, "--to", "native", "--out", n)).code).toBe(0);
    const lines = (await readFile(n, "utf8")).trimEnd().split("\n");
    expect(JSON.parse(lines[0] as string).format).toBe("@sched/jobs");
    const jobs = lines.slice(1).map((l) => JSON.parse(l) as Record<string, number>);
    expect(jobs.map((j) => [j.id, j.submit, j.runtime, j.estimate, j.cores])).toEqual([
      [1, 0, 100, 200, 4],
      [2, 10, 50, 100, 4],
      [3, 20, 30, 60, 2],
      [4, 30, 10, 20, 1],
      [5, 40, 20, 40, 8],
      [7, 60, 60, 60, 2],
    ]);
    // native -> batsim gives the same bytes as swf -> batsim
    const again = await cli("convert", n, "--to", "batsim");
    expect(again.stdout).toBe(await readFile(b, "utf8"));
  });

  it("a native job SWF cannot hold (a negative user): exit 1 in convert's words, the file, the job and the field, nothing written", async () => {
    const dir = await tempDir();
    const input = join(dir, "neg-user.jsonl");
    const out = join(dir, "neg-user.swf");
    await writeFile(
      input,
      [
        '{"format":"@sched/jobs","version":1}',
        '{"id":1,"submit":0,"runtime":10,"estimate":20,"cores":1,"user":3}',
        '{"id":2,"submit":5,"runtime":10,"estimate":20,"cores":1,"user":-1}',
        "",
      ].join("\n"),
    );
    for (const args of [
      ["--to", "swf"],
      ["--out", out],
    ]) {
      const r = await cli("convert", input, ...args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      // (Before: `sched-sim: @sched/workload/jobsToSwf: job 2 user is -1, ...`, library words.)
      expect(r.stderr).toBe(
        `sched-sim: convert: ${input} job 2 user: is -1, expected an integer >= 0: SWF's user id (field 12) holds no other (-1 there means unknown) (--to swf cannot write this job)\n`,
      );
    }
    await expect(readFile(out, "utf8")).rejects.toThrow(/ENOENT/);
  });

  it("bad input: exit 2 for usage, exit 1 naming the job for a workload Batsim profiles cannot express", async () => {
    const dir = await tempDir();
    const bad = join(dir, "bad.json");
    await writeFile(
      bad,
      JSON.stringify({
        nb_res: 4,
        jobs: [{ id: 1, subtime: 0, walltime: 10, res: 1, profile: "p" }],
        profiles: { p: { type: "parallel_homogeneous", cpu: 1e9, com: 0 } },
      }),
    );
    const r = await cli("convert", bad, "--to", "swf");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `sched-sim: convert: ${bad} profiles["p"].type: is "parallel_homogeneous"; only "delay" profiles have a run time of their own\n`,
    );
    const cases: [string[], string][] = [
      [["convert", fixture("small.swf")], "give --to swf|native|batsim"],
      [
        ["convert", fixture("small.swf"), "--out", join(dir, "out.txt")],
        "cannot tell the output format from the name",
      ],
      [
        ["convert", fixture("small.swf"), "--to", "xml"],
        "option --to must be one of swf, native, batsim, got 'xml'",
      ],
      [["convert", join(dir, "trace.txt"), "--to", "swf"], "cannot tell the format of"],
      [["convert", join(dir, "nope.swf"), "--to", "batsim"], "cannot read"],
      [["convert", bad, "--to", "swf", "--clean"], "--clean applies to SWF input only"],
      [
        ["convert", fixture("small.jsonl"), "--to", "swf", "--clean"],
        "--clean applies to SWF input only",
      ],
      [
        ["convert", bad, "--to", "swf", "--estimate", "runtime"],
        "--estimate applies to SWF input only",
      ],
      [
        ["convert", fixture("small.jsonl"), "--to", "swf", "--estimate", "runtime"],
        "--estimate applies to SWF input only",
      ],
    ];
    for (const [argv, message] of cases) {
      const c = await cli(...argv);
      expect(c.code, argv.join(" ")).toBe(2);
      expect(c.stderr).toContain(message);
    }
  });
});
