import { ParseError } from "@sched/core";
import { locationOf, reworded } from "./hints.js";

/**
 * What the user reads of `error`: its message, without the library function's path in front
 * (`@sched/workload/createSwfJobStream: `) when it is a ParseError, whose message names the
 * user's file and line: the path is the library's business, the file and line are the user's.
 */
export function userMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { message } = error;
  if (error instanceof ParseError && error.where.startsWith("@sched/")) {
    const prefix = `${error.where}: `;
    if (message.startsWith(prefix)) return message.slice(prefix.length);
  }
  return message;
}

/**
 * `error` said as an error of `command` when it is a library's ParseError about the user's file
 * (`@sched/workload/createSwfJobStream: FILE:12: (job 9) run time …`): the same location and
 * detail, its where `command`, so the CLI prints `sched-sim: run: FILE:12: …` as it prints its
 * other errors. Anything else is returned unchanged.
 */
export function inCommand(error: unknown, command: string): unknown {
  if (!(error instanceof ParseError) || !error.where.startsWith("@sched/")) return error;
  const at = locationOf(error);
  const said = userMessage(error);
  if (!said.startsWith(at)) return error;
  return reworded(error, command, said.slice(at.length));
}
