// One Node process that loads @sched/errors and @sched/knapsack both ways, as a mixed application
// does: the CommonJS build through `require` and the ES module build through `import`. Prints JSON
// for test/dual-package.test.ts.
import { createRequire } from "node:module";
import * as errorsEsm from "@sched/errors";
import * as knapsackEsm from "@sched/knapsack";

const require = createRequire(import.meta.url);
const errorsCjs = require("@sched/errors");
const knapsackCjs = require("@sched/knapsack");

const BAD = { values: [Number.NaN], weights: [[1]], capacities: [1] };

/** What the error `fn` throws is `instanceof`, for each class of `lib`. */
function caught(fn, lib) {
  try {
    fn();
  } catch (e) {
    return {
      name: e.name,
      message: e.message,
      SchedError: e instanceof lib.SchedError,
      InvalidInputError: e instanceof lib.InvalidInputError,
      ParseError: e instanceof lib.ParseError,
      Error: e instanceof Error,
    };
  }
  return null;
}

process.stdout.write(
  JSON.stringify({
    files: {
      require: require.resolve("@sched/errors"),
      import: import.meta.resolve("@sched/errors"),
    },
    distinctClasses: errorsCjs.SchedError !== errorsEsm.SchedError,
    requiredCaughtByImported: caught(() => knapsackCjs.mkpExact(BAD), errorsEsm),
    importedCaughtByRequired: caught(() => knapsackEsm.mkpExact(BAD), errorsCjs),
  }),
);
