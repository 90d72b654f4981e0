import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";

// `run --engine pooled` against `run --engine general`: every output byte for byte (stdout,
// stderr, jobs.csv, metrics.json; timing.json is wall clock), on every SWF fixture of the repo.

const REPO_FIXTURES = new URL("../../../packages/workload/fixtures/", import.meta.url).pathname;

interface Outputs {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly jobsCsv: string;
  readonly metricsJson: string;
}

async function runWith(engine: string, out: string, args: readonly string[]): Promise<Outputs> {
  const r = await cli("run", ...args, "--engine", engine, "--out", out);
  return {
    code: r.code,
    stdout: r.stdout,
    stderr: r.stderr,
    jobsCsv: r.code === 0 ? await readFile(join(out, "jobs.csv"), "utf8") : "",
    metricsJson: r.code === 0 ? await readFile(join(out, "metrics.json"), "utf8") : "",
  };
}

/** Both engines into the same folder, one after the other, so that even the paths printed agree. */
async function expectSameOutputs(args: readonly string[]): Promise<void> {
  const out = join(await tempDir(), "out");
  const general = await runWith("general", out, args);
  const pooled = await runWith("pooled", out, args);
  expect(general.code).toBe(0);
  expect(pooled.stdout).toBe(general.stdout);
  expect(pooled.stderr).toBe(general.stderr);
  expect(pooled.jobsCsv).toBe(general.jobsCsv);
  expect(pooled.metricsJson).toBe(general.metricsJson);
  expect(pooled.code).toBe(general.code);
}

const CASES: readonly { readonly file: string; readonly args: readonly string[] }[] = [
  { file: `${REPO_FIXTURES}KTH-SP2-1996-2.1-cln.swf`, args: ["--clean"] },
  {
    file: `${REPO_FIXTURES}NASA-iPSC-1993-3.1-cln.swf.gz`,
    args: ["--clean", "--estimate", "runtime"],
  },
  { file: `${REPO_FIXTURES}hpc2n-alea-3171.swf`, args: ["--clean"] },
  { file: `${REPO_FIXTURES}lublin_256.swf`, args: ["--estimate", "runtime", "--format", "json"] },
  { file: fixture("small.swf"), args: ["--clean"] },
  { file: fixture("kth-sp2-head.swf"), args: ["--clean", "--procs", "16"] },
  { file: fixture("nasa-ipsc-head.swf.gz"), args: ["--clean", "--estimate", "runtime"] },
];

describe("sched-sim run --engine pooled vs --engine general", () => {
  for (const { file, args } of CASES) {
    for (const scheduler of ["easy", "fcfs"]) {
      const name = file.slice(file.lastIndexOf("/") + 1);
      it(`${scheduler} on ${name} ${args.join(" ")}: the same bytes`, async () => {
        await expectSameOutputs(["-w", file, "-s", scheduler, ...args]);
      });
    }
  }

  it("the same error for a trace the conversion rejects (KTH without --clean)", async () => {
    const out = join(await tempDir(), "out");
    const args = ["-w", `${REPO_FIXTURES}KTH-SP2-1996-2.1-cln.swf`, "-s", "easy"];
    const general = await runWith("general", out, args);
    const pooled = await runWith("pooled", out, args);
    expect(general.code).toBe(1);
    expect(general.stderr).toContain("run time (field 4) is 0");
    expect(pooled).toEqual(general);
  });

  it("auto runs the pooled engine for easy and fcfs: the same bytes as general", async () => {
    const out = join(await tempDir(), "out");
    const args = ["-w", fixture("small.swf"), "-s", "easy", "--clean"];
    const auto = await cli("run", ...args, "--out", out);
    const autoCsv = await readFile(join(out, "jobs.csv"), "utf8");
    const general = await runWith("general", out, args);
    expect(auto.code).toBe(0);
    expect(auto.stdout).toBe(general.stdout);
    expect(autoCsv).toBe(general.jobsCsv);
  });

  // Native workloads: `--engine auto` runs easy and fcfs on the pooled kernel too, and, at the
  // first job the kernel does not model (a deadline, a ready time, licences, a benchmark), the
  // whole run again on the general engine. Either way every output is the general engine's.
  const nativeJobs = (
    n: number,
    extra: (k: number) => string = () => "",
    order = (k: number) => k,
  ) =>
    [
      '{"format":"@sched/jobs","version":1,"meta":{"procs":64}}',
      ...Array.from({ length: n }, (_, k) => {
        const id = order(k) + 1;
        const runtime = 50 + ((id * 7919) % 3000);
        return `{"id":${id},"submit":${id * 37},"runtime":${runtime},"estimate":${2 * runtime},"cores":${1 + ((id * 31) % 64)}${extra(id)}}`;
      }),
    ].join("\n");
  const nativeCases: [string, string][] = [
    ["plain jobs (pooled throughout)", nativeJobs(2000)],
    [
      "a deadline on job 1500, after the first batches ran (the general engine from the start)",
      nativeJobs(2000, (id) => (id === 1500 ? `,"deadline":${id * 37 + 90000}` : "")),
    ],
    ["a ready time on the first job", nativeJobs(300, (id) => (id === 1 ? ',"ready":500' : ""))],
    // twice the reference benchmark: it runs twice as long on the pool's speed-1 machines
    ["a benchmark on job 700", nativeJobs(1500, (id) => (id === 700 ? ',"benchmark":2' : ""))],
    [
      "fields neither engine's easy nor fcfs reads (pooled throughout)",
      nativeJobs(
        1500,
        (id) =>
          [
            `,"maxParallelism":${1 + (id % 8)}`,
            `,"tasks":${1 + (id % 4)}`,
            `,"input":[{"size":${1000 * id},"machine":${id % 64}}]`,
            `,"priority":${id % 3},"user":${id % 10},"queue":${id % 2}`,
            "",
          ][id % 5]!,
      ),
    ],
    [
      "unsorted, with licences on a late job (sorted, then the general engine)",
      nativeJobs(
        2000,
        (id) => (id === 1800 ? ',"licenses":{"matlab":1}' : ""),
        (k) => (k === 10 ? 1999 : k === 1999 ? 10 : k),
      ),
    ],
  ];
  for (const [what, text] of nativeCases) {
    for (const scheduler of ["easy", "fcfs"]) {
      it(`auto on a native workload, ${scheduler}, ${what}: the general engine's bytes`, async () => {
        const dir = await tempDir();
        const file = join(dir, "w.jsonl");
        await writeFile(file, text);
        const out = join(dir, "out");
        const args = ["-w", file, "-s", scheduler];
        const auto = await cli("run", ...args, "--out", out);
        const autoCsv = auto.code === 0 ? await readFile(join(out, "jobs.csv"), "utf8") : "";
        const autoMetrics =
          auto.code === 0 ? await readFile(join(out, "metrics.json"), "utf8") : "";
        const general = await runWith("general", out, args);
        expect(general.code).toBe(0);
        expect(auto.code).toBe(0);
        expect(auto.stdout).toBe(general.stdout);
        expect(auto.stderr).toBe(general.stderr);
        expect(autoCsv).toBe(general.jobsCsv);
        expect(autoMetrics).toBe(general.metricsJson);
      });
    }
  }

  it("refuses --engine pooled for a run it does not model, naming the flag and why", async () => {
    const small = fixture("small.swf");
    /** What `run -w small.swf ...words --engine pooled` says on stderr, after exit code 2. */
    const refusal = async (...words: string[]): Promise<string> => {
      const r = await cli("run", "-w", small, ...words, "--engine", "pooled");
      expect(r.code).toBe(2);
      return r.stderr;
    };
    expect(await refusal("-s", "conservative")).toBe(
      "sched-sim: run: option --engine pooled: it runs easy and fcfs only, not 'conservative'; use --engine auto or general\n",
    );
    expect(await refusal("-s", "easy", "--opt", "order=sjf")).toContain(
      "option --engine pooled: it runs easy with default options only (no --opt)",
    );
    expect(await refusal("-s", "./policy.mjs")).toContain(
      "option --engine pooled: a policy module runs on the general engine",
    );
    expect(await refusal("-s", "fcfs", "--max-events", "5")).toContain(
      "option --engine pooled: it runs with the engine's default guards only (no --max-events or --max-stalled-events)",
    );
    const bad = await cli("run", "-w", small, "--engine", "fast");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--engine");
  });
});
