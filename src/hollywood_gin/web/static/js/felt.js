// The table's drawing: the opponent's seat, the middle (stock, pile, status line), my hand
// and its buttons, the overlay at a hand's end, all drawn again from each state frame.
// TableView (table.js) adds the connection and the intents on top.

import { cardElement, cardValue, pretty, spoken } from "./cards.js";
import { button, el } from "./dom.js";
import { focusPlace, restoreFocus } from "./focus.js";
import { list, t } from "./i18n.js";
import { lastOpponentMove, moveText, renderLog } from "./log.js";
import { bindDrag } from "./motion.js";
import { abandonedPanel, invitePanel, resultPanel } from "./panels.js";
import { renderSheet } from "./sheet.js";

export class TableFelt {
  // -- drawing -------------------------------------------------------------------------------

  render() {
    const s = this.state;
    const place = focusPlace(this);
    const shownBefore = this.shownHand || [];
    this.felt.classList.remove("busy");
    this.felt.classList.toggle("my-turn", this.myTurn());
    this.felt.classList.toggle("offline", !this.online);
    this.felt.dataset.phase = s.hand.phase;
    this.felt.dataset.turn = this.myTurn() ? "me" : "wait";
    this.felt.dataset.seq = String(s.seq);
    this.felt.dataset.hand = String(s.hand_number);
    this.felt.dataset.online = this.online ? "yes" : "no";
    this.renderOpponent();
    this.renderMiddle();
    this.renderMe();
    this.renderOverlay();
    renderSheet(this.sheetEl, s);
    renderLog(this.logEl, s);
    this.layoutHand();
    this.shownHand = s.hand.cards.slice();
    restoreFocus(this, place, shownBefore);
  }

  myTurn() {
    const h = this.state.hand;
    return h.phase !== "over" && h.to_act === this.state.seat && h.legal.length > 0
      && this.state.abandoned === null;
  }

  nameplate(seat, label) {
    const s = this.state;
    const h = s.hand;
    const plate = el("div", "nameplate");
    plate.append(el("span", "who", label));
    if (h.dealer === seat) {
      const chip = el("span", "chip", t("seat.dealer_chip"));
      chip.title = t("seat.dealer");
      chip.setAttribute("aria-label", t("seat.dealer"));
      chip.setAttribute("role", "img");
      plate.append(chip);
    }
    if (seat !== s.seat && s.opponent === "computer" && s.level) {
      plate.append(el("span", "level-tag", t("seat.level", { level: s.level })));
    }
    if (h.phase !== "over" && h.to_act === seat) plate.classList.add("to-act");
    if (seat !== s.seat && this.awayShown) {
      plate.append(el("span", "away", t("seat.away")));
    }
    return plate;
  }

  renderOpponent() {
    const s = this.state;
    const h = s.hand;
    const opp = 1 - s.seat;
    this.oppSeat.replaceChildren();
    this.oppSeat.append(this.nameplate(opp, s.names[opp]));
    const cards = el("div", "opp-hand");
    let words = t("opp.hand", { name: s.names[opp], n: h.opponent_cards });
    if (h.opponent_known.length) {
      words += "; " + t("opp.known", { list: list(h.opponent_known.map(spoken)) });
    }
    cards.setAttribute("role", "img");
    cards.setAttribute("aria-label", words);
    if (h.phase !== "over") {
      h.opponent_known.forEach((c) => {
        const card = cardElement(c);
        card.classList.add("known");
        card.title = t("opp.known_title");
        cards.append(card);
      });
      for (let i = 0; i < h.opponent_cards - h.opponent_known.length; i++) {
        cards.append(cardElement(null, { back: true, key: `opp-${i}` }));
      }
    }
    this.oppSeat.append(cards);
  }

  renderMiddle() {
    const s = this.state;
    const h = s.hand;
    [...this.middle.children].forEach((n) => { if (n !== this.statusEl) n.remove(); });
    const live = this.canAct();
    const canDraw = live && this.legal("draw");
    const canTake = live && (this.legal("pick") || this.legal("take"));
    const stock = el("button", "stock");
    stock.type = "button";
    const stockWords = t("stock.label", { n: h.stock });
    stock.setAttribute("aria-label", canDraw ? t("stock.can", { label: stockWords }) : stockWords);
    stock.disabled = !live;
    const depth = Math.min(4, Math.ceil(h.stock / 8));
    for (let i = 0; i < depth; i++) {
      const back = cardElement(null, { back: true, key: i === depth - 1 ? "stock-top" : `st${i}` });
      back.classList.add(`depth-${i}`);
      stock.append(back);
    }
    const count = el("span", "count", String(h.stock));
    count.setAttribute("aria-hidden", "true");
    stock.append(count);
    if (canDraw) stock.classList.add("can");
    stock.addEventListener("click", () => this.clickStock());
    bindDrag(this, stock, "stock", null);
    this.stockEl = stock;

    const pile = el("button", "pile");
    pile.type = "button";
    pile.disabled = !live;
    const top = h.pile[h.pile.length - 1];
    const pileWords = top ? t("pile.label", { card: spoken(top) }) : t("pile.empty");
    pile.setAttribute("aria-label", canTake ? t("pile.can", { label: pileWords }) : pileWords);
    h.pile.slice(-3).forEach((c, i, arr) => {
      const card = cardElement(c);
      card.classList.add(`fan-${arr.length - 1 - i}`);
      pile.append(card);
    });
    if (!h.pile.length) pile.append(el("span", "empty", t("pile.empty_text")));
    if (canTake) pile.classList.add("can");
    pile.addEventListener("click", () => this.clickPile());
    bindDrag(this, pile, "pile", top || null);
    this.pileEl = pile;

    // Seen with the suits' signs, heard with their names (the status is a live region).
    const words = this.statusText(pretty);
    const heard = this.statusText(spoken);
    if (this.statusEl.dataset.words !== words || this.statusEl.dataset.heard !== heard) {
      this.statusEl.dataset.words = words;
      this.statusEl.dataset.heard = heard;
      if (words === heard) this.statusEl.textContent = words;
      else {
        const seen = el("span", "", words);
        seen.setAttribute("aria-hidden", "true");
        this.statusEl.replaceChildren(seen, el("span", "sr-only", heard));
      }
    }
    const last = lastOpponentMove(s);
    const lastLine = el("div", "last-move", last && h.phase !== "over"
      ? t("log.last", { move: moveText(s, last) }) : "");
    if (this.statusEl.parentNode !== this.middle) this.middle.append(this.statusEl);
    this.middle.insertBefore(stock, this.statusEl);
    this.middle.insertBefore(pile, this.statusEl);
    this.middle.append(lastLine);
  }

  statusText(name) {
    const s = this.state;
    const h = s.hand;
    const opp = s.names[1 - s.seat];
    const advice = this.online && this.myTurn() ? this.adviceText(name) : null;
    if (advice) return advice;
    if (s.abandoned !== null) return t("status.abandoned");
    if (!this.online) return t("status.offline");
    if (!s.joined[1 - s.seat]) return t("status.waiting_join");
    if (h.phase === "over") return s.finished ? t("status.match_over") : t("status.hand_over");
    if (h.to_act !== s.seat) {
      if (this.awayShown) return t("status.away", { name: opp });
      return t(s.opponent === "computer" ? "status.thinking" : "status.their_turn", { name: opp });
    }
    const top = h.pile[h.pile.length - 1];
    if (h.phase === "offer") return t("status.offer", { card: name(top) });
    if (h.phase === "draw") {
      return this.legal("pick") ? t("status.draw_or_pick", { card: name(top) })
        : t("status.draw");
    }
    return t("status.discard");
  }

  renderMe() {
    const s = this.state;
    const h = s.hand;
    const live = this.canAct();
    this.meSeat.replaceChildren();
    const hand = el("div", "hand");
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", t("hand.label"));
    const fresh = h.cards.filter((c) => !this.lastHand.includes(c));
    const groups = h.melds.map((m) => ({ cards: m, kind: "meld" }));
    if (h.unmatched.length) groups.push({ cards: h.unmatched, kind: "dead" });
    const discarding = h.phase === "discard" && this.myTurn();
    groups.forEach((g) => {
      const group = el("div", `group ${g.kind}`);
      const label = g.kind === "meld"
        ? t(g.cards[0][0] === g.cards[1][0] ? "group.set" : "group.run")
        : t("group.deadwood", { n: g.cards.reduce((n, c) => n + cardValue(c), 0) });
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", label);
      g.cards.forEach((c) => {
        const card = cardElement(c, { button: true });
        const hint = discarding ? this.hint(c) : null;
        if (c === this.selected) card.classList.add("selected");
        if (this.advice && this.advice.seq === s.seq && this.advice.card === c) {
          card.classList.add("advised");
        }
        if (fresh.length === 1 && fresh[0] === c && h.phase === "discard") {
          card.classList.add("fresh");
        }
        if (h.taken === c) {
          card.classList.add("taken");
          card.dataset.taken = t("card.taken");
          card.title = t("card.taken_title");
        }
        if (hint && hint.knock) card.classList.add(hint.deadwood === 0 ? "gin-card" : "knock-card");
        if (discarding && !hint) card.classList.add("locked");
        card.setAttribute("aria-pressed", c === this.selected ? "true" : "false");
        card.disabled = !live;
        card.addEventListener("click", () => this.clickHandCard(c));
        bindDrag(this, card, "hand", c);
        group.append(card);
      });
      const tag = el("span", "group-label", label);
      tag.setAttribute("aria-hidden", "true");
      group.append(tag);
      hand.append(group);
    });
    this.handEl = hand;

    const bar = el("div", "bar");
    const dw = el("div", "deadwood");
    const sel = discarding && this.selected ? this.hint(this.selected) : null;
    const big = el("strong", "", String(sel ? sel.deadwood : h.deadwood));
    dw.append(el("span", "label", sel ? t("dw.after", { card: pretty(this.selected) })
      : t("dw.deadwood")), big);
    if (h.phase !== "over") {
      dw.append(el("span", "limit", h.knock_limit === 0 ? t("dw.gin_only")
        : t("dw.limit", { n: h.knock_limit })));
    }
    bar.append(dw, this.actionButtons());
    this.meSeat.append(hand, bar, this.nameplate(s.seat, t("seat.you", { name: s.names[s.seat] })));
  }

  actionButtons() {
    const h = this.state.hand;
    const box = el("div", "actions");
    if (!this.myTurn()) return box;
    const top = h.pile[h.pile.length - 1];
    if (h.phase === "offer") {
      box.append(button(t("btn.take", { card: pretty(top) }), "primary", () => this.act("take"), "U"));
      box.append(button(t("btn.pass"), "", () => this.act("pass"), "P"));
    } else if (h.phase === "draw") {
      box.append(button(t("btn.draw"), "primary", () => this.act("draw"), "D"));
      if (this.legal("pick")) {
        box.append(button(t("btn.take", { card: pretty(top) }), "", () => this.act("pick"), "U"));
      }
    } else if (h.phase === "discard") {
      const sel = this.selected ? this.hint(this.selected) : null;
      const discard = button(sel && sel.discard ? t("btn.discard_card", { card: pretty(this.selected) })
        : t("btn.discard"), "", () => this.discardSelected(), "Enter");
      discard.disabled = !(sel && sel.discard);
      box.append(discard);
      const gin = this.knockChoice(true);
      const knock = this.knockChoice(false);
      if (gin) {
        box.append(button(t("btn.gin", { card: pretty(gin.card) }), "gin",
          () => this.act(`knock ${gin.card}`), "G"));
      } else if (knock) {
        box.append(button(t("btn.knock", { card: pretty(knock.card) }), "knock",
          () => this.act(`knock ${knock.card}`), "K"));
      }
      if (this.legal("big-gin")) {
        box.append(button(t("btn.big_gin"), "gin", () => this.act("big-gin"), "G"));
      }
    }
    if (this.state.opponent === "computer") {
      const ask = button(t("btn.hint"), "hint", () => this.askHint(), "H");
      ask.disabled = Boolean(this.asking);
      box.append(ask);
    }
    if (!this.canAct()) box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    return box;
  }

  /** Spread the hand over the seat's width: overlap the cards more, and past that make
   * them smaller, so that eleven cards and their labels always fit inside the table. */
  layoutHand() {
    if (!this.handEl) return;
    const cards = this.handEl.querySelectorAll(".card");
    if (!cards.length) return;
    this.handEl.style.removeProperty("--cw");
    const width = this.handEl.clientWidth - 12;
    let cw = cards[0].getBoundingClientRect().width || 80;
    const groups = this.handEl.querySelectorAll(".group").length;
    const n = cards.length;
    // Each group shows its first card whole and the others by `step`; groups are `gap` apart.
    const fit = (w) => {
      const gap = Math.max(6, w * 0.16);
      const step = (width - groups * w - (groups - 1) * gap) / Math.max(1, n - groups);
      return { gap, step };
    };
    let { gap, step } = fit(cw);
    while (step < cw * 0.34 && cw > 30) { // too tight: smaller cards
      cw -= 2;
      ({ gap, step } = fit(cw));
    }
    step = Math.max(cw * 0.3, Math.min(step, cw * 0.62));
    if (cw !== cards[0].getBoundingClientRect().width) this.handEl.style.setProperty("--cw", `${cw}px`);
    this.handEl.style.setProperty("--step", `${step}px`);
    this.handEl.style.setProperty("--gap", `${gap}px`);
  }

  // -- the end of a hand and of the match ----------------------------------------------------

  renderOverlay() {
    if (this.fatal) return;
    const s = this.state;
    if (this.review && s.hand.phase !== "over") { // a new deal: the review was of the last hand
      this.review.stopped = true;
      this.review = null;
    }
    this.overlay.classList.toggle("reviewing", Boolean(this.review));
    let panel = null;
    if (this.review) panel = this.review.node;
    else if (s.abandoned !== null) panel = abandonedPanel(this);
    else if (!s.joined[1 - s.seat]) panel = invitePanel(this);
    else if (s.hand.phase === "over") panel = resultPanel(this);
    // The open review stays the very same element (its focus and scroll with it).
    const kept = panel !== null && this.overlay.childNodes.length === 1
      && this.overlay.firstChild === panel;
    if (!kept) this.overlay.replaceChildren();
    this.overlay.classList.toggle("hidden", !panel);
    // The review covers the whole page: it is a modal dialog, the top bar out of reach too.
    this.overlay.setAttribute("aria-modal", this.review ? "true" : "false");
    const top = this.root.querySelector(".topbar");
    if (top) top.inert = Boolean(this.review);
    // What the panel covers cannot be reached by Tab or a screen reader meanwhile.
    [this.oppSeat, this.middle, this.meSeat].forEach((part) => { part.inert = Boolean(panel); });
    const side = this.root.querySelector(".side"); // the review covers the whole page
    if (side) side.inert = Boolean(this.review);
    if (panel && !kept) {
      this.overlay.append(panel);
      const title = panel.querySelector("h2");
      if (title) {
        title.id = title.id || "overlay-title";
        this.overlay.setAttribute("aria-labelledby", title.id);
      }
      // A new panel takes the focus the parts it covers just lost (a panel that chose its
      // own control, Next hand, has it already): a screen reader then says it opened, and
      // the keyboard is at its main control rather than at the top of the page.
      const control = panel.querySelector(".primary")
        || panel.querySelector("button:not([disabled]), a[href], input");
      if (control) this.focusLater(control);
      else if (title) { title.tabIndex = -1; this.focusLater(title); }
    }
  }
}
