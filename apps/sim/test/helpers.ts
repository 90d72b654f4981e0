import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../src/main.js";

/** What one CLI invocation printed and returned. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run `sched-sim argv` in-process, capturing its output. */
export async function cli(...argv: string[]): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

/** Path of a file in test/fixtures. */
export function fixture(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), "fixtures", name);
}

/** A fresh temporary directory. */
export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "sched-sim-test-"));
}

/** An SWF text with field 9 (requested time) unknown (-1) on every job line, as in the NASA log. */
export function withoutRequestedTimes(swf: string): string {
  return swf
    .split("\n")
    .map((line) => {
      if (line.startsWith(";") || line.trim() === "") return line;
      const fields = line.trim().split(/\s+/);
      fields[8] = "-1";
      return fields.join(" ");
    })
    .join("\n");
}
