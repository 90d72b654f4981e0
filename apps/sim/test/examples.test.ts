import { describe, expect, it } from "vitest";
import { compare } from "../examples/custom-scheduler.js";

describe("examples/custom-scheduler.ts", () => {
  it("runs, produces valid schedules for both policies, and is deterministic", () => {
    const rows = compare(300, 32, 2);
    expect(rows.map((r) => r.policy)).toEqual(["smallest-first", rows[1]?.policy]);
    for (const r of rows) {
      expect(r.violations).toBe(0);
      expect(r.utilization).toBeGreaterThan(0);
      expect(r.utilization).toBeLessThanOrEqual(1);
    }
    expect(compare(300, 32, 2)).toEqual(rows);
  });
});
