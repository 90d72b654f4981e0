import { WORKLOAD_MODELS } from "@sched/workload";
import type { Experiment } from "../experiments/experiment.js";
import type { ParameterSpec } from "../experiments/parameters.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import { allParameters } from "../experiments/resolve.js";
import type { SchedulerOptionSpec } from "../scheduler-options.js";
import { SCHEDULERS } from "../schedulers.js";

/** The registry's policies an experiment file may name. */
const RUNNABLE = SCHEDULERS.filter((s) => s.experimentOnly === undefined);

import { METRICS } from "./metrics.js";
import { REGISTRY_FILE_KEYS } from "./registry-file.js";

/** A JSON Schema fragment. */
type Schema = { readonly [key: string]: unknown };

/** Where the schema is published in the repository, relative to apps/sim. */
export const SCHEMA_PATH = "experiments/experiment.schema.json";

const NAME: Schema = {
  type: "string",
  pattern: "^[A-Za-z0-9._-]+$",
  description: "The experiment's name: letters, digits, '.', '_' or '-'.",
};

const SEEDS: Schema = {
  description: "A count N (seeds 1..N) or a list of distinct seeds.",
  oneOf: [
    { type: "integer", minimum: 1, maximum: 10000 },
    { type: "array", items: { type: "integer", minimum: 0 }, minItems: 1, uniqueItems: true },
  ],
};

/** The JSON Schema of one value of a parameter or scheduler option. */
function valueSchema(spec: ParameterSpec | SchedulerOptionSpec, description: string): Schema {
  const type = spec.type === "choice" ? "string" : spec.type;
  const out: Record<string, unknown> = { description };
  if ("allowInfinity" in spec && spec.allowInfinity === true) {
    return {
      description,
      oneOf: [{ type: "integer", minimum: spec.min ?? 0 }, { const: "inf" }],
    };
  }
  if (spec.choices !== undefined) out.enum = [...spec.choices];
  else out.type = type === "number" ? "number" : type;
  if ("max" in spec && spec.max !== undefined) out.maximum = spec.max;
  if (spec.min !== undefined) {
    if ("minExclusive" in spec && spec.minExclusive === true) out.exclusiveMinimum = spec.min;
    else out.minimum = spec.min;
  }
  return out;
}

/** `set` and `grid` of an experiment file naming `experiment`: its parameters, typed. */
function registryVariant(experiment: Experiment): Schema {
  const specs = allParameters(experiment, false);
  const one: Record<string, Schema> = {};
  const many: Record<string, Schema> = {};
  for (const s of specs) {
    const d = s.default === undefined ? "" : ` Default ${String(s.default)}.`;
    const value = valueSchema(s, `${s.meaning}${d} Source: ${s.source}.`);
    one[s.name] = value;
    many[s.name] = { type: "array", items: value, minItems: 1, uniqueItems: true };
  }
  return {
    if: { properties: { experiment: { const: experiment.name } }, required: ["experiment"] },
    // biome-ignore lint/suspicious/noThenProperty: "then" is the JSON Schema keyword, not a thenable
    then: {
      properties: {
        set: { type: "object", properties: one, additionalProperties: false },
        grid: { type: "object", properties: many, additionalProperties: false },
        schedulers: {
          type: "array",
          items: {
            enum: experiment
              .schedulers(
                Object.fromEntries(
                  experiment.parameters.flatMap((p) =>
                    p.default === undefined ? [] : [[p.name, p.default]],
                  ),
                ),
              )
              .map((c) => c.label),
          },
          minItems: 1,
          uniqueItems: true,
        },
      },
    },
  };
}

/**
 * `{"name": ..., "options": {...}}` entries of `schedulers`, one variant per registry policy
 * that runs on a workload (not those that run only inside their experiments).
 */
function schedulerVariants(): Schema[] {
  return RUNNABLE.map((s) => ({
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: {
      name: { const: s.name, description: s.description },
      options: {
        type: "object",
        additionalProperties: false,
        properties: Object.fromEntries(
          s.options.map((o) => [o.key, valueSchema(o, o.description)]),
        ),
      },
      label: {
        type: "string",
        minLength: 1,
        description: "Row label (default: name(key=value,...)).",
      },
    },
  }));
}

/** The workload of a file sweep: one variant per `type`. */
function workloadSchema(): Schema {
  return {
    description: "The jobs of every run.",
    oneOf: [
      {
        type: "object",
        additionalProperties: false,
        required: ["type"],
        properties: {
          type: { const: "synthetic", description: "The CLI's seeded synthetic workload." },
          jobs: { type: "integer", minimum: 1, description: "Jobs per run (default 1000)." },
          load: { type: "number", exclusiveMinimum: 0, description: "Offered load (default 0.5)." },
        },
      },
      {
        type: "object",
        additionalProperties: false,
        required: ["type", "path"],
        properties: {
          type: { const: "swf", description: "A Standard Workload Format trace." },
          path: { type: "string", minLength: 1, description: "Relative to the experiment file." },
          clean: { type: "boolean", description: "Drop records the clean-up rules reject." },
          estimate: { enum: ["requested", "runtime"], description: "What a job's estimate is." },
        },
      },
      {
        type: "object",
        additionalProperties: false,
        required: ["type", "path"],
        properties: {
          type: {
            const: "native",
            description:
              'A native JSON Lines workload (what sched-sim gen and convert write), plain or gzipped; its machines: "platform".',
          },
          path: { type: "string", minLength: 1, description: "Relative to the experiment file." },
        },
      },
      {
        type: "object",
        additionalProperties: false,
        required: ["type", "model"],
        properties: {
          type: { const: "model", description: "A generator of @sched/workload (sched-sim gen)." },
          model: { enum: WORKLOAD_MODELS.map((m) => m.name) },
          options: {
            type: "object",
            description: "The model's options as `sched-sim gen` names them (not seed).",
            additionalProperties: { type: ["number", "string", "boolean", "array"] },
          },
        },
      },
      {
        type: "object",
        additionalProperties: false,
        required: ["type"],
        properties: {
          type: { const: "elo", description: "@sched/elo's instance: machines of hidden speed." },
          machines: { type: "integer", minimum: 1, description: "Machines (default 30)." },
          jobs: { type: "integer", minimum: 1, description: "Jobs (default 10)." },
          fluctuation: {
            type: "number",
            minimum: 0,
            description: "Fluctuation of the hidden speeds (default 0.1).",
          },
          load: {
            type: "number",
            minimum: 0,
            description: "Offered load (default 0: every job at time 0).",
          },
        },
      },
    ],
  };
}

/**
 * The JSON Schema (draft 2020-12) of `sched-sim sweep` experiment files, built from the registries
 * (schedulers and their options, workload models, metrics, the experiments and their
 * parameters), so an editor completes and checks every name. The loader stays the authority
 * (it also checks what a schema cannot: files exist, parameters contradict each other); a test
 * checks that the committed schema is this one and that the examples validate.
 */
export function experimentSchema(): Schema {
  const metrics = [
    ...new Set([
      ...METRICS.map((m) => m.key),
      ...EXPERIMENTS.flatMap((e) => e.metrics.map((m) => m.key)),
    ]),
  ];
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://github.com/sched-dev/sched/blob/main/apps/sim/experiments/experiment.schema.json",
    title: "sched-sim experiment file",
    description:
      "An experiment for `sched-sim sweep FILE --out DIR`: either a workload, schedulers and a grid, or a registry experiment (`experiment`) with parameters set and varied.",
    type: "object",
    required: ["name"],
    properties: {
      $schema: { type: "string" },
      name: NAME,
      title: { type: "string" },
      description: { type: "string" },
      seeds: SEEDS,
      metrics: { type: "array", items: { enum: metrics }, minItems: 1 },
    },
    oneOf: [
      {
        description: "A workload, schedulers and a grid of workload parameters.",
        required: ["workload", "schedulers"],
        not: { required: ["experiment"] },
        properties: {
          workload: workloadSchema(),
          platform: {
            oneOf: [
              {
                type: "object",
                additionalProperties: false,
                properties: { procs: { type: "integer", minimum: 1 } },
                description: "N identical processors (synthetic, swf, native).",
              },
              {
                type: "string",
                minLength: 1,
                description:
                  "A platform file (what sched-sim gen --platform writes), relative to the experiment file: swf and native workloads only.",
              },
            ],
          },
          schedulers: {
            type: "array",
            minItems: 1,
            items: { oneOf: [{ enum: RUNNABLE.map((s) => s.name) }, ...schedulerVariants()] },
          },
          grid: {
            type: "object",
            additionalProperties: { type: "array", items: { type: "number" }, minItems: 1 },
          },
        },
        // A platform file is for a trace (swf, native) only.
        if: { required: ["platform"], properties: { platform: { type: "string" } } },
        // biome-ignore lint/suspicious/noThenProperty: "then" is the JSON Schema keyword, not a thenable
        then: {
          properties: {
            workload: { required: ["type"], properties: { type: { enum: ["swf", "native"] } } },
          },
        },
        propertyNames: {
          enum: [
            "$schema",
            "name",
            "title",
            "description",
            "workload",
            "platform",
            "schedulers",
            "grid",
            "seeds",
            "metrics",
          ],
        },
      },
      {
        description:
          "A registry experiment (sched-sim reproduce --list) with parameters set and varied.",
        required: ["experiment"],
        properties: {
          experiment: { enum: EXPERIMENTS.map((e) => e.name) },
          quick: { type: "boolean", description: "The --quick defaults and grid." },
          set: { type: "object", description: "Parameter -> value, as reproduce --set." },
          grid: { type: "object", description: "Parameter -> values, as reproduce --vary." },
          schedulers: { type: "array", description: "Labels of the policies to keep." },
        },
        propertyNames: { enum: [...REGISTRY_FILE_KEYS] },
        allOf: EXPERIMENTS.map(registryVariant),
      },
    ],
  };
}
