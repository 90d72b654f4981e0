import { describe, expect, it } from "vitest";
import { coord, escapeHtml, niceTicks, tickLabel } from "../src/report/escape.js";
import { linePlot } from "../src/report/plot.js";

const ticksOf = (svg: string): string[] =>
  [...svg.matchAll(/<text class="ytick"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1] as string);

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

  it("uses a log y axis when the means span more than 30 times, linear otherwise", () => {
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

describe("linePlot: series told apart without colour", () => {
  const spec = (n: number, kind: "line" | "bar" = "line") =>
    linePlot({
      id: "m",
      title: "t",
      xLabel: "x",
      yLabel: "y",
      kind,
      // Every series has the same means: only marker, dash and hatch can separate them.
      series: Array.from({ length: n }, (_, i) => ({
        label: `s${i}`,
        points: [1, 2, 3].map((x) => ({ x, mean: 5, ci95: 1 })),
      })),
    });
  const groups = (svg: string) => svg.split('<g class="series"').slice(1);

  it("gives each of 8 series its own marker and dash pattern, and its legend the same sample", () => {
    const svg = spec(8);
    const markers = groups(svg).map((g) => /data-marker="([^"]+)"/.exec(g)?.[1]);
    const dashes = groups(svg).map((g) => /stroke-dasharray="([^"]+)"/.exec(g)?.[1] ?? "solid");
    expect(new Set(markers).size).toBe(8);
    expect(new Set(dashes).size).toBe(8);
    const legend = svg.split("<li>").slice(1);
    expect(legend).toHaveLength(8);
    legend.forEach((li, i) => {
      expect(li).toContain(`data-marker="${markers[i]}"`);
      if (dashes[i] !== "solid") expect(li).toContain(`stroke-dasharray="${dashes[i]}"`);
    });
  });

  it("spreads equal points of different series apart so each stays visible", () => {
    const xs = groups(spec(3)).map((g) => /<polyline class="line" points="([\d.]+),/.exec(g)?.[1]);
    expect(new Set(xs).size).toBe(3);
  });

  it("draws error bars with caps, and bands only for three series or fewer", () => {
    expect(groups(spec(3))[0]).toContain('<polygon class="band"');
    expect(groups(spec(4))[0]).not.toContain('<polygon class="band"');
    for (const g of groups(spec(4))) expect(g.match(/<path class="ci"/g)).toHaveLength(3);
  });

  it("draws bars hatched per series, with patterns defined in the same figure", () => {
    const svg = spec(3, "bar");
    const hatch = groups(svg).map((g) => /fill="url\(#([^)]+)\)"/.exec(g)?.[1]);
    expect(hatch[0]).toBeUndefined();
    expect(new Set(hatch.slice(1)).size).toBe(2);
    for (const id of hatch.slice(1)) expect(svg).toContain(`<pattern id="${id}"`);
    for (const g of groups(svg)) expect(g.match(/<rect class="bar"/g)).toHaveLength(3);
  });
});
