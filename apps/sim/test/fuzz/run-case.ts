import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { InvalidInputError, type Job, ParseError, SchedError } from "@sched/core";
import { batsimToJobs } from "../../src/batsim.js";
import { declaredProcs, readTraceFile, requireJobs } from "../../src/commands/trace-files.js";
import { MAX_JSON_BYTES } from "../../src/limits.js";
import { main } from "../../src/main.js";
import { readExperimentFile } from "../../src/sweep/experiment-file.js";
import { readTextFile } from "../../src/swf-input.js";
import { UsageError } from "../../src/usage-error.js";
import type { FuzzCase } from "./inputs.js";
import {
  batsimVerdict,
  experimentVerdict,
  hasDuplicateKey,
  jsonlVerdict,
  swfVerdict,
  textOf,
  type Verdict,
} from "./oracles.js";

/**
 * How one input ended:
 * - `clean`: read, and the values are exactly what the format's rules say;
 * - `typed`: a typed error naming the file and line, or the record and field, where the rules
 *   say the input is wrong (`error` is its class);
 * - `internal`: anything else thrown (a `TypeError`, `Invalid array length`), an "internal
 *   error" from the CLI, or an exit code other than 0 / 1 for bad data / 2 for bad usage;
 * - `silent`: an input the rules reject was read, or read with other values (a coercion);
 * - `misplaced`: a typed error that names another line or record than the one at fault;
 * - `rejected-valid`: a typed error on an input the rules accept;
 * - `hang`: longer than {@link HANG_MS}.
 */
export type Outcome =
  | { readonly kind: "clean" }
  | { readonly kind: "typed"; readonly error: string }
  | {
      readonly kind: "internal" | "silent" | "misplaced" | "rejected-valid" | "hang";
      readonly detail: string;
    };

/** An input that takes longer than this is counted as a hang. */
export const HANG_MS = 10_000;

interface Read {
  readonly jobs?: readonly Job[];
  readonly procs?: number | undefined;
  readonly plan?: Awaited<ReturnType<typeof readExperimentFile>>;
  readonly error?: unknown;
}

const COMMAND_OPTIONS = ["clean", "estimate"];

/** Read the file as the CLI's readers do, keeping the result or the error. */
async function read(c: FuzzCase, path: string): Promise<Read> {
  try {
    switch (c.format) {
      case "swf":
      case "jsonl": {
        const trace = await readTraceFile("inspect", path, {
          clean: c.swf.clean,
          estimate: c.swf.estimate,
          commandOptions: COMMAND_OPTIONS,
        });
        requireJobs("inspect", path, trace.jobs.length, trace.swf?.report, {
          estimate: trace.estimate ?? "requested",
          commandOptions: COMMAND_OPTIONS,
        });
        return { jobs: trace.jobs, procs: declaredProcs(trace) };
      }
      case "batsim": {
        const text = await readTextFile(path, { where: "convert", maxBytes: MAX_JSON_BYTES });
        const b = batsimToJobs(text, path, "convert");
        requireJobs("convert", path, b.jobs.length);
        return { jobs: b.jobs, procs: b.nbRes };
      }
      case "experiment":
        return { plan: await readExperimentFile(path) };
    }
  } catch (error) {
    return { error };
  }
}

/** The command line that reads the file, and the exit code it must give for each verdict. */
function argv(c: FuzzCase, path: string, dir: string): string[] {
  switch (c.format) {
    case "swf":
      return [
        "inspect",
        path,
        "--json",
        ...(c.swf.clean ? ["--clean"] : []),
        ...(c.swf.estimate === "auto" ? [] : ["--estimate", c.swf.estimate]),
      ];
    case "jsonl":
      return ["inspect", path, "--json"];
    case "batsim":
      return ["convert", path, "--to", "native"];
    case "experiment":
      return ["sweep", path, "--out", join(dir, "out"), "--emit", "k8s"];
  }
}

function typedName(error: unknown): string | undefined {
  if (error instanceof UsageError) return "UsageError";
  if (error instanceof SchedError) return error.constructor.name;
  return undefined;
}

/** Whether a typed error names the place the verdict says is at fault. */
function placeProblem(path: string, error: unknown, v: Verdict): string | null {
  if (v.ok) return null;
  const message = (error as Error).message;
  if (v.record !== undefined) {
    const record = `jobs[${v.record}]`;
    const field =
      error instanceof InvalidInputError || error instanceof ParseError ? (error.field ?? "") : "";
    if (!field.startsWith(record) && !field.includes(`${record}`)) {
      return `expected ${record} (${v.reason}), got: ${message}`;
    }
    return null;
  }
  if (!message.includes(path)) return `does not name the file: ${message}`;
  if (v.line !== undefined && (!(error instanceof ParseError) || error.line !== v.line)) {
    return `expected line ${v.line} (${v.reason}), got: ${message}`;
  }
  return null;
}

/**
 * Write `c` into `dir`, read it with the CLI's reader and with the command line (in-process),
 * compare both with the reference verdict and classify the outcome.
 */
export async function runCase(c: FuzzCase, dir: string): Promise<Outcome> {
  const path = join(dir, c.name);
  await writeFile(path, c.bytes);
  const started = performance.now();
  const got = await read(c, path);
  let stderr = "";
  const code = await main(argv(c, path, dir), {
    stdout: () => undefined,
    stderr: (t) => {
      stderr += t;
    },
  });
  const ms = performance.now() - started;
  if (ms > HANG_MS) return { kind: "hang", detail: `${Math.round(ms)} ms` };

  const thrown = got.error;
  if (thrown !== undefined && typedName(thrown) === undefined) {
    return { kind: "internal", detail: `${(thrown as Error)?.stack ?? String(thrown)}` };
  }
  if (stderr.includes("internal error")) return { kind: "internal", detail: stderr.trim() };
  const expectedCode = thrown === undefined ? 0 : thrown instanceof UsageError ? 2 : 1;
  if (code !== expectedCode) {
    return {
      kind: "internal",
      detail: `exit ${code}, expected ${expectedCode} (${(thrown as Error | undefined)?.message ?? "read fine"}): ${stderr.trim()}`,
    };
  }

  if (c.format === "experiment") {
    const t = textOf(c, false);
    let doc: unknown;
    let parsed = false;
    if (!("error" in t)) {
      try {
        doc = JSON.parse(t.text);
        parsed = true;
      } catch {
        // not JSON: the loader must refuse it
      }
    }
    const verdict = !parsed
      ? { problems: ["not JSON"] }
      : hasDuplicateKey((t as { text: string }).text)
        ? { problems: ["a key twice"] }
        : experimentVerdict(doc);
    if (thrown !== undefined) {
      const message = (thrown as Error).message;
      if (
        !(thrown instanceof UsageError) ||
        !message.startsWith(`sweep: `) ||
        !message.includes(path)
      ) {
        return { kind: "misplaced", detail: message };
      }
      if (verdict.problems.length === 0 && !("registry" in verdict)) {
        return { kind: "rejected-valid", detail: message };
      }
      return { kind: "typed", error: "UsageError" };
    }
    // a registry experiment's file: read without an internal error, a hang or a wrong exit
    // code is all this harness can say (its parameters are the experiment's)
    if ("registry" in verdict) return { kind: "clean" };
    if (verdict.problems.length > 0) {
      return { kind: "silent", detail: `accepted: ${verdict.problems.join("; ")}` };
    }
    const plan = got.plan as NonNullable<Read["plan"]>;
    const e = verdict.expect as NonNullable<typeof verdict.expect>;
    const same =
      plan.name === e.name &&
      isDeepStrictEqual(plan.params, e.params) &&
      isDeepStrictEqual(plan.points, e.points) &&
      isDeepStrictEqual(plan.seeds, e.seeds) &&
      isDeepStrictEqual(plan.metrics, e.metrics) &&
      isDeepStrictEqual(
        plan.schedulers.map((s) => ({ name: s.name, opts: [...s.opts], label: s.label })),
        e.schedulers,
      );
    return same
      ? { kind: "clean" }
      : { kind: "silent", detail: `plan differs: ${JSON.stringify(plan)} vs ${JSON.stringify(e)}` };
  }

  const verdict =
    c.format === "swf" ? swfVerdict(c) : c.format === "jsonl" ? jsonlVerdict(c) : batsimVerdict(c);
  if (verdict.ok) {
    if (thrown !== undefined) {
      return { kind: "rejected-valid", detail: (thrown as Error).message };
    }
    if (
      !isDeepStrictEqual(
        [...(got.jobs ?? [])].map((j) => ({ ...j })),
        verdict.jobs.map((j) => ({ ...j })),
      )
    ) {
      return {
        kind: "silent",
        detail: `jobs differ: ${JSON.stringify(got.jobs)} vs ${JSON.stringify(verdict.jobs)}`,
      };
    }
    if (got.procs !== verdict.procs) {
      return { kind: "silent", detail: `procs ${got.procs} vs ${verdict.procs}` };
    }
    return { kind: "clean" };
  }
  if (thrown === undefined) {
    return { kind: "silent", detail: `accepted although ${verdict.reason}` };
  }
  const place = placeProblem(path, thrown, verdict);
  if (place !== null) return { kind: "misplaced", detail: place };
  return { kind: "typed", error: typedName(thrown) as string };
}
