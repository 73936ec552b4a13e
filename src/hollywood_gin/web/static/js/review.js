// The game review: a seat's decisions in finished hands, stepped through on a small table as
// it was (the seat's cards, the pile, the upcard, what it knew of the opponent's), with the
// choice made, the better one, the loss and its grade, and an SVG chart of the expected
// points lost per decision (drawn here: no chart library). The server makes each hand's
// review and keeps it; this page asks for the hands one at a time, so a long match shows
// its progress and can be read while the rest is made. The opponent's real cards appear
// only in the labelled hindsight line, and only hands that are over are reviewed.

import { cardElement, pretty, spoken } from "./cards.js";
import { button, el, post } from "./dom.js";
import { decimal, displayName, list, t } from "./i18n.js";
import { moveText } from "./log.js";

const SVG_NS = "http://www.w3.org/2000/svg";
export const GRADE_MARKS = { best: "", good: "", inaccuracy: "?!", mistake: "?", blunder: "??" };
const SEVERITY = { best: 0, good: 1, inaccuracy: 2, mistake: 3, blunder: 4 };
const THRESHOLDS = [[1, "inaccuracy"], [3, "mistake"], [8, "blunder"]];

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
  return node;
}

const fmt = (x, digits = 1) => (x === null || x === undefined ? "–" : decimal(Number(x), digits));

/** An action of the review in words ("discard 7♥", "knock, laying 3♦ down"). */
export function actionWords(action, choice) {
  const [verb, card] = action.split(" ");
  switch (verb) {
    case "pass": return t("rv.act.pass");
    case "take": return t("rv.act.take");
    case "draw": return t("rv.act.draw");
    case "pick": return t("rv.act.pick");
    case "discard": return t("rv.act.discard", { card: pretty(card) });
    case "knock": return t(choice && choice.gin ? "rv.act.gin" : "rv.act.knock", { card: pretty(card) });
    case "big-gin": return t("rv.act.big_gin");
    default: return action;
  }
}

function choiceOf(decision, action) {
  return decision.choices.find((c) => c.action === action);
}

/** The line a screen reader and the chart's text alternative say of a decision. */
function decisionLine(d, number) {
  return t("rv.line", { n: number, hand: d.hand, choice: actionWords(d.chosen, choiceOf(d, d.chosen)),
    grade: t(`rv.grade.${d.grade}`), loss: fmt(d.loss) });
}

/**
 * A review of some finished hands of one table for one seat. `node` is its element; it asks
 * the server for each hand in turn (`hands`), draws what has come, and is left with
 * `onClose` (Esc or its Back button).
 */
export class ReviewPanel {
  constructor({ tableId, token, hands, whole, names = null, onClose = null, closeLabel = null }) {
    this.tableId = tableId;
    this.token = token;
    this.wanted = hands;
    this.whole = whole;
    this.names = names && names.map(displayName);
    this.seat = 0;
    this.onClose = onClose;
    this.reviews = new Map();
    this.flat = []; // [hand, index] of every decision loaded, in order
    this.at = -1;
    this.stopped = false;
    this.failed = null;
    this.node = el("section", "panel review");
    this.node.setAttribute("aria-labelledby", "rv-title");
    this.build(closeLabel);
    this.load();
  }

  /** Focus into the dialog on opening: Next once there is a move to show, the title until. */
  /** Into the panel, which opens at its top: on a phone, Next is far down, and focusing it
   * scrolled the title and the accuracy above the screen. */
  focusStart() {
    (this.nextBtn.disabled ? this.title : this.nextBtn).focus({ preventScroll: true });
    const box = this.title.closest(".overlay");
    if (box) box.scrollTop = 0;
  }

  close() {
    this.stopped = true;
    if (this.onClose) this.onClose();
  }

  // -- the skeleton ----------------------------------------------------------------------------

  build(closeLabel) {
    const title = el("h2", "", this.whole ? t("rv.title_match")
      : t("rv.title_hand", { n: this.wanted[0] }));
    title.id = "rv-title";
    title.tabIndex = -1; // the dialog's first stop while the review loads
    this.title = title;
    this.summary = el("p", "rv-summary");
    this.summary.setAttribute("role", "status");
    this.progress = el("div", "rv-progress");
    this.progressText = el("span", "", t("rv.reviewing"));
    this.progressBar = el("progress");
    this.progressBar.max = this.wanted.length;
    this.progressBar.value = 0;
    this.progressBar.setAttribute("aria-label", t("rv.progress_label"));
    this.progress.setAttribute("role", "status");
    this.progress.append(this.progressText, this.progressBar);

    this.chart = el("figure", "rv-chart");
    this.body = el("div", "rv-body");
    this.moves = el("ol", "rv-moves");
    this.moves.setAttribute("aria-label", t("rv.moves_label"));
    this.table = el("div", "rv-felt");
    this.table.setAttribute("role", "group");
    this.table.setAttribute("aria-label", t("rv.table_label"));
    this.verdict = el("div", "rv-verdict");
    this.verdict.setAttribute("aria-live", "polite");
    const right = el("div", "rv-detail");
    right.append(this.table, this.verdict);
    this.body.append(this.moves, right);

    const buttons = el("div", "row-buttons rv-buttons");
    this.prevBtn = button(t("rv.previous"), "", () => this.step(-1), "←");
    this.nextBtn = button(t("rv.next"), "primary", () => this.step(1), "→");
    this.mistakeBtn = button(t("rv.next_mistake"), "", () => this.nextMistake(), "M");
    const back = button(closeLabel || t("rv.back"), "", () => this.close(), "Esc");
    buttons.append(this.prevBtn, this.nextBtn, this.mistakeBtn, back);
    this.back = back;
    this.node.append(title, this.summary, this.progress, this.chart, this.body, buttons,
      el("p", "rv-note", t("rv.note")));
    this.drawSummary();
    this.drawButtons();
  }

  // -- asking the server ---------------------------------------------------------------------

  async load() {
    for (let i = 0; i < this.wanted.length && !this.stopped; i++) {
      const hand = this.wanted[i];
      this.progressText.textContent = this.wanted.length > 1
        ? t("rv.reviewing_hand", { n: i + 1, total: this.wanted.length })
        : t("rv.reviewing");
      let answer = null;
      while (!this.stopped && answer === null) {
        try {
          answer = await post(`/api/tables/${this.tableId}/review`, { token: this.token, hand });
        } catch (err) {
          if (err.code === "busy") {
            await new Promise((r) => setTimeout(r, 1000 * (err.retryAfter || 5)));
            continue;
          }
          this.fail(err);
          return;
        }
      }
      if (this.stopped) return;
      this.arrived(answer);
      this.progressBar.value = i + 1;
    }
    this.progress.classList.add("hidden");
    this.node.dataset.done = "yes";
    this.drawSummary();
    if (!this.flat.length) this.verdict.replaceChildren(el("p", "", t("rv.none")));
  }

  fail(err) {
    this.failed = err;
    this.progress.classList.add("hidden");
    const box = el("div", "rv-error");
    box.setAttribute("role", "alert");
    box.append(el("p", "", t(`rv.error.${["not_over", "token", "no_table"].includes(err.code)
      ? err.code : "other"}`)));
    const again = button(t("rv.try_again"), "", () => {
      box.remove();
      this.progress.classList.remove("hidden");
      this.failed = null;
      this.wanted = this.wanted.filter((h) => !this.reviews.has(h));
      this.load();
    });
    box.append(again);
    this.node.insertBefore(box, this.chart);
  }

  arrived(answer) {
    this.seat = answer.seat;
    this.names = answer.names.map(displayName); // a name the server chose is a word
    this.reviews.set(answer.hand, answer.review);
    const current = this.at >= 0 ? this.flat[this.at] : null;
    this.flat = [];
    [...this.reviews.keys()].sort((a, b) => a - b).forEach((h) => {
      this.reviews.get(h).decisions.forEach((_, i) => this.flat.push([h, i]));
    });
    this.drawSummary();
    this.drawChart();
    if (current) {
      this.at = this.flat.findIndex(([h, i]) => h === current[0] && i === current[1]);
      this.drawButtons();
    } else if (this.flat.length) {
      this.show(0, false);
      if (document.activeElement === this.title) this.nextBtn.focus({ preventScroll: true });
    }
  }

  // -- moving ---------------------------------------------------------------------------------

  decision(at = this.at) {
    const [h, i] = this.flat[at];
    return this.reviews.get(h).decisions[i];
  }

  show(at, focus = true) {
    if (!this.flat.length) return;
    this.at = (at + this.flat.length) % this.flat.length;
    const [hand] = this.flat[this.at];
    this.drawMoves(hand, focus);
    this.drawTable();
    this.drawVerdict();
    this.drawChart();
    this.drawButtons();
    this.node.dataset.at = String(this.at);
  }

  step(delta) { if (this.flat.length) this.show(this.at + delta); }

  nextMistake() {
    for (let k = 1; k <= this.flat.length; k++) {
      const at = (this.at + k) % this.flat.length;
      if (SEVERITY[this.decision(at).grade] >= 2) { this.show(at); return; }
    }
    this.summary.textContent = `${this.summaryText()} · ${t("rv.no_mistake")}`;
  }

  /** Keys while the review is open: ← → previous and next, Home End, M next mistake, Esc. */
  onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const key = e.key.toLowerCase();
    if (key === "arrowleft") this.step(-1);
    else if (key === "arrowright") this.step(1);
    else if (key === "home") this.show(0);
    else if (key === "end") this.show(this.flat.length - 1);
    else if (key === "m") this.nextMistake();
    else if (key === "escape") this.close();
    else return false;
    e.preventDefault();
    return true;
  }

  // -- drawing --------------------------------------------------------------------------------

  all() { return this.flat.map((_, at) => this.decision(at)); }

  summaryText() {
    const all = this.all();
    if (!all.length) return this.failed ? "" : t("rv.waiting");
    const acc = all.reduce((s, d) => s + d.accuracy, 0) / all.length;
    const lost = all.reduce((s, d) => s + d.loss, 0);
    const bad = all.filter((d) => SEVERITY[d.grade] >= 3).length;
    const bits = [t("rv.accuracy", { n: Math.round(acc) }), t("rv.lost", { n: fmt(lost) }),
      t("rv.decisions", { n: all.length })];
    if (bad) bits.push(t("rv.bad", { n: bad }));
    if (this.whole && this.reviews.size < this.wanted.length) {
      bits.push(t("rv.hands_done", { n: this.reviews.size, total: this.wanted.length }));
    }
    return bits.join(" · ");
  }

  drawSummary() { this.summary.textContent = this.summaryText(); }

  drawButtons() {
    const none = this.flat.length === 0;
    [this.prevBtn, this.nextBtn, this.mistakeBtn].forEach((b) => { b.disabled = none; });
  }

  who(player) { return player === this.seat ? t("log.you") : this.names[player]; }

  drawMoves(hand, focus) {
    const review = this.reviews.get(hand);
    const byPly = new Map(review.decisions.map((d, i) => [d.ply, i]));
    const state = { seat: this.seat, names: this.names };
    const had = this.node.contains(document.activeElement); // before the list is redrawn
    this.moves.replaceChildren();
    const head = el("li", "rv-hand-head", t("rv.hand_head", { n: hand }));
    head.setAttribute("aria-hidden", "true");
    this.moves.append(head);
    let current = null;
    review.moves.forEach((move, ply) => {
      const li = el("li");
      const index = move[0] === this.seat ? byPly.get(ply) : undefined;
      if (index === undefined) {
        li.className = "rv-other";
        li.textContent = moveText(state, move);
        this.moves.append(li);
        return;
      }
      const d = review.decisions[index];
      const at = this.flat.findIndex(([h, i]) => h === hand && i === index);
      const b = el("button", `rv-move grade-${d.grade}`);
      b.type = "button";
      const mark = el("span", "mark", GRADE_MARKS[d.grade]);
      mark.setAttribute("aria-hidden", "true");
      b.append(mark, el("span", "", moveText(state, move)));
      b.setAttribute("aria-label", decisionLine(d, at + 1));
      b.addEventListener("click", () => this.show(at));
      if (at === this.at) {
        b.setAttribute("aria-current", "step");
        current = b;
      }
      li.append(b);
      this.moves.append(li);
    });
    if (current) {
      scrollWithin(this.moves, current); // the list only: the panel stays where it is read
      if (focus && had) current.focus({ preventScroll: true });
    }
  }

  drawTable() {
    const d = this.decision();
    const v = d.view;
    const review = this.reviews.get(d.hand);
    const opp = 1 - this.seat;
    this.table.replaceChildren();
    // the opponent: how many cards, which ones were known (taken from the pile)
    const oppRow = el("div", "rv-opp");
    const oppCards = el("div", "rv-opp-cards");
    let oppWords = t("opp.hand", { name: this.names[opp], n: v.opponent_card_count });
    if (v.opponent_known.length) oppWords += "; " + t("opp.known", { list: list(v.opponent_known.map(spoken)) });
    oppCards.setAttribute("role", "img");
    oppCards.setAttribute("aria-label", oppWords);
    v.opponent_known.forEach((c) => oppCards.append(cardElement(c, { key: `rv-o-${c}` })));
    for (let i = 0; i < v.opponent_card_count - v.opponent_known.length; i++) {
      oppCards.append(cardElement(null, { back: true, key: `rv-b-${i}` }));
    }
    oppRow.append(el("span", "who", this.names[opp]), oppCards);
    // the stock and the pile, the upcard offered or the card on top
    const middle = el("div", "rv-middle");
    middle.append(el("span", "rv-stock", t("stock.label", { n: v.stock_count })));
    const top = v.discard_pile[v.discard_pile.length - 1];
    const pile = el("div", "rv-pile");
    pile.append(el("span", "", v.phase === "offer" ? t("rv.upcard") : t("rv.pile_top")));
    if (top) pile.append(cardElement(top, { key: `rv-p-${top}` }));
    else pile.append(el("span", "", t("pile.empty_text")));
    middle.append(pile);
    const before = review.moves.slice(0, d.ply).reverse().find((m) => m[0] !== this.seat);
    if (before) middle.append(el("span", "rv-last", t("log.last", { move: moveText({ seat: this.seat, names: this.names }, before) })));
    // the seat's hand in its best melds; the card drawn or taken, the one thrown, the better one
    const hand = el("div", "rv-hand");
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", t("rv.your_cards", { n: d.layout.deadwood }));
    const thrown = d.chosen.split(" ")[1];
    const better = d.chosen !== d.best ? d.best.split(" ")[1] : null;
    const groups = d.layout.melds.map((m) => ["meld", m]);
    if (d.layout.unmatched.length) groups.push(["dead", d.layout.unmatched]);
    groups.forEach(([kind, cards]) => {
      const g = el("div", `mini-group ${kind}`);
      const row = el("div", "mini-cards");
      cards.forEach((c) => {
        const card = cardElement(c, { key: `rv-h-${c}` });
        const notes = [];
        if (c === v.drawn_card) { card.classList.add("drawn"); notes.push(t("rv.drawn")); }
        if (c === v.taken_card) { card.classList.add("taken"); notes.push(t("card.taken")); }
        if (c === thrown) { card.classList.add("chosen"); notes.push(t("rv.thrown")); }
        if (c === better) { card.classList.add("better"); notes.push(t("rv.better_card")); }
        if (notes.length) card.setAttribute("aria-label", `${spoken(c)} (${notes.join(", ")})`);
        row.append(card);
      });
      g.append(row);
      g.append(el("span", "mini-label", kind === "meld"
        ? t(cards[0][0] === cards[1][0] ? "group.set" : "group.run")
        : t("group.deadwood", { n: d.layout.deadwood })));
      hand.append(g);
    });
    this.table.append(oppRow, middle, hand);
  }

  drawVerdict() {
    const d = this.decision();
    const number = this.at + 1;
    const kind = t(`rv.kind.${d.kind}`);
    const box = this.verdict;
    box.replaceChildren();
    box.append(el("h3", "", t("rv.decision_title", { n: number, total: this.flat.length, hand: d.hand, kind })));
    const chose = el("p", "rv-chose");
    chose.append(el("strong", "", t("rv.you_chose") + " "), document.createTextNode(
      actionWords(d.chosen, choiceOf(d, d.chosen))), document.createTextNode(" — "));
    const grade = el("span", `grade grade-${d.grade}`,
      `${t(`rv.grade.${d.grade}`)}${GRADE_MARKS[d.grade] ? " " + GRADE_MARKS[d.grade] : ""}`);
    chose.append(grade);
    box.append(chose);
    const gap = choiceOf(d, d.best).points - choiceOf(d, d.chosen).points;
    if (d.chosen !== d.best && d.loss < 0.05) { // another choice, but no measurable loss
      // "did as well" only where the points say so too (a QA pass)
      box.append(el("p", "rv-loss best", t(gap < 0.05 ? "rv.as_good" : "rv.within_chance",
        { best: actionWords(d.best, choiceOf(d, d.best)) })));
    } else if (d.chosen !== d.best) {
      const better = el("p", "rv-better");
      better.append(el("strong", "", t("rv.better") + " "),
        el("span", "best", actionWords(d.best, choiceOf(d, d.best))));
      box.append(better);
      const [low, high] = d.loss_interval;
      box.append(el("p", "rv-loss", t("rv.loss", { n: fmt(d.loss), low: fmt(low), high: fmt(high) })));
      // the held-out loss can be below the points gap the table shows: say why (the same
      // rule as DecisionReview.loss_below_gap)
      if (gap - d.loss >= 0.05) box.append(el("p", "rv-held-out", t("rv.held_out")));
    } else {
      box.append(el("p", "rv-loss best", t("rv.was_best")));
    }
    if (d.equity && d.equity.best !== d.best) {
      box.append(el("p", "rv-equity", t("rv.equity", { action: actionWords(d.equity.best, choiceOf(d, d.equity.best)) })));
    }
    // the choices, best first, with what each was worth
    const table = el("table", "rv-choices");
    table.append(el("caption", "sr-only", t("rv.choices_caption")));
    const head = el("tr");
    [t("rv.col.choice"), t("rv.col.points"), t("rv.col.loss")].forEach((h) => {
      const th = el("th", "", h);
      th.scope = "col";
      head.append(th);
    });
    const thead = el("thead");
    thead.append(head);
    const tbody = el("tbody");
    const ranked = [...d.choices].sort((a, b) => b.points - a.points);
    const shown = ranked.slice(0, 4);
    const mine = choiceOf(d, d.chosen);
    if (!shown.includes(mine)) shown.push(mine);
    shown.forEach((c) => {
      const tr = el("tr", c === mine ? "mine" : "");
      const th = el("th", "", (c === mine ? "▸ " : "") + actionWords(c.action, c));
      th.scope = "row";
      tr.append(th, el("td", "", `${c.points >= 0 ? "+" : "−"}${fmt(Math.abs(c.points))}`),
        el("td", "", c.loss ? fmt(c.loss) : "–"));
      tbody.append(tr);
    });
    table.append(thead, tbody);
    box.append(table);
    if (d.choices.length > shown.length) {
      box.append(el("p", "rv-more", t("rv.more", { n: d.choices.length - shown.length })));
    }
    if (d.hindsight) {
      const h = d.hindsight;
      const line = el("p", "rv-hindsight");
      line.append(el("em", "", t("rv.hindsight") + " "));
      const held = t("rv.held", { name: this.names[1 - this.seat], cards: h.opponent_hand.map(pretty).join(" ") });
      let outcome;
      if (d.chosen === d.best) outcome = t("rv.real_best", { mine: signed(h.chosen_points) });
      else {
        outcome = t(h.worked_out ? "rv.real_worked" : "rv.real_failed",
          { mine: signed(h.chosen_points), best: signed(h.best_points) });
      }
      line.append(document.createTextNode(`${held} ${outcome}`));
      box.append(line);
    }
  }

  /** The expected points lost per decision as bars, coloured by grade, with the grades'
   * thresholds; a click on a bar shows that decision. Its text alternative is the title,
   * the description and a table of every decision for screen readers. */
  drawChart() {
    const all = this.all();
    this.chart.replaceChildren();
    if (!all.length) { this.chart.classList.add("hidden"); return; }
    this.chart.classList.remove("hidden");
    const W = 640;
    const H = 150;
    const left = 30;
    const bottom = 16;
    const top = 8;
    const most = Math.max(10, ...all.map((d) => d.loss));
    const ymax = Math.ceil(most / 5) * 5;
    const y = (v) => top + (H - top - bottom) * (1 - Math.min(v, ymax) / ymax);
    const step = (W - left - 4) / all.length;
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "rv-svg",
      "aria-labelledby": "rv-chart-title rv-chart-desc", preserveAspectRatio: "none" });
    const title = svg("title", { id: "rv-chart-title" });
    title.textContent = t("rv.chart_title");
    const worst = all.reduce((a, b) => (b.loss > a.loss ? b : a));
    const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
    all.forEach((d) => { if (d.grade in counts) counts[d.grade] += 1; });
    const desc = svg("desc", { id: "rv-chart-desc" });
    desc.textContent = t("rv.chart_desc", { n: all.length, most: fmt(worst.loss),
      at: this.all().indexOf(worst) + 1, hand: worst.hand, inaccuracies: counts.inaccuracy,
      mistakes: counts.mistake, blunders: counts.blunder });
    root.append(title, desc);
    // the axis and the thresholds of the grades
    root.append(svg("line", { x1: left, x2: W - 2, y1: y(0), y2: y(0), class: "rv-axis" }));
    THRESHOLDS.forEach(([v, grade]) => {
      if (v > ymax) return;
      root.append(svg("line", { x1: left, x2: W - 2, y1: y(v), y2: y(v), class: `rv-threshold grade-${grade}` }));
      const label = svg("text", { x: left - 4, y: y(v) + 3, class: "rv-tick", "text-anchor": "end" });
      label.textContent = String(v);
      root.append(label);
    });
    const maxLabel = svg("text", { x: left - 4, y: y(ymax) + 8, class: "rv-tick", "text-anchor": "end" });
    maxLabel.textContent = String(ymax);
    root.append(maxLabel);
    // a line where each hand starts
    let last = null;
    all.forEach((d, i) => {
      if (d.hand !== last && i > 0) {
        const x = left + i * step;
        root.append(svg("line", { x1: x, x2: x, y1: top, y2: y(0), class: "rv-hand-sep" }));
      }
      if (d.hand !== last && this.reviews.size <= 12) {
        const label = svg("text", { x: left + i * step + 2, y: H - 4, class: "rv-tick" });
        label.textContent = t("rv.chart_hand", { n: d.hand });
        root.append(label);
      }
      last = d.hand;
    });
    all.forEach((d, i) => {
      const x = left + i * step + step * 0.15;
      const h = Math.max(1.5, y(0) - y(d.loss));
      const bar = svg("rect", { x, y: y(0) - h, width: Math.max(1, step * 0.7), height: h,
        class: `rv-bar grade-${d.grade}${i === this.at ? " rv-current" : ""}` });
      bar.addEventListener("click", () => this.show(i));
      root.append(bar);
    });
    if (this.at >= 0) {
      const x = left + this.at * step + step / 2;
      root.append(svg("path", { d: `M${x - 5} ${top} L${x + 5} ${top} L${x} ${top + 7} Z`, class: "rv-marker" }));
    }
    this.chart.append(root);
    const cap = el("figcaption", "", t("rv.chart_caption"));
    this.chart.append(cap);
    // the text alternative: every decision, for screen readers
    const table = el("table");
    table.append(el("caption", "", t("rv.chart_title")));
    all.forEach((d, i) => {
      const tr = el("tr");
      tr.append(el("td", "", decisionLine(d, i + 1)));
      table.append(tr);
    });
    const alt = el("div", "sr-only rv-chart-text");
    alt.append(table);
    this.chart.append(alt);
  }
}

function signed(n) { return `${n >= 0 ? "+" : "−"}${Math.abs(n)}`; }

// -- the review page of a finished match: /review/TABLE ----------------------------------------

export function reviewPage(app, tableId, token) {
  document.title = t("rv.page_title");
  app.replaceChildren();
  const page = el("main", "review-page");
  const top = el("header", "topbar");
  const brand = el("a", "brand", t("app.title"));
  brand.href = "/";
  brand.setAttribute("aria-label", t("app.lobby_link"));
  top.append(brand);
  page.append(top);
  const slot = el("div", "review-slot");
  page.append(slot);
  app.append(page);
  if (!token) {
    slot.append(message(t("rv.no_seat")));
    return null;
  }
  const holder = { panel: null };
  post(`/api/tables/${tableId}/review`, { token }).then((summary) => {
    if (!summary.finished) {
      const box = message(t("rv.not_finished"));
      const go = el("a", "btn primary", t("rv.to_table"));
      go.href = `/t/${tableId}`;
      box.append(go);
      slot.append(box);
      return;
    }
    const hands = summary.hands.filter((h) => h.over).map((h) => h.hand);
    holder.panel = new ReviewPanel({ tableId, token, hands, whole: true, names: summary.names,
      onClose: () => { location.href = "/"; }, closeLabel: t("btn.lobby") });
    slot.append(holder.panel.node);
  }).catch((err) => {
    slot.append(message(err.code === "token" || err.code === "no_table" ? t("rv.no_seat")
      : t("rv.error.other")));
  });
  const keys = (e) => {
    if (holder.panel && !e.target.closest("input, textarea, select")) holder.panel.onKey(e);
  };
  document.addEventListener("keydown", keys);
  return { close: () => document.removeEventListener("keydown", keys) };
}

function message(text) {
  const box = el("div", "panel");
  box.append(el("h2", "", t("rv.page_title")), el("p", "", text));
  const home = el("a", "btn", t("btn.lobby"));
  home.href = "/";
  box.append(home);
  return box;
}

/** Scroll `box` (a list with its own scroll bar) just enough to show `item` in it; the
 * page or the panel around it does not move (scrollIntoView moved them too: on a phone the
 * review opened scrolled past its title to the first move). */
function scrollWithin(box, item) {
  const b = box.getBoundingClientRect();
  const r = item.getBoundingClientRect();
  if (r.top < b.top) box.scrollTop -= b.top - r.top;
  else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
}
