// The card table: draws each state frame the server sends and turns clicks, drags and keys
// into intents. It decides nothing: every legal choice comes from the frame.

import { cardElement, pretty, spoken } from "./cards.js";
import { TableConnection } from "./net.js";
import { renderSheet } from "./sheet.js";

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const RESULT_TITLES = {
  knock: "Knock", undercut: "Undercut", gin: "Gin", big_gin: "Big gin", dead: "Dead hand",
};

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, cls, onClick, key) {
  const b = el("button", "btn " + (cls || ""), label);
  b.type = "button";
  b.addEventListener("click", onClick);
  if (key) {
    b.append(el("kbd", "", key));
    b.setAttribute("aria-keyshortcuts", key);
  }
  return b;
}

export class TableView {
  constructor(root, tableId, token) {
    this.root = root;
    this.tableId = tableId;
    this.state = null;
    this.selected = null;
    this.pending = false;
    this.lastHand = [];
    this.readySent = false;
    this.drag = null;
    this.suppressClick = false;
    this.build();
    this.conn = new TableConnection(tableId, token, {
      onState: (s) => this.onState(s),
      onAck: () => {},
      onError: (e) => this.onError(e),
      onStatus: (s) => this.onStatus(s),
      onFatal: (m) => this.onFatal(m),
    });
    window.addEventListener("resize", () => this.layoutHand());
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  // -- skeleton ------------------------------------------------------------------------------

  build() {
    this.root.replaceChildren();
    const page = el("div", "table-page");
    const top = el("header", "topbar");
    const brand = el("a", "brand", "Hollywood Gin");
    brand.href = "/";
    this.conn_el = el("span", "conn", "connecting…");
    this.conn_el.setAttribute("role", "status");
    top.append(brand, this.conn_el);

    const layout = el("div", "layout");
    this.felt = el("section", "felt");
    this.felt.setAttribute("aria-label", "card table");
    this.oppSeat = el("div", "seat opp");
    this.middle = el("div", "middle");
    this.meSeat = el("div", "seat me");
    this.overlay = el("div", "overlay hidden");
    this.overlay.setAttribute("role", "dialog");
    this.toast = el("div", "toast hidden");
    this.toast.setAttribute("role", "alert");
    this.felt.append(this.oppSeat, this.middle, this.meSeat, this.overlay, this.toast);

    const side = el("aside", "side");
    this.sheetEl = el("div", "sheet");
    this.sheetEl.setAttribute("aria-live", "polite");
    this.logEl = el("div", "log");
    const keys = el("p", "keys");
    keys.textContent = "Keys: ← → choose a card · Enter discard · D draw · U take the discard · "
      + "P pass · K knock · G gin · N next hand";
    side.append(this.sheetEl, this.logEl, keys);
    layout.append(this.felt, side);
    page.append(top, layout);
    this.root.append(page);
  }

  // -- connection events ---------------------------------------------------------------------

  onStatus(status) {
    const text = { online: "online", connecting: "connecting…", reconnecting: "reconnecting…",
      offline: "connection lost — retrying…" }[status] || status;
    this.conn_el.textContent = text;
    this.conn_el.className = "conn " + status;
    if (status !== "online") this.pending = false;
  }

  onFatal(message) {
    this.conn_el.textContent = "no seat";
    this.overlay.replaceChildren();
    const box = el("div", "panel");
    box.append(el("h2", "", "You have no seat at this table"));
    box.append(el("p", "", message));
    const home = el("a", "btn primary", "Back to the lobby");
    home.href = "/";
    box.append(home);
    this.overlay.append(box);
    this.overlay.classList.remove("hidden");
  }

  onError(frame) {
    this.pending = false;
    if (frame.code === "stale" || frame.code === "conflict") this.conn.sync();
    this.showToast(frame.message);
  }

  showToast(text) {
    this.toast.textContent = text;
    this.toast.classList.remove("hidden");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => this.toast.classList.add("hidden"), 3500);
  }

  onState(state) {
    const before = this.state ? this.snapshot() : null;
    const prevHand = this.state ? this.state.hand.cards : [];
    if (this.state && state.hand_number !== this.state.hand_number) this.readySent = false;
    if (this.state && state.hand_number === this.state.hand_number) this.lastHand = prevHand;
    else this.lastHand = state.hand.cards;
    this.state = state;
    this.pending = false;
    if (this.selected && !state.hand.cards.includes(this.selected)) this.selected = null;
    this.render();
    if (before && !REDUCED) this.animate(before);
  }

  // -- intents -------------------------------------------------------------------------------

  legal(action) { return this.state && this.state.hand.legal.includes(action); }

  act(action) {
    if (!this.state || this.pending || !this.legal(action)) return false;
    if (this.conn.act(action, this.state.seq) === null) return false;
    this.pending = true;
    this.felt.classList.add("busy");
    return true;
  }

  hint(card) { return this.state.hand.hints.find((h) => h.card === card); }

  knockChoice(gin) {
    const hints = this.state.hand.hints.filter((h) => h.knock && (gin ? h.deadwood === 0 : true));
    if (!hints.length) return null;
    const sel = hints.find((h) => h.card === this.selected);
    if (sel) return sel;
    return hints.reduce((a, b) => (b.deadwood < a.deadwood ? b : a));
  }

  discardSelected() {
    if (this.selected) this.act(`discard ${this.selected}`);
  }

  clickHandCard(card) {
    if (this.suppressClick) { this.suppressClick = false; return; }
    const h = this.state.hand;
    const canDiscard = h.phase === "discard" && this.legal(`discard ${card}`);
    if (this.selected === card && canDiscard) {
      this.act(`discard ${card}`);
      return;
    }
    this.selected = this.selected === card ? null : card;
    this.render();
    const again = this.meSeat.querySelector(`.hand [data-card="${card}"]`);
    if (again) again.focus();
  }

  clickStock() {
    if (this.suppressClick) { this.suppressClick = false; return; }
    this.act("draw");
  }

  clickPile() {
    if (this.suppressClick) { this.suppressClick = false; return; }
    if (!this.act("pick")) this.act("take");
  }

  next() {
    if (!this.state || this.state.finished || this.state.hand.phase !== "over") return;
    this.readySent = true;
    this.conn.next();
    this.renderOverlay();
  }

  onKey(e) {
    if (!this.state || e.target.closest("input, textarea, select")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    const h = this.state.hand;
    if (key === "arrowleft" || key === "arrowright") {
      const cards = [...this.meSeat.querySelectorAll(".hand .card")];
      if (!cards.length) return;
      let i = cards.indexOf(document.activeElement);
      if (i < 0) i = cards.findIndex((c) => c.dataset.card === this.selected);
      i = i < 0 ? 0 : (i + (key === "arrowright" ? 1 : -1) + cards.length) % cards.length;
      cards[i].focus();
      e.preventDefault();
      return;
    }
    if (key === "enter" && !e.target.closest("button, a")) {
      if (h.phase === "over") this.next(); else this.discardSelected();
    } else if (key === "d") this.act("draw");
    else if (key === "u") { if (!this.act("pick")) this.act("take"); }
    else if (key === "p") this.act("pass");
    else if (key === "k") { const k = this.knockChoice(false); if (k) this.act(`knock ${k.card}`); }
    else if (key === "g") {
      const g = this.knockChoice(true);
      if (g) this.act(`knock ${g.card}`); else this.act("big-gin");
    } else if (key === "n") this.next();
    else return;
    e.preventDefault();
  }

  // -- drawing -------------------------------------------------------------------------------

  names() {
    const s = this.state;
    return { me: s.names[s.seat], opp: s.names[1 - s.seat] };
  }

  render() {
    const s = this.state;
    this.felt.classList.remove("busy");
    this.felt.classList.toggle("my-turn", this.myTurn());
    this.felt.dataset.phase = s.hand.phase;
    this.felt.dataset.turn = this.myTurn() ? "me" : "wait";
    this.felt.dataset.seq = String(s.seq);
    this.felt.dataset.hand = String(s.hand_number);
    this.renderOpponent();
    this.renderMiddle();
    this.renderMe();
    this.renderOverlay();
    renderSheet(this.sheetEl, s);
    this.renderLog();
    this.layoutHand();
  }

  myTurn() {
    const h = this.state.hand;
    return h.phase !== "over" && h.to_act === this.state.seat && h.legal.length > 0;
  }

  nameplate(seat, label) {
    const s = this.state;
    const h = s.hand;
    const plate = el("div", "nameplate");
    plate.append(el("span", "who", label));
    if (h.dealer === seat) {
      const chip = el("span", "chip", "D");
      chip.title = "dealer";
      plate.append(chip);
    }
    if (seat !== s.seat && s.opponent === "computer" && s.level) {
      plate.append(el("span", "level-tag", `level ${s.level}`));
    }
    if (h.phase !== "over" && h.to_act === seat) plate.classList.add("to-act");
    if (seat !== s.seat && s.opponent === "friend" && s.joined[seat] && !s.connected[seat]) {
      plate.append(el("span", "away", "away"));
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
    cards.setAttribute("aria-label",
      `${s.names[opp]} holds ${h.opponent_cards} cards` +
      (h.opponent_known.length ? `, of them ${h.opponent_known.map(spoken).join(", ")}` : ""));
    if (h.phase !== "over") {
      h.opponent_known.forEach((c) => {
        const card = cardElement(c);
        card.classList.add("known");
        card.title = "taken from the discard pile";
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
    this.middle.replaceChildren();
    const stock = el("button", "stock");
    stock.type = "button";
    stock.setAttribute("aria-label", `stock, ${h.stock} cards` +
      (this.legal("draw") ? ": press to draw" : ""));
    const depth = Math.min(4, Math.ceil(h.stock / 8));
    for (let i = 0; i < depth; i++) {
      const back = cardElement(null, { back: true, key: i === depth - 1 ? "stock-top" : `st${i}` });
      back.classList.add(`depth-${i}`);
      stock.append(back);
    }
    stock.append(el("span", "count", String(h.stock)));
    if (this.legal("draw")) stock.classList.add("can");
    stock.addEventListener("click", () => this.clickStock());
    this.bindDrag(stock, "stock", null);
    this.stockEl = stock;

    const pile = el("button", "pile");
    pile.type = "button";
    const top = h.pile[h.pile.length - 1];
    pile.setAttribute("aria-label", top ? `discard pile, ${spoken(top)} on top` +
      (this.legal("pick") || this.legal("take") ? ": press to take it" : "") : "discard pile, empty");
    h.pile.slice(-3).forEach((c, i, arr) => {
      const card = cardElement(c);
      card.classList.add(`fan-${arr.length - 1 - i}`);
      pile.append(card);
    });
    if (!h.pile.length) pile.append(el("span", "empty", "discard pile"));
    if (this.legal("pick") || this.legal("take")) pile.classList.add("can");
    pile.addEventListener("click", () => this.clickPile());
    this.bindDrag(pile, "pile", top || null);
    this.pileEl = pile;

    const info = el("div", "status");
    info.setAttribute("aria-live", "polite");
    info.textContent = this.statusText();
    this.middle.append(stock, pile, info);
  }

  statusText() {
    const s = this.state;
    const h = s.hand;
    const opp = s.names[1 - s.seat];
    if (!s.joined[1 - s.seat]) return "Waiting for your friend to join…";
    if (h.phase === "over") return s.finished ? "The match is over." : "The hand is over.";
    if (h.to_act !== s.seat) {
      return s.opponent === "computer" ? `${opp} is thinking…` : `${opp}'s turn…`;
    }
    const top = h.pile[h.pile.length - 1];
    if (h.phase === "offer") return `Your turn: take the ${pretty(top)} or pass.`;
    if (h.phase === "draw") {
      return this.legal("pick") ? `Your turn: draw from the stock or take the ${pretty(top)}.`
        : "Your turn: draw from the stock.";
    }
    return "Discard a card: click it twice, or drag it to the pile.";
  }

  renderMe() {
    const s = this.state;
    const h = s.hand;
    this.meSeat.replaceChildren();
    const hand = el("div", "hand");
    hand.setAttribute("role", "group");
    hand.setAttribute("aria-label", "your hand");
    const fresh = h.cards.filter((c) => !this.lastHand.includes(c));
    const groups = h.melds.map((m) => ({ cards: m, kind: "meld" }));
    if (h.unmatched.length) groups.push({ cards: h.unmatched, kind: "dead" });
    const discarding = h.phase === "discard" && this.myTurn();
    groups.forEach((g) => {
      const group = el("div", `group ${g.kind}`);
      g.cards.forEach((c) => {
        const card = cardElement(c, { button: true });
        const hint = discarding ? this.hint(c) : null;
        if (c === this.selected) card.classList.add("selected");
        if (fresh.length === 1 && fresh[0] === c && h.phase === "discard") {
          card.classList.add("fresh");
        }
        if (h.taken === c) {
          card.classList.add("taken");
          card.title = "taken from the pile: it cannot go back this turn";
        }
        if (hint && hint.knock) card.classList.add(hint.deadwood === 0 ? "gin-card" : "knock-card");
        if (discarding && !hint) card.classList.add("locked");
        card.setAttribute("aria-pressed", c === this.selected ? "true" : "false");
        card.addEventListener("click", () => this.clickHandCard(c));
        this.bindDrag(card, "hand", c);
        group.append(card);
      });
      const label = el("span", "group-label", g.kind === "meld"
        ? (g.cards[0][0] === g.cards[1][0] ? "set" : "run")
        : `deadwood ${g.cards.reduce((n, c) => n + Math.min("A23456789TJQK".indexOf(c[0]) + 1, 10), 0)}`);
      group.append(label);
      hand.append(group);
    });
    this.handEl = hand;

    const bar = el("div", "bar");
    const dw = el("div", "deadwood");
    const sel = discarding && this.selected ? this.hint(this.selected) : null;
    const big = el("strong", "", String(sel ? sel.deadwood : h.deadwood));
    dw.append(el("span", "label", sel ? `after ${pretty(this.selected)}` : "deadwood"), big);
    if (h.phase !== "over") dw.append(el("span", "limit", `knock at ≤ ${h.knock_limit}`));
    bar.append(dw, this.actionButtons());
    this.meSeat.append(hand, bar, this.nameplate(s.seat, `${s.names[s.seat]} (you)`));
  }

  actionButtons() {
    const h = this.state.hand;
    const box = el("div", "actions");
    if (!this.myTurn()) return box;
    const top = h.pile[h.pile.length - 1];
    if (h.phase === "offer") {
      box.append(button(`Take ${pretty(top)}`, "primary", () => this.act("take"), "U"));
      box.append(button("Pass", "", () => this.act("pass"), "P"));
    } else if (h.phase === "draw") {
      box.append(button("Draw", "primary", () => this.act("draw"), "D"));
      if (this.legal("pick")) {
        box.append(button(`Take ${pretty(top)}`, "", () => this.act("pick"), "U"));
      }
    } else if (h.phase === "discard") {
      const sel = this.selected ? this.hint(this.selected) : null;
      const discard = button(sel && sel.discard ? `Discard ${pretty(this.selected)}` : "Discard",
        "", () => this.discardSelected(), "Enter");
      discard.disabled = !(sel && sel.discard);
      box.append(discard);
      const gin = this.knockChoice(true);
      const knock = this.knockChoice(false);
      if (gin) {
        box.append(button(`Gin · lay down ${pretty(gin.card)}`, "gin",
          () => this.act(`knock ${gin.card}`), "G"));
      } else if (knock) {
        box.append(button(`Knock · lay down ${pretty(knock.card)}`, "knock",
          () => this.act(`knock ${knock.card}`), "K"));
      }
      if (this.legal("big-gin")) {
        box.append(button("Big gin!", "gin", () => this.act("big-gin"), "G"));
      }
    }
    return box;
  }

  renderLog() {
    const s = this.state;
    const h = s.hand;
    this.logEl.replaceChildren();
    this.logEl.append(el("h2", "", `Hand ${s.hand_number}`));
    const list = el("ol", "moves");
    const who = (p) => (p === s.seat ? "You" : s.names[p]);
    const recent = h.history.slice(-8).reverse();
    recent.forEach(([p, text]) => {
      const [verb, card] = text.split(" ");
      const what = {
        pass: "passed the upcard",
        take: "took the upcard",
        draw: "drew from the stock",
        pick: "took the discard",
        discard: `discarded ${card ? pretty(card) : ""}`,
        knock: "knocked",
        "big-gin": "went big gin",
      }[verb] || text;
      list.append(el("li", p === s.seat ? "me" : "opp", `${who(p)} ${what}`));
    });
    if (!recent.length) list.append(el("li", "", "New deal."));
    this.logEl.append(list);
  }

  layoutHand() {
    if (!this.handEl) return;
    const cards = this.handEl.querySelectorAll(".card");
    if (!cards.length) return;
    const width = this.meSeat.clientWidth - 8;
    const cw = cards[0].getBoundingClientRect().width || 80;
    const groups = this.handEl.querySelectorAll(".group").length;
    const gap = Math.max(8, cw * 0.18);
    const n = cards.length;
    let step = (width - cw - (groups - 1) * gap) / Math.max(1, n - 1);
    step = Math.max(cw * 0.28, Math.min(step, cw * 0.62));
    this.handEl.style.setProperty("--step", `${step}px`);
    this.handEl.style.setProperty("--gap", `${gap}px`);
  }

  // -- the end of a hand and of the match ----------------------------------------------------

  renderOverlay() {
    const s = this.state;
    const h = s.hand;
    this.overlay.replaceChildren();
    let panel = null;
    if (!s.joined[1 - s.seat]) panel = this.invitePanel();
    else if (h.phase === "over") panel = this.resultPanel();
    this.overlay.classList.toggle("hidden", !panel);
    if (panel) this.overlay.append(panel);
  }

  invitePanel() {
    const box = el("div", "panel invite");
    box.append(el("h2", "", "Invite a friend"));
    box.append(el("p", "", "Send this link to the friend you want to play. It opens the other "
      + "seat once; the game starts as soon as they join."));
    const code = localStorage.getItem(`hg.invite.${this.tableId}`);
    if (code) {
      const link = `${location.origin}/join/${this.tableId}#${code}`;
      const input = el("input", "invite-link");
      input.readOnly = true;
      input.value = link;
      input.setAttribute("aria-label", "invite link");
      const copy = button("Copy link", "primary", async () => {
        try { await navigator.clipboard.writeText(link); copy.textContent = "Copied"; } catch {
          input.select();
        }
      });
      box.append(input, copy);
    } else {
      box.append(el("p", "", "The invite link was shown in the browser that created the table."));
    }
    return box;
  }

  layoutRow(label, layout, extra) {
    const row = el("div", "layout-row");
    const head = el("div", "layout-head");
    head.append(el("span", "who", label), el("span", "dw", `deadwood ${layout.deadwood}`));
    if (extra) head.append(el("span", "tag", extra));
    row.append(head);
    const cards = el("div", "layout-cards");
    layout.melds.forEach((m) => {
      const g = el("div", "mini-group meld");
      m.forEach((c) => g.append(cardElement(c, { key: `r-${c}` })));
      cards.append(g);
    });
    if (layout.laid_off.length) {
      const g = el("div", "mini-group laid");
      layout.laid_off.forEach((lay) => {
        const card = cardElement(lay.card, { key: `r-${lay.card}` });
        card.title = `laid off on ${lay.onto.map(pretty).join(" ")}`;
        g.append(card);
      });
      g.append(el("span", "mini-label", "laid off"));
      cards.append(g);
    }
    if (layout.unmatched.length) {
      const g = el("div", "mini-group dead");
      layout.unmatched.forEach((c) => g.append(cardElement(c, { key: `r-${c}` })));
      g.append(el("span", "mini-label", "deadwood"));
      cards.append(g);
    }
    row.append(cards);
    return row;
  }

  resultPanel() {
    const s = this.state;
    const r = s.hand.result;
    const me = s.seat;
    const box = el("div", "panel result");
    const title = el("h2", "");
    if (r.kind === "dead") {
      title.textContent = "Dead hand — nobody scores";
    } else {
      const winner = r.winner === me ? "You win" : `${s.names[r.winner]} wins`;
      title.textContent = `${RESULT_TITLES[r.kind]}! ${winner} ${r.points} point${r.points === 1
        ? "" : "s"}`;
    }
    box.classList.add(r.winner === me ? "won" : r.winner === null ? "dead" : "lost");
    box.append(title);
    const explain = {
      knock: "The knocker had less deadwood: he scores the difference.",
      undercut: "The defender's deadwood was as low or lower: undercut bonus plus the difference.",
      gin: "No deadwood at all: the gin bonus plus the defender's deadwood.",
      big_gin: "All eleven cards melded: the big gin bonus plus the defender's deadwood.",
      dead: "Only two cards were left in the stock.",
    }[r.kind];
    box.append(el("p", "explain", explain));
    const order = r.knocker === null ? [me, 1 - me] : [r.knocker, 1 - r.knocker];
    order.forEach((p) => {
      const label = p === me ? "You" : s.names[p];
      const tag = r.knocker === p ? "knocked" : (r.knocker !== null ? "defended" : null);
      box.append(this.layoutRow(label, r.players[p], tag));
    });
    const entries = s.sheet.entries;
    if (r.kind !== "dead" && entries.length) {
      const [, points, cols, closed] = entries[entries.length - 1];
      const games = cols.map((c) => `game ${c + 1}`).join(", ");
      let line = `${points} entered in ${games}.`;
      if (closed.length) line += ` Closes ${closed.map((c) => `game ${c + 1}`).join(", ")}!`;
      box.append(el("p", "entered", line));
    }
    if (s.finished) {
      box.append(this.matchPanel());
    } else if (this.readySent || s.ready[me]) {
      box.append(el("p", "waiting", `Waiting for ${s.names[1 - me]}…`));
    } else {
      const next = button("Next hand", "primary", () => this.next(), "N");
      box.append(next);
      setTimeout(() => { if (document.activeElement === document.body) next.focus(); }, 0);
    }
    return box;
  }

  matchPanel() {
    const s = this.state;
    const me = s.seat;
    const sheet = s.sheet;
    const box = el("div", "match-over");
    const won = sheet.winner === me;
    const head = sheet.winner === null ? "The match is drawn"
      : won ? "You win the match!" : `${s.names[sheet.winner]} wins the match`;
    box.append(el("h3", "", head));
    box.append(el("p", "", `Games ${sheet.games_won[me]}–${sheet.games_won[1 - me]} · totals `
      + `${sheet.totals[me]} to ${sheet.totals[1 - me]}` + (sheet.result !== null && sheet.winner
        !== null ? ` · result ${sheet.result >= 0 ? "+" : ""}${sheet.result}` : "")));
    const again = el("a", "btn primary", "New match");
    again.href = "/";
    box.append(again);
    return box;
  }

  // -- drag and drop -------------------------------------------------------------------------

  bindDrag(node, kind, card) {
    node.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || !this.state || !this.myTurn()) return;
      const h = this.state.hand;
      if (kind === "hand" && !(h.phase === "discard" && this.legal(`discard ${card}`))) return;
      if (kind === "stock" && !this.legal("draw")) return;
      if (kind === "pile" && !(this.legal("pick") || this.legal("take"))) return;
      const moving = kind === "hand" ? node : node.querySelector(".card:last-of-type");
      if (!moving) return;
      this.drag = { kind, card, node, moving, x: e.clientX, y: e.clientY, started: false,
        id: e.pointerId };
      try { node.setPointerCapture(e.pointerId); } catch { /* the pointer is gone already */ }
    });
    node.addEventListener("pointermove", (e) => {
      const d = this.drag;
      if (!d || d.node !== node || d.id !== e.pointerId) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.started && Math.hypot(dx, dy) > 8) {
        d.started = true;
        d.moving.classList.add("dragging");
        this.felt.classList.add(kind === "hand" ? "drag-discard" : "drag-draw");
      }
      if (d.started) d.moving.style.translate = `${dx}px ${dy}px`;
    });
    const end = (e) => {
      const d = this.drag;
      if (!d || d.node !== node) return;
      this.drag = null;
      if (!d.started) return;
      d.moving.classList.remove("dragging");
      d.moving.style.translate = "";
      this.felt.classList.remove("drag-discard", "drag-draw");
      this.suppressClick = true;
      setTimeout(() => { this.suppressClick = false; }, 0);
      if (e.type === "pointercancel") return;
      const over = (target) => {
        if (!target) return false;
        const r = target.getBoundingClientRect();
        const pad = 30;
        return e.clientX > r.left - pad && e.clientX < r.right + pad
          && e.clientY > r.top - pad && e.clientY < r.bottom + pad;
      };
      if (d.kind === "hand" && over(this.pileEl)) this.act(`discard ${d.card}`);
      else if (d.kind === "stock" && over(this.handEl)) this.act("draw");
      else if (d.kind === "pile" && over(this.handEl)) { if (!this.act("pick")) this.act("take"); }
    };
    node.addEventListener("pointerup", end);
    node.addEventListener("pointercancel", end);
  }

  // -- animation (FLIP: first, last, invert, play) -------------------------------------------

  snapshot() {
    const rects = new Map();
    this.felt.querySelectorAll(".seat [data-key], .middle [data-key]").forEach((node) => {
      rects.set(node.dataset.key, node.getBoundingClientRect());
    });
    const box = (node) => (node ? node.getBoundingClientRect() : null);
    return {
      rects,
      stock: box(this.stockEl),
      pile: box(this.pileEl),
      opp: box(this.oppSeat.querySelector(".opp-hand")),
    };
  }

  animate(before) {
    const nodes = this.felt.querySelectorAll(".seat [data-key], .middle [data-key]");
    nodes.forEach((node) => {
      const key = node.dataset.key;
      if (key.startsWith("st") || key === "stock-top") return;
      const now = node.getBoundingClientRect();
      let from = before.rects.get(key);
      if (!from) {
        if (node.closest(".hand")) from = before.stock;
        else if (node.closest(".pile")) from = before.opp;
        else if (node.closest(".opp-hand") && key.startsWith("opp-")) from = before.stock;
      }
      if (!from) return;
      const dx = from.left - now.left;
      const dy = from.top - now.top;
      if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
      node.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0px 0px" }],
        { duration: 280, easing: "cubic-bezier(.2,.7,.3,1)" });
    });
  }
}
