// pathvm view: the page's code. Hand-written, no library; it reads the JSON
// document `reports::view_data` put in #pathvm-data and draws the summary,
// the calling context tree and its flame graph, the functions, the paths
// over the source, and (with a base profile) the comparison.
"use strict";

const D = JSON.parse(document.getElementById("pathvm-data").textContent);
const M = D.metrics.length;
const state = { tab: "summary", metric: 0, search: "" };

// ---- Helpers -------------------------------------------------------------

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}
const fmt = (n) => Math.round(n).toLocaleString("en-US");
function pct(part, whole) {
  if (!whole) return "-";
  const p = (100 * part) / whole;
  return (p >= 10 ? p.toFixed(1) : p.toFixed(2)) + "%";
}
function signed(n) { return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + fmt(Math.abs(n)); }
function change(oldV, newV) {
  if (oldV === 0) return newV === 0 ? "0%" : "new";
  const p = (100 * (newV - oldV)) / oldV;
  return (p > 0 ? "+" : "") + p.toFixed(2) + "%";
}
const dir = (d) => (d > 0 ? "up" : d < 0 ? "down" : "");
// Long names shortened in the middle; the full name on hover.
function short(name, max) {
  if (name.length <= max) return name;
  const head = Math.ceil((max - 1) * 0.55), tail = max - 1 - head;
  return name.slice(0, head) + "\u2026" + name.slice(name.length - tail);
}
function nameCell(name, max, extra) {
  return el("span", Object.assign({ title: name }, extra || {}), short(name, max));
}
const hex = (a) => "0x" + a.toString(16);

// ---- One profile's derived tables -----------------------------------------

function prepare(d) {
  const n = d.tree.parent.length;
  const m = d.metrics.length;
  const incl = Float64Array.from(d.tree.self);
  for (let i = n - 1; i > 0; i--) {
    const p = d.tree.parent[i];
    for (let k = 0; k < m; k++) incl[p * m + k] += incl[i * m + k];
  }
  const kids = Array.from({ length: n }, () => []);
  for (let i = 1; i < n; i++) kids[d.tree.parent[i]].push(i);
  const fname = (f, calls) =>
    f >= 0 ? d.functions.name[f] : f === -2 ? "<thread>" : f === -3 ? `(cut: ${fmt(calls)} colder contexts)` : "<unknown>";
  const nodeName = (i) => (i === 0 ? "(all)" : fname(d.tree.function[i], d.tree.calls[i]));
  // Key of a node: its stack of names, for comparisons.
  const key = new Array(n);
  key[0] = "";
  for (let i = 1; i < n; i++) key[i] = key[d.tree.parent[i]] + "\u0001" + nodeName(i);
  const nf = d.functions.name.length;
  const fnKey = (f) => d.functions.name[f] + "\u0001" + d.functions.object[f];
  const pathsOf = new Map();
  d.paths.forEach((pf, i) => { if (pf.function >= 0) pathsOf.set(pf.function, i); });
  return { d, n, m, incl, kids, nodeName, key, nf, fnKey, pathsOf };
}

const P = prepare(D);
const B = D.base ? prepare(D.base) : null;

// Metrics of the base, by name (a comparison shows only shared ones).
function baseCol(k) { return B ? B.d.metrics.indexOf(D.metrics[k]) : -1; }

// ---- Header, tabs, keys ----------------------------------------------------

const TABS = [
  ["summary", "Summary"], ["tree", "Tree"], ["flame", "Flame graph"],
  ["functions", "Functions"], ["paths", "Paths"],
].concat(B ? [["compare", "Comparison"]] : []);
const sections = {};
const tabButtons = {};

function buildShell() {
  const nav = el("nav", { role: "tablist" });
  TABS.forEach(([id, label], i) => {
    const b = el("button", { role: "tab", id: "tab-" + id, "aria-selected": "false",
      onclick: () => show(id) }, label, el("kbd", {}, String(i + 1)));
    tabButtons[id] = b;
    nav.append(b);
  });
  const metric = el("select", { id: "metric", title: "metric (m)", onchange: (e) => {
    state.metric = Number(e.target.value); render(); } },
    D.metrics.map((name, k) => el("option", { value: String(k) }, name)));
  const search = el("input", { id: "search", type: "search", placeholder: "search functions (/)",
    oninput: (e) => { state.search = e.target.value.toLowerCase(); render(); } });
  const theme = el("button", { class: "plain", id: "theme", title: "light or dark (t)",
    onclick: toggleTheme }, "\u25d0");
  const helpBtn = el("button", { class: "plain", title: "keys (?)", onclick: toggleHelp }, "?");
  const cmd = D.meta.command.join(" ");
  document.body.prepend(
    el("header", {},
      el("h1", {}, B ? "pathvm comparison" : "pathvm"),
      el("span", { class: "cmd", title: cmd }, cmd),
      nav,
      el("div", { class: "controls" }, el("label", {}, "metric ", metric), search, theme, helpBtn)),
    el("div", { class: "help", id: "help", hidden: true },
      el("b", {}, "Keys"),
      el("div", {}, el("kbd", {}, "1"), "\u2013", el("kbd", {}, String(TABS.length)), " pages, ",
        el("kbd", {}, "/"), " search, ", el("kbd", {}, "m"), " metric, ", el("kbd", {}, "t"), " theme"),
      el("div", {}, "Lists: ", el("kbd", {}, "\u2191"), el("kbd", {}, "\u2193"), " move, ",
        el("kbd", {}, "Enter"), " open; tree: ", el("kbd", {}, "\u2190"), el("kbd", {}, "\u2192"),
        " collapse/expand, ", el("kbd", {}, "f"), " flame graph, ", el("kbd", {}, "p"), " paths here"),
      el("div", {}, "Flame graph: click zooms, ", el("kbd", {}, "Esc"), " zooms out")));
  const main = el("main");
  for (const [id] of TABS) {
    sections[id] = el("section", { id: "page-" + id, role: "tabpanel", hidden: true });
    main.append(sections[id]);
  }
  document.body.append(main);
  document.addEventListener("keydown", onKey);
  window.addEventListener("resize", () => { if (state.tab === "flame") render(); });
}

function toggleTheme() {
  const root = document.documentElement;
  const dark = root.dataset.theme
    ? root.dataset.theme === "dark"
    : matchMedia("(prefers-color-scheme: dark)").matches;
  root.dataset.theme = dark ? "light" : "dark";
}
function toggleHelp() { const h = document.getElementById("help"); h.hidden = !h.hidden; }

function show(tab) {
  state.tab = tab;
  for (const [id] of TABS) {
    sections[id].hidden = id !== tab;
    tabButtons[id].setAttribute("aria-selected", String(id === tab));
  }
  render();
}

function onKey(e) {
  const t = e.target;
  const typing = t && (t.tagName === "INPUT" || t.tagName === "SELECT");
  if (e.key === "Escape" && typing) { t.blur(); return; }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const digit = Number(e.key);
  if (digit >= 1 && digit <= TABS.length) { show(TABS[digit - 1][0]); e.preventDefault(); return; }
  if (e.key === "/") { document.getElementById("search").focus(); e.preventDefault(); return; }
  if (e.key === "m") { document.getElementById("metric").focus(); e.preventDefault(); return; }
  if (e.key === "t") { toggleTheme(); return; }
  if (e.key === "?") { toggleHelp(); return; }
  const page = pages[state.tab];
  if (page && page.key && page.key(e)) e.preventDefault();
}

// ---- Summary ---------------------------------------------------------------

function table(headers, rows, opts) {
  const head = el("tr", {}, headers.map((h) =>
    el("th", { class: h.num ? "num" : "" }, h.label !== undefined ? h.label : h)));
  return el("table", opts || {}, el("thead", {}, head), el("tbody", {}, rows));
}

function renderSummary(sec) {
  const d = D, k = state.metric;
  const insn = d.metrics.indexOf("instructions");
  sec.append(el("h2", {}, "Run"),
    table(["", ""], [
      el("tr", {}, el("td", {}, "command"), el("td", { class: "mono" }, d.meta.command.join(" "))),
      el("tr", {}, el("td", {}, "stop"), el("td", {}, d.meta.stop + ` (exit status ${d.meta.exit_status})`)),
      el("tr", {}, el("td", {}, "CPU model"), el("td", {}, d.meta.cpu_model)),
      el("tr", {}, el("td", {}, "pathvm"), el("td", {}, d.meta.pathvm_version)),
      el("tr", {}, el("td", {}, "configuration"),
        el("td", { class: "mono" }, d.meta.config.map(([a, b]) => `${a}=${b}`).join("  "))),
    ]));
  if (d.notes.length) sec.append(el("h2", {}, "Cut to keep the page small"),
    el("ul", { class: "notes" }, d.notes.map((n) => el("li", {}, n))));
  sec.append(el("h2", {}, "Totals"), table(
    ["metric", { label: "total", num: true }, { label: "per instruction", num: true }],
    d.metrics.map((name, i) => el("tr", { class: i === k ? "sel" : "" }, el("td", {}, name),
      el("td", { class: "num" }, fmt(d.totals[i])),
      el("td", { class: "num" }, insn >= 0 && d.totals[insn] ? (d.totals[i] / d.totals[insn]).toFixed(4) : "-")))));
  if (d.phases.length) sec.append(el("h2", {}, "Phases"), table(
    ["phase", { label: d.metrics[k], num: true }, { label: "%", num: true }],
    d.phases.map(([name, t]) => el("tr", {}, el("td", {}, name),
      el("td", { class: "num" }, fmt(t[k])), el("td", { class: "num" }, pct(t[k], d.totals[k]))))));
  if (d.threads.length) sec.append(el("h2", {}, "Threads"), table(
    ["tid", "started in", { label: d.metrics[k], num: true }, { label: "%", num: true }],
    d.threads.map(([tid, root, c]) => el("tr", {}, el("td", {}, String(tid)), el("td", {}, nameCell(root, 60)),
      el("td", { class: "num" }, fmt(c[k])), el("td", { class: "num" }, pct(c[k], d.totals[k]))))));
  const top = functionOrder(P, "self").slice(0, 10);
  sec.append(el("h2", {}, `Top functions by self ${d.metrics[k]}`), table(
    ["function", { label: "self", num: true }, { label: "%", num: true }],
    top.map((f) => el("tr", {}, el("td", {}, nameCell(d.functions.name[f], 70)),
      el("td", { class: "num" }, fmt(d.functions.self[f * M + k])),
      el("td", { class: "num" }, pct(d.functions.self[f * M + k], d.totals[k]))))));
  sec.append(el("h2", {}, "Objects"), table(
    ["path", { label: "size", num: true }, "id"],
    d.meta.objects.map(([path, size, id]) => el("tr", {}, el("td", { class: "mono" }, nameCell(path, 80)),
      el("td", { class: "num" }, fmt(size)), el("td", { class: "mono" }, id)))));
}

// ---- Calling context tree --------------------------------------------------

// A tree model: n nodes, children, a name, columns of numbers.
function ctxModel() {
  const k = state.metric, T = D.tree;
  return {
    kids: (i) => P.kids[i].slice().sort((a, b) => P.incl[b * M + k] - P.incl[a * M + k] || a - b),
    name: (i) => P.nodeName(i),
    hasPaths: (i) => P.pathsOf.has(T.function[i]),
    value: (i) => P.incl[i * M + k],
    head: ["context", "inclusive", "%", "self", "calls"],
    cells: (i) => [fmt(P.incl[i * M + k]), pct(P.incl[i * M + k], D.totals[k]),
      fmt(T.self[i * M + k]), T.function[i] === -3 ? "" : fmt(T.calls[i])],
    total: D.totals[k],
  };
}

const treeState = { open: new Set([0]), sel: 0, initial: true, model: "ctx" };
const cmpTreeState = { open: new Set([0]), sel: 0, initial: true, model: "cmp" };

function openHottest(ts, model, depth) {
  let i = 0;
  for (let d = 0; d < depth; d++) {
    ts.open.add(i);
    const kids = model.kids(i);
    if (!kids.length) break;
    i = kids[0];
  }
}

function visibleRows(ts, model) {
  const rows = [];
  const walk = (i, depth) => {
    rows.push([i, depth]);
    if (!ts.open.has(i)) return;
    const kids = model.kids(i);
    for (const c of kids.slice(0, 300)) walk(c, depth + 1);
    if (kids.length > 300) rows.push([-1, depth + 1, kids.length - 300]);
  };
  walk(0, 0);
  return rows;
}

function renderTree(sec, ts, model, cls) {
  if (ts.initial) { openHottest(ts, model, 12); ts.initial = false; }
  const rows = visibleRows(ts, model);
  ts.rows = rows;
  if (!rows.some(([i]) => i === ts.sel)) ts.sel = 0;
  const box = el("div", { class: "tree " + (cls || ""), id: ts.model + "-tree", tabindex: "0", role: "tree" });
  box.append(el("div", { class: "row head" }, model.head.map((h, j) =>
    el("span", { class: j ? "num" : "" }, h))));
  for (const [i, depth, more] of rows) {
    if (i < 0) {
      box.append(el("div", { class: "row" }, el("span", { class: "muted", style: `padding-left:${depth * 14 + 22}px` },
        `\u2026 ${fmt(more)} more children (colder)`)));
      continue;
    }
    const kids = model.kids(i);
    const open = ts.open.has(i);
    const share = model.total ? Math.min(1, Math.abs(model.value(i)) / model.total) : 0;
    const name = model.name(i);
    const row = el("div", { class: "row" + (i === ts.sel ? " sel" : ""), role: "treeitem",
      "data-node": String(i), "aria-expanded": kids.length ? String(open) : null,
      onclick: () => { ts.sel = i; if (kids.length) toggleNode(ts, i); else render(); } },
      el("span", { class: "name", style: `padding-left:${depth * 14 + 4}px` },
        el("span", { class: "tog" }, kids.length ? (open ? "\u25be" : "\u25b8") : ""),
        nameCell(name, Math.max(24, 90 - depth * 2)),
        model.hasPaths && model.hasPaths(i) ? el("span", { class: "muted", title: "has paths (p)" }, " \u2237") : null,
        el("span", { class: "bar", style: `width:${(share * 100).toFixed(2)}%` })),
      model.cells(i).map((c) => c instanceof Node ? c : el("span", { class: "num" }, c)));
    box.append(row);
  }
  sec.append(box);
  const selRow = box.querySelector(".row.sel");
  if (selRow && ts.scroll) { selRow.scrollIntoView({ block: "nearest" }); ts.scroll = false; }
}

function toggleNode(ts, i) {
  if (ts.open.has(i)) ts.open.delete(i); else ts.open.add(i);
  render();
}

function treeKey(ts, model, e) {
  const rows = ts.rows.filter(([i]) => i >= 0);
  const at = rows.findIndex(([i]) => i === ts.sel);
  const i = ts.sel;
  const move = (j) => { ts.sel = rows[Math.max(0, Math.min(rows.length - 1, j))][0]; ts.scroll = true; render(); };
  switch (e.key) {
    case "ArrowDown": case "j": move(at + 1); return true;
    case "ArrowUp": case "k": move(at - 1); return true;
    case "Home": move(0); return true;
    case "End": move(rows.length - 1); return true;
    case "ArrowRight": case "l": {
      const kids = model.kids(i);
      if (!kids.length) return true;
      if (!ts.open.has(i)) ts.open.add(i); else ts.sel = kids[0];
      ts.scroll = true; render(); return true;
    }
    case "ArrowLeft": case "h":
      if (ts.open.has(i) && i !== 0) ts.open.delete(i);
      else if (model.parent) ts.sel = model.parent(i);
      ts.scroll = true; render(); return true;
    case "Enter": case " ":
      if (model.kids(i).length) toggleNode(ts, i); return true;
  }
  return false;
}

// ---- Flame graph (icicle) ----------------------------------------------------

const flameState = { zoom: 0 };

function hue(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
  return h;
}
function flameColor(name, delta) {
  if (delta !== undefined) {
    if (delta === 0) return "hsl(0,0%,80%)";
    const s = Math.min(1, Math.abs(delta));
    return delta > 0 ? `hsl(0,75%,${88 - 30 * s}%)` : `hsl(140,55%,${88 - 30 * s}%)`;
  }
  const h = hue(name);
  return `hsl(${10 + (Math.abs(h) % 45)},${70 + (Math.abs(h >> 8) % 20)}%,${62 + (Math.abs(h >> 16) % 12)}%)`;
}

function renderFlame(sec) {
  const k = state.metric;
  const z = flameState.zoom;
  const W = Math.max(400, sec.clientWidth || document.body.clientWidth - 30);
  const total = P.incl[z * M + k];
  const bar = el("div", { class: "flamebar" },
    el("button", { class: "plain", onclick: () => { flameState.zoom = 0; render(); } }, "reset zoom"),
    el("span", { class: "muted" }, z ? `zoomed on ${short(P.nodeName(z), 60)}: ${fmt(total)} ${D.metrics[k]} (${pct(total, D.totals[k])} of all)`
      : `${fmt(total)} ${D.metrics[k]}; click a frame to zoom, Esc zooms out`));
  sec.append(bar);
  const box = el("div", { class: "flame", id: "flame" });
  const H = 18;
  // The zoomed node's ancestors, full width, dimmed.
  const chain = [];
  for (let a = z; a !== 0; a = D.tree.parent[a]) chain.unshift(a);
  chain.unshift(0);
  let depth = 0;
  let drawn = 0, matched = 0;
  const q = state.search;
  const cmp = B ? cmpDeltaByKey() : null;
  for (const a of chain.slice(0, -1)) {
    box.append(frame(a, 0, W, depth++, true));
  }
  function frame(i, x, w, depth, crumb) {
    const name = P.nodeName(i);
    const v = P.incl[i * M + k];
    let delta;
    if (cmp) { const c = cmp.get(P.key[i]); delta = c === undefined ? 1 : c; }
    const div = el("div", {
      style: `left:${x.toFixed(1)}px;width:${Math.max(1, w - 0.5).toFixed(1)}px;top:${depth * H}px;background:${flameColor(name, delta)}`,
      title: `${name}\n${fmt(v)} ${D.metrics[k]} (${pct(v, D.totals[k])})`,
      "data-node": String(i),
      class: crumb ? "crumb" : "",
      onclick: () => { flameState.zoom = i; render(); },
    }, w > 30 ? short(name, Math.floor(w / 6.5)) : "");
    if (q) {
      if (name.toLowerCase().includes(q)) div.classList.add("hit"); else div.classList.add("dim");
    }
    return div;
  }
  let maxDepth = depth;
  const lay = (i, x, w, d) => {
    if (w < 1 || drawn > 12000) return;
    drawn++;
    if (q && P.nodeName(i).toLowerCase().includes(q)) matched += P.incl[i * M + k];
    box.append(frame(i, x, w, d, false));
    maxDepth = Math.max(maxDepth, d);
    let cx = x;
    const kids = P.kids[i].slice().sort((a, b) => P.incl[b * M + k] - P.incl[a * M + k] || a - b);
    for (const c of kids) {
      const cw = total ? (w * P.incl[c * M + k]) / P.incl[i * M + k] : 0;
      if (!(cw >= 1)) break;
      lay(c, cx, cw, d + 1);
      cx += cw;
    }
  };
  if (total > 0) lay(z, 0, W, depth);
  box.style.height = `${(maxDepth + 1) * H + 2}px`;
  if (q) bar.append(el("span", { id: "flame-match" }, `\u201c${q}\u201d: ${pct(matched, total)} of the view (outermost matches counted once)`));
  sec.append(box);
}

function flameKey(e) {
  if (e.key === "Escape" || e.key === "Backspace") {
    flameState.zoom = flameState.zoom ? D.tree.parent[flameState.zoom] : 0;
    render();
    return true;
  }
  return false;
}

// ---- Functions ---------------------------------------------------------------

const fnState = { sort: "self", sel: -1 };

function functionOrder(p, by) {
  const k = state.metric, d = p.d;
  const idx = [];
  for (let f = 0; f < p.nf; f++) {
    if (state.search && !d.functions.name[f].toLowerCase().includes(state.search)) continue;
    idx.push(f);
  }
  const val = by === "calls" ? (f) => d.functions.calls[f]
    : by === "incl" ? (f) => d.functions.incl[f * M + k] : (f) => d.functions.self[f * M + k];
  if (by === "name") idx.sort((a, b) => d.functions.name[a].localeCompare(d.functions.name[b]) || a - b);
  else idx.sort((a, b) => val(b) - val(a) || a - b);
  return idx;
}

function renderFunctions(sec) {
  const k = state.metric, F = D.functions;
  const order = functionOrder(P, fnState.sort);
  fnState.order = order;
  if (fnState.sel < 0 && order.length) fnState.sel = order[0];
  const shown = order.slice(0, 400);
  const th = (label, by, num) => el("th", { class: (num ? "num " : "") + "sortable",
    onclick: () => { fnState.sort = by; render(); } }, label + (fnState.sort === by ? " \u25be" : ""));
  sec.append(el("div", { class: "muted" }, `${fmt(order.length)} functions` +
    (order.length > shown.length ? `, the first ${shown.length} shown` : "") + `; by ${fnState.sort} ${D.metrics[k]}`));
  const rows = shown.map((f) => el("tr", { class: f === fnState.sel ? "sel" : "", "data-function": String(f),
    onclick: () => { fnState.sel = f; render(); } },
    el("td", {}, nameCell(F.name[f], 60)),
    el("td", { class: "num" }, fmt(F.self[f * M + k])), el("td", { class: "num" }, pct(F.self[f * M + k], D.totals[k])),
    el("td", { class: "num" }, fmt(F.incl[f * M + k])), el("td", { class: "num" }, pct(F.incl[f * M + k], D.totals[k])),
    el("td", { class: "num" }, fmt(F.calls[f])),
    el("td", { class: "muted" }, F.object[f]),
    el("td", { class: "muted" }, F.file[f] ? short(F.file[f].split("/").pop() + ":" + F.line[f], 30) : "")));
  const t = el("table", { id: "functions-table" },
    el("thead", {}, el("tr", {}, th("function", "name"), th("self", "self", true), el("th", { class: "num" }, "%"),
      th("inclusive", "incl", true), el("th", { class: "num" }, "%"), th("calls", "calls", true),
      el("th", {}, "object"), el("th", {}, "entry"))),
    el("tbody", {}, rows));
  sec.append(el("div", { class: "scroll" }, t));
  if (fnState.sel >= 0) {
    const f = fnState.sel;
    const callers = D.edges.filter((e) => e[1] === f).sort((a, b) => b[3][k] - a[3][k]);
    const callees = D.edges.filter((e) => e[0] === f).sort((a, b) => b[3][k] - a[3][k]);
    const edgeTable = (list, end, title) => [el("h2", {}, title), list.length ? table(
      ["function", { label: "calls", num: true }, { label: `inclusive ${D.metrics[k]}`, num: true }, { label: "%", num: true }],
      list.map((e) => el("tr", { onclick: () => { fnState.sel = e[end]; render(); } },
        el("td", {}, nameCell(F.name[e[end]], 70)), el("td", { class: "num" }, fmt(e[2])),
        el("td", { class: "num" }, fmt(e[3][k])), el("td", { class: "num" }, pct(e[3][k], D.totals[k]))))) :
      el("div", { class: "muted" }, "none")];
    sec.append(el("h2", {}, nameCell(F.name[f], 100)),
      P.pathsOf.has(f) ? el("button", { class: "plain", onclick: () => openPaths(f, -1) }, "its paths (p)") : null,
      edgeTable(callers, 0, "Callers"), edgeTable(callees, 1, "Callees"));
  }
  const sel = sec.querySelector("tr.sel");
  if (sel && fnState.scroll) { sel.scrollIntoView({ block: "nearest" }); fnState.scroll = false; }
}

function functionsKey(e) {
  const order = (fnState.order || []).slice(0, 400);
  const at = order.indexOf(fnState.sel);
  if (e.key === "ArrowDown" || e.key === "j") { fnState.sel = order[Math.min(order.length - 1, at + 1)]; fnState.scroll = true; render(); return true; }
  if (e.key === "ArrowUp" || e.key === "k") { fnState.sel = order[Math.max(0, at - 1)]; fnState.scroll = true; render(); return true; }
  if ((e.key === "p" || e.key === "Enter") && P.pathsOf.has(fnState.sel)) { openPaths(fnState.sel, -1); return true; }
  return false;
}

// ---- Paths over the source -----------------------------------------------------

const pathState = { pf: -1, path: 0, context: -1, view: "source" };

function pathFnName(pf) {
  return pf.function >= 0 ? D.functions.name[pf.function] : hex(pf.entry);
}
function pathValue(p, k, ctx) {
  if (ctx < 0) return p.cost[k];
  const c = p.contexts.find(([n]) => n === ctx);
  return c ? c[1] : 0;
}

function openPaths(fn, ctx) {
  const i = P.pathsOf.get(fn);
  if (i === undefined) return;
  pathState.pf = i; pathState.path = 0; pathState.context = ctx;
  show("paths");
}

function pathFunctionOrder() {
  const k = state.metric;
  const sum = (pf) => pf.paths.reduce((s, p) => s + p.cost[k], 0);
  return D.paths.map((pf, i) => [i, sum(pf)])
    .filter(([i]) => !state.search || pathFnName(D.paths[i]).toLowerCase().includes(state.search))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

function rankedPaths(pf) {
  const k = state.metric, ctx = pathState.context;
  return pf.paths.map((p, i) => i)
    .filter((i) => ctx < 0 || pathValue(pf.paths[i], k, ctx) > 0)
    .sort((a, b) => pathValue(pf.paths[b], k, ctx) - pathValue(pf.paths[a], k, ctx) ||
      pf.paths[b].count - pf.paths[a].count || a - b);
}

const CLASS = { d: "dense", s: "sparse", c: "cold" };

function stackName(node) {
  const names = [];
  for (let a = node; a !== 0; a = D.tree.parent[a]) names.unshift(P.nodeName(a));
  return names.join(" \u2192 ");
}

function renderPaths(sec) {
  const k = state.metric;
  if (!D.paths.length) {
    sec.append(el("p", { class: "muted" }, "The profile has no paths (recorded with --no-paths, or nothing ran)."));
    return;
  }
  const fns = pathFunctionOrder();
  if (pathState.pf < 0 && fns.length) pathState.pf = fns[0][0];
  const list = el("div", { class: "fnlist", id: "path-functions" }, fns.map(([i, v]) =>
    el("div", { class: "row" + (i === pathState.pf ? " sel" : ""), "data-pf": String(i),
      onclick: () => { pathState.pf = i; pathState.path = 0; pathState.context = -1; render(); } },
      el("span", { class: "n" }, nameCell(pathFnName(D.paths[i]), 34)), el("span", { class: "num muted" }, pct(v, D.totals[k])))));
  const right = el("div");
  sec.append(el("div", { class: "paths" }, list, right));
  const pf = D.paths[pathState.pf];
  if (!pf) return;
  const ranked = rankedPaths(pf);
  pathState.ranked = ranked;
  if (!ranked.includes(pathState.path)) pathState.path = ranked.length ? ranked[0] : 0;
  const ctxs = new Map();
  for (const p of pf.paths) for (const [n, c] of p.contexts) ctxs.set(n, (ctxs.get(n) || 0) + c);
  const ctxSel = el("select", { id: "path-context", onchange: (e) => { pathState.context = Number(e.target.value); render(); } },
    el("option", { value: "-1" }, "all calling contexts"),
    [...ctxs.entries()].sort((a, b) => b[1] - a[1]).map(([n, c]) =>
      el("option", { value: String(n), selected: n === pathState.context, title: stackName(n) },
        short(stackName(n), 90) + ` (${fmt(c)} paths)`)));
  const name = pathFnName(pf);
  right.append(el("h2", {}, nameCell(name, 80), el("span", { class: "muted" },
    ` \u2014 ${fmt(pf.paths_taken)} paths taken in ${fmt(pf.frames)} frames; ${pf.numbering}` +
    (pf.paths.length < pf.paths_taken ? `; the ${pf.paths.length} costliest here` : ""))),
    el("div", {}, "context: ", ctxSel));
  const ctx = pathState.context;
  const rows = ranked.map((i, rank) => {
    const p = pf.paths[i];
    const c = p.class[k];
    return el("tr", { class: i === pathState.path ? "sel" : "", "data-path": String(i), "data-id": String(p.id),
      onclick: () => { pathState.path = i; render(); } },
      el("td", { class: "num" }, String(rank + 1)), el("td", { class: "num" }, "#" + p.id),
      el("td", { class: "num" }, fmt(ctx < 0 ? p.count : pathValue(p, k, ctx))),
      el("td", { class: "num" }, fmt(p.cost[k])), el("td", { class: "num" }, pct(p.cost[k], D.totals[k])),
      el("td", { class: "num" }, p.cost[0] && D.metrics[0] === "instructions" ? (p.cost[k] / p.cost[0]).toFixed(4) : ""),
      el("td", {}, el("span", { class: "cls cls-" + c, title: "Ammons-Ball-Larus class by " + D.metrics[k] }, CLASS[c])),
      el("td", { class: "num" }, fmt(p.length)),
      el("td", { class: "muted" }, (p.after !== null ? `loop from ${hex(p.after)} ` : "") +
        (p.truncated ? "truncated" : p.exit ? "to exit" : "to back edge")));
  });
  right.append(el("div", { class: "scroll", style: "max-height:220px" }, el("table", { id: "paths-table" },
    el("thead", {}, el("tr", {}, ["rank", "path", ctx < 0 ? "count" : "count here", D.metrics[k], "%", "per insn", "class", "length", ""].map((h, j) =>
      el("th", { class: j < 6 || j === 7 ? "num" : "" }, h)))),
    el("tbody", {}, rows))));
  right.append(el("div", { class: "muted" }, `Classes: hot when at least ${D.threshold}% of all ${D.metrics[k]}; ` +
    "dense when its cost per instruction is above the program's, else sparse; the rest cold."));
  const p = pf.paths[pathState.path];
  if (p) {
    right.append(codeView(pf, p));
    // The route's first line at the top of the listing.
    const code = right.querySelector("#code");
    const first = code.querySelector(".on-path");
    if (first) code.scrollTop = Math.max(0, first.offsetTop - code.offsetTop - 40);
  }
  const sel = sec.querySelector("#paths-table tr.sel");
  if (sel && pathState.scroll) { sel.scrollIntoView({ block: "nearest" }); pathState.scroll = false; }
}

// The path's route: for each [file,line], the steps of the path on it.
function routeSteps(pf, p) {
  const steps = new Map();
  const addrs = new Map();
  p.blocks.forEach((b, step) => {
    const blk = pf.blocks[b];
    blk.lines.forEach(([f, l], j) => {
      const key = f + ":" + l;
      if (!steps.has(key)) steps.set(key, []);
      const s = steps.get(key);
      if (s[s.length - 1] !== step + 1) s.push(step + 1);
      addrs.set(blk.start + blk.insns[j], step + 1);
    });
  });
  return { steps, addrs };
}

function codeView(pf, p) {
  const k = state.metric;
  const { steps, addrs } = routeSteps(pf, p);
  // The function's main file: the one most of its instructions are on.
  const files = new Map();
  for (const b of pf.blocks) for (const [f] of b.lines) if (f >= 0) files.set(f, (files.get(f) || 0) + 1);
  const main = [...files.entries()].sort((a, b) => b[1] - a[1])[0];
  const file = main ? D.files[main[0]] : null;
  const canSource = file && file.found && file.ranges.length;
  const view = canSource ? pathState.view : "disassembly";
  const box = el("div", { class: "code", id: "code", "data-view": view });
  const toggle = el("div", {},
    el("button", { class: "plain", disabled: !canSource, onclick: () => { pathState.view = "source"; render(); } }, "source"),
    " ", el("button", { class: "plain", onclick: () => { pathState.view = "disassembly"; render(); } }, "disassembly"),
    el("span", { class: "muted" }, file ? `  ${file.name}${file.found ? "" : " (not found: disassembly shown)"}` : "  no source lines"));
  const lineCost = new Map();
  for (const [f, l, c] of pf.line_costs) lineCost.set(f + ":" + l, c[k]);
  if (view === "source") {
    const fid = main[0];
    file.ranges.forEach(([first, lines], r) => {
      if (r > 0) box.append(el("div", { class: "ln gap" }, el("span", {}, "\u22ee")));
      lines.forEach((text, j) => {
        const line = first + j;
        const key = fid + ":" + line;
        const s = steps.get(key);
        const c = lineCost.get(key);
        box.append(el("div", { class: "ln src-line" + (s ? " on-path" : ""), "data-line": String(line) },
          el("span", { class: "no" }, String(line)),
          el("span", { class: "cost", title: `${D.metrics[k]} on this line (whole run)` }, c ? fmt(c) : ""),
          el("span", { class: "step", title: s ? "step of the path" : "" }, s ? s.join(",") : ""),
          el("span", {}, text)));
      });
    });
    const several = lineCost.get(fid + ":0");
    if (several) box.append(el("div", { class: "muted" }, `${fmt(several)} ${D.metrics[k]} in blocks over several lines`));
  } else {
    // Each instruction's own cost; a profile without costs per
    // instruction has the block's on its first instruction.
    const perInsn = pf.insn_costs.length > 0;
    const insnCost = new Map(pf.insn_costs.map(([a, c]) => [a, c[k]]));
    const blockCost = new Map(pf.block_costs.map(([start, n, c]) => [start, [n, c[k]]]));
    pf.blocks.forEach((blk) => {
      blk.text.forEach((text, j) => {
        const a = blk.start + blk.insns[j];
        const s = addrs.get(a);
        const [f, l] = blk.lines[j];
        const bc = blockCost.get(a);
        const ic = insnCost.get(a);
        const cost = perInsn
          ? el("span", { class: "cost", title: `${D.metrics[k]} of this instruction (whole run)` }, ic ? fmt(ic) : "")
          : el("span", { class: "cost", title: bc ? `a block that ran ${fmt(bc[0])} times; ${D.metrics[k]} of the whole block` : "" },
            bc ? fmt(bc[1]) : "");
        box.append(el("div", { class: "ln insn" + (s ? " on-path" : "") + (j === 0 ? " blk" : ""), "data-addr": hex(a),
          "data-line": l ? String(l) : null, title: hex(a) },
          el("span", { class: "no" }, l ? String(l) : ""),
          cost,
          el("span", { class: "step" }, s ? String(s) : ""),
          el("span", { title: f >= 0 ? D.files[f].name + ":" + l : "" },
            el("span", { class: "muted" }, hex(a).slice(-6) + "  "), text)));
      });
    });
  }
  return el("div", {}, el("h2", {}, `Path #${p.id}: ${fmt(p.count)} times, ${fmt(p.length)} instructions each`), toggle, box);
}

function pathsKey(e) {
  const r = pathState.ranked || [];
  const at = r.indexOf(pathState.path);
  if (e.key === "ArrowDown" || e.key === "j") { pathState.path = r[Math.min(r.length - 1, at + 1)]; pathState.scroll = true; render(); return true; }
  if (e.key === "ArrowUp" || e.key === "k") { pathState.path = r[Math.max(0, at - 1)]; pathState.scroll = true; render(); return true; }
  const fns = pathFunctionOrder().map(([i]) => i);
  const fi = fns.indexOf(pathState.pf);
  if (e.key === "]" || e.key === "PageDown") { pathState.pf = fns[Math.min(fns.length - 1, fi + 1)]; pathState.path = 0; pathState.context = -1; render(); return true; }
  if (e.key === "[" || e.key === "PageUp") { pathState.pf = fns[Math.max(0, fi - 1)]; pathState.path = 0; pathState.context = -1; render(); return true; }
  if (e.key === "d") { pathState.view = pathState.view === "source" ? "disassembly" : "source"; render(); return true; }
  return false;
}

// ---- Comparison ---------------------------------------------------------------

// Per node key of the new tree: (new - old) / max(new, old) for the metric.
function cmpDeltaByKey() {
  const k = state.metric, bk = baseCol(k);
  const old = new Map();
  if (bk >= 0) for (let i = 0; i < B.n; i++) old.set(B.key[i], (old.get(B.key[i]) || 0) + B.incl[i * B.m + bk]);
  const out = new Map();
  for (let i = 0; i < P.n; i++) {
    const n = P.incl[i * M + k], o = old.get(P.key[i]) || 0;
    out.set(P.key[i], Math.max(n, o) ? (n - o) / Math.max(n, o) : 0);
  }
  return out;
}

// The union of the two trees by stacks of names.
function cmpTree() {
  const k = state.metric, bk = baseCol(k);
  if (cmpTree.cache && cmpTree.cache.k === k) return cmpTree.cache;
  const index = new Map([["", 0]]);
  const u = { k, parent: [0], name: ["(all)"], oldV: [0], newV: [0], kids: [[]] };
  const add = (p, i, isNew) => {
    const key = p.key[i];
    let j = index.get(key);
    if (j === undefined) {
      j = u.parent.length;
      index.set(key, j);
      const pj = index.get(p.key[p.d.tree.parent[i]]);
      u.parent.push(pj); u.name.push(p.nodeName(i)); u.oldV.push(0); u.newV.push(0); u.kids.push([]);
      u.kids[pj].push(j);
    }
    if (isNew) u.newV[j] += P.incl[i * M + k];
    else if (bk >= 0) u.oldV[j] += B.incl[i * B.m + bk];
  };
  for (let i = 1; i < P.n; i++) add(P, i, true);
  for (let i = 1; i < B.n; i++) add(B, i, false);
  u.newV[0] = P.incl[k];
  u.oldV[0] = bk >= 0 ? B.incl[bk] : 0;
  cmpTree.cache = u;
  return u;
}

function cmpModel() {
  const u = cmpTree();
  const k = state.metric;
  const d = (i) => u.newV[i] - u.oldV[i];
  return {
    kids: (i) => u.kids[i].slice().sort((a, b) => Math.abs(d(b)) - Math.abs(d(a)) || Math.max(u.newV[b], u.oldV[b]) - Math.max(u.newV[a], u.oldV[a]) || a - b),
    parent: (i) => u.parent[i],
    name: (i) => u.name[i],
    value: (i) => Math.max(u.newV[i], u.oldV[i]),
    head: ["context", "old", "new", "change", "%"],
    cells: (i) => [fmt(u.oldV[i]), fmt(u.newV[i]),
      el("span", { class: "num " + dir(d(i)) }, signed(d(i))),
      el("span", { class: "num " + dir(d(i)) }, change(u.oldV[i], u.newV[i]))],
    total: Math.max(u.newV[0], u.oldV[0]),
    k,
  };
}

function renderCompare(sec) {
  const k = state.metric, bk = baseCol(k);
  if (D.differences.length) sec.append(el("h2", {}, "What differs between the runs"),
    el("ul", { class: "notes" }, D.differences.map((x) => el("li", {}, x))));
  sec.append(el("h2", {}, "Totals"), table(
    ["metric", { label: "old", num: true }, { label: "new", num: true }, { label: "change", num: true }, { label: "%", num: true }],
    D.metrics.map((name, i) => {
      const j = baseCol(i);
      if (j < 0) return el("tr", {}, el("td", {}, name), el("td", { class: "muted" }, "not in the old profile"));
      const o = B.d.totals[j], n = D.totals[i];
      return el("tr", { class: i === k ? "sel" : "" }, el("td", {}, name), el("td", { class: "num" }, fmt(o)),
        el("td", { class: "num" }, fmt(n)), el("td", { class: "num " + dir(n - o) }, signed(n - o)),
        el("td", { class: "num " + dir(n - o) }, change(o, n)));
    })));
  if (bk < 0) return;
  // Functions matched by name and object.
  const rows = new Map();
  for (let f = 0; f < P.nf; f++) rows.set(P.fnKey(f), { name: D.functions.name[f], n: D.functions.self[f * M + k], o: 0, ni: D.functions.incl[f * M + k], oi: 0 });
  const bm = B.d.metrics.length;
  for (let f = 0; f < B.nf; f++) {
    const key = B.fnKey(f);
    const r = rows.get(key) || { name: B.d.functions.name[f], n: 0, o: 0, ni: 0, oi: 0 };
    r.o += B.d.functions.self[f * bm + bk]; r.oi += B.d.functions.incl[f * bm + bk];
    rows.set(key, r);
  }
  const list = [...rows.values()].filter((r) => r.n !== r.o || r.ni !== r.oi)
    .filter((r) => !state.search || r.name.toLowerCase().includes(state.search))
    .sort((a, b) => Math.abs(b.n - b.o) - Math.abs(a.n - a.o) || Math.abs(b.ni - b.oi) - Math.abs(a.ni - a.oi) || a.name.localeCompare(b.name));
  sec.append(el("h2", {}, `Functions that changed, by self ${D.metrics[k]}`),
    el("div", { class: "scroll" }, table(["function", { label: "old self", num: true }, { label: "new self", num: true },
      { label: "change", num: true }, { label: "%", num: true }, { label: "old incl", num: true }, { label: "new incl", num: true }, { label: "%", num: true }],
    list.slice(0, 300).map((r) => el("tr", {}, el("td", {}, nameCell(r.name, 60)), el("td", { class: "num" }, fmt(r.o)),
      el("td", { class: "num" }, fmt(r.n)), el("td", { class: "num " + dir(r.n - r.o) }, signed(r.n - r.o)),
      el("td", { class: "num " + dir(r.n - r.o) }, change(r.o, r.n)),
      el("td", { class: "num" }, fmt(r.oi)), el("td", { class: "num" }, fmt(r.ni)),
      el("td", { class: "num " + dir(r.ni - r.oi) }, change(r.oi, r.ni)))), { id: "compare-functions" })));
  renderPathChanges(sec, k, bk);
  sec.append(el("h2", {}, `Calling contexts, by change in inclusive ${D.metrics[k]}`));
  const model = cmpModel();
  renderTree(sec, cmpTreeState, model, "cmp");
}

// Paths of both runs matched by function name and route (block offsets from
// the function's entry; ids differ between builds): those whose count or
// metric changed, most changed in the metric first.
function renderPathChanges(sec, k, bk) {
  const rows = [];
  for (const f of D.path_changes || []) {
    if (state.search && !f.name.toLowerCase().includes(state.search)) continue;
    for (const p of f.paths) {
      const oc = p.old ? p.old.count : 0, nc = p.new ? p.new.count : 0;
      const ov = p.old ? p.old.cost[bk] : 0, nv = p.new ? p.new.cost[k] : 0;
      if (oc !== nc || ov !== nv) rows.push({ f, p, d: Math.abs(nv - ov), dc: Math.abs(nc - oc) });
    }
  }
  if (!rows.length) return;
  rows.sort((a, b) => b.d - a.d || b.dc - a.dc);
  const route = (p) => (p.after !== null ? `(loop from +${hex(p.after).slice(2)}) ` : "") +
    p.route.map((o) => (o < 0 ? "\u2212" : "+") + hex(Math.abs(o)).slice(2)).join(" \u2192 ") + (p.truncated ? " \u2026" : "");
  sec.append(el("h2", {}, `Paths that changed, by ${D.metrics[k]} (matched by function and route)`),
    el("div", { class: "scroll" }, table(["function", "route", { label: "old count", num: true }, { label: "new count", num: true },
      { label: "change", num: true }, { label: "old " + D.metrics[k], num: true }, { label: "new " + D.metrics[k], num: true },
      { label: "%", num: true }],
    rows.slice(0, 300).map(({ f, p }) => {
      const o = p.old, n = p.new;
      const oc = o ? o.count : 0, nc = n ? n.count : 0;
      const ov = o ? o.cost[bk] : 0, nv = n ? n.cost[k] : 0;
      const only = !o ? "only in new" : !n ? "only in old" : "";
      return el("tr", { "data-old": o ? String(o.id) : null, "data-new": n ? String(n.id) : null },
        el("td", {}, nameCell(f.name, 40)),
        el("td", { class: "route", title: route(p) },
          only ? el("span", { class: "muted only" }, only + ": ") : null, route(p)),
        el("td", { class: "num" }, o ? fmt(oc) : "\u2013"), el("td", { class: "num" }, n ? fmt(nc) : "\u2013"),
        el("td", { class: "num " + dir(nc - oc) }, signed(nc - oc)),
        el("td", { class: "num" }, o ? fmt(ov) : "\u2013"), el("td", { class: "num" }, n ? fmt(nv) : "\u2013"),
        el("td", { class: "num " + dir(nv - ov) }, change(ov, nv)));
    }), { id: "compare-paths" })));
}

// ---- Pages and drawing ----------------------------------------------------------

const pages = {
  summary: { render: renderSummary },
  tree: {
    render: (sec) => {
      sec.append(el("div", { class: "muted" }, `${fmt(P.n - 1)} calling contexts (equal stacks merged); children by inclusive ${D.metrics[state.metric]}. ` +
        "\u2237 marks a function with paths: p opens the paths taken in the selected context."));
      renderTree(sec, treeState, Object.assign(ctxModel(), { parent: (i) => D.tree.parent[i] }));
    },
    key: (e) => {
      if (e.key === "f") { flameState.zoom = treeState.sel; show("flame"); return true; }
      if (e.key === "p") { const f = D.tree.function[treeState.sel]; if (P.pathsOf.has(f)) openPaths(f, treeState.sel); return true; }
      return treeKey(treeState, Object.assign(ctxModel(), { parent: (i) => D.tree.parent[i] }), e);
    },
  },
  flame: { render: renderFlame, key: flameKey },
  functions: { render: renderFunctions, key: functionsKey },
  paths: { render: renderPaths, key: pathsKey },
  compare: { render: renderCompare, key: (e) => treeKey(cmpTreeState, cmpModel(), e) },
};

function render() {
  const sec = sections[state.tab];
  const scroll = window.scrollY;
  sec.replaceChildren();
  pages[state.tab].render(sec);
  window.scrollTo(0, scroll);
}

buildShell();
show("summary");
document.body.dataset.ready = "1";
