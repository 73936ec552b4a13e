// The table's overlays: the invite link, a hand's end (both hands laid out, the words of
// the score, its review), the match's end with its rematch and the match's review, an
// abandoned match, and no seat at all.

import { cardElement, pretty } from "./cards.js";
import { button, el } from "./dom.js";
import { t } from "./i18n.js";
import { enteredText, resultExplain, resultTitle } from "./log.js";

export function fatalPanel(kind) {
  const box = el("div", "panel");
  box.append(el("h2", "", t("fatal.title")));
  box.append(el("p", "", t(kind === "auth" ? "fatal.auth" : "fatal.refused")));
  const home = el("a", "btn primary", t("fatal.back"));
  home.href = "/";
  box.append(home);
  return box;
}

export function invitePanel(view) {
  const box = el("div", "panel invite");
  box.append(el("h2", "", t("invite.title")));
  box.append(el("p", "", t("invite.text")));
  const code = localStorage.getItem(`hg.invite.${view.tableId}`);
  if (code) {
    const link = `${location.origin}/join/${view.tableId}#${code}`;
    const input = el("input", "invite-link");
    input.readOnly = true;
    input.value = link;
    input.setAttribute("aria-label", t("invite.link"));
    const copy = button(t("btn.copy"), "primary", async () => {
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = t("btn.copied");
      } catch {
        input.select();
      }
    });
    box.append(input, copy);
  } else {
    box.append(el("p", "", t("invite.elsewhere")));
  }
  return box;
}

/** A group of the hand-end layout: its cards over its label (the group is as wide as the
 * wider of the two, so labels never run into each other). */
function miniGroup(kind, cards, label) {
  const g = el("div", `mini-group ${kind}`);
  g.setAttribute("role", "group");
  g.setAttribute("aria-label", label);
  const row = el("div", "mini-cards");
  row.append(...cards);
  g.append(row);
  if (kind !== "meld") {
    const tag = el("span", "mini-label", label);
    tag.setAttribute("aria-hidden", "true");
    g.append(tag);
  }
  return g;
}

function layoutRow(label, layout, tag) {
  const row = el("div", "layout-row");
  const head = el("div", "layout-head");
  head.append(el("span", "who", label), el("span", "dw", t("layout.deadwood", { n: layout.deadwood })));
  if (tag) head.append(el("span", "tag", tag));
  row.append(head);
  const cards = el("div", "layout-cards");
  layout.melds.forEach((m) => {
    cards.append(miniGroup("meld", m.map((c) => cardElement(c, { key: `r-${c}` })),
      t("layout.melds")));
  });
  if (layout.laid_off.length) {
    cards.append(miniGroup("laid", layout.laid_off.map((lay) => {
      const card = cardElement(lay.card, { key: `r-${lay.card}` });
      card.title = t("layout.laid_on", { cards: lay.onto.map(pretty).join(" ") });
      return card;
    }), t("layout.laid_off")));
  }
  if (layout.unmatched.length) {
    cards.append(miniGroup("dead", layout.unmatched.map((c) => cardElement(c, { key: `r-${c}` })),
      t("layout.deadwood_group")));
  }
  row.append(cards);
  return row;
}

export function resultPanel(view) {
  const s = view.state;
  const r = s.hand.result;
  const me = s.seat;
  const box = el("div", "panel result");
  const title = el("h2", "", resultTitle(s));
  title.id = "result-title";
  box.classList.add(r.winner === me ? "won" : r.winner === null ? "dead" : "lost");
  box.append(title, el("p", "explain", resultExplain(s)));
  const order = r.knocker === null ? [me, 1 - me] : [r.knocker, 1 - r.knocker];
  order.forEach((p) => {
    const label = p === me ? t("sheet.you") : s.names[p];
    const tag = r.knocker === p ? t("layout.knocked")
      : (r.knocker !== null ? t("layout.defended") : null);
    box.append(layoutRow(label, r.players[p], tag));
  });
  const entered = enteredText(s);
  if (entered) box.append(el("p", "entered", entered));
  const review = button(t("btn.review_hand"), "", () => view.openReview([s.hand_number], false), "V");
  review.classList.add("review-hand");
  const row = el("div", "row-buttons");
  if (s.finished) {
    row.append(review);
    box.append(row, matchPanel(view));
  } else if (view.readySent || s.ready[me]) {
    box.append(el("p", "waiting", t("result.waiting", { name: s.names[1 - me] })));
    row.append(review);
    box.append(row);
  } else {
    if (s.ready[1 - me]) box.append(el("p", "ready-note", t("result.they_wait", { name: s.names[1 - me] })));
    const next = button(t("btn.next"), "primary", () => view.next(), "N");
    next.disabled = !view.online;
    row.append(next, review);
    box.append(row);
    view.focusLater(next);
  }
  return box;
}

function matchPanel(view) {
  const s = view.state;
  const me = s.seat;
  const opp = 1 - me;
  const sheet = s.sheet;
  const box = el("div", "match-over");
  const head = sheet.winner === null ? t("match.drawn")
    : sheet.winner === me ? t("match.won") : t("match.lost", { name: s.names[sheet.winner] });
  box.append(el("h3", "", head));
  let line = t("match.summary", { mine: sheet.games_won[me], theirs: sheet.games_won[opp],
    me: sheet.totals[me], opp: sheet.totals[opp] });
  if (sheet.result !== null && sheet.winner !== null) {
    const value = sheet.winner === me ? sheet.result : -sheet.result;
    line += ` · ${t("match.result", { value: `${value >= 0 ? "+" : "−"}${Math.abs(value)}` })}`;
  }
  box.append(el("p", "", line));
  const buttons = el("div", "row-buttons");
  const asked = s.rematch.accepted;
  if (s.rematch.table) {
    const go = button(t("btn.to_rematch"), "primary", () => view.followRematch());
    go.disabled = !view.online;
    buttons.append(go);
  } else if (asked[me] || view.rematchSent) {
    box.append(el("p", "waiting", t("rematch.asked", { name: s.names[opp] })));
  } else {
    if (asked[opp]) box.append(el("p", "offer", t("rematch.offered", { name: s.names[opp] })));
    const again = button(t(asked[opp] ? "btn.accept_rematch" : "btn.rematch"), "primary",
      () => view.rematch(), "R");
    again.disabled = !view.online;
    buttons.append(again);
    view.focusLater(again);
  }
  const fresh = el("a", "btn", t("btn.new_match"));
  fresh.href = "/";
  buttons.append(fresh);
  const all = Array.from({ length: s.hand_number }, (_, i) => i + 1);
  const review = button(t("btn.review_match"), "", () => view.openReview(all, true), "W");
  review.classList.add("review-match");
  buttons.append(review);
  box.append(buttons);
  return box;
}

export function abandonedPanel(view) {
  const s = view.state;
  const box = el("div", "panel abandoned");
  box.append(el("h2", "", t("abandoned.title")));
  box.append(el("p", "", s.abandoned === s.seat ? t("abandoned.you")
    : t("abandoned.other", { name: s.names[s.abandoned] })));
  const home = el("a", "btn primary", t("btn.lobby"));
  home.href = "/";
  box.append(home);
  return box;
}
