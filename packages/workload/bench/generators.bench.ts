import { bench, describe } from "vitest";
import { advanceReservationWorkload } from "../src/advance-reservation.js";
import { convergentWorkload } from "../src/convergent.js";
import { formatJobsJsonl, parseJobsJsonl } from "../src/jobs-json.js";
import { multiclusterWorkload } from "../src/multicluster.js";

const farm = convergentWorkload({ seed: 1 });
const text = formatJobsJsonl(farm.jobs);

describe("paper generators", () => {
  bench("convergentWorkload, 1500 jobs x 20 licenses", () => {
    convergentWorkload({ seed: 1 });
  });
  bench("advanceReservationWorkload, 10,000 jobs", () => {
    advanceReservationWorkload({ seed: 1 });
  });
  bench("multiclusterWorkload, 10,000 jobs", () => {
    multiclusterWorkload({ jobs: 10_000, seed: 1 });
  });
});

describe("native format, 1500 convergent jobs", () => {
  bench("formatJobsJsonl", () => {
    formatJobsJsonl(farm.jobs);
  });
  bench("parseJobsJsonl", () => {
    parseJobsJsonl(text);
  });
});
