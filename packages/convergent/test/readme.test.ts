import { readFileSync } from "node:fs";
import { format } from "node:util";
import * as core from "@sched/core";
import { computeMetrics, createJob, createPlatform, simulate } from "@sched/core";
import { expect, it } from "vitest";
import * as convergentPackage from "../src/index.js";
import { convergentVariant } from "../src/index.js";

it("README example", () => {
  const platform = createPlatform({
    machines: [{ speed: 1 }, { speed: 4 }],
    licenses: [{ name: "cad", copies: 1 }],
  });
  const jobs = [
    createJob({ id: 1, submit: 0, runtime: 100, cores: 1 }),
    createJob({ id: 2, submit: 0, runtime: 100, cores: 1, deadline: 40 }),
    createJob({ id: 3, submit: 10, runtime: 20, cores: 1, deadline: 60, licenses: { cad: 1 } }),
  ];
  const trace = simulate(jobs, platform, convergentVariant("CS_ip"));
  const runs = trace.records.map((r) => [
    r.job.id,
    r.intervals.map((iv) => [iv.start, iv.end, iv.allocation[0]?.machine]),
  ]);
  expect(runs).toEqual([
    [1, [[0, 100, 0]]],
    [2, [[0, 25, 1]]], // the deadline job gets the fast machine
    [3, [[25, 30, 1]]], // not urgent: waits for the fast machine rather than preempting
  ]);
  expect(computeMetrics(trace).deadlineMissRate).toBe(0);
});

// The live-loop example, run as it is written in the README: the ```ts block that calls
// convergentPass, its import lines dropped (the names they import are passed in), its
// console.log captured as Node prints it, and the output compared with the "// " lines that
// end the block.
it("README live-loop example: convergentPass on a hand-built farm", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);
  const block = blocks.find((b) => b.includes("convergentPass({"));
  expect(block).toBeDefined();
  const lines = (block as string).split("\n");
  expect(lines.filter((l) => l.trim() !== "").length).toBeLessThan(15);
  const modules: Record<string, Record<string, unknown>> = {
    "@sched/core": core,
    "@sched/convergent": convergentPackage,
  };
  const imported = lines
    .filter((l) => l.startsWith("import "))
    .flatMap((l) => {
      const [, names, from] = /\{([^}]*)\} from "([^"]+)"/.exec(l) as RegExpExecArray;
      return (names as string).split(",").map((n) => [n.trim(), from as string] as const);
    });
  const values = imported.map(([name, from]) => modules[from]?.[name]);
  expect(values.every((v) => v !== undefined)).toBe(true);
  const code = lines.filter((l) => !l.startsWith("import ")).join("\n");
  const expected = lines.filter((l) => l.startsWith("// ")).map((l) => l.slice(3));
  const printed: string[] = [];
  const log = (...args: unknown[]) => printed.push(format(...args));
  new Function(...imported.map(([name]) => name), "console", code)(...values, { log });
  expect(printed).toEqual(expected);
});
