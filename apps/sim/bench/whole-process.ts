import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";

/**
 * Helpers of the whole-process benchmarks: the CLI built from the current sources, child
 * processes measured by `/usr/bin/time` (CPU = user + system seconds, max RSS), and where pyss,
 * the classic Python 2 scheduler simulator, lives on this machine.
 */

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** What `/usr/bin/time` says about a child process. */
export interface ProcessCost {
  /** User + system CPU seconds. */
  readonly cpu: number;
  readonly wall: number;
  /** Maximum resident set size, MB (10^6 bytes). */
  readonly maxRssMb: number;
  /**
   * For a `node` command given {@link THREAD_CPU} as a preload: CPU seconds of its main thread
   * and of all its other threads (V8's compiler and GC helpers, libuv's pool). Else undefined.
   */
  readonly threads?: { readonly main: number; readonly others: number };
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Node's `--require` argument that makes a measured `node` process report its CPU by thread
 * (see ./thread-cpu.cjs): `measure([process.execPath, ...THREAD_CPU, cli, ...])`.
 */
export const THREAD_CPU: readonly string[] = [
  "--require",
  fileURLToPath(new URL("./thread-cpu.cjs", import.meta.url)),
];

/**
 * Runs `command` to completion under `/usr/bin/time` and returns its cost (in `cwd`, with `env`,
 * this process's environment by default).
 * @throws Error when it exits with a non-zero status (quoting its last lines of stderr).
 */
export function measure(
  command: readonly string[],
  cwd = appDir,
  env: NodeJS.ProcessEnv = process.env,
): ProcessCost {
  const r = spawnSync("/usr/bin/time", ["-f", "@@time %U %S %e %M", ...command], {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const lines = r.stderr.trimEnd().split("\n");
  const last = lines.findLast((l) => l.startsWith("@@time ")) ?? "";
  const [user, sys, wall, rss] = last.slice(7).split(" ").map(Number);
  if (r.status !== 0 || user === undefined) {
    throw new Error(`${command.join(" ")} failed (${r.status}): ${lines.slice(-5).join("\n")}`);
  }
  const threads = lines.findLast((l) => l.startsWith("@@threads "));
  const [main, others] = (threads ?? "").slice(10).split(" ").map(Number);
  return {
    cpu: user + sys!,
    wall: wall!,
    maxRssMb: (rss! * 1024) / 1e6,
    ...(threads === undefined ? {} : { threads: { main: main!, others: others! } }),
    stdout: r.stdout,
    stderr: lines.filter((l) => !l.startsWith("@@time ") && !l.startsWith("@@threads ")).join("\n"),
  };
}

/** The CLI bundle built from the current sources into a fresh folder, and its clean-up. */
export async function buildCli(): Promise<{ cli: string; remove: () => Promise<void> }> {
  // Inside apps/sim/node_modules, so the bundle's external packages resolve as for dist/.
  const outDir = await mkdtemp(join(appDir, "node_modules", ".sched-sim-bench-"));
  const r = spawnSync("pnpm", ["exec", "tsup", "--out-dir", outDir, "--silent"], {
    cwd: appDir,
    encoding: "utf8",
  });
  if (r.status !== 0) {
    await rm(outDir, { recursive: true, force: true });
    throw new Error(`building the CLI failed: ${r.stderr}`);
  }
  // Node looks for a file's package scope (`"type": "module"`) up to the nearest node_modules and
  // no further, so this folder, unlike dist/ (in apps/sim's scope), would have none: Node would
  // then compile every chunk twice, first as CommonJS to detect its module syntax (measured:
  // about 7 ms of CPU that `sched-sim` from dist/ does not spend). Give it dist/'s scope.
  await writeFile(join(outDir, "package.json"), '{ "type": "module" }\n');
  return {
    cli: join(outDir, "cli.js"),
    remove: () => rm(outDir, { recursive: true, force: true }),
  };
}

/**
 * For a bench file: the CLI built from the current sources ({@link buildCli}) and a fresh
 * temporary folder named from `prefix`, both made before its benches run (`beforeAll`) and
 * removed after (`afterAll`); read `cli` and `dir` inside a bench. The build may take minutes.
 */
export function builtCliAndFolder(prefix: string): { readonly cli: string; readonly dir: string } {
  const state = { cli: "", dir: "" };
  let remove = async () => {};
  beforeAll(async () => {
    const built = await buildCli();
    state.cli = built.cli;
    remove = built.remove;
    state.dir = await mkdtemp(join(tmpdir(), prefix));
  }, 300_000); // a build on a loaded machine takes longer than vitest's 10 s hook timeout
  afterAll(async () => {
    await remove();
    if (state.dir !== "") await rm(state.dir, { recursive: true, force: true });
  });
  return state;
}

/** `sched-sim gen`'s arguments for the benches' Lublin trace: `jobs` jobs, 256 processors, seed 1. */
export function lublinGenArgs(jobs: number, out: string): string[] {
  return ["gen", "lublin", "--jobs", String(jobs), "--procs", "256", "--seed", "1", "--out", out];
}

/** pyss's `src/` folder and a Python 2.7, when both are on this machine (else a reason). */
export function findPyss(): { src: string; python: string } | { skip: string } {
  const src = process.env.PYSS_SRC ?? "/tmp/pyss/src";
  if (!existsSync(join(src, "run_simulator.py"))) {
    return {
      skip: `pyss not found at ${src} (check out github.com/dinesh121991/pyss there, or set PYSS_SRC to its src/)`,
    };
  }
  const candidates = [
    process.env.PYTHON2,
    join(homedir(), ".pyenv", "versions", "2.7.18", "bin", "python2.7"),
    "python2.7",
  ].filter((p): p is string => p !== undefined);
  for (const python of candidates) {
    const r = spawnSync(python, ["-c", "import sys; print(sys.version_info[0])"], {
      encoding: "utf8",
    });
    if (r.status === 0 && r.stdout.trim() === "2") return { src, python };
  }
  return { skip: "no Python 2.7 found (set PYTHON2 to its path)" };
}

/** Median of `xs`. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The load average over the last minute, for the report. */
export function loadAverage(): string {
  const r = spawnSync("cat", ["/proc/loadavg"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.split(" ").slice(0, 3).join(" ") : "unknown";
}
