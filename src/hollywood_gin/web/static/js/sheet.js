// The Hollywood scoresheet (the rule book §7): always on screen, one column per game, with the
// rules in force below it.

import { el } from "./dom.js";
import { language, t } from "./i18n.js";

/** Fill `root` with the sheet of a state frame, from the player's side (`me` first). */
export function renderSheet(root, state) {
  const sheet = state.sheet;
  const me = state.seat;
  const order = [me, 1 - me];
  const names = order.map((p) => (p === me ? t("sheet.you") : state.names[p]));
  const open = Boolean(root.querySelector(".in-force")?.open);
  root.replaceChildren();
  const head = el("div", "sheet-head");
  head.append(el("h2", "", sheet.columns.length > 1 ? t("sheet.hollywood") : t("sheet.plain")));
  const won = sheet.games_won;
  head.append(el("span", "games", t("sheet.games", { me: won[me], opp: won[1 - me] })));
  root.append(head);

  const table = el("table", `sheet-table cols-${sheet.columns.length}`);
  const thead = el("thead");
  const hr = el("tr");
  const corner = el("th", "corner");
  corner.append(el("span", "sr-only", t("sheet.player")));
  hr.append(corner);
  sheet.columns.forEach((col, i) => {
    const th = el("th", col.winner === null ? "open" : "closed");
    th.scope = "col";
    // The heading's words, or only its number when the words do not fit (see fitHeadings):
    // screen readers read the words either way.
    const number = el("span", "game-no", String(i + 1));
    number.setAttribute("aria-hidden", "true");
    th.append(el("span", "game-words", t("sheet.game", { n: i + 1 })), number);
    if (col.winner !== null) {
      const who = col.winner === me ? t("sheet.you_lower") : state.names[col.winner];
      // Short on screen (the winner's row is marked), whole for screen readers and on hover.
      const whole = t(col.shutout ? "sheet.shutout" : "sheet.won", { who });
      const note = el("small", "", t(col.shutout ? "sheet.shutout_short" : "sheet.won_short"));
      note.setAttribute("aria-hidden", "true");
      th.title = whole;
      th.append(note, el("span", "sr-only", whole));
    }
    hr.append(th);
  });
  const total = el("th", "total", t("sheet.total"));
  total.scope = "col";
  hr.append(total);
  thead.append(hr);
  table.append(thead);

  const tbody = el("tbody");
  order.forEach((p, row) => {
    const tr = el("tr", row === 0 ? "me" : "opp");
    const name = el("th", "name");
    name.append(el("span", "", names[row]));
    name.scope = "row";
    name.title = names[row];
    tr.append(name);
    sheet.columns.forEach((col) => {
      const td = el("td", col.winner === p ? "won" : "");
      td.append(el("span", "pts", String(col.points[p])));
      const extra = el("span", "boxes");
      extra.textContent = col.boxes[p] ? t("sheet.boxes", { n: col.boxes[p] }) : "";
      td.append(extra);
      // On a line of its own: beside the boxes it widened the game, and the name gave way.
      if (col.winner !== null && col.bonuses[p]) td.append(el("span", "bonus", `+${col.bonuses[p]}`));
      tr.append(td);
    });
    tr.append(el("td", "total", String(sheet.totals[p])));
    tbody.append(tr);
  });
  table.append(tbody);
  root.append(table);
  fitHeadings(root);
  const note = sheet.finished ? t("sheet.over")
    : t("sheet.note", { target: state.rules.game_target });
  root.append(el("p", "sheet-note", note));
  const rules = rulesInForce(state);
  rules.open = open;
  root.append(rules);
}

const WATCHED = new WeakSet(); // the sheets whose size is watched

/** The games' headings in words if the whole sheet fits so, else by their numbers only:
 * a heading's word is never broken, and Total never goes behind a sideways scroll (five
 * games in Afrikaans or Lithuanian are wider than a phone, and than the desktop's side).
 * Numbers too where the words would cut a name that the numbers leave whole ("Wedstryd 1"
 * on a phone left "Reke…" of the computer's "Rekenaar"). */
function fitHeadings(root) {
  const table = root.querySelector(".sheet-table");
  if (!table) return;
  const cut = () => [...table.querySelectorAll("th.name span")] // it wraps, one line shown
    .some((s) => s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1);
  table.classList.remove("numbers");
  if (root.scrollWidth > root.clientWidth + 1) {
    table.classList.add("numbers");
  } else if (cut()) {
    table.classList.add("numbers");
    if (cut()) table.classList.remove("numbers"); // a long name: cut either way
  }
  if (!WATCHED.has(root) && typeof ResizeObserver !== "undefined") {
    WATCHED.add(root);
    let width = root.clientWidth;
    new ResizeObserver(() => {
      if (root.clientWidth !== width) { width = root.clientWidth; fitHeadings(root); }
    }).observe(root);
    document.fonts?.ready.then(() => fitHeadings(root)); // Lao's font may come later
  }
}

const IN_FORCE = new Map(); // table and language: the "rules in force" lines, asked once

/** The rules in force, folded (the sheet is what a player looks at): the server's short
 * lines in words (hollywood_gin.rulebook.rules_in_force), and a link to the whole book.
 * Kept by table and language: a player who switches language gets the lines in it. */
function rulesInForce(state) {
  const box = el("details", "in-force");
  box.append(el("summary", "", t("sheet.rules")));
  const list = el("dl");
  const fill = (dl, lines) => {
    dl.replaceChildren();
    lines.forEach(([label, value]) => dl.append(el("dt", "", label), el("dd", "", value)));
  };
  const lang = language();
  const key = `${state.table} ${lang}`;
  const known = IN_FORCE.get(key);
  if (known) fill(list, known);
  else {
    IN_FORCE.set(key, []);
    fetch(`/api/rules?table=${state.table}`, { headers: { "accept-language": lang } })
      .then((r) => (r.ok ? r.json() : null))
      .then((out) => {
        if (!out) { IN_FORCE.delete(key); return; }
        IN_FORCE.set(key, out.in_force);
        if (language() !== lang) return; // switched meanwhile: that language's ask fills
        document.querySelectorAll(".in-force dl").forEach((dl) => fill(dl, out.in_force));
      }).catch(() => IN_FORCE.delete(key));
  }
  box.append(list);
  const book = el("a", "rule-book", t("sheet.rule_book"));
  book.href = `/rules/${state.table}?lang=${language()}`;
  box.append(book);
  return box;
}
