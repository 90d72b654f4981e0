import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { batsimToJobs } from "../src/batsim.js";
import { scanSwfFile } from "../src/fast/swf-scan.js";
import { isInternalError } from "../src/main.js";
import { textLines } from "../src/text-lines.js";
import { UsageError } from "../src/usage-error.js";
import { cli, tempDir } from "./helpers.js";

// The inputs of issue 23 that ended in an internal error, a wrong value accepted or a misleading
// message, each with what it gives now.

const LINE = (id: number, submit: number | string, runtime = 100): string =>
  `${id} ${submit} -1 ${runtime} 1 -1 -1 1 200 -1 1 1 1 -1 -1 -1 -1 -1`;

async function file(name: string, content: string | Buffer): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, content);
  return path;
}

describe("Batsim input (convert)", () => {
  const job = (fields: Record<string, unknown>) => ({
    id: 1,
    subtime: 0,
    walltime: 100,
    res: 1,
    profile: "p",
    ...fields,
  });
  const doc = (jobs: unknown[], extra: Record<string, unknown> = {}) =>
    JSON.stringify({ nb_res: 4, jobs, profiles: { p: { type: "delay", delay: 60 } }, ...extra });
  const cases: [string, string, string][] = [
    ["a null document", "null", "is null, expected a JSON object with nb_res, jobs and profiles"],
    ["null jobs", doc([], { jobs: null }), "jobs: is null, expected an array of jobs"],
    ["a null job", doc([null]), "jobs[0]: is null, expected a job object"],
    [
      "subtime null",
      doc([job({ subtime: null })]),
      "jobs[0].subtime: is null, expected a number >= 0",
    ],
    ["subtime true", doc([job({ subtime: true })]), "jobs[0].subtime: is true, expected a number"],
    ["subtime empty", doc([job({ subtime: "" })]), 'jobs[0].subtime: is "", expected a number'],
    ["res as a string", doc([job({ res: "2" })]), 'jobs[0].res: is "2", expected an integer >= 1'],
    ["res in an array", doc([job({ res: [3] })]), "jobs[0].res: is [3], expected an integer >= 1"],
    ["res in hexadecimal", doc([job({ res: "0x4" })]), 'jobs[0].res: is "0x4", expected'],
    [
      "a negative walltime",
      doc([job({ walltime: -5 })]),
      "jobs[0].walltime: is -5, expected a number > 0",
    ],
    [
      "a null walltime",
      doc([job({ walltime: null })]),
      "jobs[0].walltime: is null, expected a number > 0",
    ],
    [
      "an id used twice",
      doc([job({}), job({ id: "1" })]),
      "jobs[1].id: 1 appears twice (first at jobs[0])",
    ],
    [
      "nb_res 1e308",
      doc([job({})], { nb_res: 1e308 }),
      "nb_res: is 1e+308, expected an integer >= 1",
    ],
    [
      "an id above 2^53",
      doc([job({ id: 2 ** 53 })]),
      "jobs[0].id: is 9007199254740992, expected a job id",
    ],
    [
      "a submit time above 2^53",
      doc([job({ subtime: 1e20 })]),
      "jobs[0].subtime: is 100000000000000000000, beyond 2^53 − 1",
    ],
    [
      "a profile named constructor",
      doc([job({ profile: "constructor" })]),
      'jobs[0].profile: is "constructor", not a name in profiles',
    ],
    [
      "no profiles",
      JSON.stringify({ nb_res: 4, jobs: [] }),
      "profiles: missing, expected an object of profiles",
    ],
    [
      "a key given twice",
      doc([job({})]).replace('"res":1', '"res":1,"res":64'),
      "jobs[0].res: appears twice in one object (JSON would keep the last; give it once)",
    ],
  ];
  for (const [what, text, message] of cases) {
    it(`${what}: exit 1 naming the record and field`, async () => {
      const path = await file("w.json", text);
      const r = await cli("convert", path, "--to", "swf");
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`sched-sim: convert: ${path}`);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toContain("internal error");
    });
  }

  it("a job without walltime gets its run time as estimate, and convert says so", async () => {
    const path = await file("w.json", doc([job({ walltime: undefined, extra_data: "{}" })]));
    const r = await cli("convert", path, "--to", "native");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[1]).toBe(
      '{"id":1,"submit":0,"runtime":60,"estimate":60,"cores":1}',
    );
    expect(r.stderr).toContain("1 of 1 jobs have no walltime (no limit in Batsim)");
    expect(r.stderr).toContain("job fields not carried over: extra_data");
  });

  it("reads Batsim 5's DelayProfile and digit-string ids; nb_res is kept as MaxProcs", () => {
    const text = JSON.stringify({
      nb_res: 16,
      jobs: [{ id: "7", subtime: 5, walltime: 90, res: 2, profile: "d" }],
      profiles: { d: { type: "DelayProfile", delay: 30 } },
    });
    expect(batsimToJobs(text, "w.json")).toEqual({
      jobs: [{ id: 7, submit: 5, runtime: 30, estimate: 90, cores: 2 }],
      nbRes: 16,
      withoutWalltime: 0,
      ignoredFields: [],
    });
  });
});

describe("SWF input", () => {
  it("a machine size too large to simulate stops before anything is allocated (exit 1)", async () => {
    for (const [header, value] of [
      ["MaxNodes", 4294967296],
      ["MaxProcs", 3000000],
    ] as const) {
      const path = await file("big.swf", `; ${header}: ${value}\n${LINE(1, 0)}\n`);
      const r = await cli("run", "-w", path);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `sched-sim: run: ${path} header ${header}: is ${value}, above the 1000000 processors a simulated machine may have; give a smaller one with --procs N\n`,
      );
      // a smaller machine given on the command line runs it
      expect((await cli("run", "-w", path, "--procs", "4")).code).toBe(0);
    }
  });

  it("a negative --procs is read as the option's value and refused as such (exit 2)", async () => {
    const path = await file("small.swf", `; MaxProcs: 4\n${LINE(1, 0)}\n`);
    for (const procs of ["-5", "-0.5"]) {
      const r = await cli("run", "-w", path, "--procs", procs);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `sched-sim: run: option --procs must be a whole number from 1 to 1000000 (digits only), got '${procs}'\n`,
      );
    }
  });

  it("a machine size that is not a count says what it is, not that the line is missing", async () => {
    for (const [value, detail] of [
      ["1e308", '"1e308" is beyond ±9007199254740991 (2^53 − 1)'],
      ["0.5", "0.5 is not an integer; expected an integer >= 1"],
      ["9007199254740993", '"9007199254740993" is beyond ±9007199254740991 (2^53 − 1)'],
    ]) {
      const path = await file("t.swf", `; MaxProcs: ${value}\n${LINE(1, 0)}\n`);
      for (const argv of [
        ["run", "-w", path],
        ["inspect", path],
        ["convert", path, "--to", "native"],
      ]) {
        const r = await cli(...argv);
        expect(r.code, argv.join(" ")).toBe(1);
        expect(r.stderr).toContain(`${path}:1 header MaxProcs: ${detail}`);
        expect(r.stderr).not.toContain("has no MaxProcs");
      }
    }
  });

  it("a machine size stated twice with two values is an error naming both lines (was: the first, silently)", async () => {
    const path = await file("t.swf", `; MaxProcs: 64\n; MaxProcs: 32\n${LINE(1, 0)}\n`);
    for (const argv of [
      ["run", "-w", path],
      ["run", "-w", path, "--engine", "general"],
      ["inspect", path],
      ["convert", path, "--to", "native"],
    ]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(1);
      expect(r.stderr).toBe(
        `sched-sim: ${argv[0]}: ${path}:2 header MaxProcs: is given again as 32, after 64 on line 1; a trace states it once\n`,
      );
    }
  });

  it("a run time absorbed by a huge submit time is an error, not a job that takes no time", async () => {
    const path = await file("t.swf", `; MaxProcs: 4\n${LINE(1, "1e20")}\n`);
    const r = await cli("run", "-w", path);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path}:2 submit time (field 2): "1e20" is beyond`);
    const fine = await file("t.swf", `; MaxProcs: 4\n${LINE(1, 1e15)}\n`);
    expect((await cli("run", "-w", fine)).code).toBe(0);
    const fraction = await file("t.swf", `; MaxProcs: 4\n${LINE(1, 1e15, 0.1)}\n`);
    const f = await cli("run", "-w", fraction);
    expect(f.code).toBe(1);
    expect(f.stderr).toContain("run time (field 4) is 0.1, too short for submit 1000000000000000");
  });

  it("an empty trace: run, inspect and convert all exit 1 with the same words", async () => {
    const path = await file("empty.swf", "; MaxProcs: 4\n");
    for (const [command, ...rest] of [
      ["run", "-w"],
      ["inspect"],
      ["convert", "--to", "native"],
    ] as const) {
      const argv =
        command === "run" ? [command, ...rest, path] : [command, path, ...rest.filter(Boolean)];
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(1);
      expect(r.stderr).toBe(`sched-sim: ${command}: ${path}: holds no jobs (no job line)\n`);
    }
  });

  it("a gzip file that expands to one enormous line ends in an error naming it, not a crash", async () => {
    // 2 MiB of digits on one line (the 600 MB bomb of the issue, at the scale of a unit test)
    const path = await file("bomb.swf.gz", gzipSync(Buffer.alloc(2 * 1024 * 1024, "9")));
    for (const argv of [
      ["run", "-w", path, "--procs", "4"],
      ["inspect", path],
    ]) {
      const r = await cli(...argv);
      expect(r.code).toBe(1);
      // In command-line words: the line limit is no option of sched-sim's.
      expect(r.stderr).toBe(
        `sched-sim: ${argv[0]}: ${path}:1: is longer than 1048576 characters, the limit of a line (a trace line is a few hundred at most)\n`,
      );
    }
  });

  it("text that is not UTF-8 is an error naming the line", async () => {
    const bytes = Buffer.concat([
      Buffer.from(`; MaxProcs: 4\n${LINE(1, 0)}\n`),
      Buffer.from([0x31, 0xff, 0xfe, 0x0a]),
    ]);
    const r = await cli("inspect", await file("t.swf", bytes));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("t.swf:3: is not valid UTF-8 text");
  });

  it("hints name the options of the command that failed, in command-line words", async () => {
    const path = await file("t.swf", `; MaxProcs: 4\n${LINE(1, 0).replace(" 200 ", " -1 ")}\n`);
    const hint =
      "(or give --clean to drop such jobs, or give --estimate runtime to use the run time as the estimate)";
    for (const argv of [
      ["run", "-w", path],
      ["inspect", path, "--estimate", "requested"],
      ["convert", path, "--to", "native"],
    ]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(1);
      expect(r.stderr).toContain(`requested time (field 9) is -1, expected > 0 ${hint}`);
      expect(r.stderr).not.toContain("options.");
      expect(r.stderr).not.toContain("{ ");
    }
    // ... and convert has the option it names
    expect((await cli("convert", path, "--to", "native", "--estimate", "runtime")).code).toBe(0);
  });
});

describe("SWF records the conversion refuses: the file and line, in command-line words", () => {
  const ok = (id: number, submit: number) =>
    `${id} ${submit} 0 10 4 -1 -1 4 10 -1 1 1 1 1 1 -1 -1 -1`;
  const badProcs = "2 5 0 10 -4 -1 -1 -4 10 -1 1 1 1 1 1 -1 -1 -1";
  const procs = (command: string, at: string) =>
    `sched-sim: ${command}: ${at}: (job 2) processors (fields 5 and 8) are -4 and -4, expected one > 0 (or give --clean to drop such jobs)\n`;
  const commands = (path: string) => [
    ["run", "-w", path, "-s", "easy"],
    ["run", "-w", path, "-s", "easy", "--engine", "general"],
    ["run", "-w", path, "-s", "conservative"],
    ["inspect", path],
    ["convert", path, "--to", "native"],
  ];

  it("run (scanner and general engine), inspect and convert: exit 1, file:line, one line", async () => {
    const text = `; Version: 2.2\n; MaxProcs: 8\n\n${ok(1, 0)}\n; late\n${badProcs}\n${ok(3, 9)}\n`;
    const path = await file("bad2.swf", text);
    // the byte scanner leaves the file to the general reader, which names the line
    const scan = { clean: false, estimate: "requested" as const };
    expect(scanSwfFile(path, { ...scan, onHeader: () => {}, onJobs: () => {} })).toBeNull();
    for (const argv of commands(path)) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(1);
      expect(r.stderr, argv.join(" ")).toBe(procs(argv[0] as string, `${path}:6`));
    }
  });

  it("the same in a gzipped, a \\r\\n and an unsorted trace (read whole, then sorted)", async () => {
    const gz = await file("bad2.swf.gz", gzipSync(`${ok(1, 0)}\n\n${badProcs}\n`));
    const crlf = await file("crlf.swf", `; MaxProcs: 8\r\n${ok(1, 0)}\r\n${badProcs}\r\n`);
    // job 3 before job 1: `run` restarts on the whole-trace reader, which meets job 2 on line 3
    const unsorted = await file("unsorted.swf", `${ok(3, 9)}\n${ok(1, 0)}\n${badProcs}\n`);
    for (const [path, line] of [
      [gz, 3],
      [crlf, 3],
      [unsorted, 3],
    ] as const) {
      for (const argv of commands(path)) {
        const r = await cli(...argv);
        expect(r.code, argv.join(" ")).toBe(1);
        expect(r.stderr, argv.join(" ")).toBe(procs(argv[0] as string, `${path}:${line}`));
      }
    }
  });

  it("names the line of a duplicate job number and a line that does not parse alike, no @sched/ path", async () => {
    const twice = await file("twice.swf", `${ok(1, 0)}\n${ok(1, 3)}\n`);
    const r = await cli("run", "-w", twice, "-s", "easy");
    expect(r.stderr).toBe(
      `sched-sim: run: ${twice}:2: (job 1) job number (field 1) 1 appears twice\n`,
    );
    const notANumber = await file(
      "nan.swf",
      `${ok(1, 0)}\n${ok(2, 3).replace(" 10 4 ", " 1x 4 ")}\n`,
    );
    const p = await cli("inspect", notANumber);
    expect(p.stderr).toBe(
      `sched-sim: inspect: ${notANumber}:2 run time (field 4): "1x" is not a number\n`,
    );
  });
});

describe("native JSON Lines input: inspect and convert read the same", () => {
  const lines = [
    '{"format":"@sched/jobs","version":1,"meta":{"procs":4}}',
    '{"id":1,"submit":0,"runtime":60,"cores":2}',
    '{"id":2,"submit":5,"runtime":30,"cores":4}',
  ];
  it("gzipped and CR-only files are read by both, with the same jobs", async () => {
    const plain = await cli(
      "convert",
      await file("j.jsonl", `${lines.join("\n")}\n`),
      "--to",
      "native",
    );
    expect(plain.code, plain.stderr).toBe(0);
    const jobsOf = (out: string) => out.split("\n").slice(1).join("\n");
    for (const [name, content] of [
      ["gz.jsonl", gzipSync(`${lines.join("\n")}\n`)],
      ["cr.jsonl", lines.join("\r")],
      ["crlf.jsonl", `${lines.join("\r\n")}\r\n`],
    ] as const) {
      const path = await file(name, content);
      const inspect = await cli("inspect", path, "--json");
      expect(inspect.code, `${name}: ${inspect.stderr}`).toBe(0);
      expect(JSON.parse(inspect.stdout).jobs).toBe(2);
      expect(JSON.parse(inspect.stdout).procs).toBe(4);
      const convert = await cli("convert", path, "--to", "native");
      expect(convert.code, `${name}: ${convert.stderr}`).toBe(0);
      expect(jobsOf(convert.stdout)).toBe(jobsOf(plain.stdout));
    }
  });

  it("meta.procs -5, submit -5, deadline -50, ready -1e308: exit 1 naming line and field", async () => {
    for (const [text, message] of [
      ['{"format":"@sched/jobs","version":1,"meta":{"procs":-5}}', "j.jsonl:1 meta.procs: is -5"],
      [
        '{"id":1,"submit":-5,"runtime":60,"cores":2}',
        "j.jsonl:1 submit: is -5, expected a time >= 0",
      ],
      ['{"id":1,"submit":0,"runtime":60,"cores":2,"deadline":-50}', "j.jsonl:1 deadline: is -50"],
      ['{"id":1,"submit":0,"runtime":60,"cores":2,"ready":-1e308}', "j.jsonl:1 ready: is -1e+308"],
    ]) {
      const path = await file("j.jsonl", `${text}\n`);
      for (const argv of [
        ["inspect", path],
        ["convert", path, "--to", "swf"],
      ]) {
        const r = await cli(...argv);
        expect(r.code, argv.join(" ")).toBe(1);
        expect(r.stderr).toContain(message);
      }
    }
  });
});

describe("experiment files that name a registry experiment", () => {
  const base = { name: "e", experiment: "elo", quick: true, grid: { jobs: [10, 20] }, seeds: 2 };
  const cases: [string, unknown, string][] = [
    [
      "a grid value given twice",
      { ...base, grid: { jobs: [10, 20, 10] } },
      "grid.jobs[2]: expected a value not given before; it is grid.jobs[0] too, got 10",
    ],
    [
      "a metric given twice",
      { ...base, metrics: ["meanResponse", "meanResponse"] },
      "metrics[1]: expected a metric not given before",
    ],
    [
      "a scheduler the experiment does not have",
      { ...base, schedulers: ["nope"] },
      "experiment 'elo' has no scheduler 'nope'",
    ],
    [
      "a grid too large to list",
      {
        ...base,
        grid: {
          jobs: Array.from({ length: 2000 }, (_, i) => i + 1),
          machines: Array.from({ length: 2000 }, (_, i) => i + 1),
        },
      },
      "make 40000000 runs, more than the 1000000 a sweep may have",
    ],
  ];
  for (const [what, doc, message] of cases) {
    it(`${what}: exit 2 naming the file and the key`, async () => {
      const path = await file("e.json", JSON.stringify(doc));
      const r = await cli("sweep", path, "--out", await tempDir(), "--emit", "k8s");
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`sched-sim: sweep: ${path}: `);
      expect(r.stderr).toContain(message);
    });
  }
});

describe("the reading limits", () => {
  const chunks = async function* (...parts: string[]) {
    for (const p of parts) yield Buffer.from(p);
  };
  const read = async (source: AsyncIterable<Uint8Array>, options = {}) => {
    const out: string[] = [];
    for await (const l of textLines(source, { where: "t", source: "f", ...options })) out.push(l);
    return out;
  };

  it("splits on \\n, \\r\\n and lone \\r, also across chunk boundaries, as readline does", async () => {
    expect(await read(chunks("a\r", "\nb\rc\n", "\r\nd"))).toEqual(["a", "b", "c", "", "d"]);
    expect(await read(chunks("\uFEFFx\n\n"))).toEqual(["x", ""]);
    expect(await read(chunks("é"))).toEqual(["é"]);
  });

  it("stops at the line, line-count and byte limits with a ParseError naming where", async () => {
    await expect(read(chunks("ab\nabcd", "ef\n"), { maxLineLength: 5 })).rejects.toThrow(
      "t: f:2: is longer than 5 characters, the limit of a line",
    );
    await expect(read(chunks("a\nb\nc\n"), { maxLines: 2 })).rejects.toThrow(
      "t: f: has more than 2 lines, the limit of a trace",
    );
    await expect(read(chunks("abc", "def"), { maxBytes: 5 })).rejects.toThrow(
      "t: f: holds more than 5 bytes, the limit of a trace",
    );
  });
});

describe("internal errors", () => {
  it("are told apart from bad input", () => {
    expect(isInternalError(new TypeError("x"))).toBe(true);
    expect(isInternalError(new RangeError("Invalid array length"))).toBe(true);
    expect(isInternalError("a string")).toBe(true);
    expect(isInternalError(new Error("cannot write out/x: disk full"))).toBe(false);
    expect(isInternalError(new UsageError("run: bad"))).toBe(false);
  });
});
