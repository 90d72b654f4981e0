import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { identicalPool, simulate } from "@sched/core";
import { describe, expect, it } from "vitest";
import { easy } from "../src/presets.js";
import { startsOf } from "./support/run.js";
import { readCleanSwf } from "./support/swf.js";

// bench/python/easy.py is a plain textbook EASY simulator in Python (standard library only),
// written for this package and sharing no code with src/. When python3 is on the machine, it
// is a further oracle: easy() must give every job of every trace in ../shared/data (copied
// into @sched/workload's fixtures) the start it gives.

function hasPython(): boolean {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const script = new URL("../bench/python/easy.py", import.meta.url).pathname;
const fixture = (name: string) =>
  new URL(`../../workload/fixtures/${name}`, import.meta.url).pathname;

describe.skipIf(!hasPython())(
  "easy() against the Python textbook EASY (bench/python/easy.py)",
  () => {
    for (const [name, procs, estimate] of [
      ["KTH-SP2-1996-2.1-cln.swf", 100, "requested"],
      ["hpc2n-alea-3171.swf", 240, "requested"],
      // No requested times in these two: the run time is the estimate.
      ["NASA-iPSC-1993-3.1-cln.swf.gz", 128, "runtime"],
      ["lublin_256.swf", 256, "runtime"],
    ] as const) {
      it(`gives every job of ${name} the Python simulator's start`, () => {
        const dir = mkdtempSync(join(tmpdir(), "easy-py-"));
        try {
          const out = join(dir, "starts.tsv");
          const printed = execFileSync(
            "python3",
            [
              script,
              fixture(name),
              String(procs),
              "--starts",
              out,
              ...(estimate === "runtime" ? ["--runtime-estimates"] : []),
            ],
            {
              encoding: "utf8",
            },
          );
          const expected = new Map<number, number>();
          for (const line of readFileSync(out, "utf8").trim().split("\n")) {
            const [id, t] = line.split("\t").map(Number);
            expected.set(id!, t!);
          }
          const jobs = readCleanSwf(fixture(name), estimate);
          expect(expected.size).toBe(jobs.length);
          const got = startsOf(simulate(jobs, identicalPool(procs), easy()));
          let differ = 0;
          for (const [id, t] of expected) if (got.get(id) !== t) differ++;
          expect(differ).toBe(0);
          expect(printed).toMatch(/mean wait/);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  },
);
