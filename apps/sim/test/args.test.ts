import { describe, expect, it } from "vitest";
import {
  type CommandSpec,
  commandHelp,
  integerValue,
  parseCommandArgs,
  realValue,
  requirePositionals,
  suggest,
} from "../src/args.js";
import { UsageError } from "../src/usage-error.js";

const spec: CommandSpec = {
  name: "try",
  summary: "A command for tests.",
  description: "",
  options: [
    { name: "procs", short: "p", type: "string", arg: "N", description: "Processors." },
    { name: "clean", type: "boolean", description: "Clean." },
    { name: "opt", type: "string", multiple: true, description: "Options." },
  ],
  positionals: [{ name: "thing", description: "A thing.", required: true }],
  examples: ["sched-sim try x"],
};

function usage(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("parseCommandArgs", () => {
  it("reads long, short, --key=value, flags, repeated options and positionals", () => {
    const parsed = parseCommandArgs(spec, [
      "x",
      "--procs",
      "8",
      "--clean",
      "--opt=a=1",
      "--opt",
      "b=2",
    ]);
    expect(parsed.values).toEqual({ procs: "8", clean: true, opt: ["a=1", "b=2"] });
    expect(parsed.positionals).toEqual(["x"]);
    expect(parseCommandArgs(spec, ["-p", "3"]).values.procs).toBe("3");
  });

  it("treats everything after -- as positionals", () => {
    expect(parseCommandArgs(spec, ["--", "--procs"]).positionals).toEqual(["--procs"]);
  });

  it("rejects an unknown option, naming it and suggesting a close one", () => {
    const message = usage(() => parseCommandArgs(spec, ["--porcs", "4"]));
    expect(message).toContain("unknown option --porcs");
    expect(message).toContain("did you mean --procs?");
    expect(usage(() => parseCommandArgs(spec, ["-x"]))).toContain("unknown option -x");
  });

  it("hints only for a long option: an unknown letter is not a misspelt long name", () => {
    // `-o` is 2 edits from `opt`, and still gets no hint
    expect(usage(() => parseCommandArgs(spec, ["x", "-o"]))).toBe(
      "try: unknown option -o; see 'sched-sim try --help'",
    );
  });

  it("names the option that takes a file only for a command that takes no argument", () => {
    const withOut: CommandSpec = {
      ...spec,
      options: [...spec.options, { name: "out", type: "string", arg: "FILE", description: "Out." }],
    };
    expect(usage(() => parseCommandArgs(withOut, ["a", "b"]))).toBe("try: unexpected argument 'b'");
  });

  it("refuses a retired short flag with its reason, and still reads the long forms", () => {
    const retiring: CommandSpec = {
      ...spec,
      options: [...spec.options, { name: "quick", type: "boolean", description: "Quick." }],
      retiredShorts: { q: "give --quick" },
    };
    expect(usage(() => parseCommandArgs(retiring, ["x", "-q"]))).toBe(
      "try: option -q is not taken: give --quick; see 'sched-sim try --help'",
    );
    expect(parseCommandArgs(retiring, ["x", "--quick"]).values.quick).toBe(true);
  });

  it("says a command that takes its file as an argument does so, when given run's --workload", () => {
    for (const flag of ["--workload", "-w"]) {
      expect(usage(() => parseCommandArgs(spec, [flag, "t.swf"]))).toBe(
        `try: unknown option ${flag} (try takes the file as an argument: sched-sim try <thing>); see 'sched-sim try --help'`,
      );
    }
    // without a positional there is nothing to point to
    const none = { ...spec, positionals: [] };
    expect(usage(() => parseCommandArgs(none, ["--workload", "t.swf"]))).toBe(
      "try: unknown option --workload; see 'sched-sim try --help'",
    );
  });

  it("rejects a missing value, a value on a flag, a repeated single option, an extra positional", () => {
    expect(usage(() => parseCommandArgs(spec, ["--procs"]))).toContain(
      "option --procs needs a value (N)",
    );
    expect(usage(() => parseCommandArgs(spec, ["--procs", "--clean"]))).toContain(
      "--procs needs a value",
    );
    expect(usage(() => parseCommandArgs(spec, ["--clean=yes"]))).toContain(
      "option --clean takes no value",
    );
    expect(usage(() => parseCommandArgs(spec, ["-p", "1", "--procs", "2"]))).toContain(
      "option --procs was given more than once",
    );
    expect(usage(() => parseCommandArgs(spec, ["a", "b"]))).toContain("unexpected argument 'b'");
  });

  it("reads a negative number as a value, and asks for = with any other value starting with a dash", () => {
    expect(parseCommandArgs(spec, ["--procs", "-5"]).values.procs).toBe("-5");
    expect(parseCommandArgs(spec, ["-p", "-0.5"]).values.procs).toBe("-0.5");
    // a point first, as realValue reads it (`.5`): a value too, not a forgotten one
    expect(parseCommandArgs(spec, ["--procs", "-.5"]).values.procs).toBe("-.5");
    expect(parseCommandArgs(spec, ["--opt", "-1e3"]).values.opt).toEqual(["-1e3"]);
    expect(parseCommandArgs(spec, ["--procs=-dir"]).values.procs).toBe("-dir");
    expect(parseCommandArgs(spec, ["-p-x"]).values.procs).toBe("-x");
    expect(usage(() => parseCommandArgs(spec, ["--procs", "-x"]))).toContain(
      "option --procs needs a value (N); a value starting with a dash is given as --procs=-x",
    );
  });

  it("refuses --procs -5 in the command's words (the value reaches the option's own check)", () => {
    const text = parseCommandArgs(spec, ["--procs", "-5"]).values.procs as string;
    expect(usage(() => integerValue("try", "procs", text, 1))).toBe(
      "try: option --procs must be a whole number of at least 1 (digits only), got '-5'",
    );
  });

  it("accepts --help and --debug on every command", () => {
    expect(parseCommandArgs(spec, ["--help", "--debug"]).values).toEqual({
      help: true,
      debug: true,
    });
  });

  it("requirePositionals names the missing argument", () => {
    expect(usage(() => requirePositionals(spec, parseCommandArgs(spec, [])))).toContain(
      "missing argument <thing>",
    );
  });
});

describe("integerValue", () => {
  it("parses integers in range and names the option otherwise", () => {
    expect(integerValue("try", "procs", "12", 1)).toBe(12);
    expect(integerValue("try", "procs", "+12", 1)).toBe(12);
    for (const bad of [
      "0",
      "-3",
      "1.5",
      "abc",
      "",
      "1e3",
      "1.0",
      "0x10",
      "1_000",
      " 5",
      "Infinity",
    ]) {
      expect(usage(() => integerValue("try", "procs", bad, 1))).toBe(
        `try: option --procs must be a whole number of at least 1 (digits only), got '${bad}'`,
      );
    }
    expect(usage(() => integerValue("try", "seeds", "20", 1, 10))).toBe(
      "try: option --seeds must be a whole number from 1 to 10 (digits only), got '20'",
    );
    expect(usage(() => integerValue("try", "x", "1e2"))).toBe(
      "try: option --x must be a whole number (digits only), got '1e2'",
    );
    expect(integerValue("try", "x", "-7")).toBe(-7);
  });

  it("takes both bounds themselves (from min to max, inclusive), and nothing past either", () => {
    expect(integerValue("try", "procs", "1", 1, 1000000)).toBe(1);
    expect(integerValue("try", "procs", "1000000", 1, 1000000)).toBe(1000000);
    expect(integerValue("try", "seeds", "7", 7, 7)).toBe(7);
    for (const bad of ["0", "1000001"]) {
      expect(usage(() => integerValue("try", "procs", bad, 1, 1000000))).toBe(
        `try: option --procs must be a whole number from 1 to 1000000 (digits only), got '${bad}'`,
      );
    }
  });
});

describe("realValue", () => {
  it("parses decimal numbers, exponent included, and refuses other forms naming the bounds", () => {
    for (const [text, value] of [
      ["0.5", 0.5],
      [".5", 0.5],
      ["5e-1", 0.5],
      ["+2.5E1", 25],
      ["-3", -3],
    ] as const) {
      expect(realValue("try", "load", text)).toBe(value);
    }
    for (const bad of ["abc", "", " 1", "0x1", "Infinity", "NaN", "1e999", "1,5", "1_0"]) {
      expect(usage(() => realValue("try", "load", bad))).toBe(
        `try: option --load must be a decimal number (e.g. 0.5 or 5e-1), got '${bad}'`,
      );
    }
    const bounds = { min: 0, minExclusive: true, max: 10 };
    expect(realValue("try", "load", "10", bounds)).toBe(10);
    for (const bad of ["0", "-1", "10.0001"]) {
      expect(usage(() => realValue("try", "load", bad, bounds))).toBe(
        `try: option --load must be a decimal number greater than 0 and at most 10 (e.g. 0.5 or 5e-1), got '${bad}'`,
      );
    }
    expect(usage(() => realValue("try", "x", "-1", { min: 0 }))).toContain("at least 0 (");
  });
});

describe("suggest", () => {
  it("suggests only close candidates", () => {
    expect(suggest("fcsf", ["fcfs", "easy"])).toBe("fcfs");
    expect(suggest("zzzzzz", ["fcfs", "easy"])).toBeUndefined();
  });

  it("takes 2 edits and not 3, and the first of equally close candidates", () => {
    expect(suggest("prxxs", ["procs"])).toBe("procs");
    expect(suggest("pxxxs", ["procs"])).toBeUndefined();
    expect(suggest("ab", ["ac", "ad"])).toBe("ac");
    expect(suggest("ab", ["ad", "ac"])).toBe("ad");
  });
});

describe("commandHelp", () => {
  it("lists usage, every option (with the common ones) and the examples", () => {
    const help = commandHelp(spec);
    expect(help).toMatch(/^Usage: sched-sim try <thing> \[options\]/);
    for (const word of [
      "--procs N",
      "--clean",
      "--opt",
      "(repeatable)",
      "--help",
      "--debug",
      "sched-sim try x",
    ]) {
      expect(help).toContain(word);
    }
  });
});
