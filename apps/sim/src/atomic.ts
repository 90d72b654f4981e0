import {
  closeSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { readdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/** `crypto.randomUUID`, loaded on first use (the crypto module costs start-up time). */
let uuid: (() => string) | undefined;

async function loadUuid(): Promise<() => string> {
  uuid ??= (await import("node:crypto")).randomUUID;
  return uuid;
}

function tempPath(path: string, id: string): string {
  return join(dirname(path), `.${basename(path)}.${id}.tmp`);
}

/** Bytes (or characters of text) a {@link StreamedFile} holds before it writes them out. */
const FLUSH_AT = 1 << 20;

/**
 * A file written as it is produced (the rows of a long run), for {@link writeFilesAtomic}: the
 * text (`write`) and bytes (`writeBytes`, a byte writer's chunks) go, in order, to a temporary
 * file beside `path`, created (with its directories) only once more
 * than 1 MiB was written, so a short run, or one that fails early, touches the disk only when it
 * commits. `writeFilesAtomic` then renames it over `path` with the other files, all or nothing;
 * `discard` removes the temporary. Writes are synchronous, so a simulation's record callback can
 * write rows as they come.
 */
export class StreamedFile {
  /** What is held, in order: text, and bytes copied from {@link StreamedFile.writeBytes}. */
  private parts: (string | Uint8Array)[] = [];
  private size = 0;
  private fd: number | null = null;
  private temp: string | null = null;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly id: string,
  ) {}

  /** A streamed file for `path` (nothing is created yet). */
  static async create(path: string): Promise<StreamedFile> {
    return new StreamedFile(path, (await loadUuid())());
  }

  /** Drops everything written (and the temporary file) and starts again with `text`. */
  reset(text: string): void {
    this.discard();
    this.closed = false;
    this.temp = null;
    this.parts = [text];
    this.size = text.length;
  }

  /** Appends `text`. @throws Error naming the file when it cannot be written. */
  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_AT) this.flush();
  }

  /**
   * Appends `bytes` (a writer's reusable chunk, say: they are written out or copied before this
   * returns). A chunk of 1 MiB or more, once the file exists, goes straight to it.
   * @throws Error naming the file when it cannot be written.
   */
  writeBytes(bytes: Uint8Array): void {
    if (this.size + bytes.length >= FLUSH_AT) {
      this.parts.push(bytes);
      this.size += bytes.length;
      this.flush();
    } else {
      this.parts.push(bytes.slice());
      this.size += bytes.length;
    }
  }

  /** Writes out what is held and closes the temporary file; returns its path. */
  finish(): string {
    this.flush(true);
    if (this.fd !== null) {
      closeSync(this.fd);
      this.fd = null;
    }
    this.closed = true;
    return this.temp!;
  }

  /** Removes the temporary file, if any. Never throws. */
  discard(): void {
    try {
      if (this.fd !== null) closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = null;
    try {
      if (this.temp !== null) rmSync(this.temp, { force: true });
    } catch {
      // never created (a parent is not a directory, say): nothing to remove
    }
    this.parts = [];
    this.size = 0;
  }

  private flush(always = false): void {
    if (this.closed || (this.size === 0 && !always)) return;
    try {
      if (this.fd === null) {
        this.temp = tempPath(this.path, this.id);
        makeParent(this.path);
        this.fd = openSync(this.temp, "wx");
      }
      const parts = this.parts;
      this.parts = [];
      this.size = 0;
      // Runs of text are joined and written as one string; bytes are written as they are.
      let text: string[] = [];
      for (const part of parts) {
        if (typeof part === "string") {
          text.push(part);
          continue;
        }
        if (text.length > 0) writeSync(this.fd, text.join(""));
        text = [];
        writeAll(this.fd, part);
      }
      if (text.length > 0) writeSync(this.fd, text.join(""));
    } catch (error) {
      throw new Error(`cannot write ${this.path}: ${describeFsError(error)}`, { cause: error });
    }
  }
}

/** `writeSync` of all of `bytes` (a write may take fewer bytes than it is given). */
function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Write every file of `files` (path -> contents, or a {@link StreamedFile} already written) so
 * that none is ever seen half-written: each is first written to a temporary file beside it, and
 * only when all temporaries are complete are they renamed over their targets (a rename within a
 * directory is atomic on POSIX file systems).
 * Temporaries get random names (process ids repeat across machines and containers), so several
 * processes may write into one shared folder at once.
 * If any write fails, the temporaries are removed and every existing target is left untouched.
 * Creates the parent directories.
 *
 * @throws Error naming the file that could not be written.
 */
export async function writeFilesAtomic(
  files: ReadonlyMap<string, string | StreamedFile>,
): Promise<void> {
  const temps: [string, string][] = [];
  const streamed = [...files.values()].filter((f) => f instanceof StreamedFile);
  try {
    const randomUUID = await loadUuid();
    for (const [path, contents] of files) {
      if (contents instanceof StreamedFile) {
        temps.push([contents.finish(), path]);
        continue;
      }
      const temp = tempPath(path, randomUUID());
      try {
        makeParent(path);
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
    for (const f of streamed) f.discard();
    await Promise.all(temps.map(([temp]) => rm(temp, { force: true })));
    throw error;
  }
}

/**
 * One small file written as {@link writeFilesAtomic} writes it (a temporary beside it, renamed
 * over it; the parent directories created), synchronously: for the many small files of a sweep,
 * where a promise per file system call cost the main thread more than the calls (a run file per
 * run). `randomUUID` names the temporary (see {@link writeFilesAtomic}).
 *
 * @throws Error naming the file that could not be written (the temporary removed).
 */
export function writeFileAtomicSync(
  path: string,
  contents: string,
  randomUUID: () => string,
): void {
  const temp = tempPath(path, randomUUID());
  try {
    makeParent(path);
    writeFileSync(temp, contents, { flag: "wx" });
    renameSync(temp, path);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // the write's error is the one to report
    }
    throw new Error(`cannot write ${path}: ${describeFsError(error)}`, { cause: error });
  }
}

/** `crypto.randomUUID`, for {@link writeFileAtomicSync}. */
export async function uuidMaker(): Promise<() => string> {
  return loadUuid();
}

/**
 * Remove the temporaries that writes of `names` into `dir` leave when their process is killed
 * (SIGINT, SIGTERM, SIGKILL: `.jobs.csv.<id>.tmp`), so a run interrupted and started again
 * leaves none behind. Nothing happens when `dir` does not exist. Never throws.
 */
export async function removeLeftTemporaries(dir: string, names: readonly string[]): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  const left = entries.filter(
    (e) => e.endsWith(".tmp") && names.some((n) => e.startsWith(`.${n}.`)),
  );
  await Promise.all(left.map((e) => rm(join(dir, e), { force: true }).catch(() => undefined)));
}

/**
 * `mkdir -p` of `path`'s directory. Node says `EEXIST` when a parent is a file; that is
 * reported as `ENOTDIR` ("a parent is not a directory"), not "already exists".
 */
function makeParent(path: string): void {
  try {
    makeDirs(dirname(path));
  } catch (error) {
    throw parentError(error);
  }
}

/**
 * `mkdir -p DIR` without Node's `recursive: true`, which never returns on some paths (a new
 * directory under `/proc`: the kernel says `ENOENT` and Node 20 retries forever, in `mkdir` and
 * `mkdirSync` alike). Creates the missing directories one by one from the nearest one that
 * exists; one that appears meanwhile (another shard) is fine. Errors are the file system's
 * (`ENOENT`, `EACCES`, `EEXIST` for a file in the way).
 */
export function makeDirs(dir: string): void {
  const missing: string[] = [];
  let d = resolve(dir);
  for (;;) {
    let isDirectory: boolean | undefined;
    try {
      isDirectory = statSync(d).isDirectory();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    if (isDirectory === false) {
      // A file where a directory goes: what mkdir -p (and Node's recursive mkdir) says.
      throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${d}'`), {
        code: "EEXIST",
        path: d,
      });
    }
    if (isDirectory === true) break;
    missing.push(d);
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  for (let k = missing.length - 1; k >= 0; k--) {
    const m = missing[k] as string;
    try {
      mkdirSync(m);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(m).isDirectory()) {
        throw error;
      }
    }
  }
}

function parentError(error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== "EEXIST") return error;
  return Object.assign(new Error("a parent is not a directory", { cause: error }), {
    code: "ENOTDIR",
  });
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
