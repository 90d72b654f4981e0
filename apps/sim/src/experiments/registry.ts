import { advanceReservationExperiments } from "./advance-reservation.js";
import { convergentReproduction } from "./convergent.js";
import { convergentScalingFigure, convergentWorkloadFigure } from "./convergent-paper-figures.js";
import { eloExperiments } from "./elo.js";
import type { Experiment } from "./experiment.js";
import { fcfsLoad } from "./fcfs-load.js";
import { mkpReproduction } from "./mkp.js";
import { oasLinksReproduction, oasReproduction, oasSlotsReproduction } from "./oas.js";
import { spaceSharingReproduction } from "./space-sharing.js";

/**
 * Every experiment `sched-sim reproduce` knows, in `--list` order. Each paper's package adds its
 * reproductions here (one module per experiment under `src/experiments/`).
 */
export const EXPERIMENTS: readonly Experiment[] = [
  fcfsLoad,
  ...eloExperiments,
  ...advanceReservationExperiments,
  convergentReproduction,
  convergentWorkloadFigure,
  convergentScalingFigure,
  mkpReproduction,
  spaceSharingReproduction,
  oasReproduction,
  oasLinksReproduction,
  oasSlotsReproduction,
];
