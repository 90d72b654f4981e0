/**
 * Bad usage of the command line: an unknown command or option, a missing or malformed value.
 * `main` prints its message as one line and exits with code 2. The message names the option.
 */
export class UsageError extends Error {
  /** The command it happened in (`run`, `reproduce`, …), or `undefined` at the top level. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
}
