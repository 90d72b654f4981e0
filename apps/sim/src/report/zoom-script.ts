import { pageKit } from "./page-kit.js";

/**
 * The report's only script (inlined): wheel zoom, drag pan and buttons on the Gantt chart and
 * its utilization strip (their viewBox's x range), the time axis redrawn for the visible window
 * (its unit too), and, on an aggregated chart (`data-mode="heat"`, bars in `#gantt-data`), the
 * visible window re-binned (or its bars drawn one by one once they fit) and a readout of the
 * cell under the pointer. It runs `pageKit`, the same code that drew the static chart. The page
 * is complete without it.
 */
export const ZOOM_SCRIPT = `(function () {
  var box = document.querySelector(".gantt");
  if (!box) return;
  var kit = (${String(pageKit)})();
  var W = 960;
  var NS = "http://www.w3.org/2000/svg";
  var t0 = Number(box.getAttribute("data-t0"));
  var t1 = Number(box.getAttribute("data-t1"));
  var UH = Number(box.getAttribute("data-util-height"));
  var svgs = Array.prototype.slice.call(document.querySelectorAll(".zoomable"));
  var axis = document.getElementById("gantt-axis");
  var xlabel = document.getElementById("gantt-xlabel");
  var source = document.getElementById("gantt-data");
  var data = source ? JSON.parse(source.textContent) : null;
  var heat = document.getElementById("gantt-heat");
  var zoomed = document.getElementById("gantt-zoomed");
  var utilZoomed = document.getElementById("gantt-util-zoomed");
  var utilBase = document.querySelector("#gantt-util path.utilization");
  var readout = document.getElementById("gantt-readout");
  var v0 = 0;
  var v1 = W;
  var cells = null;
  function el(name, attrs) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function clear(node) {
    while (node && node.firstChild) node.removeChild(node.firstChild);
  }
  function visible() {
    return [t0 + (v0 / W) * (t1 - t0), t0 + (v1 / W) * (t1 - t0)];
  }
  function ticks() {
    var w = visible();
    var ax = kit.timeAxis(w[0], w[1], 8);
    clear(axis);
    ax.ticks.forEach(function (t, i) {
      var p = ((t - w[0]) / (w[1] - w[0])) * 100 + "%";
      axis.appendChild(el("line", { x1: p, x2: p, y1: "0", y2: "5", stroke: "#555" }));
      var text = el("text", { x: p, y: "18", "text-anchor": "middle" });
      text.textContent = ax.labels[i];
      axis.appendChild(text);
    });
    if (xlabel) xlabel.textContent = "time (" + ax.unit + ")";
  }
  function bins(w) {
    return kit.heatBins(data.bars, data.rowLane, data.rowLanes, w[0], w[1], data.columns);
  }
  function rowsOf(scale) {
    return data.rowLane.map(function (l, r) { return scale(l, data.rowLanes[r]); });
  }
  function redraw() {
    if (!data) return;
    var full = v0 === 0 && v1 === W;
    clear(zoomed);
    clear(utilZoomed);
    heat.style.display = full ? "" : "none";
    utilBase.style.display = full ? "" : "none";
    var w = visible();
    cells = { a: w[0], b: w[1], occ: bins(w) };
    if (full) return;
    // The re-binned layers are drawn over [0, W] and mapped onto the visible window.
    var onWindow = "translate(" + v0 + " 0) scale(" + (v1 - v0) / W + " 1)";
    if (kit.exactFits(data.bars, w[0], w[1], W, data.limit)) {
      for (var i = 0; i < data.bars.length; i += 4) {
        var s = data.bars[i];
        var e = data.bars[i + 1];
        if (e < w[0] || s > w[1]) continue;
        var j = i / 4;
        var x = ((s - t0) / (t1 - t0)) * W;
        var rect = el("rect", {
          class: "bar",
          x: String(x),
          y: String(data.bars[i + 2] * data.laneH),
          width: String(Math.max(((e - s) / (t1 - t0)) * W, (0.2 * (v1 - v0)) / W)),
          height: String(data.bars[i + 3] * data.laneH),
          fill: data.palette[data.index[j] % data.palette.length],
        });
        if (data.laneH >= 3) {
          rect.setAttribute("stroke", "#fff");
          rect.setAttribute("stroke-width", "0.6");
          rect.setAttribute("vector-effect", "non-scaling-stroke");
        }
        var m0 = data.machines[2 * j];
        var m1 = data.machines[2 * j + 1];
        var title = el("title", {});
        title.textContent = "job " + data.jobs[j] + ": " + s + "-" + e + " s, " + data.bars[i + 3] +
          (data.bars[i + 3] === 1 ? " core" : " cores") + " on " +
          (m0 === m1 ? "machine " + data.names[m0] : "machines " + data.names[m0] + ".." + data.names[m1]);
        rect.appendChild(title);
        zoomed.appendChild(rect);
      }
    } else {
      var g = el("g", { transform: onWindow });
      var paths = kit.heatPaths(
        cells.occ,
        rowsOf(function (l) { return l * data.laneH; }),
        rowsOf(function (l, n) { return n * data.laneH; }),
        data.columns, W, data.colors.length);
      paths.forEach(function (d, k) {
        if (d) g.appendChild(el("path", { class: "heat", "data-level": String(k + 1), fill: data.colors[k], d: d }));
      });
      zoomed.appendChild(g);
    }
    var u = el("g", { transform: onWindow });
    u.appendChild(el("path", {
      class: "utilization",
      d: kit.utilPath(kit.utilBins(cells.occ, data.rowLanes, data.columns), W, UH),
      fill: "#0072B233",
      stroke: "#0072B2",
      "vector-effect": "non-scaling-stroke",
    }));
    utilZoomed.appendChild(u);
  }
  function apply() {
    svgs.forEach(function (s) {
      var vb = s.viewBox.baseVal;
      s.setAttribute("viewBox", v0 + " " + vb.y + " " + (v1 - v0) + " " + vb.height);
    });
    ticks();
    redraw();
  }
  function zoom(factor, center) {
    var width = Math.min(W, Math.max(W / 100000, (v1 - v0) * factor));
    var left = center - (center - v0) * (width / (v1 - v0));
    left = Math.max(0, Math.min(W - width, left));
    v0 = left;
    v1 = left + width;
    apply();
  }
  function at(e, s) {
    var r = s.getBoundingClientRect();
    return v0 + ((e.clientX - r.left) / r.width) * (v1 - v0);
  }
  svgs.forEach(function (s) {
    s.addEventListener("wheel", function (e) {
      e.preventDefault();
      zoom(e.deltaY < 0 ? 0.8 : 1.25, at(e, s));
    }, { passive: false });
    var drag = null;
    s.addEventListener("mousedown", function (e) { drag = { x: e.clientX, v0: v0, w: s.getBoundingClientRect().width }; });
    window.addEventListener("mouseup", function () { drag = null; });
    window.addEventListener("mousemove", function (e) {
      if (!drag) return;
      var width = v1 - v0;
      var left = drag.v0 - ((e.clientX - drag.x) / drag.w) * width;
      v0 = Math.max(0, Math.min(W - width, left));
      v1 = v0 + width;
      apply();
    });
  });
  var chart = document.getElementById("gantt-bars");
  if (data && readout && chart) {
    chart.addEventListener("mousemove", function (e) {
      if (!cells) cells = { a: t0, b: t1, occ: bins([t0, t1]) };
      var r = chart.getBoundingClientRect();
      var fx = (e.clientX - r.left) / r.width;
      var lane = (e.clientY - r.top) / data.laneH;
      var row = -1;
      for (var k = 0; k < data.rowLane.length; k++) {
        if (lane >= data.rowLane[k] && lane < data.rowLane[k] + data.rowLanes[k]) row = k;
      }
      var c = Math.min(data.columns - 1, Math.max(0, Math.floor(fx * data.columns)));
      if (row < 0) { readout.textContent = ""; return; }
      var t = cells.a + fx * (cells.b - cells.a);
      var ax = kit.timeAxis(cells.a, cells.b, 8);
      readout.textContent = data.rowNames[row] + " at " + kit.tickLabel(t / ax.seconds) + " " + ax.unit +
        ": " + Math.round(cells.occ[row * data.columns + c] * 100) + "% busy";
    });
  }
  function button(id, f) {
    var b = document.getElementById(id);
    if (b) b.addEventListener("click", f);
  }
  button("zoom-in", function () { zoom(0.5, (v0 + v1) / 2); });
  button("zoom-out", function () { zoom(2, (v0 + v1) / 2); });
  button("zoom-reset", function () { v0 = 0; v1 = W; apply(); });
  var controls = document.getElementById("zoom-controls");
  if (controls) controls.hidden = false;
})();`;
