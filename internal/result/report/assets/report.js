// stampede report page: reads the JSON payload and builds the sections.
"use strict";
(function () {
  var t0 = performance.now();
  function fail(msg) {
    document.body.dataset.error = String(msg);
    var e = document.getElementById("error");
    if (e) { e.hidden = false; e.textContent = "Report error: " + msg; }
  }
  window.addEventListener("error", function (ev) { fail(ev.message || "script error"); });
  window.addEventListener("unhandledrejection", function (ev) { fail(ev.reason || "unhandled rejection"); });

  var C = StampedeChart;
  var PALETTE = ["#2f6fdb", "#e4572e", "#29a36a", "#9b59b6", "#f0a202", "#17a2b8", "#d63384", "#6c757d", "#8c564b", "#1f3a93"];
  var PCT = { p50: "#29a36a", p95: "#f0a202", p99: "#e4572e", max: "#8e97a8" };
  var DASH = { p50: "2 3", p95: "6 3", p99: null, max: "1 3" };

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var k in (attrs || {})) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "cls") e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function fmtMs(v) {
    if (v === null || v === undefined || !isFinite(v)) return "–";
    if (v >= 1000) return +(v / 1000).toPrecision(4) + "s";
    if (v >= 1) return +v.toPrecision(4) + "ms";
    return +(v * 1000).toPrecision(3) + "µs";
  }
  function fmtInt(n) { return (n === undefined || n === null) ? "–" : Math.round(n).toLocaleString("en-US"); }
  function fmtRate(v) { return !isFinite(v) ? "–" : v >= 100 ? fmtInt(v) : String(+v.toPrecision(3)); }
  function fmtPct(f) { return !isFinite(f) || f < 0 ? "–" : +(f * 100).toPrecision(4) + "%"; }
  function fmtDur(s) {
    if (!isFinite(s)) return "–";
    if (s < 60) return +s.toPrecision(3) + "s";
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = Math.round(s % 60);
    return (h ? h + "h" : "") + (m ? m + "m" : "") + (r ? r + "s" : "");
  }
  // humanDurations is a JSON.stringify replacer: the executor options that
  // are Go durations (ns in options.json) are shown as 30s, 1m30s, 500ms.
  var durationKeys = { duration: 1, maxDuration: 1, timeUnit: 1, gracefulStop: 1, warmup: 1, gracefulRampDown: 1, startTime: 1 };
  function humanDurations(key, v) {
    if (!durationKeys[key] || typeof v !== "number") return v;
    if (v === 0) return "0s";
    if (v < 1e9) return +(v / 1e6).toPrecision(3) + "ms";
    return fmtDur(v / 1e9);
  }
  function fmtTime(iso) { var d = new Date(iso); return isNaN(d) ? "" : d.toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z"); }
  function slug(s) { return "s-" + String(s).replace(/[^A-Za-z0-9_-]+/g, "-"); }
  function table(head, rows, leftCols) {
    leftCols = leftCols || [0];
    var th = el("tr", {}, head.map(function (h, i) { return el("th", { cls: leftCols.indexOf(i) >= 0 ? "l" : "", text: h }); }));
    var body = rows.map(function (r) {
      return el("tr", {}, r.map(function (c, i) {
        var cls = leftCols.indexOf(i) >= 0 ? "l" : "";
        if (c && c.wrap) return el("td", { cls: "wrap", text: c.wrap });
        return el("td", { cls: cls, text: c === undefined || c === null ? "" : String(c) });
      }));
    });
    return el("div", { cls: "tablewrap" }, [el("table", {}, [el("thead", {}, [th]), el("tbody", {}, body)])]);
  }
  function range(n, step) { var a = new Array(n); for (var i = 0; i < n; i++) a[i] = i * step; return a; }
  function anyPositive(a) { return !!a && a.some(function (v) { return v > 0; }); }

  var dataEl = document.getElementById("stampede-data");
  var main = document.getElementById("main");
  var toc = document.getElementById("toc");
  var updates = 0;

  // render draws payload D into the page, replacing what was drawn: once
  // for a report, once per update for the live dashboard.
  function render(D) {
  t0 = performance.now();
  main.textContent = "";
  toc.textContent = "";
  var EXPOSE = !!D.live; // the live page puts each chart's values in the DOM (data-values)
  var runs = D.runs || [];
  var multi = runs.length > 1;
  function runColor(i) { return PALETTE[i % PALETTE.length]; }

  document.getElementById("sub").textContent = runs.length + (runs.length === 1 ? " run" : " runs") + " · " +
    (D.scenarios || []).length + " scenario" + ((D.scenarios || []).length === 1 ? "" : "s") +
    (D.generator ? " · " + D.generator : "") +
    (D.live ? " · live, updated every second" + (D.ended ? " (run ended)" : "") : "");

  // Table of contents.
  function tocLink(id, text) { toc.appendChild(el("a", { href: "#" + id, text: text })); }
  tocLink("overview", "Overview");
  if (D.sweep) tocLink("sweep", "Sweep");
  (D.scenarios || []).forEach(function (n) { tocLink(slug(n), n); });
  if (runs.some(function (r) { return r.generatorSelfCheck; })) tocLink("generator", "Generator");
  tocLink("environment", "Options & environment");

  // Overview.
  var ov = el("section", { id: "overview" }, [el("h2", { text: "Overview" })]);
  ov.appendChild(table(["run", "started", "duration", "target", "scenarios", "machine"], runs.map(function (r) {
    var dur = (new Date(r.end) - new Date(r.start)) / 1000;
    var m = r.env || {};
    return [r.label, fmtTime(r.start), fmtDur(dur) + (r.interrupted ? " (interrupted)" : ""), r.options && r.options.target || "",
      (r.scenarios || []).length, [m.cpuModel, m.threads ? m.threads + " threads" : "", m.gomaxprocs ? "GOMAXPROCS " + m.gomaxprocs : ""].filter(Boolean).join(", ")];
  }), [0, 1, 3, 5]));
  runs.forEach(function (r) {
    (r.warnings || []).forEach(function (w) { ov.appendChild(el("div", { cls: "box warn", text: (multi ? r.label + ": " : "") + w })); });
    (r.notes || []).forEach(function (n) {
      var warnish = /limited by the client|dropped|not written/.test(n);
      ov.appendChild(el("div", { cls: "box " + (warnish ? "warn" : "note"), text: (multi ? r.label + ": " : "") + "all scenarios: " + n }));
    });
  });
  main.appendChild(ov);

  // Sweep curves.
  if (D.sweep) {
    var sw = D.sweep, sec = el("section", { id: "sweep" }, [el("h2", { text: "Sweep over " + sw.dimension })]);
    var grid = el("div", { cls: "grid" });
    sec.appendChild(grid);
    var dimLabel = { vus: "VUs", rate: "offered rate (/s)", nodes: "nodes", target: "target" }[sw.dimension] || sw.dimension;
    var xfmt = sw.dimension === "target" ? function (x) {
      var p = (sw.scenarios[0] || { points: [] }).points[Math.round(x)];
      return p ? p.value : "";
    } : null;
    var scs = sw.scenarios || [];
    var tput = scs.map(function (s, i) {
      return { label: s.name, color: runColor(i), markers: true, xs: s.points.map(function (p) { return p.x; }), ys: s.points.map(function (p) { return p.throughput; }) };
    });
    if (sw.dimension === "rate" && scs.length) {
      var xsAll = scs[0].points.map(function (p) { return p.x; });
      tput.push({ label: "offered", color: "#8e97a8", dash: "4 4", xs: xsAll, ys: xsAll });
    }
    C.chart(grid, { title: "Throughput vs " + dimLabel, x: { label: dimLabel, fmt: xfmt }, y: { label: "ops/s", fmt: fmtRate }, series: tput });
    var lat = [];
    scs.forEach(function (s, i) {
      ["p50", "p99"].forEach(function (q) {
        lat.push({ label: s.name + " " + q, color: runColor(i), dash: DASH[q], markers: true, xs: s.points.map(function (p) { return p.throughput; }), ys: s.points.map(function (p) { return p[q]; }) });
      });
    });
    C.chart(grid, { title: "Latency vs throughput", x: { label: "ops/s" }, y: { label: "ms", fmt: fmtMs }, series: lat });
    var nodeScs = scs.filter(function (s) { return s.points.some(function (p) { return p.nodes > 0; }); });
    if (nodeScs.length) {
      C.chart(grid, { title: "Throughput per node", x: { label: "nodes" }, y: { label: "ops/s per node", fmt: fmtRate }, series: nodeScs.map(function (s, i) {
        return { label: s.name, color: runColor(i), markers: true, xs: s.points.map(function (p) { return p.nodes; }), ys: s.points.map(function (p) { return p.perNode; }) };
      }) });
      C.chart(grid, { title: "Scaling efficiency (vs smallest cluster)", x: { label: "nodes" }, y: { label: "%", fmt: function (v) { return +v.toPrecision(3) + "%"; } },
        hlines: [{ y: 100, label: "linear", color: "#8e97a8" }],
        series: nodeScs.map(function (s, i) {
          return { label: s.name, color: runColor(i), markers: true, xs: s.points.map(function (p) { return p.nodes; }), ys: s.points.map(function (p) { return p.efficiency * 100; }) };
        }) });
    }
    var rows = [];
    scs.forEach(function (s) {
      if (s.knee) sec.insertBefore(el("p", { cls: "knee", text: s.name + ": " + s.knee }), grid);
      s.points.forEach(function (p, i) {
        rows.push([s.name, p.value + (i === s.kneeAt ? " ◀ knee" : ""), fmtRate(p.throughput), fmtMs(p.p50), fmtMs(p.p95), fmtMs(p.p99), fmtPct(p.errorRate)]
          .concat(p.nodes ? [p.nodes, fmtRate(p.perNode), fmtPct(p.efficiency)] : []));
      });
    });
    var head = ["scenario", sw.dimension, "ops/s", "p50", "p95", "p99", "errors"];
    if (nodeScs.length) head = head.concat(["nodes", "ops/s per node", "efficiency"]);
    sec.appendChild(table(head, rows, [0]));
    main.appendChild(sec);
  }

  // One section per scenario, every run overlaid.
  (D.scenarios || []).forEach(function (name) {
    var sec = el("section", { id: slug(name) }, [el("h2", { text: name })]);
    var parts = [];
    runs.forEach(function (r, i) {
      (r.scenarios || []).forEach(function (s) { if (s.name === name) parts.push({ run: r, idx: i, s: s }); });
    });
    parts.forEach(function (p) {
      var label = multi ? p.run.label + ": " : "";
      (p.s.warnings || []).forEach(function (w) { sec.appendChild(el("div", { cls: "box warn", text: label + w })); });
      (p.s.notes || []).forEach(function (n) {
        var warnish = /limited by the client|dropped|not written/.test(n);
        sec.appendChild(el("div", { cls: "box " + (warnish ? "warn" : "note"), text: label + n }));
      });
    });
    sec.appendChild(table(["run", "executor", "duration", "iterations", "requests", "ops/s", "errors", "p50", "p90", "p95", "p99", "max", "checks", "verdict"],
      parts.map(function (p) {
        var m = p.s.summary;
        return [p.run.label, p.s.executor || "", fmtDur(p.s.duration) + (p.s.interrupted ? " ✱" : ""), fmtInt(m.iterations), fmtInt(m.requests), fmtRate(m.throughput),
          fmtInt(m.errors) + (m.errors ? " (" + fmtPct(m.errorRate) + ")" : ""), fmtMs(m.p50), fmtMs(m.p90), fmtMs(m.p95), fmtMs(m.p99), fmtMs(m.max),
          m.checks < 0 ? "–" : fmtPct(m.checks), p.s.verdict ? p.s.verdict.status : "–"];
      }), [0, 1]));

    targetTable(sec, parts);
    var grid = el("div", { cls: "grid" });
    sec.appendChild(grid);
    var withSeries = parts.filter(function (p) { return p.s.series && p.s.series.req && p.s.series.req.length; });
    var tx = { label: "", scale: "time", tipFmt: C.timeLabel };
    if (withSeries.length) {
      var tp = [];
      withSeries.forEach(function (p, k) {
        var se = p.s.series, xs = range(se.req.length, se.step), color = multi ? runColor(p.idx) : PALETTE[0];
        var useIter = !anyPositive(se.req);
        tp.push({ label: (multi ? p.run.label + " " : "") + (useIter ? "iterations/s" : "requests/s"), color: color, xs: xs, ys: useIter ? se.iter : se.req,
          band: se.step > 1 && !useIter ? { lo: se.reqMin, hi: se.reqMax } : null });
      });
      C.chart(grid, { title: "Throughput" + (withSeries.some(function (p) { return p.s.series.step > 1; }) ? " (mean per bucket, band: quietest–busiest second)" : ""), x: tx, y: { label: "per second", fmt: fmtRate }, series: tp, expose: EXPOSE });
      targetCharts(grid, parts, tx);

      var ls = [];
      withSeries.forEach(function (p) {
        var se = p.s.series, xs = range(se.p50.length, se.step);
        (multi ? ["p50", "p99"] : ["p50", "p95", "p99"]).forEach(function (q) {
          ls.push({ label: (multi ? p.run.label + " " : "") + q, color: multi ? runColor(p.idx) : PCT[q], dash: multi ? DASH[q] : null, xs: xs, ys: se[q] });
        });
        if (!multi) ls.push({ label: "max", color: PCT.max, dash: DASH.max, width: 1, xs: xs, ys: se.max });
      });
      C.chart(grid, { title: "Response time over time" + (multi ? " (p50 dashed, p99 solid)" : ""), x: tx, y: { label: "ms", fmt: fmtMs, scale: "auto" }, series: ls, expose: EXPOSE });
    }
    var dist = parts.filter(function (p) { return p.s.distribution && p.s.distribution.p && p.s.distribution.p.length; });
    if (dist.length) {
      C.chart(grid, { title: "Response time percentile distribution", x: { label: "percentile", scale: "pct" }, y: { label: "ms", fmt: fmtMs, scale: "auto" },
        series: dist.map(function (p) {
          return { label: multi ? p.run.label : "responseTime", color: multi ? runColor(p.idx) : PALETTE[0], xs: p.s.distribution.p, ys: p.s.distribution.v };
        }) });
    }
    if (withSeries.some(function (p) { return anyPositive(p.s.series.vus); })) {
      C.chart(grid, { title: "Virtual users", x: tx, y: { label: "VUs", fmt: fmtInt }, series: withSeries.map(function (p) {
        return { label: multi ? p.run.label : "VUs", color: multi ? runColor(p.idx) : "#6c757d", xs: range(p.s.series.vus.length, p.s.series.step), ys: p.s.series.vus };
      }), expose: EXPOSE });
    }
    var errRuns = withSeries.filter(function (p) { return anyPositive(p.s.series.err); });
    if (errRuns.length) {
      var es = [];
      errRuns.forEach(function (p) {
        var se = p.s.series, xs = range(se.err.length, se.step);
        es.push({ label: (multi ? p.run.label + " " : "") + "all errors", color: multi ? runColor(p.idx) : "#c0392b", width: 2, xs: xs, ys: se.err });
        if (!multi) (se.errMsgs || []).forEach(function (m, k) {
          es.push({ label: m.msg.length > 60 ? m.msg.slice(0, 59) + "…" : m.msg, color: PALETTE[(k + 1) % PALETTE.length], dash: "5 3", width: 1.2, xs: xs, ys: m.n });
        });
      });
      C.chart(grid, { title: "Errors over time", x: tx, y: { label: "errors/s", fmt: fmtRate }, series: es, expose: EXPOSE });
    }
    var xfer = withSeries.filter(function (p) { return anyPositive(p.s.series.sent) || anyPositive(p.s.series.recv); });
    if (xfer.length) {
      var xs2 = [];
      xfer.forEach(function (p) {
        var se = p.s.series, xs = range(se.sent.length, se.step), c = multi ? runColor(p.idx) : null;
        xs2.push({ label: (multi ? p.run.label + " " : "") + "data_received", color: c || PALETTE[0], xs: xs, ys: se.recv });
        xs2.push({ label: (multi ? p.run.label + " " : "") + "data_sent", color: c || PALETTE[1], dash: "5 3", xs: xs, ys: se.sent });
      });
      C.chart(grid, { title: "Transfer (data_received solid, data_sent dashed)", x: tx, y: { label: "bytes/s", fmt: fmtBytesRate }, series: xs2, expose: EXPOSE });
    }
    var phased = withSeries.filter(function (p) { return p.s.series.phases && p.s.series.phases.length; });
    if (phased.length) {
      var ph = [];
      phased.forEach(function (p) {
        var se = p.s.series;
        se.phases.forEach(function (f, k) {
          var name = f.name.replace(/^http_req_/, "");
          ph.push({ label: (multi ? p.run.label + " " : "") + name, color: multi ? runColor(p.idx) : PALETTE[k % PALETTE.length],
            dash: multi ? DASH.p50 : name === "duration" ? "6 3" : null, width: name === "duration" ? 1.2 : null, xs: range(f.mean.length, se.step), ys: f.mean });
        });
      });
      C.chart(grid, { title: "HTTP request phases (mean)", x: tx, y: { label: "ms", fmt: fmtMs, scale: "auto" }, series: ph, expose: EXPOSE });
    }

    var errParts = parts.filter(function (p) { return p.s.errors && p.s.errors.length; });
    if (errParts.length) {
      sec.appendChild(el("h3", { text: "Errors by message" }));
      var rows = [];
      errParts.forEach(function (p) {
        var total = p.s.summary.errors || 1;
        p.s.errors.forEach(function (e) { rows.push([p.run.label, fmtInt(e.n), fmtPct(e.n / total), { wrap: e.name }]); });
      });
      sec.appendChild(table(["run", "count", "share", "message"], rows, [0, 3]));
    } else {
      sec.appendChild(el("p", { cls: "muted", text: "No errors." }));
    }
    var rateParts = parts.filter(function (p) { return p.s.rates && p.s.rates.length; });
    if (rateParts.length) {
      sec.appendChild(el("h3", { text: "Checks and rates" }));
      var rr = [];
      rateParts.forEach(function (p) { p.s.rates.forEach(function (r) { rr.push([p.run.label, r.name, fmtInt(r.passes), fmtInt(r.fails), fmtPct(r.value)]); }); });
      sec.appendChild(table(["run", "name", "passes", "fails", "rate"], rr, [0, 1]));
    }
    var det = el("details", {}, [el("summary", { text: "All trends and counters" })]);
    var tr = [];
    parts.forEach(function (p) {
      (p.s.trends || []).forEach(function (t) {
        var f = t.unit === "ms" ? fmtMs : function (v) { return String(+(+v).toPrecision(5)); };
        tr.push([p.run.label, t.name, fmtInt(t.count), f(t.min), f(t.avg), f(t.med), f(t.p90), f(t.p95), f(t.p99), f(t.p999), f(t.max)]);
      });
    });
    det.appendChild(table(["run", "trend", "count", "min", "avg", "med", "p90", "p95", "p99", "p99.9", "max"], tr, [0, 1]));
    var cr = [];
    parts.forEach(function (p) { (p.s.counters || []).forEach(function (c) { cr.push([p.run.label, c.name, fmtInt(c.n)]); }); });
    if (cr.length) det.appendChild(table(["run", "counter", "value"], cr, [0, 1]));
    sec.appendChild(det);
    main.appendChild(sec);
  });

  // Target resources (--monitor): a table per scenario, and CPU and
  // network charts on the throughput chart's time axis.
  function fmtBytesRate(v) {
    if (v >= 1e9) return +(v / 1e9).toPrecision(3) + " GB/s";
    if (v >= 1e6) return +(v / 1e6).toPrecision(3) + " MB/s";
    if (v >= 1e3) return +(v / 1e3).toPrecision(3) + " kB/s";
    return Math.round(v) + " B/s";
  }
  function fmtBytes(v) {
    if (!v) return "";
    if (v >= 1 << 30) return (v / (1 << 30)).toFixed(1) + " GiB";
    return (v / (1 << 20)).toFixed(1) + " MiB";
  }
  function targetTable(sec, parts) {
    var rows = [];
    parts.forEach(function (p) {
      (p.s.target || []).forEach(function (t) {
        var st = t.stats;
        rows.push([p.run.label, t.source, st.host || st.cores ? fmtPct(st.cpuAvg) : "–", st.host || st.cores ? fmtPct(st.cpuMax) : "–",
          st.cores || "", st.proc ? (+st.procCPUAvg.toFixed(2)) + " / " + (+st.procCPUMax.toFixed(2)) : "",
          st.netPeakDevice ? fmtBytesRate(st.netPeak) + " (" + st.netPeakDevice + ")" : "", fmtBytes(st.memUsedMax || st.procRSSMax),
          st.diskWriteMax || st.diskReadMax ? fmtBytesRate(st.diskReadMax) + " / " + fmtBytesRate(st.diskWriteMax) : "",
          (st.failed ? st.failed + " failed" : "") || "", t.warning ? "⚠ saturated" : "ok"]);
      });
    });
    if (!rows.length) return;
    sec.appendChild(el("h3", { text: "Target resources (--monitor)" }));
    sec.appendChild(table(["run", "source", "CPU avg", "CPU max", "cores", "process cores avg / max", "network peak", "memory", "disk r / w max", "readings", "verdict"], rows, [0, 1]));
  }
  function targetCharts(grid, parts, tx) {
    var cpu = [], net = [], k = 0;
    parts.forEach(function (p) {
      (p.s.target || []).forEach(function (t) {
        var lbl = (multi ? p.run.label + " " : "") + t.source, c = PALETTE[(k++ + 1) % PALETTE.length];
        if (t.cpu && t.cpu.length) cpu.push({ label: lbl, color: c, xs: t.t, ys: t.cpu });
        if (anyPositive(t.rx) || anyPositive(t.tx)) {
          net.push({ label: lbl + " rx", color: c, xs: t.t, ys: t.rx });
          net.push({ label: lbl + " tx", color: c, dash: "5 3", xs: t.t, ys: t.tx });
        }
      });
    });
    if (cpu.length) C.chart(grid, { title: "Target CPU (% of its cores, measured)", x: tx, y: { label: "%", max: 100, fmt: function (v) { return +v.toPrecision(3) + "%"; } },
      hlines: [{ y: 85, label: "85%" }], series: cpu, expose: EXPOSE });
    if (net.length) C.chart(grid, { title: "Target network (rx solid, tx dashed)", x: tx, y: { label: "bytes/s", fmt: fmtBytesRate }, series: net, expose: EXPOSE });
  }

  // Generator self-check.
  var gens = runs.map(function (r, i) { return { r: r, i: i, g: r.generatorSelfCheck }; }).filter(function (x) { return x.g && x.g.t && x.g.t.length; });
  if (gens.length) {
    var gs = el("section", { id: "generator" }, [el("h2", { text: "Generator self-check" }),
      el("p", { cls: "muted", text: "CPU and memory of the stampede process itself. Above " + Math.round(gens[0].g.threshold * 100) +
        "% of its cores the client, not the target, may limit the numbers." })]);
    gs.appendChild(table(["run", "cores", "avg CPU", "max CPU", "machine avg", "machine max", "max RSS", "verdict"], gens.map(function (x) {
      return [x.r.label, x.g.cores, fmtPct(x.g.avgCpu), fmtPct(x.g.maxCpu), fmtPct(x.g.avgHost), fmtPct(x.g.maxHost), x.g.maxRssMiB + " MiB",
        x.g.saturated ? "⚠ generator saturated" : x.g.hostSaturated ? "⚠ machine saturated" : "ok"];
    }), [0, 7]));
    var gg = el("div", { cls: "grid" });
    gs.appendChild(gg);
    var cpu = [];
    gens.forEach(function (x) {
      var c = multi ? runColor(x.i) : PALETTE[0];
      cpu.push({ label: (multi ? x.r.label + " " : "") + "CPU (mean)", color: c, xs: x.g.t, ys: x.g.cpu.map(function (v) { return v * 100; }),
        band: x.g.step > 1 ? { lo: x.g.cpu.map(function (v) { return v * 100; }), hi: x.g.cpuMax.map(function (v) { return v * 100; }) } : null });
      if (anyPositive(x.g.host)) cpu.push({ label: (multi ? x.r.label + " " : "") + "whole machine", color: c, dash: "4 3", width: 1.2, xs: x.g.t, ys: x.g.host.map(function (v) { return v * 100; }) });
    });
    C.chart(gg, { title: "Generator CPU (% of usable cores)", x: { label: "", scale: "time", tipFmt: C.timeLabel }, y: { label: "%", max: 100, fmt: function (v) { return +v.toPrecision(3) + "%"; } },
      hlines: [{ y: gens[0].g.threshold * 100, label: Math.round(gens[0].g.threshold * 100) + "%" }], series: cpu });
    C.chart(gg, { title: "Generator resident memory", x: { label: "", scale: "time", tipFmt: C.timeLabel }, y: { label: "MiB", fmt: function (v) { return +v.toPrecision(4) + " MiB"; } },
      series: gens.map(function (x) { return { label: multi ? x.r.label : "RSS", color: multi ? runColor(x.i) : "#6c757d", xs: x.g.t, ys: x.g.rssMiB }; }) });
    main.appendChild(gs);
  }

  // Options and environment (in the result directory's report; the live
  // page has neither yet).
  var env = el("section", { id: "environment" }, [el("h2", { text: "Options & environment" })]);
  if (!D.live) runs.forEach(function (r) {
    var d = el("details", multi ? {} : { open: "" }, [el("summary", { text: r.label + " — " + r.dir })]);
    if (r.command) d.appendChild(el("pre", { text: r.command }));
    var e = r.env || {}, rows = [];
    Object.keys(e).forEach(function (k) {
      var v = e[k];
      if (v === "" || v === null || v === undefined || v === 0) return;
      if (k === "memoryBytes") v = (v / (1 << 30)).toFixed(1) + " GiB";
      if (typeof v === "object") v = Object.keys(v).map(function (kk) { return kk + " " + v[kk]; }).join(", ");
      rows.push([k, { wrap: String(v) }]);
    });
    d.appendChild(table(["environment", "value"], rows, [0, 1]));
    d.appendChild(el("pre", { text: JSON.stringify(r.options, humanDurations, 2) }));
    env.appendChild(d);
  });
  main.appendChild(env);

  var charts = document.querySelectorAll("figure.chart");
  document.body.dataset.charts = String(charts.length);
  document.body.dataset.renderMs = String(Math.round(performance.now() - t0));
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = "1";
  }

  render(JSON.parse(dataEl.textContent));
  // The live dashboard: the server sends the whole payload again every
  // period (event "payload"); "end" says the run is over.
  if (dataEl.dataset.events && window.EventSource) {
    var es = new EventSource(dataEl.dataset.events);
    es.addEventListener("payload", function (ev) {
      updates++;
      document.body.dataset.updates = String(updates);
      render(JSON.parse(ev.data));
    });
    es.addEventListener("end", function () { document.body.dataset.ended = "1"; es.close(); });
  }
})();
