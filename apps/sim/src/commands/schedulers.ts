import { type CommandSpec, flag } from "../args.js";
import type { Command } from "../command.js";
import { schedulersHelp, schedulersMarkdown } from "../schedulers.js";

const spec: CommandSpec = {
  name: "schedulers",
  summary: "List the schedulers --scheduler takes, their options and their defaults.",
  description:
    "Prints the registry of policies (src/schedulers.ts): each scheduler's name, what it is and\n" +
    "its --opt options with their types and defaults, the defaults being those of the policy's\n" +
    "package. A policy that runs only inside its experiments (OAS) says which. With --markdown it\n" +
    "prints the table of the README's 'Schedulers' section instead.",
  options: [
    {
      name: "markdown",
      type: "boolean",
      description: "Print the README's Markdown table (one row per scheduler).",
    },
  ],
  positionals: [],
  examples: ["sched-sim schedulers", "sched-sim schedulers --markdown > schedulers.md"],
};

/** `sched-sim schedulers`. */
export const schedulersCommand: Command = {
  spec,
  async run(args, io) {
    io.stdout(flag(args, "markdown") ? schedulersMarkdown() : `${schedulersHelp()}\n`);
    return 0;
  },
};
