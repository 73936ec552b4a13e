// The card table: draws each state frame the server sends and turns clicks, drags and keys
// into intents. It decides nothing: every legal choice comes from the frame. While the
// connection is down every control is disabled and a banner says so.

import { cardElement, cardValue, pretty, spoken } from "./cards.js";
import { button, el, post } from "./dom.js";
import { focusPlace, restoreFocus } from "./focus.js";
import { displayName, list, t } from "./i18n.js";
import { Announcer, lastOpponentMove, moveText, renderLog } from "./log.js";
import { animate, bindDrag, snapshot } from "./motion.js";
import { TableConnection } from "./net.js";
import { abandonedPanel, fatalPanel, invitePanel, resultPanel } from "./panels.js";
import { markFinished, savedTables, saveSeat, tokenOf } from "./seats.js";
import { ReviewPanel } from "./review.js";
import { renderSheet } from "./sheet.js";

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
// A friend is shown away only once he has been away this long as this page saw it: a table
// just opened on one server process hears a few milliseconds later that another process
// holds his socket, and the status line (a live region) should not say he left meanwhile.
const AWAY_AFTER_MS = 1500;

export class TableView {
  constructor(root, tableId, token, navigate) {
    this.root = root;
    this.tableId = tableId;
    this.navigate = navigate;
    this.state = null;
    this.selected = null;
    this.pending = false;
    this.lastHand = [];
    this.readySent = false;
    this.rematchSent = false;
    this.review = null; // the game review, open over a finished hand or match
    this.online = false;
    this.fatal = null;
    this.awayShown = false; // the friend has been away for AWAY_AFTER_MS as this page saw it
    this.awayTimer = null; // ... running while he is away and not yet shown so
    this.drag = null;
    this.suppressClick = false;
    this.listeners = new AbortController();
    document.title = t("app.title");
    this.build();
    this.conn = new TableConnection(tableId, token, {
      onState: (s) => this.onState(s),
      onAck: () => {},
      onError: (e) => this.onError(e),
      onStatus: (s) => this.onStatus(s),
      onFatal: (m) => this.onFatal(m),
      onSeat: (f) => this.onSeat(f),
    });
    const { signal } = this.listeners;
    window.addEventListener("resize", () => this.layoutHand(), { signal });
    document.addEventListener("keydown", (e) => this.onKey(e), { signal });
  }

  close() {
    clearTimeout(this.awayTimer);
    this.listeners.abort();
    this.conn.close();
    if (this.review) this.review.stopped = true;
  }

  /** Open the game review of some finished hands over the table (V at a hand's end, W at
   * the match's end); closing it comes back to the hand's or match's end as it was. */
  openReview(hands, whole) {
    if (this.review || !this.state) return;
    const token = tokenOf(this.tableId);
    if (!token) return;
    this.review = new ReviewPanel({
      tableId: this.tableId, token, hands, whole, names: this.state.names,
      onClose: () => {
        this.review = null;
        this.render();
        const again = this.overlay.querySelector(whole ? ".review-match" : ".review-hand");
        if (again) again.focus();
      },
    });
    this.render();
    this.review.focusStart();
  }

  // -- skeleton ------------------------------------------------------------------------------

  build() {
    this.root.replaceChildren();
    const page = el("div", "table-page");
    const top = el("header", "topbar");
    const brand = el("a", "brand", t("app.title"));
    brand.href = "/";
    brand.setAttribute("aria-label", t("app.lobby_link"));
    this.connEl = el("span", "conn", t("conn.connecting"));
    this.connEl.setAttribute("role", "status");
    top.append(brand, this.connEl);

    this.banner = el("div", "offline-banner hidden", t("offline.banner"));
    this.banner.setAttribute("role", "alert");

    const layout = el("div", "layout");
    this.felt = el("section", "felt");
    this.felt.setAttribute("aria-label", t("table.felt"));
    this.oppSeat = el("div", "seat opp");
    this.middle = el("div", "middle");
    this.meSeat = el("div", "seat me");
    // One status line for the whole table, updated in place: a live region that is made
    // anew at every redraw is never read out.
    this.statusEl = el("div", "status");
    this.statusEl.setAttribute("role", "status");
    this.overlay = el("div", "overlay hidden");
    this.overlay.setAttribute("role", "dialog");
    this.overlay.setAttribute("aria-modal", "false");
    this.toast = el("div", "toast hidden");
    this.toast.setAttribute("role", "alert");
    this.felt.append(this.oppSeat, this.middle, this.meSeat, this.overlay, this.toast);

    const side = el("aside", "side");
    this.sheetEl = el("div", "sheet");
    this.logEl = el("details", "log");
    this.logEl.open = true;
    const keys = el("p", "keys", t("keys.help"));
    side.append(this.sheetEl, this.logEl, keys);
    this.announcer = new Announcer();
    layout.append(this.felt, side);
    page.append(top, this.banner, layout, this.announcer.node);
    this.root.append(page);
  }

  // -- connection events ---------------------------------------------------------------------

  onStatus(status) {
    this.online = status === "online";
    this.connEl.textContent = t(`conn.${status}`);
    this.connEl.className = "conn " + status;
    this.banner.classList.toggle("hidden", status !== "offline");
    document.body.classList.toggle("offline", status === "offline");
    if (!this.online) {
      // Whatever was asked may not have arrived: the server's next state says what did.
      this.pending = false;
      this.readySent = false;
      this.rematchSent = false;
      this.rematchAsking = false;
    }
    if (this.state && !this.fatal) this.render();
  }

  onFatal(kind) {
    this.fatal = kind;
    this.connEl.textContent = "";
    this.overlay.replaceChildren(fatalPanel(kind));
    this.overlay.classList.remove("hidden");
  }

  onError(frame) {
    this.pending = false;
    this.felt.classList.remove("busy");
    // The table may have moved (or been reloaded from the store): ask for it as it is.
    if (["stale", "conflict", "server"].includes(frame.code)) this.conn.sync();
    const key = ["not_your_turn", "illegal", "stale", "waiting", "conflict", "server", "rate",
      "abandoned"].includes(frame.code) ? `ws.${frame.code}` : "ws.other";
    this.showToast(t(key));
  }

  onSeat(frame) {
    const opponent = this.state ? this.state.opponent : "friend";
    saveSeat(frame.table, frame.token, opponent);
    this.navigate(`/t/${frame.table}`);
  }

  showToast(text) {
    this.toast.textContent = text;
    this.toast.classList.remove("hidden");
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => this.toast.classList.add("hidden"), 3500);
  }

  onState(state) {
    state.names = state.names.map(displayName); // a name the server chose is a word
    const previous = this.state;
    const before = previous ? snapshot(this) : null;
    const prevHand = previous ? previous.hand.cards : [];
    if (previous && state.hand_number !== previous.hand_number) this.readySent = false;
    if (previous && state.hand_number === previous.hand_number) this.lastHand = prevHand;
    else this.lastHand = state.hand.cards;
    this.state = state;
    this.pending = false;
    this.watchAway();
    if (this.selected && !state.hand.cards.includes(this.selected)) this.selected = null;
    if (state.finished) markFinished(this.tableId);
    if (!savedTables().some((s) => s.table === this.tableId) && tokenOf(this.tableId)) {
      saveSeat(this.tableId, tokenOf(this.tableId), state.opponent);
    }
    this.render();
    this.announcer.changed(previous, state);
    if (before && !REDUCED) animate(this, before);
    // Follow a rematch made while this page looks on (coming back to an old table later,
    // with Back for one, shows a button to it instead of jumping away again).
    if (state.rematch.table && (this.rematchSent || (previous && !previous.rematch.table))) {
      this.followRematch();
    }
  }

  /** Go to the rematch table: with the token this browser has for it, or after asking the
   * server for one (it answers with a `seat` frame). */
  followRematch() {
    const s = this.state;
    const table = s.rematch.table;
    if (!table || !s.rematch.accepted[s.seat]) return;
    if (tokenOf(table)) { this.navigate(`/t/${table}`); return; }
    if (!this.rematchAsking && this.conn.rematch() !== null) this.rematchAsking = true;
  }

  // -- intents -------------------------------------------------------------------------------

  legal(action) { return this.state && this.state.hand.legal.includes(action); }

  canAct() {
    return Boolean(this.state) && this.online && this.state.abandoned === null;
  }

  act(action) {
    if (!this.canAct() || this.pending || !this.legal(action)) return false;
    if (this.conn.act(action, this.state.seq) === null) return false;
    this.pending = true;
    this.felt.classList.add("busy");
    return true;
  }

  hint(card) { return this.state.hand.hints.find((h) => h.card === card); }

  /** The expert's advice on the player's turn at a table against the computer (H, or the
   * Hint button): thought out by the server from this seat's view alone, said in the
   * status line (a live region), its card chosen in the hand.  Dropped if the game has
   * moved on meanwhile. */
  async askHint() {
    const s = this.state;
    if (!s || s.opponent !== "computer" || !this.myTurn() || !this.canAct() || this.asking) {
      return;
    }
    const seq = s.seq;
    this.asking = true;
    this.advice = { seq, words: t("hint.thinking") };
    this.render();
    try {
      const got = await post(`/api/tables/${this.tableId}/hint`,
        { token: tokenOf(this.tableId) });
      if (!this.state || this.state.seq !== got.seq) return;
      const card = got.action.split(" ")[1] || null;
      this.advice = { seq: got.seq, action: got.action, why: got.why, cards: got.cards || [],
        card };
      if (card && this.state.hand.cards.includes(card)) this.selected = card;
    } catch (err) {
      const code = ["not_your_turn", "friend"].includes(err.code) ? err.code : "other";
      if (this.state && this.state.seq === seq) this.advice = { seq, words: t(`hint.error.${code}`) };
    } finally {
      this.asking = false;
      if (this.state) this.render();
    }
    // The hinted card takes the focus from another of the hand's cards: Enter then throws
    // it, as its button says (the focused card took the Enter, and was chosen instead).
    const card = this.advice && this.advice.seq === this.state?.seq ? this.advice.card : null;
    const focused = document.activeElement;
    if (card && focused && focused.dataset && focused.dataset.card
        && this.meSeat.contains(focused)) {
      this.meSeat.querySelector(`.hand [data-card="${card}"]`)?.focus({ preventScroll: true });
    }
  }

  /** The advice in words, cards named by `name` (seen or heard), or null if there is none
   * for this position. */
  adviceText(name) {
    const a = this.advice;
    if (!a || !this.state || a.seq !== this.state.seq) return null;
    if (a.words) return a.words;
    const top = this.state.hand.pile[this.state.hand.pile.length - 1];
    const [verb, card] = a.action.split(" ");
    const gin = verb === "knock" && this.hint(card)?.deadwood === 0;
    const action = {
      pass: () => t("btn.pass"), draw: () => t("btn.draw"),
      take: () => t("btn.take", { card: name(top) }), pick: () => t("btn.take", { card: name(top) }),
      discard: () => t("btn.discard_card", { card: name(card) }),
      knock: () => t(gin ? "btn.gin" : "btn.knock", { card: name(card) }),
      "big-gin": () => t("btn.big_gin"),
    }[verb];
    // the reason's cards in the same form as the rest (heard by name, not as "10♠")
    const why = a.cards.reduce((text, c) => text.split(pretty(c)).join(name(c)), a.why);
    return t("hint.says", { action: action ? action() : a.action, why });
  }

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
    if (!this.canAct()) return;
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
    const s = this.state;
    if (!this.canAct() || s.finished || s.hand.phase !== "over") return;
    if (this.conn.next() === null) return;
    this.readySent = true;
    this.render();
  }

  rematch() {
    const s = this.state;
    if (!this.canAct() || !s.finished) return;
    if (this.conn.rematch() === null) return;
    this.rematchSent = true;
    this.render();
  }

  /** Focus a control once it is in the page, unless the player is focused elsewhere. */
  focusLater(node) {
    setTimeout(() => {
      if (document.activeElement === document.body || !document.activeElement) node.focus();
    }, 0);
  }

  onKey(e) {
    if (!this.state || e.target.closest("input, textarea, select, dialog")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (this.review) { this.review.onKey(e); return; }
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
    if (key === "enter" && !e.target.closest("button, a, summary")) {
      if (h.phase === "over") this.next(); else this.discardSelected();
    } else if (key === "d") this.act("draw");
    else if (key === "u") { if (!this.act("pick")) this.act("take"); }
    else if (key === "p") this.act("pass");
    else if (key === "h") this.askHint();
    else if (key === "k") { const k = this.knockChoice(false); if (k) this.act(`knock ${k.card}`); }
    else if (key === "g") {
      const g = this.knockChoice(true);
      if (g) this.act(`knock ${g.card}`); else this.act("big-gin");
    } else if (key === "n") this.next();
    else if (key === "r" && this.state.finished) this.rematch();
    else if (key === "v" && h.phase === "over") this.openReview([this.state.hand_number], false);
    else if (key === "w" && this.state.finished) {
      this.openReview(Array.from({ length: this.state.hand_number }, (_, i) => i + 1), true);
    }
    else return;
    e.preventDefault();
  }

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

  /** Start or stop the clock on the friend's absence, and draw again when it runs out. */
  watchAway() {
    const s = this.state;
    const other = 1 - s.seat;
    if (s.opponent !== "friend" || !s.joined[other] || s.connected[other]) {
      this.awayShown = false;
      clearTimeout(this.awayTimer);
      this.awayTimer = null;
    } else if (!this.awayShown && this.awayTimer === null) {
      this.awayTimer = setTimeout(() => {
        this.awayTimer = null;
        this.awayShown = true;
        if (!this.fatal) this.render();
      }, AWAY_AFTER_MS);
    }
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
