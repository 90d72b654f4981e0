import { describe, expect, it } from "vitest";
import { commandHelp } from "../src/args.js";
import { COMMANDS } from "../src/main.js";
import { cli } from "./helpers.js";

describe("sched-sim (top level)", () => {
  it("--help lists the commands and exits 0", async () => {
    const r = await cli("--help");
    expect(r.code).toBe(0);
    for (const c of ["demo", "run", "reproduce", "Exit codes"]) expect(r.stdout).toContain(c);
  });

  it("no command's help says '(repeatable)' twice for one option (the help adds it itself)", () => {
    for (const c of COMMANDS) {
      const repeatable = c.spec.options.filter((o) => o.multiple).length;
      const said = commandHelp(c.spec).split("(repeatable)").length - 1;
      expect(said, c.spec.name).toBe(repeatable);
    }
  });

  it("--version prints the package version", async () => {
    const r = await cli("--version");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("no arguments prints the help to stderr and exits 2", async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("Usage: sched-sim <command>");
  });

  it("an unknown command exits 2 with a one-line message and a suggestion", async () => {
    const r = await cli("rnu");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "sched-sim: unknown command 'rnu' (did you mean run?); see 'sched-sim --help'\n",
    );
  });

  it("an unknown top-level option exits 2 naming it", async () => {
    const r = await cli("--frobnicate");
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option --frobnicate");
  });

  it("its own options go before the command: -V, --debug with another, unknown ones refused", async () => {
    expect((await cli("-V")).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect((await cli("--debug", "--help")).stdout).toContain("Usage: sched-sim <command>");
    expect((await cli("--debug", "rnu")).stderr).toContain("unknown command 'rnu'");
    expect((await cli("-x", "run")).stderr).toBe(
      "sched-sim: unknown option -x; see 'sched-sim --help'\n",
    );
  });

  it("every command has --help with examples (and 'help <command>' prints the same)", async () => {
    const names = COMMANDS.map((c) => c.spec.name);
    expect(names).toEqual(expect.arrayContaining(["sweep", "compare", "report", "convert"]));
    for (const command of names) {
      const r = await cli(command, "--help");
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: sched-sim ${command}`);
      expect(r.stdout, command).toMatch(/\nExamples:\n {2}sched-sim /);
      expect((await cli("help", command)).stdout).toBe(r.stdout);
    }
  });

  it("a bad option of a command exits 2 with a message naming the option", async () => {
    const r = await cli("run", "--workload", "x.swf", "--procz", "4");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^sched-sim: run: unknown option --procz \(did you mean --procs\?\)/);
    expect(r.stderr.split("\n")).toHaveLength(2);
  });
});
