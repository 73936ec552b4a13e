// The card table: draws each state frame the server sends and turns clicks, drags and keys
// into intents. It decides nothing: every legal choice comes from the frame. While the
// connection is down every control is disabled and a banner says so.

import { pretty } from "./cards.js";
import { button, el, post } from "./dom.js";
import { TableFelt } from "./felt.js";
import { displayName, t } from "./i18n.js";
import { Announcer } from "./log.js";
import { animate, snapshot } from "./motion.js";
import { TableConnection } from "./net.js";
import { fatalPanel } from "./panels.js";
import { markFinished, savedTables, saveSeat, tokenOf } from "./seats.js";
import { ReviewPanel } from "./review.js";

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
// A friend is shown away only once he has been away this long as this page saw it: a table
// just opened on one server process hears a few milliseconds later that another process
// holds his socket, and the status line (a live region) should not say he left meanwhile.
const AWAY_AFTER_MS = 1500;

export class TableView extends TableFelt {
  constructor(root, tableId, token, navigate) {
    super();
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

  // -- the friend away ---------------------------------------------------------------------

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
}
