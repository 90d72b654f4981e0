import { describe, expect, it } from "vitest";
import { ZOOM_SCRIPT } from "../src/report/zoom-script.js";

/** A minimal stand-in for the DOM the script touches, recording listeners and attributes. */
function fakeDom() {
  const listeners = new Map<string, (e: unknown) => void>();
  const attrs = new Map<string, string>();
  const svg = {
    viewBox: { baseVal: { y: 0, height: 100 } },
    setAttribute: (k: string, v: string) => attrs.set(k, v),
    getBoundingClientRect: () => ({ left: 0, width: 960 }),
    addEventListener: (type: string, f: (e: unknown) => void) => listeners.set(`svg:${type}`, f),
  };
  const axis = {
    children: [] as { textContent: string }[],
    get firstChild() {
      return this.children[0] ?? null;
    },
    removeChild(c: unknown) {
      this.children = this.children.filter((x) => x !== c);
    },
    appendChild(c: { textContent: string }) {
      this.children.push(c);
    },
  };
  const buttons = new Map<string, () => void>();
  const document = {
    querySelector: () => ({ getAttribute: (k: string) => (k === "data-t0" ? "0" : "1000") }),
    querySelectorAll: () => [svg],
    getElementById: (id: string) => {
      if (id === "gantt-axis") return axis;
      if (id === "zoom-controls") return { hidden: true };
      return { addEventListener: (_t: string, f: () => void) => buttons.set(id, f) };
    },
    createElementNS: () => ({ setAttribute: () => {}, textContent: "" }),
  };
  const window = {
    addEventListener: (type: string, f: (e: unknown) => void) => listeners.set(`window:${type}`, f),
  };
  return { document, window, listeners, attrs, axis, buttons };
}

describe("the report's zoom script", () => {
  it("parses, and does nothing on a page without a Gantt chart", () => {
    const run = new Function("document", "window", ZOOM_SCRIPT);
    expect(() => run({ querySelector: () => null }, {})).not.toThrow();
  });

  it("zooms the viewBox on the buttons and the wheel, and redraws the time ticks", () => {
    const dom = fakeDom();
    new Function("document", "window", ZOOM_SCRIPT)(dom.document, dom.window);
    dom.buttons.get("zoom-in")?.();
    expect(dom.attrs.get("viewBox")).toBe("240 0 480 100");
    expect(dom.axis.children.map((c) => c.textContent)).toEqual([
      "300",
      "400",
      "500",
      "600",
      "700",
    ]);
    dom.buttons.get("zoom-reset")?.();
    expect(dom.attrs.get("viewBox")).toBe("0 0 960 100");
    let prevented = false;
    dom.listeners.get("svg:wheel")?.({
      deltaY: -1,
      clientX: 0,
      preventDefault: () => {
        prevented = true;
      },
    });
    expect(prevented).toBe(true);
    expect(dom.attrs.get("viewBox")).toBe("0 0 768 100");
  });
});
