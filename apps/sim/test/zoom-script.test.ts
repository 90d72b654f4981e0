import { describe, expect, it } from "vitest";
import { ZOOM_SCRIPT } from "../src/report/zoom-script.js";

/** A stand-in for the DOM elements the script touches: attributes, children, listeners. */
class FakeElement {
  readonly attrs = new Map<string, string>();
  readonly listeners = new Map<string, (e: unknown) => void>();
  children: FakeElement[] = [];
  textContent = "";
  hidden = true;
  readonly style: Record<string, string> = {};
  readonly viewBox = { baseVal: { y: 0, height: 100 } };
  constructor(readonly tag = "div") {}
  setAttribute(k: string, v: string) {
    this.attrs.set(k, v);
  }
  getAttribute(k: string) {
    return this.attrs.get(k) ?? null;
  }
  get firstChild(): FakeElement | null {
    return this.children[0] ?? null;
  }
  removeChild(c: FakeElement) {
    this.children = this.children.filter((x) => x !== c);
  }
  appendChild(c: FakeElement) {
    this.children.push(c);
  }
  addEventListener(type: string, f: (e: unknown) => void) {
    this.listeners.set(type, f);
  }
  getBoundingClientRect() {
    return { left: 0, top: 0, width: 960, height: 100 };
  }
  /** Every descendant with this tag. */
  all(tag: string): FakeElement[] {
    return this.children.flatMap((c) => [...(c.tag === tag ? [c] : []), ...c.all(tag)]);
  }
}

/** A page with a Gantt chart over [0, 1000] s: exact, or aggregated with `data`. */
function fakePage(data?: object) {
  const ids = new Map<string, FakeElement>();
  for (const id of [
    "gantt-axis",
    "gantt-xlabel",
    "zoom-controls",
    "zoom-in",
    "zoom-out",
    "zoom-reset",
    "gantt-readout",
    "gantt-bars",
    ...(data === undefined ? [] : ["gantt-heat", "gantt-zoomed", "gantt-util-zoomed"]),
  ]) {
    ids.set(id, new FakeElement());
  }
  if (data !== undefined) {
    const source = new FakeElement("script");
    source.textContent = JSON.stringify(data);
    ids.set("gantt-data", source);
  }
  const box = new FakeElement();
  box.setAttribute("data-t0", "0");
  box.setAttribute("data-t1", "1000");
  box.setAttribute("data-util-height", "90");
  const svg = ids.get("gantt-bars") as FakeElement;
  const util = new FakeElement("path");
  const windowListeners = new Map<string, (e: unknown) => void>();
  const document = {
    querySelector: (s: string) => (s === ".gantt" ? box : s.includes("utilization") ? util : null),
    querySelectorAll: () => [svg],
    getElementById: (id: string) => ids.get(id) ?? null,
    createElementNS: (_ns: string, tag: string) => new FakeElement(tag),
  };
  const window = {
    addEventListener: (t: string, f: (e: unknown) => void) => windowListeners.set(t, f),
  };
  new Function("document", "window", ZOOM_SCRIPT)(document, window);
  const click = (id: string) => (ids.get(id) as FakeElement).listeners.get("click")?.({});
  const labels = () =>
    (ids.get("gantt-axis") as FakeElement).children
      .filter((c) => c.tag === "text")
      .map((c) => c.textContent);
  return { ids, svg, util, click, labels };
}

describe("the report's zoom script", () => {
  it("parses, and does nothing on a page without a Gantt chart", () => {
    const run = new Function("document", "window", ZOOM_SCRIPT);
    expect(() => run({ querySelector: () => null }, {})).not.toThrow();
  });

  it("zooms the viewBox on the buttons and the wheel, and redraws the time ticks and unit", () => {
    const page = fakePage();
    expect(page.ids.get("zoom-controls")?.hidden).toBe(false);
    page.click("zoom-in");
    expect(page.svg.attrs.get("viewBox")).toBe("240 0 480 100");
    expect(page.labels()).toEqual(["300", "400", "500", "600", "700"]);
    expect(page.ids.get("gantt-xlabel")?.textContent).toBe("time (s)");
    page.click("zoom-reset");
    expect(page.svg.attrs.get("viewBox")).toBe("0 0 960 100");
    let prevented = false;
    page.svg.listeners.get("wheel")?.({
      deltaY: -1,
      clientX: 0,
      preventDefault: () => {
        prevented = true;
      },
    });
    expect(prevented).toBe(true);
    expect(page.svg.attrs.get("viewBox")).toBe("0 0 768 100");
  });

  it("on an aggregated chart, re-bins the visible window, then draws its bars once they fit", () => {
    // 40 bars of 20 s on one lane each, 2 rows of 2 lanes; exact drawing allows 5 bars.
    const bars: number[] = [];
    for (let i = 0; i < 40; i++) bars.push(i * 25, i * 25 + 20, i % 4, 1);
    const page = fakePage({
      width: 960,
      columns: 10,
      limit: 5,
      laneH: 4,
      colors: ["#1", "#2", "#3", "#4", "#5", "#6", "#7", "#8"],
      palette: ["#a", "#b"],
      bars,
      jobs: bars.filter((_, i) => i % 4 === 0).map((_, j) => String(j)),
      index: Array.from({ length: 40 }, (_, j) => j),
      machines: Array.from({ length: 40 }, (_, j) => [j % 4, j % 4]).flat(),
      names: ["m0", "m1", "m2", "m3"],
      rowLane: [0, 2],
      rowLanes: [2, 2],
      rowNames: ["m0-1", "m2-3"],
    });
    const zoomed = page.ids.get("gantt-zoomed") as FakeElement;
    page.click("zoom-in");
    // Half the span: 20 bars visible, more than 5: binned, the static layer hidden.
    expect(page.ids.get("gantt-heat")?.style.display).toBe("none");
    expect(zoomed.all("path").length).toBeGreaterThan(0);
    expect(zoomed.all("rect")).toHaveLength(0);
    for (let i = 0; i < 3; i++) page.click("zoom-in");
    // 1/16 of the span (62.5 s around 500 s): 3 bars, each wide enough: drawn one by one.
    const rects = zoomed.all("rect");
    expect(rects.length).toBeGreaterThan(0);
    expect(rects.length).toBeLessThanOrEqual(5);
    for (const r of rects)
      expect(r.children[0]?.textContent).toMatch(
        /^job \d+: [\d.]+-[\d.]+ s, 1 core on machine m\d$/,
      );
    expect(page.ids.get("gantt-util-zoomed")?.all("path")).toHaveLength(1);
    page.click("zoom-reset");
    expect(page.ids.get("gantt-heat")?.style.display).toBe("");
    expect(zoomed.children).toHaveLength(0);
  });
});
