import { describe, expect, it } from "vitest";
import { coord, escapeHtml, niceTicks, tickLabel } from "../src/report/escape.js";
import { linePlot } from "../src/report/plot.js";

const ticksOf = (svg: string): string[] =>
  [...svg.matchAll(/<text x="58" y="[^"]+" text-anchor="end">([^<]*)<\/text>/g)].map(
    (m) => m[1] as string,
  );

describe("plot helpers", () => {
  it("niceTicks: steps of 1, 2 or 5 x 10^k covering the range", () => {
    expect(niceTicks(0, 97, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(0.3, 0.7, 4)).toEqual([0.3, 0.4, 0.5, 0.6, 0.7]);
    expect(niceTicks(5, 5)).toEqual([5]);
  });

  it("tickLabel, coord and escapeHtml are stable", () => {
    expect(tickLabel(25000)).toBe("25k");
    expect(tickLabel(3_500_000)).toBe("3.5M");
    expect(tickLabel(0.123456)).toBe("0.1235");
    expect(coord(-0.001)).toBe("0");
    expect(coord(1.005)).toBe("1");
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
    );
  });

  it("uses a log y axis when the means span more than two decades, linear otherwise", () => {
    const series = (a: number, b: number) => [
      {
        label: "a",
        points: [
          { x: 1, mean: a, ci95: Number.NaN },
          { x: 2, mean: a * 2, ci95: Number.NaN },
        ],
      },
      {
        label: "b",
        points: [
          { x: 1, mean: b, ci95: Number.NaN },
          { x: 2, mean: b * 2, ci95: Number.NaN },
        ],
      },
    ];
    const wide = linePlot({
      id: "m",
      title: "t",
      xLabel: "x",
      yLabel: "wait",
      series: series(1, 500),
    });
    expect(wide).toContain("wait (log scale)");
    expect(ticksOf(wide)).toEqual(["1", "10", "100", "1000"]);
    const narrow = linePlot({
      id: "m",
      title: "t",
      xLabel: "x",
      yLabel: "wait",
      series: series(10, 50),
    });
    expect(narrow).not.toContain("log scale");
    expect(ticksOf(narrow)[0]).toBe("0");
  });
});
