import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HERE, run } from "./helpers.js";

// A real mixed application: one Node process that loads the built @sched/errors and
// @sched/knapsack through `require` (their CommonJS builds) and through `import` (their ES module
// builds), then checks an error thrown by one copy against the other copy's classes.
describe("one error identity across require and import", () => {
  it("an error thrown through require is instanceof the imported class, and the other way round", async () => {
    const out = JSON.parse(
      await run(process.execPath, [join(HERE, "scripts/dual-package.mjs")], HERE),
    );
    // the two builds really are two copies
    expect(out.files.require).toMatch(/[\\/]dist[\\/]index\.cjs$/);
    expect(out.files.import).toMatch(/\/dist\/index\.js$/);
    expect(out.distinctClasses).toBe(true);
    const expected = {
      name: "InvalidInputError",
      message: "@sched/knapsack/mkpExact: values[0] is NaN, expected a finite number",
      SchedError: true,
      InvalidInputError: true,
      ParseError: false,
      Error: true,
    };
    expect(out.requiredCaughtByImported).toEqual(expected);
    expect(out.importedCaughtByRequired).toEqual(expected);
  });
});
