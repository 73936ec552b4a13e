// The words for moves and hand results: the move log, the last-move line, and what the
// screen reader is told (an aria-live region) when the opponent moves or a hand ends.

import { pretty, spoken } from "./cards.js";
import { el } from "./dom.js";
import { list, t } from "./i18n.js";

/** One entry of the public log, `[player, action, card]`, in words; `name` says a card
 * (`spoken` for what a screen reader is told: some read ♥ as "black heart suit"). */
export function moveText(state, [player, action, card], name = pretty) {
  const who = player === state.seat ? t("log.you") : state.names[player];
  const [verb, first] = action.split(" ");
  const shown = card ? name(card) : null;
  switch (verb) {
    case "pass": return shown ? t("log.pass", { who, card: shown }) : t("log.pass_plain", { who });
    case "take": return shown ? t("log.take", { who, card: shown }) : t("log.take_plain", { who });
    case "pick": return shown ? t("log.pick", { who, card: shown }) : t("log.pick_plain", { who });
    case "draw": return t("log.draw", { who });
    case "discard": return t("log.discard", { who, card: name(card || first) });
    case "knock": return t("log.knock", { who, card: name(first) });
    case "big-gin": return t("log.big_gin", { who });
    default: return `${who}: ${action}`;
  }
}

/** The last move of the opponent in this hand, if any. */
export function lastOpponentMove(state) {
  const history = state.hand.history;
  for (let i = history.length - 1; i >= 0; i--) {
    if (history[i][0] !== state.seat) return history[i];
  }
  return null;
}

/** Fill the move log (a <details>, so a phone can fold it): newest move first. */
export function renderLog(details, state) {
  let summary = details.querySelector("summary");
  if (!summary) {
    summary = el("summary");
    details.append(summary);
  }
  summary.replaceChildren(el("h2", "", t("log.title", { n: state.hand_number })));
  details.querySelector("ol")?.remove();
  const moves = el("ol", "moves");
  const history = state.hand.history;
  [...history].reverse().forEach((entry) => {
    moves.append(el("li", entry[0] === state.seat ? "me" : "opp", moveText(state, entry)));
  });
  if (!history.length) moves.append(el("li", "", t("log.new_deal")));
  details.append(moves);
  // The whole discard pile is public (R4.4): the table shows its top three cards, and
  // here is all of it, bottom to top (the terminal game's p).
  details.querySelector(".whole-pile")?.remove();
  const pile = state.hand.pile;
  const whole = el("p", "whole-pile");
  if (!pile.length) whole.textContent = t("log.pile_empty");
  else {
    const seen = el("span", "", t("log.pile", { n: pile.length, cards: pile.map(pretty).join(" ") }));
    seen.setAttribute("aria-hidden", "true");
    whole.append(seen, el("span", "sr-only",
      t("log.pile", { n: pile.length, cards: list(pile.map(spoken)) })));
  }
  details.append(whole);
}

function games(columns) {
  return list(columns.map((c) => t("result.game", { n: c + 1 })));
}

/** The title of a hand's result from this seat's side ("Gin! You win 31 points"). */
export function resultTitle(state) {
  const r = state.hand.result;
  if (r.kind === "dead") return t("result.dead");
  const win = r.winner === state.seat ? t("result.you_win", { n: r.points })
    : t("result.they_win", { n: r.points, name: state.names[r.winner] });
  return `${t(`result.${r.kind}`)} ${win}`;
}

/** Why the hand scored what it did, in the seat's own person ("you score", "Bob scores"),
 * with the sum when it adds up to the points scored. */
export function resultExplain(state) {
  const r = state.hand.result;
  const rules = state.rules;
  if (r.kind === "dead") return t("explain.dead", { n: rules.dead_hand_stock });
  const me = state.seat;
  const winner = r.winner;
  const loser = 1 - winner;
  const dw = (p) => r.players[p].deadwood;
  let sum = null;
  let detail = null;
  if (r.kind === "knock") {
    sum = dw(loser) - dw(winner);
    detail = `${dw(loser)} − ${dw(winner)} = ${sum}`;
  } else if (r.kind === "undercut") {
    sum = rules.undercut_bonus + dw(loser) - dw(winner);
    detail = `${rules.undercut_bonus} + (${dw(loser)} − ${dw(winner)}) = ${sum}`;
  } else if (r.kind === "gin" || r.kind === "big_gin") {
    const bonus = r.kind === "gin" ? rules.gin_bonus : rules.big_gin_bonus;
    sum = bonus + dw(loser);
    detail = `${bonus} + ${dw(loser)} = ${sum}`;
  }
  if (sum !== r.points) detail = t("explain.points", { n: r.points });
  const person = winner === me ? "you" : "other";
  return t(`explain.${r.kind}.${person}`, {
    name: state.names[winner], opp: state.names[1 - me], detail,
  });
}

/** The entry line of the sheet after a won hand ("31 points entered in game 1 and game 2"). */
export function enteredText(state) {
  const entries = state.sheet.entries;
  const r = state.hand.result;
  if (r.kind === "dead" || !entries.length) return null;
  const [, points, cols, closed] = entries[entries.length - 1];
  // R7.2 (by count): a win whose games have all closed enters none.
  if (!cols.length) return t("result.enters_none", { n: points });
  let line = t("result.entered", { n: points, games: games(cols) });
  if (closed.length) line += " " + t("result.closes", { games: games(closed) });
  return line;
}

/** A polite live region: what is appended to it is read out (the last few are kept). */
export class Announcer {
  constructor() {
    this.node = el("div", "sr-only announcer");
    this.node.setAttribute("role", "log");
    this.node.setAttribute("aria-live", "polite");
    this.node.setAttribute("aria-relevant", "additions");
    this.node.setAttribute("aria-label", t("announce.label"));
  }

  say(text) {
    this.node.append(el("p", "", text));
    while (this.node.children.length > 6) this.node.firstChild.remove();
  }

  /** Tell what changed between two state frames: the opponent's moves, a hand's end, a
   * new deal, a friend joining. */
  changed(before, after) {
    if (!before) return;
    const opp = 1 - after.seat;
    if (!before.joined[opp] && after.joined[opp]) {
      this.say(t("announce.joined", { name: after.names[opp] }));
    }
    if (before.hand_number !== after.hand_number) {
      this.say(t("announce.next", { n: after.hand_number }));
    }
    const old = before.hand_number === after.hand_number ? before.hand.history.length : 0;
    after.hand.history.slice(old).forEach((entry) => {
      if (entry[0] !== after.seat) this.say(moveText(after, entry, spoken));
    });
    // My own draw from the stock: which card it brought is seen only in the hand.
    const drawn = after.hand.history.slice(old).some(([p, a]) => p === after.seat && a === "draw");
    const fresh = old ? after.hand.cards.filter((c) => !before.hand.cards.includes(c)) : [];
    if (drawn && fresh.length === 1) this.say(t("announce.drew", { card: spoken(fresh[0]) }));
    const ended = after.hand.phase === "over"
      && (before.hand.phase !== "over" || before.hand_number !== after.hand_number);
    if (ended) {
      this.say(t("announce.result", { title: resultTitle(after), explain: resultExplain(after) }));
    }
  }
}
