// The Hollywood scoresheet (the rule book §7): always on screen, one column per game.

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Fill `root` with the sheet of a state frame, from the player's side (`me` first). */
export function renderSheet(root, state) {
  const sheet = state.sheet;
  const me = state.seat;
  const order = [me, 1 - me];
  const names = order.map((p) => (p === me ? "You" : state.names[p]));
  root.replaceChildren();
  const head = el("div", "sheet-head");
  head.append(el("h2", "", sheet.columns.length > 1 ? "Hollywood scoresheet" : "Scoresheet"));
  const won = sheet.games_won;
  head.append(el("span", "games", `Games ${won[me]}–${won[1 - me]}`));
  root.append(head);

  const table = el("table", "sheet-table");
  const thead = el("thead");
  const hr = el("tr");
  hr.append(el("th", "", ""));
  sheet.columns.forEach((col, i) => {
    const th = el("th", col.winner === null ? "open" : "closed", `Game ${i + 1}`);
    if (col.winner !== null) {
      const who = col.winner === me ? "you" : state.names[col.winner];
      th.append(el("small", "", col.shutout ? `shutout · ${who}` : `won · ${who}`));
    }
    hr.append(th);
  });
  hr.append(el("th", "total", "Total"));
  thead.append(hr);
  table.append(thead);

  const tbody = el("tbody");
  order.forEach((p, row) => {
    const tr = el("tr", row === 0 ? "me" : "opp");
    const name = el("th", "name", names[row]);
    name.scope = "row";
    tr.append(name);
    sheet.columns.forEach((col) => {
      const td = el("td", col.winner === p ? "won" : "");
      td.append(el("span", "pts", String(col.points[p])));
      const extra = el("span", "boxes");
      extra.textContent = col.boxes[p] ? `${col.boxes[p]} box${col.boxes[p] > 1 ? "es" : ""}` : "";
      if (col.winner !== null && col.bonuses[p]) extra.textContent += ` +${col.bonuses[p]}`;
      td.append(extra);
      tr.append(td);
    });
    tr.append(el("td", "total", String(sheet.totals[p])));
    tbody.append(tr);
  });
  table.append(tbody);
  root.append(table);
  const target = state.rules.game_target;
  const note = sheet.finished ? "Match over" : `Each game to ${target}; totals include bonuses.`;
  root.append(el("p", "sheet-note", note));
}
