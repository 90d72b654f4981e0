import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, Socket } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { tempDir } from "./helpers.js";

const run = promisify(execFile);
export const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Where Debian's redis-server is, if anywhere on this machine. */
export function redisServerPath(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":").concat(["/usr/bin", "/usr/sbin"])) {
    const p = join(dir, "redis-server");
    if (dir !== "" && existsSync(p)) return p;
  }
  return undefined;
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Send PING; true when Redis answers PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

/** A redis-server this test file started, or why there is none. */
export interface TestRedis {
  readonly url?: string;
  readonly skipReason?: string;
  stop(): Promise<void>;
}

/**
 * Start a throw-away redis-server on a free loopback port (no persistence, in a temporary
 * folder). When there is no redis-server, or it does not answer within 5 s, returns a skip reason.
 */
export async function startRedis(): Promise<TestRedis> {
  const server = redisServerPath();
  if (server === undefined) {
    return {
      skipReason:
        "redis-server is not installed (Debian: apt-get install redis-server); queue tests skipped",
      stop: async () => {},
    };
  }
  const dir = await tempDir();
  const port = await freePort();
  const child = spawn(
    server,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ],
    { stdio: "ignore" },
  );
  // A watchdog kills the server if this process dies without stopping it (a crashed or
  // interrupted test run leaves no redis-server behind).
  spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -9 ${child.pid} 2>/dev/null`,
    ],
    {
      stdio: "ignore",
      detached: true,
    },
  ).unref();
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 50; i++) {
    if (child.exitCode !== null) break;
    if (await ping(port)) return { url: `redis://127.0.0.1:${port}`, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  return {
    skipReason: `redis-server (${server}) did not start on port ${port}; queue tests skipped`,
    stop,
  };
}

/**
 * Build the real CLI bundle into a fresh folder inside apps/sim/node_modules (so the bundle's
 * external `bullmq` resolves from apps/sim, as it does for dist/cli.js). Returns its path and a
 * clean-up.
 */
export async function buildCli(): Promise<{ cli: string; remove: () => Promise<void> }> {
  const outDir = await mkdtemp(join(appDir, "node_modules", ".sched-sim-test-"));
  try {
    await run("pnpm", ["exec", "tsup", "--out-dir", outDir, "--silent"], { cwd: appDir });
  } catch (error) {
    await rm(outDir, { recursive: true, force: true });
    throw error;
  }
  return {
    cli: join(outDir, "cli.js"),
    remove: () => rm(outDir, { recursive: true, force: true }),
  };
}

/** A child `sched-sim` process and what it printed so far. */
export interface Proc {
  readonly child: ChildProcess;
  stderr: string;
  stdout: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Start `node cli args...`, collecting its output. */
export function startCli(cli: string, args: readonly string[]): Proc {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const proc: Proc = {
    child,
    stderr: "",
    stdout: "",
    exited: new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal }))),
  };
  child.stdout?.on("data", (d: Buffer) => {
    proc.stdout += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    proc.stderr += d.toString();
  });
  return proc;
}

/** Wait until `test()` holds (polling every 10 ms), or fail after `ms`. */
export async function waitFor(test: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The keys a worker's log says it started and finished (`worker H:P: start KEY ...`). */
export function workerLog(stderr: string): {
  started: string[];
  done: string[];
  stalled: string[];
} {
  const started: string[] = [];
  const done: string[] = [];
  const stalled: string[] = [];
  for (const line of stderr.split("\n")) {
    const m = /^worker \S+: (start|done|stalled) (\S+)/.exec(line);
    if (m === null) continue;
    (m[1] === "start" ? started : m[1] === "done" ? done : stalled).push(m[2] as string);
  }
  return { started, done, stalled };
}

/**
 * At-least-once delivery, checked from the workers' logs: a run is delivered (logged `start`)
 * once, plus once more for each time a stalled-job check put it back (logged `stalled` by the
 * worker whose check did); never otherwise. So a run done twice is accepted exactly when its
 * lock expired in between (a killed worker, or one starved of CPU on a busy machine), and a run
 * delivered again without that (a job queued twice, a run taken twice) fails.
 */
export function expectDeliveredOnceUnlessStalled(
  logs: readonly { started: readonly string[]; stalled: readonly string[] }[],
): void {
  const count = (pick: (l: (typeof logs)[number]) => readonly string[]) => {
    const m = new Map<string, number>();
    for (const l of logs) for (const k of pick(l)) m.set(k, (m.get(k) ?? 0) + 1);
    return m;
  };
  const starts = count((l) => l.started);
  const stalls = count((l) => l.stalled);
  for (const [k, n] of starts) {
    const again = stalls.get(k) ?? 0;
    if (n > 1 + again) {
      throw new Error(
        `run ${k} started ${n} times but was put back by a stalled-job check ${again} times: ${JSON.stringify(logs)}`,
      );
    }
  }
}

/** Every run file of DIR without its (wall-clock) timing block, by file name. */
export async function runFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of (await readdir(join(dir, "runs"))).filter((n) => !n.startsWith(".")).sort()) {
    const doc = JSON.parse(await readFile(join(dir, "runs", f), "utf8")) as Record<string, unknown>;
    delete doc.timing;
    out.set(f, JSON.stringify(doc));
  }
  return out;
}
