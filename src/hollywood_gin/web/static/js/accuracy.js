// The lobby's finished matches: each with its review, and a chart of the accuracy of this
// browser's reviewed matches over time, a line per computer level (and one for friends),
// drawn as SVG here with a table for screen readers.

import { el } from "./dom.js";
import { ago, displayName, t } from "./i18n.js";
import { myTables, savedTables, tokenOf } from "./seats.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#e3c26a", "#7fd6ff", "#ff9f7a", "#9be37f", "#d9a6ff", "#f4efe1"];

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
  return node;
}

function seriesName(info) {
  return info.opponent === "computer" ? t("lobby.vs_computer", { level: info.level })
    : t("lobby.friends");
}

/** The accuracy (0 to 100) of each reviewed match over time, a line per series. */
export function accuracyChart(points) {
  const figure = el("figure", "chart");
  const W = 420;
  const H = 170;
  const left = 30;
  const right = 8;
  const top = 10;
  const bottom = 8;
  const times = points.map((p) => p.when);
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const x = (when) => (t1 === t0 ? (left + W - right) / 2
    : left + (W - left - right) * ((when - t0) / (t1 - t0)));
  const y = (acc) => top + (H - top - bottom) * (1 - acc / 100);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "acc-svg",
    "aria-labelledby": "acc-title acc-desc" });
  const title = svg("title", { id: "acc-title" });
  title.textContent = t("lobby.accuracy_title");
  const desc = svg("desc", { id: "acc-desc" });
  desc.textContent = t("lobby.accuracy_desc");
  root.append(title, desc);
  [0, 25, 50, 75, 100].forEach((v) => {
    root.append(svg("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v ? "acc-grid" : "acc-axis" }));
    const label = svg("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end", class: "acc-tick" });
    label.textContent = String(v);
    root.append(label);
  });
  const series = new Map();
  [...points].sort((a, b) => a.when - b.when).forEach((p) => {
    if (!series.has(p.series)) series.set(p.series, []);
    series.get(p.series).push(p);
  });
  // The key under the chart, as a list that wraps: in the picture, a fourth series ran
  // past its edge.
  const key = el("ul", "acc-key");
  [...series.entries()].forEach(([name, list], i) => {
    const colour = COLOURS[i % COLOURS.length];
    if (list.length > 1) {
      root.append(svg("polyline", { points: list.map((p) => `${x(p.when)},${y(p.accuracy)}`).join(" "),
        stroke: colour }));
    }
    list.forEach((p) => root.append(svg("circle", { cx: x(p.when), cy: y(p.accuracy), r: 4, fill: colour })));
    const item = el("li", "", name);
    item.style.color = colour;
    key.append(item);
  });
  figure.append(root, key);
  const table = el("table");
  table.append(el("caption", "", t("lobby.accuracy_title")));
  [...points].sort((a, b) => a.when - b.when).forEach((p) => {
    const tr = el("tr");
    tr.append(el("td", "", t("lobby.accuracy_point", { when: ago(p.when * 1000), name: p.series,
      n: Math.round(p.accuracy) })));
    table.append(tr);
  });
  const alt = el("div", "sr-only");
  alt.append(table);
  figure.append(alt);
  return figure;
}

/** The lobby's section of this browser's finished matches (null when it has none). */
export function finishedTables() {
  const saved = savedTables().filter((s) => s.finished && tokenOf(s.table));
  if (!saved.length) return null;
  const box = el("section", "resume finished-tables");
  box.setAttribute("aria-labelledby", "finished-tables");
  const head = el("h2", "", t("lobby.finished"));
  head.id = "finished-tables";
  const chartSlot = el("div", "chart-slot");
  const list = el("ul");
  box.append(head, chartSlot, list);
  const seats = saved.map((s) => ({ table: s.table, token: tokenOf(s.table) }));
  myTables(seats).then((out) => {
    const points = [];
    out.tables.forEach((info) => {
      if (info.gone || info.status !== "finished") return;
      const name = info.opponent === "computer" ? t("lobby.vs_computer", { level: info.level })
        : displayName(info.names[1 - info.seat]);
      const li = el("li", "finished-table");
      li.dataset.table = info.table;
      const text = el("div", "info");
      const bits = [t("lobby.score", { me: info.totals[info.seat], opp: info.totals[1 - info.seat] }),
        ago(info.updated_at * 1000),
        info.accuracy === null ? t("lobby.not_reviewed")
          : t("lobby.accuracy", { n: Math.round(info.accuracy) })];
      text.append(el("strong", "", name), el("span", "", bits.join(" · ")));
      const review = el("a", "btn", t("lobby.review"));
      review.href = `/review/${info.table}`;
      review.setAttribute("aria-label", t("lobby.review_label", { name }));
      const actions = el("div", "row-buttons");
      actions.append(review);
      li.append(text, actions);
      list.append(li);
      if (info.accuracy !== null) {
        points.push({ when: info.updated_at, accuracy: info.accuracy, series: seriesName(info) });
      }
    });
    if (points.length) {
      chartSlot.append(el("h3", "", t("lobby.accuracy_title")), accuracyChart(points));
    }
  }).catch(() => { box.append(el("p", "note", t("lobby.unreachable"))); });
  return box;
}
