/**
 * Jobs of a run that the report's Gantt chart draws whole. A run with more is drawn in its first
 * part: the jobs submitted before job `GANTT_MAX_JOBS + 1` arrives, up to that time, and its
 * metrics are checked in a streamed pass over the whole run. The page embeds every bar of the
 * chart for zooming (about 64 bytes a job); see apps/sim/README.md ("report") for the figures
 * this bound was chosen from. Its own module so that tests can lower it.
 */
export const GANTT_MAX_JOBS = 50_000;
