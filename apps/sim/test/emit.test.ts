import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers.js";
import { runFiles } from "./queue-helpers.js";
import { smallExperiment, writeExperiment } from "./sweep-helpers.js";

/** Split a POSIX shell command line (quotes, `$VAR`, `${VAR:-default}`) into words. */
function shellWords(line: string, env: Record<string, string>): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const variable = (): string => {
    const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/.exec(line.slice(i));
    if (braced !== null) {
      i += braced[0].length;
      return env[braced[1] as string] ?? braced[2] ?? "";
    }
    const plain = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(line.slice(i)) as RegExpExecArray;
    i += plain[0].length;
    return env[plain[1] as string] ?? "";
  };
  while (i < line.length) {
    const c = line[i] as string;
    if (c === " ") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      while (line[i] !== '"') {
        if (line[i] === "$") word += variable();
        else word += line[i++];
      }
      i++;
    } else if (c === "$") {
      word += variable();
      inWord = true;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

async function same(a: string, b: string): Promise<void> {
  for (const f of ["results.csv", "runs.csv"]) {
    expect(await readFile(join(a, f), "utf8"), f).toBe(await readFile(join(b, f), "utf8"));
  }
  expect(await runFiles(a)).toEqual(await runFiles(b));
}

describe("sweep --emit", () => {
  it("slurm: an array 0-(n-1) whose task i runs shard i/n; running every task gives the local results", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.5, 0.7], 2));
    const out = await tempDir();
    const r = await cli(
      "sweep",
      file,
      "--out",
      out,
      "--emit",
      "slurm",
      "--shards",
      "4",
      "--jobs",
      "2",
    );
    expect(r.code, r.stderr).toBe(0);
    const script = r.stdout;
    expect(script.startsWith("#!/bin/bash\n")).toBe(true);
    expect(script).toMatch(/^#SBATCH --array=0-3$/m);
    expect(script).toMatch(/^#SBATCH --cpus-per-task=2$/m);
    expect(script).toMatch(/^#SBATCH --job-name=sched-sim-small$/m);
    expect(script).toContain("12 runs in 4 shards (3 runs each");
    expect(script).toContain("--dependency=afterany:$jobid");
    // #SBATCH lines must come before the first command
    const lines = script.split("\n");
    const firstCommand = lines.findIndex((l) => l !== "" && !l.startsWith("#"));
    expect(lines.slice(firstCommand).some((l) => l.startsWith("#SBATCH"))).toBe(false);
    const range = /^#SBATCH --array=(\d+)-(\d+)$/m.exec(script) as RegExpExecArray;
    const exec = lines.find((l) => l.startsWith("exec ")) as string;
    const defaults = /^SLURM_CPUS_PER_TASK=\$\{SLURM_CPUS_PER_TASK:-(\d+)\}$/m.exec(script);
    expect(defaults?.[1]).toBe("2");
    for (let i = Number(range[1]); i <= Number(range[2]); i++) {
      const words = shellWords(exec.slice(5), {
        SLURM_ARRAY_TASK_ID: String(i),
        SLURM_CPUS_PER_TASK: "2",
      });
      expect(words.slice(0, 2)).toEqual(["sched-sim", "sweep"]);
      expect(words).toContain(`${i}/4`);
      const run = await cli(...words.slice(1));
      expect(run.code, run.stderr).toBe(0);
    }
    const local = await tempDir();
    await cli("sweep", file, "--out", local, "--quiet");
    await same(out, local);
    // --parallel throttles the array
    const throttled = await cli(
      "sweep",
      file,
      "--out",
      out,
      "--emit",
      "slurm",
      "--shards",
      "4",
      "--parallel",
      "2",
    );
    expect(throttled.stdout).toMatch(/^#SBATCH --array=0-3%2$/m);
  });

  it("k8s: an Indexed Job with completions = parallelism = n; pod i runs shard JOB_COMPLETION_INDEX/n", async () => {
    const file = await writeExperiment(smallExperiment([0.3, 0.6], 2));
    const out = await tempDir();
    const r = await cli(
      "sweep",
      file,
      "--out",
      out,
      "--emit",
      "k8s",
      "--shards",
      "3",
      "--image",
      "registry.example/sched-sim:1",
      "--claim",
      "results",
      "--mount",
      "/data",
    );
    expect(r.code, r.stderr).toBe(0);
    const yaml = r.stdout;
    expect(yaml).toMatch(/^kind: Job$/m);
    expect(yaml).toMatch(/^ {2}completionMode: Indexed$/m);
    expect(yaml).toMatch(/^ {2}completions: 3$/m);
    expect(yaml).toMatch(/^ {2}parallelism: 3$/m);
    expect(yaml).toMatch(/^ {2}name: sched-sim-small$/m);
    expect(yaml).toContain('image: "registry.example/sched-sim:1"');
    expect(yaml).toContain('claimName: "results"');
    expect(yaml).toContain('mountPath: "/data"');
    const command = JSON.parse(
      (/^ {10}command: (.*)$/m.exec(yaml) as RegExpExecArray)[1] as string,
    ) as string[];
    expect(command.slice(0, 2)).toEqual(["sh", "-c"]);
    const body = (command[2] as string).replace(/^exec /, "");
    for (let i = 0; i < 3; i++) {
      const words = shellWords(body, { JOB_COMPLETION_INDEX: String(i) });
      expect(words).toContain(`${i}/3`);
      const run = await cli(...words.slice(1));
      expect(run.code, run.stderr).toBe(0);
    }
    const local = await tempDir();
    await cli("sweep", file, "--out", local, "--quiet");
    await same(out, local);
  });

  it("with --queue: the tasks are workers of the queue; --command names the program", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 2));
    const r = await cli(
      "sweep",
      file,
      "--out",
      "/shared/out",
      "--emit",
      "slurm",
      "--shards",
      "5",
      "--queue",
      "redis://10.0.0.5:6379/2",
      "--command",
      "node /opt/sched-sim/cli.js",
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^#SBATCH --array=0-4$/m);
    const exec = r.stdout.split("\n").find((l) => l.startsWith("exec ")) as string;
    expect(shellWords(exec.slice(5), { SLURM_CPUS_PER_TASK: "1" })).toEqual([
      "node",
      "/opt/sched-sim/cli.js",
      "worker",
      "--queue",
      "redis://10.0.0.5:6379/2",
      "--jobs",
      "1",
      "--exit-when-idle",
      "60",
    ]);
    expect(r.stdout).toContain("--queue redis://10.0.0.5:6379/2 --out /shared/out --detach");
    const k = await cli("sweep", file, "--out", "/x", "--emit", "k8s", "--queue", "redis://r:6379");
    expect(k.stdout).toContain("completions: 4"); // default: 10 tasks, at most one per run
    expect(k.stdout).toContain("worker --queue redis://r:6379");
    expect(k.stdout).not.toContain("persistentVolumeClaim");
  });

  it("bad usage exits 2 naming the option", async () => {
    const file = await writeExperiment(smallExperiment([0.3], 1));
    const cases: [string[], string][] = [
      [
        ["sweep", file, "--out", "x", "--emit", "pbs"],
        "option --emit must be one of slurm, k8s, got 'pbs'",
      ],
      [["sweep", file, "--out", "x", "--shards", "4"], "option --shards needs --emit slurm|k8s"],
      [
        ["sweep", file, "--out", "x", "--emit", "slurm", "--shards", "0"],
        "option --shards must be a whole number from 1 to 100000",
      ],
      [["sweep", file, "--emit", "slurm"], "option --out DIR is required"],
      [["sweep", file, "--out", "x", "--detach"], "option --detach needs --queue URL"],
      [
        ["sweep", file, "--out", "x", "--queue", "redis://h:1", "--status", "--cancel"],
        "exclude each other",
      ],
      [
        ["sweep", file, "--out", "x", "--queue", "localhost:6379"],
        "option --queue must be redis://host:port[/db]",
      ],
      [["sweep", file, "--out", "x", "--queue", "redis://h:1/x"], "database 'x' is not a number"],
      [
        ["sweep", file, "--out", "x", "--queue", "redis://h:1", "--attempts", "0"],
        "option --attempts must be a whole number from 1 to 100",
      ],
      [
        ["sweep", file, "--out", "x", "--queue", "redis://h:1", "--jobs", "2"],
        "option --jobs has no effect with --queue",
      ],
      [["worker"], "option --queue URL is required"],
      [
        ["worker", "--queue", "redis://h:1", "--queue-name", "a:b"],
        "option --queue-name must be letters",
      ],
      [
        ["worker", "--queue", "redis://h:1", "--stall-timeout", "0"],
        "option --stall-timeout must be a whole number from 1 to 86400",
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
