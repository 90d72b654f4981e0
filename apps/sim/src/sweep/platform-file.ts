import { ParseError, type Platform, SchedError } from "@sched/core";
import { parsePlatformJson } from "@sched/workload";
import { describeFsError } from "../atomic.js";
import { MAX_JSON_BYTES, MAX_PROCS } from "../limits.js";
import { readTextFile } from "../swf-input.js";
import { inCommand } from "../user-message.js";

/**
 * The machines of the platform file at `path` (JSON, what `sched-sim gen --platform` writes:
 * @sched/workload's `parsePlatformJson`), read as `sched-sim run --platform` reads it: plain or
 * gzipped, at most {@link MAX_JSON_BYTES} bytes, at most {@link MAX_PROCS} processors.
 *
 * @throws ParseError said by `command` naming the file (and its line and column, or its field)
 *   when it is not a valid platform; an Error naming it when it cannot be read.
 */
export async function readPlatformFile(path: string, command: string): Promise<Platform> {
  let text: string;
  try {
    text = await readTextFile(path, { where: command, maxBytes: MAX_JSON_BYTES });
  } catch (error) {
    if (error instanceof SchedError) throw error;
    throw new Error(`cannot read ${path}: ${describeFsError(error)}`, { cause: error });
  }
  let platform: Platform;
  try {
    platform = parsePlatformJson(text, { source: path });
  } catch (error) {
    throw inCommand(error, command);
  }
  if (platform.totalCores > MAX_PROCS) {
    throw new ParseError(
      command,
      { source: path },
      `has ${platform.totalCores} processors, above the ${MAX_PROCS} a simulated machine may have`,
    );
  }
  return platform;
}
