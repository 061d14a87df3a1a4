// stampede chart: a small dependency-free SVG line chart.
//
// chart(parent, spec) appends a <figure class="chart"> to parent and draws:
//   spec.title          caption
//   spec.x = {label, scale: 'linear'|'log'|'pct'|'time', fmt}
//   spec.y = {label, scale: 'linear'|'log', fmt, min0 (default true), max}
//   spec.series = [{label, color, dash, width, xs, ys, band: {lo, hi}}]
//   spec.hlines = [{y, label, color}]
//   spec.expose         also put the series in data-values (JSON: [{label, xs, ys}])
// null/NaN values break lines. The figure gets data-rendered = number of
// points drawn, so a test can tell that the chart has data.
"use strict";
var StampedeChart = (function () {
  var NS = "http://www.w3.org/2000/svg";
  var W = 560, H = 250, M = { l: 62, r: 14, t: 10, b: 38 };

  function svg(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function finite(v) { return typeof v === "number" && isFinite(v); }

  // Scale transforms.
  function fwd(scale) {
    if (scale === "log") return function (v) { return v > 0 ? Math.log10(v) : NaN; };
    if (scale === "pct") return function (p) { return p < 100 ? -Math.log10(1 - p / 100) : NaN; };
    return function (v) { return v; };
  }

  function niceStep(span, n) {
    var raw = span / Math.max(1, n), mag = Math.pow(10, Math.floor(Math.log10(raw))), r = raw / mag;
    return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10) * mag;
  }
  function linTicks(lo, hi, n) {
    if (!(hi > lo)) return [lo];
    var s = niceStep(hi - lo, n), out = [];
    for (var v = Math.ceil(lo / s) * s; v <= hi + s * 1e-9; v += s) out.push(Math.abs(v) < s * 1e-9 ? 0 : v);
    return out;
  }
  function timeTicks(lo, hi, n) {
    var steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400];
    var want = (hi - lo) / Math.max(1, n), s = steps[steps.length - 1];
    for (var i = 0; i < steps.length; i++) if (steps[i] >= want) { s = steps[i]; break; }
    var out = [];
    for (var v = Math.ceil(lo / s) * s; v <= hi + 1e-9; v += s) out.push(v);
    return out;
  }
  function logTicks(lo, hi) { // lo, hi in log10 space
    var out = [];
    for (var e = Math.floor(lo); e <= Math.ceil(hi); e++) {
      [1, 2, 5].forEach(function (m) {
        var v = m * Math.pow(10, e), l = Math.log10(v);
        if (l >= lo - 1e-9 && l <= hi + 1e-9) out.push(v);
      });
    }
    if (out.length > 9) out = out.filter(function (v) { return Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9; });
    return out;
  }
  function pctTicks(hi) { // hi in transformed space
    var out = [0, 50, 90], p = 99, nines = 2;
    while (-Math.log10(1 - p / 100) <= hi + 1e-9 && nines < 9) { out.push(p); nines++; p = 100 - Math.pow(10, 2 - nines); }
    return out;
  }
  function pctLabel(p) { return (p === 0 ? "0" : String(+p.toFixed(7))) + "%"; }
  function timeLabel(s) {
    s = Math.round(s);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var mm = (h > 0 && m < 10 ? "0" : "") + m, ss = (sec < 10 ? "0" : "") + sec;
    return h > 0 ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }
  function numLabel(v) {
    var a = Math.abs(v);
    if (a >= 1e9) return +(v / 1e9).toPrecision(3) + "G";
    if (a >= 1e6) return +(v / 1e6).toPrecision(3) + "M";
    if (a >= 1e4) return +(v / 1e3).toPrecision(3) + "k";
    if (a >= 100 || a === 0) return String(Math.round(v));
    return String(+v.toPrecision(3));
  }

  // autoScale picks a log y axis when every value is positive and they
  // span more than a factor of 50 (a latency stall next to a fast median).
  function autoScale(ys, series) {
    var lo = Infinity, hi = -Infinity, zero = false;
    series.forEach(function (s) {
      (s && s.ys || []).forEach(function (v) {
        if (!finite(v)) return;
        if (v <= 0) zero = true; else { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
    });
    var out = {};
    for (var k in ys) out[k] = ys[k];
    out.scale = !zero && hi / lo > 50 ? "log" : "linear";
    if (out.scale === "log" && out.label) out.label += " (log)";
    return out;
  }

  var tip = null;
  function tipEl() {
    if (!tip) { tip = document.createElement("div"); tip.id = "tip"; document.body.appendChild(tip); }
    return tip;
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }

  function chart(parent, spec) {
    var fig = document.createElement("figure");
    fig.className = "chart";
    if (spec.id) fig.id = spec.id;
    var cap = document.createElement("figcaption");
    cap.textContent = spec.title || "";
    fig.appendChild(cap);
    parent.appendChild(fig);

    var xs = spec.x || {}, ys = spec.y || {};
    if (ys.scale === "auto") ys = autoScale(ys, spec.series || []);
    var fx = fwd(xs.scale === "time" ? "linear" : xs.scale), fy = fwd(ys.scale);
    var xmin = Infinity, xmax = -Infinity, ymin = Infinity, ymax = -Infinity, drawn = 0;
    var xall0 = Infinity, xall1 = -Infinity; // every second of the series, drawn or not
    var series = (spec.series || []).filter(function (s) { return s && s.xs && s.ys; });
    series.forEach(function (s) {
      var n = Math.min(s.xs.length, s.ys.length);
      for (var i = 0; i < n; i++) {
        var x = fx(s.xs[i]);
        if (!finite(x)) continue;
        xall0 = Math.min(xall0, x); xall1 = Math.max(xall1, x);
        var vals = [s.ys[i]];
        if (s.band) vals.push(s.band.lo[i], s.band.hi[i]);
        var any = false;
        vals.forEach(function (v) {
          var y = finite(v) ? fy(v) : NaN;
          if (finite(y)) { ymin = Math.min(ymin, y); ymax = Math.max(ymax, y); any = true; }
        });
        if (any) { xmin = Math.min(xmin, x); xmax = Math.max(xmax, x); }
      }
    });
    (spec.hlines || []).forEach(function (h) { var y = fy(h.y); if (finite(y)) { ymin = Math.min(ymin, y); ymax = Math.max(ymax, y); } });
    if (!(xmax >= xmin) || !(ymax >= ymin)) {
      var p = document.createElement("p");
      p.className = "muted";
      p.textContent = "no data";
      fig.appendChild(p);
      fig.dataset.rendered = "0";
      fig.classList.add("empty");
      return fig;
    }
    // Time axes span the whole run, so that the charts of one run line up
    // (a final sliver of a second has a latency but no drawable rate).
    if (xs.scale === "time") { xmin = Math.min(xmin, xall0); xmax = Math.max(xmax, xall1); }
    if (ys.scale !== "log" && ys.min0 !== false) ymin = Math.min(0, ymin);
    if (finite(ys.max)) ymax = Math.max(ymax, fy(ys.max));
    if (ymax === ymin) { ymax = ymin + (ys.scale === "log" ? 1 : Math.abs(ymin) || 1); }
    if (xmax === xmin) { xmin -= 0.5; xmax += 0.5; }
    if (ys.scale !== "log") ymax += (ymax - ymin) * 0.04;

    var yt;
    if (ys.scale === "log") { ymin = Math.floor(ymin * 10) / 10; ymax = Math.ceil(ymax * 10) / 10; yt = logTicks(ymin, ymax); }
    else { yt = linTicks(ymin, ymax, 5); ymax = Math.max(ymax, yt[yt.length - 1]); }
    var xt = xs.scale === "pct" ? pctTicks(xmax) : xs.scale === "time" ? timeTicks(xmin, xmax, 7) : xs.scale === "log" ? logTicks(xmin, xmax) : linTicks(xmin, xmax, 7);

    var px = function (x) { return M.l + (x - xmin) / (xmax - xmin) * (W - M.l - M.r); };
    var py = function (y) { return H - M.b - (y - ymin) / (ymax - ymin) * (H - M.t - M.b); };
    var root = svg("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": spec.title || "chart" }, fig);

    var xfmt = xs.fmt || (xs.scale === "pct" ? pctLabel : xs.scale === "time" ? timeLabel : numLabel);
    var yfmt = ys.fmt || numLabel;
    yt.forEach(function (v) {
      var y = py(fy(v));
      if (!(y >= M.t - 1 && y <= H - M.b + 1)) return;
      svg("line", { x1: M.l, x2: W - M.r, y1: y, y2: y, "class": "gridline" }, root);
      svg("text", { x: M.l - 6, y: y + 4, "text-anchor": "end" }, root).textContent = numLabel(v);
    });
    xt.forEach(function (v) {
      var x = px(fx(v));
      if (!(x >= M.l - 1 && x <= W - M.r + 1)) return;
      svg("line", { x1: x, x2: x, y1: H - M.b, y2: H - M.b + 4, "class": "axis" }, root);
      svg("text", { x: x, y: H - M.b + 16, "text-anchor": "middle" }, root).textContent = xfmt(v);
    });
    svg("line", { x1: M.l, x2: W - M.r, y1: H - M.b, y2: H - M.b, "class": "axis" }, root);
    svg("line", { x1: M.l, x2: M.l, y1: M.t, y2: H - M.b, "class": "axis" }, root);
    if (xs.label) svg("text", { x: (M.l + W - M.r) / 2, y: H - 4, "text-anchor": "middle" }, root).textContent = xs.label;
    if (ys.label) svg("text", { x: 12, y: (M.t + H - M.b) / 2, "text-anchor": "middle", transform: "rotate(-90 12 " + (M.t + H - M.b) / 2 + ")" }, root).textContent = ys.label;

    (spec.hlines || []).forEach(function (h) {
      var y = py(fy(h.y));
      svg("line", { x1: M.l, x2: W - M.r, y1: y, y2: y, stroke: h.color || "#c0392b", "stroke-dasharray": "6 4", "stroke-width": 1.2 }, root);
      if (h.label) svg("text", { x: W - M.r - 4, y: y - 4, "text-anchor": "end", style: "fill:" + (h.color || "#c0392b") }, root).textContent = h.label;
    });

    function pathOf(s, ys_) {
      var d = "", pen = false, n = Math.min(s.xs.length, ys_.length), cnt = 0;
      for (var i = 0; i < n; i++) {
        var x = fx(s.xs[i]), v = ys_[i], y = finite(v) ? fy(v) : NaN;
        if (!finite(x) || !finite(y)) { pen = false; continue; }
        d += (pen ? "L" : "M") + px(x).toFixed(1) + " " + py(y).toFixed(1);
        pen = true;
        cnt++;
      }
      return { d: d, n: cnt };
    }
    series.forEach(function (s) {
      if (s.band) {
        var up = "", down = [], n = Math.min(s.xs.length, s.band.lo.length, s.band.hi.length);
        for (var i = 0; i < n; i++) {
          var x = fx(s.xs[i]), lo = fy(s.band.lo[i]), hi = fy(s.band.hi[i]);
          if (!finite(x) || !finite(lo) || !finite(hi)) continue;
          up += (up ? "L" : "M") + px(x).toFixed(1) + " " + py(hi).toFixed(1);
          down.push("L" + px(x).toFixed(1) + " " + py(lo).toFixed(1));
        }
        if (up) svg("path", { d: up + down.reverse().join("") + "Z", fill: s.color, "fill-opacity": 0.13, stroke: "none" }, root);
      }
      var p = pathOf(s, s.ys);
      drawn += p.n;
      if (p.d) {
        svg("path", { d: p.d, fill: "none", stroke: s.color, "stroke-width": s.width || 1.6, "stroke-dasharray": s.dash || null, "stroke-linejoin": "round" }, root);
        if (p.n === 1 || s.markers) {
          for (var i = 0; i < s.xs.length; i++) {
            var x = fx(s.xs[i]), y = finite(s.ys[i]) ? fy(s.ys[i]) : NaN;
            if (finite(x) && finite(y)) svg("circle", { cx: px(x), cy: py(y), r: 2.6, fill: s.color }, root);
          }
        }
      }
    });

    var legend = document.createElement("div");
    legend.className = "legend";
    series.forEach(function (s) {
      if (!s.label) return;
      var item = document.createElement("span");
      var sw = document.createElement("span");
      sw.className = "sw";
      sw.style.borderTopColor = s.color;
      if (s.dash) sw.style.borderTopStyle = "dashed";
      item.appendChild(sw);
      item.appendChild(document.createTextNode(s.label));
      legend.appendChild(item);
    });
    fig.appendChild(legend);

    // Hover: a crosshair and the nearest value of each series.
    var cross = svg("line", { y1: M.t, y2: H - M.b, "class": "cross", visibility: "hidden" }, root);
    root.addEventListener("mousemove", function (ev) {
      var r = root.getBoundingClientRect();
      var sx = (ev.clientX - r.left) * W / r.width;
      if (sx < M.l || sx > W - M.r) { cross.setAttribute("visibility", "hidden"); tipEl().style.display = "none"; return; }
      var xv = xmin + (sx - M.l) / (W - M.l - M.r) * (xmax - xmin);
      var rows = [], at = null;
      series.forEach(function (s) {
        var best = -1, bd = Infinity;
        for (var i = 0; i < s.xs.length; i++) {
          var dx = Math.abs(fx(s.xs[i]) - xv);
          if (dx < bd && finite(s.ys[i])) { bd = dx; best = i; }
        }
        if (best >= 0) {
          if (at === null) at = s.xs[best];
          rows.push('<span style="color:' + s.color + '">■</span> ' + esc(s.label || "") + ": <b>" + esc(yfmt(s.ys[best])) + "</b>");
        }
      });
      if (!rows.length) return;
      cross.setAttribute("x1", sx); cross.setAttribute("x2", sx); cross.setAttribute("visibility", "visible");
      var t = tipEl();
      t.innerHTML = "<div>" + esc((xs.label ? xs.label + " " : "") + (xs.tipFmt || xfmt)(at)) + "</div>" + rows.join("<br>");
      t.style.display = "block";
      t.style.left = Math.min(ev.clientX + 14, window.innerWidth - t.offsetWidth - 8) + "px";
      t.style.top = (ev.clientY + 14) + "px";
    });
    root.addEventListener("mouseleave", function () { cross.setAttribute("visibility", "hidden"); tipEl().style.display = "none"; });

    fig.dataset.rendered = String(drawn);
    fig.dataset.series = String(series.length);
    if (spec.expose) fig.dataset.values = JSON.stringify(series.map(function (s) { return { label: s.label, xs: s.xs, ys: s.ys }; }));
    return fig;
  }

  return { chart: chart, timeLabel: timeLabel, numLabel: numLabel, pctLabel: pctLabel };
})();
