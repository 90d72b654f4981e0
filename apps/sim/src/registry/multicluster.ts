import {
  ALLOCATION_CANDIDATES,
  CLUSTER_PROXIMITIES,
  CLUSTER_SELECTIONS,
  DYNAMIC_ALLOTMENTS,
  OAS_HEURISTIC_DEFAULTS,
  OAS_RULES,
  OAS_SOLVE_DEFAULTS,
  type OasRule,
  oasHeuristic,
  SPACE_SHARING_DEFAULTS,
  spaceSharingScheduler,
} from "@sched/multicluster";
import { experimentOnlyEntry, type SchedulerEntry } from "../scheduler-entry.js";
import {
  booleanOption,
  choiceOption,
  given,
  integerOption,
  numberOption,
} from "../scheduler-options.js";

const ALPHA = integerOption({
  key: "alpha",
  min: 0,
  default: SPACE_SHARING_DEFAULTS.alpha,
  description:
    "Space-sharing threshold: the head starts once min(target, alpha) processors are idle (default {default}).",
});

const CLUSTER_SELECTION = choiceOption({
  key: "clusterSelection",
  choices: CLUSTER_SELECTIONS,
  default: SPACE_SHARING_DEFAULTS.clusterSelection,
  description:
    "The cluster a job takes when several have enough idle processors: fastest (its fastest processors fastest in total; default {default}), best-fit (fewest idle), or lowest-index.",
});

const CLUSTER_PROXIMITY = choiceOption({
  key: "clusterProximity",
  choices: CLUSTER_PROXIMITIES,
  default: SPACE_SHARING_DEFAULTS.clusterProximity,
  description:
    "How a job no cluster can hold spreads, from the cluster with the most idle processors: line (the others by index distance; default {default}), fewest-clusters (the others by most idle), or fastest (the fastest idle processors elsewhere).",
});

const DYNAMIC_ALLOTMENT = choiceOption({
  key: "dynamicAllotment",
  choices: DYNAMIC_ALLOTMENTS,
  default: SPACE_SHARING_DEFAULTS.dynamicAllotment,
  description:
    "Processors the head job gets: pool, min(target, idle) once min(target, alpha) are idle (default {default}), or target, exactly target, waiting for that many.",
});

const BASELINE_PARTITION = choiceOption({
  key: "baselinePartition",
  choices: ["map", "rosti"],
  default: SPACE_SHARING_DEFAULTS.baselinePartition,
  description:
    "Partition size: MAP, from every job in the system (default {default}), or Rosti's, from the queued jobs.",
});

const EXECUTING_WEIGHT = numberOption({
  key: "executingWeight",
  default: SPACE_SHARING_DEFAULTS.executingWeight,
  description:
    "MAP: weight of the executing jobs in ceil(P / (queued + 1 + weight x executing)) (default {default}).",
});

const BASELINE_SELECTION = choiceOption({
  key: "baselineSelection",
  choices: ["random", "fastest", "lowest-index"],
  default: SPACE_SHARING_DEFAULTS.baselineSelection,
  description: "Which idle processors it takes (default {default}).",
});

const BASELINE_SEED = integerOption({
  key: "seed",
  default: SPACE_SHARING_DEFAULTS.seed,
  description:
    "Seed of the random processor selection (default: the run's seed in reproduce and sweep, {default} in run).",
});

/** What each OAS list heuristic does (the second multicluster paper's baselines). */
const OAS_RULE_DESCRIPTIONS: Readonly<Record<OasRule, string>> = {
  FCFS: "First come, first served (strict order), OAS's allocation and cost model.",
  SJF: "Smallest job (fewest tasks) first, strict order.",
  BJF: "Biggest job (most tasks) first, strict order.",
  FPFS: "Fit processors first served: the first job in arrival order that fits.",
  SPT: "Shortest base time first, strict order.",
  LPT: "Longest base time first, strict order.",
};

/** The option of the OAS heuristics (`oas-fcfs` … `oas-lpt`, and the OAS experiments' `fcfs` …). */
export const OAS_HEURISTIC_OPTIONS = [
  booleanOption({
    key: "links",
    default: OAS_HEURISTIC_DEFAULTS.links,
    description:
      "Link-aware: start a job only where no link saturates (default {default}); false: the link-blind variant.",
  }),
] as const;

/** The candidate set of the OAS heuristics in `run` and `sweep` (the experiments' parameter of the same name). */
const ALLOCATION_CANDIDATES_OPTION = choiceOption({
  key: "allocationCandidates",
  choices: ALLOCATION_CANDIDATES,
  default: OAS_HEURISTIC_DEFAULTS.allocationCandidates,
  description:
    "The allocations tried for a job: union (the tau fastest free resources, each cluster's fastest, each cluster topped up), fastest (the tau fastest only), or exhaustive (every split of the tasks over the clusters: a best allocation); default {default}.",
});

/** The registry name of an OAS heuristic: `oas-` and the rule in lower case. */
function oasHeuristicName(rule: OasRule): string {
  return `oas-${rule.toLowerCase()}`;
}

/** OAS itself: a MIP over the whole workload, run by the OAS experiments only. */
const OAS_ENTRY: SchedulerEntry = experimentOnlyEntry({
  name: "oas",
  description:
    "OAS: the MIP of Blanco et al. solved by HiGHS within the node budget; its own schedule run by the engine.",
  options: [
    choiceOption({
      key: "replay",
      choices: ["slots", "compact"],
      default: "slots",
      description:
        "How the MIP's schedule runs in the engine: each job at its slot (default), or compacted (same order per machine and allocations, each job as soon as allowed).",
    }),
    booleanOption({
      key: "warmStart",
      default: OAS_SOLVE_DEFAULTS.warmStart,
      description:
        "Hand HiGHS a start: the best of the six slotted list schedules and the heuristics' runs (default {default}: the solver's own schedule).",
    }),
    booleanOption({
      key: "links",
      default: OAS_SOLVE_DEFAULTS.links,
      description: "Keep constraints (21)-(22): no link saturated in any slot (default {default}).",
    }),
  ],
  experimentOnly: {
    reason:
      "it solves one MIP over every job of the workload, known in advance, on a multi-cluster platform with inter-cluster links",
    experiments: ["oas", "oas-links", "oas-slots"],
  },
});

/** The two multi-cluster papers' policies (@sched/multicluster). */
export const MULTICLUSTER_ENTRIES: readonly SchedulerEntry[] = [
  {
    name: "dynamic-space-sharing",
    description:
      "Abawajy's dynamic space sharing on core's engine: the head job on a partition sized from queued and executing jobs, processors held until it ends (the paper's per-bunch release: reproduce space-sharing). A rigid job gets exactly its size, so on an SWF trace it is FCFS (@sched/multicluster).",
    options: [ALPHA, CLUSTER_SELECTION, CLUSTER_PROXIMITY, DYNAMIC_ALLOTMENT],
    create: (o) =>
      spaceSharingScheduler({
        policy: "dynamic",
        ...given(ALPHA, o),
        ...given(CLUSTER_SELECTION, o),
        ...given(CLUSTER_PROXIMITY, o),
        ...given(DYNAMIC_ALLOTMENT, o),
      }),
  },
  {
    name: "adaptive-partitioning",
    description:
      "The space-sharing baseline (MAP/MPAP adaptive partitioning) on core's engine: partition from every job in the system and all P processors, the head waits for that many. A rigid job gets exactly its size, so on an SWF trace it is FCFS (@sched/multicluster).",
    options: [BASELINE_PARTITION, EXECUTING_WEIGHT, BASELINE_SELECTION, BASELINE_SEED],
    seedOption: BASELINE_SEED.key,
    create: (o) =>
      spaceSharingScheduler({
        policy: "adaptive",
        ...given(BASELINE_PARTITION, o),
        ...given(EXECUTING_WEIGHT, o),
        ...given(BASELINE_SELECTION, o),
        ...given(BASELINE_SEED, o),
      }),
  },
  ...OAS_RULES.map(
    (rule): SchedulerEntry => ({
      name: oasHeuristicName(rule),
      description: `OAS list heuristic ${rule} (@sched/multicluster): ${OAS_RULE_DESCRIPTIONS[rule]}`,
      options: [...OAS_HEURISTIC_OPTIONS, ALLOCATION_CANDIDATES_OPTION],
      create: (o) =>
        oasHeuristic(rule, {
          ...given(OAS_HEURISTIC_OPTIONS[0], o),
          ...given(ALLOCATION_CANDIDATES_OPTION, o),
        }),
    }),
  ),
  OAS_ENTRY,
];

/** One line of what OAS heuristic `rule` does (the OAS experiments describe their policies so). */
export function oasRuleDescription(rule: OasRule): string {
  return OAS_RULE_DESCRIPTIONS[rule];
}

/** The OAS entry (the OAS experiments run its options in their own hook). */
export function oasEntry(): SchedulerEntry {
  return OAS_ENTRY;
}
