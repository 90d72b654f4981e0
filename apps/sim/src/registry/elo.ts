import {
  COMPETITIVE_DEFAULTS,
  competitiveScheduler,
  maxMinScheduler,
  mctScheduler,
  minMinScheduler,
  RANDOM_SCHEDULER_DEFAULTS,
  randomScheduler,
  TIER_SEARCHES,
} from "@sched/elo";
import type { SchedulerEntry } from "../scheduler-entry.js";
import {
  booleanOption,
  choiceOption,
  given,
  integerOption,
  numberOption,
} from "../scheduler-options.js";

const COMPETITIVE_OPTIONS = [
  integerOption({
    key: "tiers",
    min: 1,
    default: COMPETITIVE_DEFAULTS.tiers,
    description: "Number of tiers (default {default}).",
  }),
  numberOption({
    key: "tierWidth",
    default: COMPETITIVE_DEFAULTS.tierWidth,
    description: "Rating range per tier (default {default}).",
  }),
  numberOption({
    key: "growth",
    default: COMPETITIVE_DEFAULTS.growth,
    description: "Rating growth constant C (default {default}).",
  }),
  numberOption({
    key: "baseRating",
    description: "Starting rating (default tiers x tierWidth / 2).",
  }),
  numberOption({
    key: "overhead",
    default: COMPETITIVE_DEFAULTS.overhead,
    description: "Win-condition overhead, in speed units (default {default}).",
  }),
  numberOption({
    key: "maxSpeed",
    description: "MAXSPEED of the win condition (default the fastest benchmark).",
  }),
  booleanOption({
    key: "stickyTopTier",
    default: COMPETITIVE_DEFAULTS.stickyTopTier,
    description: "Machines never leave the top tier once there (default {default}).",
  }),
  choiceOption({
    key: "levelScale",
    choices: ["log", "linear"],
    default: COMPETITIVE_DEFAULTS.levelScale,
    description: "Job levels: equal bins of log size (default) or of size.",
  }),
  choiceOption({
    key: "tierSearch",
    choices: TIER_SEARCHES,
    default: COMPETITIVE_DEFAULTS.tierSearch,
    description:
      "The 'next best tier' when the job's own is full: faster-first (default {default}), slower-first, or nearest (faster first at equal distance).",
  }),
] as const;

const RANDOM_SEED = integerOption({
  key: "seed",
  default: RANDOM_SCHEDULER_DEFAULTS.seed,
  description: "PRNG seed (default: the run's seed in reproduce and sweep, {default} in run).",
});

/** Competitive matchmaking and its baselines (@sched/elo). */
export const ELO_ENTRIES: readonly SchedulerEntry[] = [
  {
    name: "competitive",
    description:
      "Competitive matchmaking: Elo-rated machines in tiers, a job goes to its level's tier (@sched/elo). One job per machine.",
    options: COMPETITIVE_OPTIONS,
    create: (o) => {
      const [
        tiers,
        tierWidth,
        growth,
        baseRating,
        overhead,
        maxSpeed,
        sticky,
        levelScale,
        tierSearch,
      ] = COMPETITIVE_OPTIONS;
      return competitiveScheduler({
        ...given(tiers, o),
        ...given(tierWidth, o),
        ...given(growth, o),
        ...given(baseRating, o),
        ...given(overhead, o),
        ...given(maxSpeed, o),
        ...given(sticky, o),
        ...given(levelScale, o),
        ...given(tierSearch, o),
      });
    },
  },
  {
    name: "random",
    description: "A uniformly random machine per job, FIFO per machine (@sched/elo).",
    options: [RANDOM_SEED],
    seedOption: RANDOM_SEED.key,
    create: (o) => randomScheduler(given(RANDOM_SEED, o)),
  },
  {
    name: "min-min",
    description: "Batch-mode Min-Min on benchmark-based expected times (@sched/elo).",
    options: [],
    create: () => minMinScheduler(),
  },
  {
    name: "max-min",
    description: "Batch-mode Max-Min on benchmark-based expected times (@sched/elo).",
    options: [],
    create: () => maxMinScheduler(),
  },
  {
    name: "mct",
    description: "Minimum completion time, immediate mode (@sched/elo).",
    options: [],
    create: () => mctScheduler(),
  },
];
