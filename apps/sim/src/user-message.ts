import { ParseError } from "@sched/core";

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
