import { schedulerSpecs } from "@sched/core/testing";
import { convergent } from "../src/convergent.js";
import { CONVERGENT_VARIANTS, convergentVariant } from "../src/variants.js";

for (const variant of CONVERGENT_VARIANTS) {
  schedulerSpecs(variant, () => convergentVariant(variant), { numRuns: 25 });
}
schedulerSpecs("convergent (mis)", () => convergent({ matcher: "mis" }), { numRuns: 25 });
