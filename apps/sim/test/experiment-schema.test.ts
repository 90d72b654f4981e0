import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { stableJson } from "../src/format.js";
import { planFromDocument } from "../src/sweep/experiment-file.js";
import { experimentSchema, SCHEMA_PATH } from "../src/sweep/experiment-schema.js";
import { cli, tempDir } from "./helpers.js";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const schemaFile = join(appDir, SCHEMA_PATH);
const examples = join(appDir, "experiments");

let compiled: ReturnType<Ajv2020["compile"]> | undefined;
function validator() {
  compiled ??= new Ajv2020({ allErrors: true, strict: false }).compile(experimentSchema());
  return compiled;
}

describe("the JSON Schema of experiment files", () => {
  it(`the committed ${SCHEMA_PATH} is the one the registries give (UPDATE_SCHEMA=1 rewrites it)`, async () => {
    const schema = experimentSchema();
    if (process.env.UPDATE_SCHEMA === "1") await writeFile(schemaFile, stableJson(schema as never));
    // compared as data: the file is formatted by the repository's formatter
    expect(JSON.parse(await readFile(schemaFile, "utf8"))).toEqual(schema);
  });

  it("every example file names it in $schema, validates against it and loads", async () => {
    const validate = validator();
    const files = (await readdir(examples)).filter(
      (f) => f.endsWith(".json") && f !== "experiment.schema.json",
    );
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const doc = JSON.parse(await readFile(join(examples, f), "utf8"));
      expect(doc.$schema, f).toBe("./experiment.schema.json");
      expect(validate(doc), `${f}: ${JSON.stringify(validate.errors)}`).toBe(true);
      await expect(planFromDocument(doc, f, examples)).resolves.toBeDefined();
    }
  });

  it("rejects what the loader rejects: unknown keys, scheduler names and options, parameters, types", async () => {
    const validate = validator();
    const base = { name: "x", workload: { type: "synthetic" }, schedulers: ["easy"] };
    const bad: unknown[] = [
      { ...base, grdi: {} },
      { ...base, schedulers: ["esay"] },
      { ...base, schedulers: [{ name: "easy", options: { order: "random" } }] },
      { ...base, schedulers: [{ name: "easy", options: { nope: 1 } }] },
      { ...base, workload: { type: "synthetic", jobs: 0 } },
      { ...base, seeds: 0 },
      { name: "x", experiment: "convergent", set: { noSuchKnob: 1 } },
      { name: "x", experiment: "convergent", set: { antiAging: "0" } },
      { name: "x", experiment: "convergent", grid: { knapsack: ["greedy", "optimal"] } },
      { name: "x", experiment: "convergent", schedulers: ["cs-zz"] },
      { name: "x", experiment: "no-such-experiment" },
      { name: "x", experiment: "convergent", workload: { type: "synthetic" } },
      { ...base, workload: { type: "elo", meanInterarrival: 2 } },
      { ...base, workload: { type: "native" } },
      { ...base, workload: { type: "native", path: "x.jsonl", clean: true } },
      { ...base, platform: "p.json" },
    ];
    for (const doc of bad) {
      expect(validate(doc), JSON.stringify(doc)).toBe(false);
      await expect(
        planFromDocument(doc, "x.json", examples),
        JSON.stringify(doc),
      ).rejects.toThrow();
    }
    const good: unknown[] = [
      { ...base, schedulers: ["easy", { name: "backfill", options: { reservations: "inf" } }] },
      {
        ...base,
        workload: { type: "elo", machines: 8, jobs: 4, fluctuation: 0.2, load: 0.5 },
        schedulers: ["mct"],
      },
      {
        name: "x",
        experiment: "convergent",
        quick: true,
        set: { antiAging: 0 },
        grid: { interArrival: [4, 8] },
      },
      {
        name: "x",
        experiment: "convergent",
        set: { "cs-ip.antiAging": 0.1 },
        schedulers: ["cs-ip", "edf"],
      },
    ];
    for (const doc of good) {
      expect(validate(doc), `${JSON.stringify(doc)}: ${JSON.stringify(validate.errors)}`).toBe(
        true,
      );
      await expect(planFromDocument(doc, "x.json", examples)).resolves.toBeDefined();
    }
  });

  it("a native workload, on a platform file or {procs}, validates and loads; a platform file with another type does neither", async () => {
    const validate = validator();
    const dir = await tempDir();
    const jobs = join(dir, "mc.jsonl");
    const gen = await cli(
      "gen",
      "multicluster",
      "--jobs",
      "5",
      "--out",
      jobs,
      "--platform",
      join(dir, "mc.json"),
    );
    expect(gen.code, gen.stderr).toBe(0);
    const base = {
      name: "x",
      workload: { type: "native", path: "mc.jsonl" },
      schedulers: ["easy"],
    };
    for (const doc of [
      base,
      { ...base, platform: "mc.json" },
      { ...base, platform: { procs: 16 }, grid: { procs: [8, 16] } },
    ]) {
      expect(validate(doc), `${JSON.stringify(doc)}: ${JSON.stringify(validate.errors)}`).toBe(
        true,
      );
      await expect(planFromDocument(doc, "x.json", dir)).resolves.toBeDefined();
    }
    for (const doc of [
      { ...base, workload: { type: "synthetic" }, platform: "mc.json" },
      { ...base, platform: "" },
      { ...base, platform: { procs: 0 } },
    ]) {
      expect(validate(doc), JSON.stringify(doc)).toBe(false);
      await expect(planFromDocument(doc, "x.json", dir), JSON.stringify(doc)).rejects.toThrow();
    }
  });
});
