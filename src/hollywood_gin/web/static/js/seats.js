// This browser's seats: a token per table in localStorage (never in a URL the server sees),
// and the list of tables it sits at, newest first, for the lobby.

import { post } from "./dom.js";

export const MAX_TABLES = 30; // the server answers about at most this many at once

export function tokenOf(table) {
  return localStorage.getItem(`hg.seat.${table}`);
}

export function savedTables() {
  try {
    const list = JSON.parse(localStorage.getItem("hg.tables") || "[]");
    return Array.isArray(list) ? list.filter((t) => t && typeof t.table === "string") : [];
  } catch {
    return [];
  }
}

export function saveSeat(table, token, opponent) {
  localStorage.setItem(`hg.seat.${table}`, token);
  let list = savedTables().filter((t) => t.table !== table);
  list.unshift({ table, opponent, at: Date.now() });
  // The oldest finished tables are forgotten past the limit; an unfinished one never is: its
  // seat is the only way back to a match still in play (a 31st table used to drop the
  // oldest, unseen, though it was still being played).
  while (list.filter((t) => t.finished).length > MAX_TABLES) {
    const i = list.map((t) => Boolean(t.finished)).lastIndexOf(true);
    const [old] = list.splice(i, 1);
    localStorage.removeItem(`hg.seat.${old.table}`);
    localStorage.removeItem(`hg.invite.${old.table}`);
  }
  localStorage.setItem("hg.tables", JSON.stringify(list));
}

/** Remember that a table's match is over (it leaves the lobby's list, the seat stays). */
export function markFinished(table) {
  const list = savedTables().map((t) => (t.table === table ? { ...t, finished: true } : t));
  localStorage.setItem("hg.tables", JSON.stringify(list));
}

/** Drop a table this browser no longer sits at (finished, abandoned, or gone). */
export function forget(table) {
  localStorage.removeItem(`hg.seat.${table}`);
  localStorage.removeItem(`hg.invite.${table}`);
  const list = savedTables().filter((t) => t.table !== table);
  localStorage.setItem("hg.tables", JSON.stringify(list));
}

/** What the server says of these seats (``/api/tables/mine``), asked MAX_TABLES at a time
 * (its limit per request), the answers in the seats' order. */
export async function myTables(seats) {
  const tables = [];
  for (let i = 0; i < seats.length; i += MAX_TABLES) {
    const out = await post("/api/tables/mine", { seats: seats.slice(i, i + MAX_TABLES) });
    tables.push(...out.tables);
  }
  return { tables };
}
