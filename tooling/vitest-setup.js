// @ts-check
// Global fast-check settings: a fixed seed under CI so a red run can be replayed exactly;
// locally a fresh seed each run (fast-check prints it on failure). FC_SEED overrides both.
import fc from "fast-check";

const fromEnv = process.env.FC_SEED;
if (fromEnv !== undefined) {
  fc.configureGlobal({ seed: Number(fromEnv) });
} else if (process.env.CI) {
  fc.configureGlobal({ seed: 20261121 });
}
