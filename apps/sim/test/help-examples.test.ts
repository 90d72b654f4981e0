import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmod, copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "../src/main.js";
import { fixture, tempDir } from "./helpers.js";
import { appDir, buildCli, startRedis, type TestRedis } from "./queue-helpers.js";

// Every example of every command's --help, typed as a user would: in a shell, in a folder with
// the files the examples name (excerpts of the real logs under their names), `sched-sim` on the
// PATH (the built bundle). Each must exit 0; machine-readable output must parse. Commands that
// need Redis get a throw-away local redis-server in place of the example's address, and are
// skipped with a message where there is none; a worker, which serves until stopped, is stopped
// with SIGTERM once it has connected and must then exit 0.

const run = promisify(execFile);
const EXAMPLE_REDIS = /redis:\/\/10\.0\.0\.5:6379/g;
/** The order in which examples run: each finds the files earlier ones wrote. */
const ORDER = [
  "demo",
  "gen",
  "inspect",
  "run",
  "convert",
  "sweep",
  "compare",
  "report",
  "reproduce",
  "worker",
  "schedulers",
];

/**
 * Examples that run a whole paper experiment (a minute or more of CPU at its --quick size) run
 * here at a smaller scale: the example as written with these arguments appended, so the test
 * still checks that it parses and runs, in seconds. Their full size is covered by the
 * experiment's own tests and the committed results.
 */
const SCALED: readonly (readonly [RegExp, string])[] = [
  [/^sched-sim reproduce convergent --quick/, " --seeds 1 --set jobs=60"],
];

/** The example as the test runs it (see {@link SCALED}). */
function scaled(example: string): string {
  const s = SCALED.find(([pattern]) => pattern.test(example));
  return s === undefined ? example : `${example}${s[1]}`;
}

let work = "";
let env: NodeJS.ProcessEnv = {};
let redis: TestRedis = { stop: async () => {} };
let removeBuild: () => Promise<void> = async () => {};

beforeAll(async () => {
  const { cli, remove } = await buildCli();
  removeBuild = remove;
  work = await tempDir();
  const bin = join(work, ".bin");
  await mkdir(bin);
  await writeFile(join(bin, "sched-sim"), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`);
  await chmod(join(bin, "sched-sim"), 0o755);
  env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` };
  const kth = await readFile(fixture("kth-sp2-head.swf"));
  await writeFile(join(work, "KTH-SP2-1996-2.1-cln.swf"), kth);
  await writeFile(join(work, "trace.swf"), kth);
  await writeFile(join(work, "trace.swf.gz"), gzipSync(kth));
  await copyFile(fixture("nasa-ipsc-head.swf.gz"), join(work, "NASA-iPSC-1993-3.1-cln.swf.gz"));
  await mkdir(join(work, "experiments"));
  for (const f of ["load.json", "experiment.schema.json"]) {
    await copyFile(join(appDir, "experiments", f), join(work, "experiments", f));
  }
  redis = await startRedis();
  if (redis.skipReason !== undefined) console.warn(`help-examples.test.ts: ${redis.skipReason}`);
}, 180_000);

afterAll(async () => {
  await redis.stop();
  await removeBuild();
});

/** The example with the documentation's Redis address replaced by the test's server. */
function localized(example: string): string {
  return redis.url === undefined ? example : example.replace(EXAMPLE_REDIS, redis.url);
}

/** A file the example redirects its stdout to, if any. */
function redirect(example: string): string | undefined {
  return /\s>\s*(\S+)\s*$/.exec(example)?.[1];
}

/** Start a long-running example, wait until it has said something, stop it, return its code. */
async function serveAndStop(example: string): Promise<{ code: number | null; stderr: string }> {
  const child: ChildProcess = spawn("sh", ["-c", `exec ${example}`], { cwd: work, env });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  for (let i = 0; i < 100 && stderr === "" && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  return { code: await exited, stderr };
}

const ordered = [...COMMANDS].sort(
  (a, b) => ORDER.indexOf(a.spec.name) - ORDER.indexOf(b.spec.name),
);

describe("every --help example runs as written", () => {
  it("every command is in the order above and has examples", () => {
    for (const c of COMMANDS) {
      expect(ORDER, c.spec.name).toContain(c.spec.name);
      expect(c.spec.examples.length, c.spec.name).toBeGreaterThan(0);
    }
  });

  for (const command of ordered) {
    for (const example of command.spec.examples) {
      const needsRedis = EXAMPLE_REDIS.test(example);
      EXAMPLE_REDIS.lastIndex = 0;
      it(`${command.spec.name}: ${example}`, async (ctx) => {
        if (needsRedis && redis.url === undefined) ctx.skip();
        expect(example.startsWith("sched-sim ")).toBe(true);
        const line = scaled(localized(example));
        if (/^sched-sim worker /.test(line)) {
          const r = await serveAndStop(line);
          expect(r.code, r.stderr).toBe(0);
          return;
        }
        const r = await run("sh", ["-c", line], { cwd: work, env, maxBuffer: 64 << 20 }).catch(
          (e: { code: number; stdout: string; stderr: string }) => e,
        );
        expect("code" in r ? r.code : 0, `${line}\n${r.stderr}`).toBe(0);
        const file = redirect(line);
        if (file !== undefined) {
          expect((await stat(join(work, file))).size).toBeGreaterThan(0);
          if (file.endsWith(".json")) JSON.parse(await readFile(join(work, file), "utf8"));
        } else if (/--format json|--json/.test(line)) {
          JSON.parse(r.stdout);
        }
      });
    }
  }
});
