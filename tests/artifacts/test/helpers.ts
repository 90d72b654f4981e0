import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** This workspace (tests/artifacts). */
export const HERE = fileURLToPath(new URL("../", import.meta.url));

/** A published package of the repository. */
export interface Published {
  readonly name: string;
  readonly version: string;
  /** Directory name under packages/. */
  readonly dir: string;
  readonly manifest: Record<string, unknown>;
}

/** Every published (non-private) package under packages/, by directory name. */
export const PUBLISHED: readonly Published[] = readdirSync(join(ROOT, "packages"))
  .filter((dir) => existsSync(join(ROOT, "packages", dir, "package.json")))
  .map((dir) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "packages", dir, "package.json"), "utf8"));
    return { name: manifest.name, version: manifest.version, dir, manifest };
  })
  .filter((p) => p.manifest.private !== true)
  .sort((a, b) => a.dir.localeCompare(b.dir));

/** Runs a command, resolving to its stdout; rejects with its stderr. */
export async function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(command, args, {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${err.stderr || err.message}`);
  }
}

/** pnpm, as the one that runs this test (`npm_execpath`) or from PATH. */
export function pnpm(args: readonly string[], cwd: string): Promise<string> {
  const execpath = process.env.npm_execpath;
  return execpath !== undefined && basename(execpath).startsWith("pnpm")
    ? run(process.execPath, [execpath, ...args], cwd)
    : run("pnpm", args, cwd);
}
