import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "./helpers.js";

/**
 * Every numeric flag of every command reads one form (integers: digits only; reals: decimal,
 * exponent allowed) and the same flag has the same bounds on every command.
 */
describe("numeric flags", () => {
  const swf = fixture("small.swf");

  it("--procs is a whole number from 1 to 1000000 on run, inspect, convert, demo and gen", async () => {
    const out = join(await tempDir(), "g.swf");
    const commands: [string, string[]][] = [
      ["run", ["run", "-w", swf, "--procs"]],
      ["inspect", ["inspect", swf, "--procs"]],
      ["convert", ["convert", swf, "--to", "native", "--procs"]],
      ["demo", ["demo", "--jobs", "10", "--procs"]],
      ["gen lublin", ["gen", "lublin", "--jobs", "5", "--out", out, "--procs"]],
    ];
    for (const [name, argv] of commands) {
      for (const bad of ["1e2", "0", "1000001", "2.0", "0x10", "-5"]) {
        const r = await cli(...argv, bad);
        expect(r.code, `${name} --procs ${bad}`).toBe(2);
        expect(r.stderr).toBe(
          `sched-sim: ${name}: option --procs must be a whole number from 1 to 1000000 (digits only), got '${bad}'\n`,
        );
      }
    }
  });

  it("integer flags refuse exponent notation on every command, gen's model options included", async () => {
    const out = join(await tempDir(), "g.swf");
    const cases: [string[], string][] = [
      [["demo", "--jobs", "1e3"], "demo: option --jobs must be a whole number from 1 to 1000000"],
      [["demo", "--seed", "1e3"], "demo: option --seed must be a whole number of at least 0"],
      [
        ["gen", "lublin", "--jobs", "1e3", "--out", out],
        "gen lublin: option --jobs must be a whole number (digits only), got '1e3'",
      ],
      [
        ["gen", "lublin", "--seed", "-1", "--out", out],
        "gen lublin: option --seed must be a whole number of at least 0",
      ],
      [
        ["run", "-w", swf, "--max-events", "1e6"],
        "run: option --max-events must be a whole number of at least 0",
      ],
      [
        ["run", "-w", swf, "--max-stalled-events", "1e6"],
        "run: option --max-stalled-events must be a whole number of at least 1",
      ],
      [
        ["run", "-w", swf, "-s", "backfill", "--opt", "reservations=1e1"],
        "option --opt reservations=1e1: expected an integer >= 0 or inf",
      ],
      [
        ["reproduce", "convergent", "--seeds", "1e1"],
        "reproduce: option --seeds must be a whole number from 1 to 10000",
      ],
      [
        ["reproduce", "convergent", "--jobs", "1e1"],
        "reproduce: option --jobs must be a whole number from 1 to 256",
      ],
      [
        ["reproduce", "fcfs-load", "--set", "jobs=1e3", "--quick"],
        "--set jobs=1e3: expected an integer",
      ],
      [
        ["sweep", "x.json", "--out", "x", "--jobs", "1e1"],
        "sweep: option --jobs must be a whole number from 1 to 256",
      ],
      [
        ["worker", "--queue", "redis://127.0.0.1:1", "--jobs", "1e1"],
        "worker: option --jobs must be a whole number from 1 to 256",
      ],
    ];
    for (const [argv, message] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr, argv.join(" ")).toContain(message);
    }
  });

  it("real flags take decimal and exponent notation, and refuse other forms", async () => {
    const a = await cli("demo", "--jobs", "20", "--load", "0.5", "--format", "json");
    const b = await cli("demo", "--jobs", "20", "--load", "5e-1", "--format", "json");
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    for (const bad of ["0x1", "Infinity", "", "0"]) {
      const r = await cli("demo", "--jobs", "20", `--load=${bad}`);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain(
        `option --load must be a decimal number greater than 0 and at most 10 (e.g. 0.5 or 5e-1), got '${bad}'`,
      );
    }
    const out = join(await tempDir(), "g.jsonl");
    const r = await cli("gen", "advance-reservation", "--jobs", "5", "--uMed", "0x7", "--out", out);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "gen advance-reservation: option --uMed must be a decimal number (e.g. 0.5 or 5e-1), got '0x7'",
    );
  });
});
