/**
 * The report's only script (inlined): wheel zoom, drag pan and buttons on the Gantt chart and
 * its utilization curve (their viewBox's x range), and time ticks redrawn for the visible window.
 * The page is complete without it.
 */
export const ZOOM_SCRIPT = `(function () {
  var box = document.querySelector(".gantt");
  if (!box) return;
  var W = 960;
  var t0 = Number(box.getAttribute("data-t0"));
  var t1 = Number(box.getAttribute("data-t1"));
  var svgs = Array.prototype.slice.call(document.querySelectorAll(".zoomable"));
  var axis = document.getElementById("gantt-axis");
  var v0 = 0;
  var v1 = W;
  var NS = "http://www.w3.org/2000/svg";
  function label(v) {
    var a = Math.abs(v);
    if (a >= 1e6) return Number((v / 1e6).toPrecision(4)) + "M";
    if (a >= 1e4) return Number((v / 1e3).toPrecision(4)) + "k";
    return String(Number(v.toPrecision(4)));
  }
  function ticks() {
    var a = t0 + (v0 / W) * (t1 - t0);
    var b = t0 + (v1 / W) * (t1 - t0);
    var raw = (b - a) / 8;
    var p = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (m) { return m * p; }).filter(function (s) { return s >= raw; })[0];
    while (axis.firstChild) axis.removeChild(axis.firstChild);
    for (var t = Math.ceil(a / step) * step; t <= b; t += step) {
      var text = document.createElementNS(NS, "text");
      text.setAttribute("x", ((t - a) / (b - a)) * 100 + "%");
      text.setAttribute("y", "14");
      text.setAttribute("text-anchor", "middle");
      text.textContent = label(Number(t.toPrecision(12)));
      axis.appendChild(text);
    }
  }
  function apply() {
    svgs.forEach(function (s) {
      var vb = s.viewBox.baseVal;
      s.setAttribute("viewBox", v0 + " " + vb.y + " " + (v1 - v0) + " " + vb.height);
    });
    ticks();
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
