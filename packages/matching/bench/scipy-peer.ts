import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { MatchingInput } from "../src/index.js";

/** One timed run of SciPy's `linear_sum_assignment`. */
export interface PeerRun {
  /** CPU time of the Python thread around the call (ms). */
  readonly ms: number;
  /** Number of pairs returned. */
  readonly size: number;
  /** Their total cost (minus the total weight). */
  readonly cost: number;
}

/**
 * A long-lived Python process that times SciPy's `linear_sum_assignment` on matrices written
 * to a temporary directory (`bench/scipy-peer.py`), so that a benchmark can alternate it with
 * `mfs` on the same instances in one run. The interpreter is `SCIPY_PYTHON` (default
 * `python3`); {@link ScipyPeer.start} returns `undefined` when it or SciPy is missing.
 */
export class ScipyPeer {
  private readonly dir = mkdtempSync(join(tmpdir(), "sched-matching-scipy-"));
  private readonly lines: AsyncIterator<string>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    /** The versions the peer reported, e.g. "scipy 1.17.1 numpy 2.4.6". */
    readonly versions: string,
    lines: AsyncIterator<string>,
  ) {
    this.lines = lines;
  }

  /** Starts the peer; `undefined` (with the reason on stderr) when it cannot run. */
  static async start(): Promise<ScipyPeer | undefined> {
    const python = process.env.SCIPY_PYTHON ?? "python3";
    const script = fileURLToPath(new URL("./scipy-peer.py", import.meta.url));
    const child = spawn(python, [script], { stdio: ["pipe", "pipe", "pipe"] });
    const failed = new Promise<undefined>((resolve) => {
      child.on("error", (error) => {
        console.error(`scipy peer: cannot run ${python}: ${error.message}`);
        resolve(undefined);
      });
      child.on("exit", (code) => {
        console.error(`scipy peer: ${python} exited with code ${code} (is SciPy installed?)`);
        resolve(undefined);
      });
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const first = await Promise.race([lines.next(), failed]);
    if (first === undefined || first.done === true || !first.value.startsWith("ready ")) {
      if (stderr !== "") console.error(stderr);
      child.kill();
      return undefined;
    }
    child.removeAllListeners("exit");
    return new ScipyPeer(child, first.value.slice("ready ".length), lines);
  }

  private async ask(command: string): Promise<string> {
    this.child.stdin.write(`${command}\n`);
    const answer = await this.lines.next();
    if (answer.done === true) throw new Error(`scipy peer: no answer to "${command}"`);
    return answer.value;
  }

  /** Hands `matrix` to the peer under `name`, as costs: `-w`, `+Infinity` where `w <= 0`. */
  async load(name: string, matrix: MatchingInput): Promise<void> {
    const cost = new Float64Array(matrix.rows * matrix.cols);
    for (let k = 0; k < cost.length; k++) {
      const w = matrix.weights[k]!;
      cost[k] = w > 0 ? -w : Number.POSITIVE_INFINITY;
    }
    const path = join(this.dir, `${name}.f64`);
    writeFileSync(path, cost);
    const answer = await this.ask(`load ${name} ${path} ${matrix.rows} ${matrix.cols}`);
    if (answer !== "ok") throw new Error(`scipy peer: load ${name}: ${answer}`);
  }

  /** Solves the matrix loaded as `name` once, timed by the peer. */
  async run(name: string): Promise<PeerRun> {
    const [ms, size, cost] = (await this.ask(`run ${name}`)).split(" ");
    return { ms: Number(ms), size: Number(size), cost: Number(cost) };
  }

  /** Stops the peer and removes its temporary files. */
  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      this.child.stdin.end("quit\n");
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
