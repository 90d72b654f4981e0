import {
  type CommandSpec,
  flag,
  integerValue,
  type ParsedArgs,
  requirePositionals,
  stringOption,
  suggest,
} from "../args.js";
import type { Command } from "../command.js";
import type { Experiment } from "../experiments/experiment.js";
import { type ParamValue, parametersHelp, parseParamValue } from "../experiments/parameters.js";
import { EXPERIMENTS } from "../experiments/registry.js";
import {
  allParameters,
  experimentParameter,
  type ParameterRequest,
} from "../experiments/resolve.js";
import { renderTable, wrap } from "../format.js";
import { checkOutPath } from "../out-path.js";
import { driveSweep, planFromExperiment } from "../sweep/drive.js";
import { parameterNote } from "../sweep/parameter-notes.js";
import { UsageError } from "../usage-error.js";
import { defaultJobs } from "./sweep.js";

const spec: CommandSpec = {
  name: "reproduce",
  summary: "Run a named experiment (a grid of parameter values x policies x seeds).",
  description:
    "Runs through the same machinery as 'sweep' (worker threads, resumable results directory)\n" +
    "and prints, per policy and parameter value, each metric's mean and Student-t 95%\n" +
    "confidence half-width over the seeds (seeds 1..N). With --out DIR it writes DIR/runs/,\n" +
    "DIR/results.csv (tidy: scheduler,<param>,metric,mean,ci95,runs; ci95 empty with one seed)\n" +
    "and DIR/runs.csv (every run: key,scheduler,<param>,seed,metric,value,events,decisions),\n" +
    "so 'compare' and 'report' read it; a killed reproduction started again resumes.\n" +
    "Wall-clock timing (schedTimeMs = scheduler ms per scheduling call, i.e. per plan;\n" +
    "schedulerMs; wallMs) is not deterministic, so it is printed in a second table marked\n" +
    "[wall] and written apart,\n" +
    "to DIR/timing.csv (same columns and rows as results.csv; 'compare DIR --timing') and\n" +
    "DIR/runs-timing.csv (each run's schedulerMs and wallMs).\n" +
    "Every heuristic constant, workload parameter, solver budget and reading of the paper is a\n" +
    "parameter: --params lists them (name, default, meaning, source), --set NAME=VALUE changes\n" +
    "one, --vary NAME=A,B,... sweeps one as an extra grid axis (a column of results.csv). The\n" +
    "options of the experiment's schedulers are parameters too, as LABEL.key (cs-ip.antiAging).\n" +
    "DIR/experiment.json records every value used, and a resumed run with other values is\n" +
    "refused. 'sched-sim reproduce --list' lists the experiments.",
  options: [
    { name: "list", short: "l", type: "boolean", description: "List the experiments and exit." },
    {
      name: "params",
      type: "boolean",
      description:
        "List the experiment's parameters (name, default, meaning, source) and exit; with --quick, the --quick defaults.",
    },
    {
      name: "set",
      type: "string",
      multiple: true,
      arg: "NAME=VALUE",
      description: "Set a parameter; on a grid axis, the axis keeps only that value.",
    },
    {
      name: "vary",
      type: "string",
      multiple: true,
      arg: "NAME=A,B,...",
      description:
        "Sweep a parameter over these values: a new grid axis, or new values of an axis.",
    },
    {
      name: "quick",
      type: "boolean",
      description:
        "Smaller grid and workloads (a smoke test: seconds; convergent about a minute of CPU).",
    },
    {
      name: "seeds",
      type: "string",
      arg: "N",
      description:
        "Seeds per point (default: the experiment's own, fewer with --quick; --params prints it).",
    },
    {
      name: "out",
      short: "o",
      type: "string",
      arg: "DIR",
      description:
        "Results directory (runs/, results.csv, runs.csv, timing.csv, runs-timing.csv); resumed if it exists.",
    },
    {
      name: "jobs",
      short: "j",
      type: "string",
      arg: "N",
      description: "Worker threads (default: one per core).",
    },
    {
      name: "json",
      type: "boolean",
      description: "Print the summary (and failures) as JSON on stdout, for scripts.",
    },
    { name: "quiet", type: "boolean", description: "No progress line, no summary line." },
  ],
  positionals: [
    { name: "experiment", description: "Experiment name (see --list).", required: true },
  ],
  examples: [
    "sched-sim reproduce --list",
    "sched-sim reproduce fcfs-load --quick",
    "sched-sim reproduce convergent --params",
    "sched-sim reproduce convergent --quick --set antiAging=0 --out results/no-aging",
    "sched-sim reproduce convergent --quick --vary antiAging=0,0.02,0.1",
    "sched-sim reproduce fcfs-load --quick --seeds 5 --out results/fcfs-load",
    "sched-sim report results/fcfs-load",
  ],
  retiredShorts: {
    q: "it was short for --quick here but is short for --quiet in sweep and worker; give --quick or --quiet",
  },
};

/** `sched-sim reproduce`. */
export const reproduceCommand: Command = {
  spec,
  async run(args, io) {
    if (flag(args, "list")) {
      if (args.positionals.length > 0) {
        throw new UsageError("reproduce: --list takes no experiment name", "reproduce");
      }
      io.stdout(
        renderTable(
          [
            { title: "experiment", align: "left" },
            { title: "what it shows", align: "left" },
          ],
          EXPERIMENTS.map((e) => [e.name, e.title]),
        ),
      );
      return 0;
    }
    requirePositionals(spec, args);
    const name = args.positionals[0] as string;
    const experiment = EXPERIMENTS.find((e) => e.name === name);
    if (experiment === undefined) {
      const hint = suggest(
        name,
        EXPERIMENTS.map((e) => e.name),
      );
      throw new UsageError(
        `reproduce: unknown experiment '${name}'${hint ? ` (did you mean ${hint}?)` : ""}; see 'sched-sim reproduce --list'`,
        "reproduce",
      );
    }
    const quick = flag(args, "quick");
    if (flag(args, "params")) {
      const n = experiment.defaultSeeds(quick);
      io.stdout(
        `${experiment.name}: parameters${quick ? " (--quick defaults)" : ""}; ${n === 1 ? "seed 1" : `seeds 1..${n}`} per point unless --seeds N\n${parametersHelp(allParameters(experiment, quick), quick)}\n`,
      );
      return 0;
    }
    const request = parameterRequest(experiment, quick, args);
    const seedsText = stringOption(args, "seeds");
    const seeds =
      seedsText === undefined
        ? experiment.defaultSeeds(quick)
        : integerValue("reproduce", "seeds", seedsText, 1, 10_000);
    const jobsText = stringOption(args, "jobs");
    const jobs =
      jobsText === undefined ? defaultJobs() : integerValue("reproduce", "jobs", jobsText, 1, 256);
    const out = stringOption(args, "out");
    if (out !== undefined) await checkOutPath("reproduce", "out", out, "dir");
    // planned first: a usage error in --set/--vary prints nothing on stdout
    const plan = planFromExperiment(experiment, { quick, seeds, request });
    if (!flag(args, "json")) {
      // which readings produced the tables below: every value set away from its default
      io.stdout(
        `${experiment.name}: ${experiment.title}\n${wrap(experiment.description)}\n\n${parameterNote(plan)}\n`,
      );
    }
    const { code } = await driveSweep(plan, io, {
      ...(out === undefined ? {} : { out }),
      jobs,
      quiet: flag(args, "quiet"),
      json: flag(args, "json"),
      command: "reproduce",
    });
    return code;
  },
};

/** The `--set` and `--vary` words of `args`, read against the experiment's parameters. */
function parameterRequest(
  experiment: Experiment,
  quick: boolean,
  args: ParsedArgs,
): ParameterRequest {
  const set = new Map<string, ParamValue>();
  const vary = new Map<string, readonly ParamValue[]>();
  const split = (option: string, word: string): [string, string] => {
    const eq = word.indexOf("=");
    if (eq <= 0) {
      throw new UsageError(
        `reproduce: option --${option} ${word}: expected NAME=VALUE${option === "vary" ? "S (comma-separated)" : ""}; see 'sched-sim reproduce ${experiment.name} --params'`,
        "reproduce",
      );
    }
    return [word.slice(0, eq), word.slice(eq + 1)];
  };
  const words = (option: string): readonly string[] =>
    (args.values[option] as readonly string[] | undefined) ?? [];
  for (const word of words("set")) {
    const [name, text] = split("set", word);
    const where = `reproduce: option --set ${word}`;
    const spec = experimentParameter(experiment, quick, name, where, "reproduce");
    if (set.has(name)) throw new UsageError(`${where}: '${name}' set twice`, "reproduce");
    set.set(name, parseParamValue(spec, text, where, "reproduce"));
  }
  for (const word of words("vary")) {
    const [name, text] = split("vary", word);
    const where = `reproduce: option --vary ${word}`;
    const spec = experimentParameter(experiment, quick, name, where, "reproduce");
    if (vary.has(name)) throw new UsageError(`${where}: '${name}' varied twice`, "reproduce");
    vary.set(
      name,
      text.split(",").map((t) => parseParamValue(spec, t, where, "reproduce")),
    );
  }
  return { set, vary };
}
