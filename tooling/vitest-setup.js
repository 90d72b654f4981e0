// @ts-check
// Global fast-check settings.
// - A fixed seed under CI so a red run can be replayed exactly; locally a fresh seed each run
//   (fast-check prints it on failure). FC_SEED overrides both.
// - An array, string or set given a `maxLength` is drawn up to that length. fast-check's own
//   default caps every generated length near 10 (size "small": 2 * minLength + 10) whatever
//   the `maxLength`, so a test written for profiles of 60 changes or 300 processors never saw
//   more than a dozen and never reached the code paths meant for long inputs (block skipping,
//   word boundaries, runs). An arbitrary given no `maxLength` keeps the small default; one
//   that sets `size` keeps it.
import fc from "fast-check";

const fromEnv = process.env.FC_SEED;
const seed = fromEnv !== undefined ? Number(fromEnv) : process.env.CI ? 20261121 : undefined;
fc.configureGlobal({
  defaultSizeToMaxWhenMaxSpecified: true,
  ...(seed !== undefined ? { seed } : {}),
});
