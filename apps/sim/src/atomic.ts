import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Write every file of `files` (path -> contents) so that none is ever seen half-written: each is
 * first written to a temporary file beside it, and only when all temporaries are complete are
 * they renamed over their targets (a rename within a directory is atomic on POSIX file systems).
 * Temporaries get random names (process ids repeat across machines and containers), so several
 * processes may write into one shared folder at once.
 * If any write fails, the temporaries are removed and every existing target is left untouched.
 * Creates the parent directories.
 *
 * @throws Error naming the file that could not be written.
 */
export async function writeFilesAtomic(files: ReadonlyMap<string, string>): Promise<void> {
  const temps: [string, string][] = [];
  try {
    for (const [path, contents] of files) {
      const temp = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
      try {
        await mkdir(dirname(path), { recursive: true });
        temps.push([temp, path]);
        await writeFile(temp, contents, { flag: "wx" });
      } catch (error) {
        throw new Error(`cannot write ${path}: ${describeFsError(error)}`, { cause: error });
      }
    }
    for (const [temp, path] of temps) {
      try {
        await rename(temp, path);
      } catch (error) {
        throw new Error(`cannot write ${path}: ${describeFsError(error)}`, { cause: error });
      }
    }
  } catch (error) {
    await Promise.all(temps.map(([temp]) => rm(temp, { force: true })));
    throw error;
  }
}

/** A one-line description of a file-system error: its code and message without the path noise. */
export function describeFsError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const known: Record<string, string> = {
      ENOENT: "no such file or directory",
      EACCES: "permission denied",
      EISDIR: "is a directory",
      ENOTDIR: "a parent is not a directory",
      EEXIST: "already exists",
      ENOSPC: "no space left on device",
      EROFS: "read-only file system",
    };
    if (code !== undefined && known[code] !== undefined) return known[code] as string;
    return error.message;
  }
  return String(error);
}
