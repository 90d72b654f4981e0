import { InvalidInputError } from "@sched/core";
import { expect, it } from "vitest";
import {
  advanceReservationWorkload,
  convergentWorkload,
  eloWorkload,
  multiclusterWorkload,
  oasWorkload,
} from "../src/index.js";

// Each of these generated jobs into an array for days before running out of memory when asked
// for 10^12 of them; the count is refused at once now, naming the option.
it("every generator refuses more jobs than an array holds, at once", () => {
  const generators: [string, (o: { jobs: number }) => unknown][] = [
    ["advanceReservationWorkload", advanceReservationWorkload],
    ["convergentWorkload", convergentWorkload],
    ["eloWorkload", eloWorkload],
    ["multiclusterWorkload", multiclusterWorkload],
    ["oasWorkload", (o) => oasWorkload({ ...o, workload: "WL-3" })],
  ];
  for (const [name, generate] of generators) {
    expect(() => generate({ jobs: 1e12 }), name).toThrow(InvalidInputError);
    expect(() => generate({ jobs: 1e12 }), name).toThrow(
      `@sched/workload/${name}: options.jobs is 1000000000000, more jobs than an array holds (4294967295)`,
    );
  }
  expect(eloWorkload({ jobs: 3 }).jobs).toHaveLength(3);
});
