import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, tempDir } from "./helpers.js";
import { writeExperiment } from "./sweep-helpers.js";

/** Every reader of a JSON file says where its syntax breaks: `FILE:LINE:COLUMN: …`. */
describe("JSON syntax errors name the file, line and column", () => {
  it("an experiment file (sweep)", async () => {
    const file = await writeExperiment(
      '{\n  "name": "x",\n  "workload": {"type": "synthetic"},\n  "schedulers": ["easy",],\n  "seeds": 1\n}\n',
    );
    const r = await cli("sweep", file, "--out", `${file}.out`);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `sched-sim: sweep: ${file}:4:25: not valid JSON (Unexpected token ']')\n`,
    );
  });

  it("a Batsim workload (convert, run through convert's reader)", async () => {
    const dir = await tempDir();
    const file = join(dir, "w.json");
    await writeFile(
      file,
      '{\n  "nb_res": 4,\n  "jobs": [\n    {"id": 1, "subtime": 0 "res": 1}\n  ],\n  "profiles": {}\n}\n',
    );
    const r = await cli("convert", file, "--from", "batsim", "--to", "native");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `sched-sim: convert: ${file}:4:28: is not valid JSON (Expected ',' or '}' after property value)\n`,
    );
  });

  it("a native JSON Lines workload (inspect, convert, run): the line of the file and the column on it", async () => {
    const dir = await tempDir();
    const file = join(dir, "w.jsonl");
    await writeFile(
      file,
      '{"id":1,"submit":0,"runtime":10,"cores":1}\n  {"id":2,"submit":5,"runtime":10,"cores":1,}\n',
    );
    for (const argv of [
      ["inspect", file],
      ["convert", file, "--to", "swf"],
    ]) {
      const r = await cli(...argv);
      expect(r.code, argv[0]).toBe(1);
      expect(r.stderr).toBe(
        `sched-sim: ${argv[0]}: ${file}:2:45: is not valid JSON (Expected double-quoted property name)\n`,
      );
    }
  });
});
