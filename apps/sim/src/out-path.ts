import { stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { describeFsError } from "./atomic.js";
import { UsageError } from "./usage-error.js";

/** What an output option names: a directory the command fills, or one file it writes. */
export type OutPathKind = "dir" | "file";

/**
 * Check, before any work, that the path given to output option `--flag` of `command` can be
 * created or written as a `kind`: not empty, not an existing thing of the other kind, and its
 * nearest existing ancestor a directory (`out.txt/sub` is refused, not found out after a long run
 * as a raw `ENOTDIR`/`EEXIST`). What exists is only read: nothing is created here.
 *
 * @throws UsageError naming the option and the path.
 */
export async function checkOutPath(
  command: string,
  flag: string,
  path: string,
  kind: OutPathKind,
): Promise<void> {
  const where = `${command}: option --${flag}`;
  if (path === "") {
    throw new UsageError(
      `${where}: expected a ${kind === "dir" ? "directory" : "file"} path, got ''`,
      command,
    );
  }
  const found = await statOrMissing(path, `${where} ${path}`, command);
  if (found !== undefined) {
    if (kind === "dir" && !found.isDirectory()) {
      throw new UsageError(`${where} ${path}: exists and is not a directory`, command);
    }
    if (kind === "file" && found.isDirectory()) {
      throw new UsageError(`${where} ${path}: is a directory; give a file name`, command);
    }
    return;
  }
  // missing: it will be created, with its missing parents, under the nearest existing ancestor
  let parent = dirname(resolve(path));
  for (;;) {
    const info = await statOrMissing(parent, `${where} ${path}`, command);
    if (info !== undefined) {
      if (!info.isDirectory()) {
        throw new UsageError(`${where} ${path}: ${parent} is not a directory`, command);
      }
      return;
    }
    const up = dirname(parent);
    if (up === parent) return;
    parent = up;
  }
}

async function statOrMissing(
  path: string,
  where: string,
  command: string,
): Promise<Awaited<ReturnType<typeof stat>> | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR") throw new UsageError(`${where}: a parent is not a directory`, command);
    throw new UsageError(`${where}: ${describeFsError(error)}`, command);
  }
}
