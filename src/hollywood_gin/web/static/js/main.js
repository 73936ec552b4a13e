// Pages: the lobby (/), joining a friend's table (/join/ID#CODE), and the table (/t/ID).
// Seat tokens live in this browser's localStorage only, never in a URL the server sees.

import { cardElement } from "./cards.js";
import { TableView } from "./table.js";

const app = document.getElementById("app");

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function saveSeat(table, token, opponent) {
  localStorage.setItem(`hg.seat.${table}`, token);
  const list = JSON.parse(localStorage.getItem("hg.tables") || "[]")
    .filter((t) => t.table !== table);
  list.unshift({ table, opponent, at: Date.now() });
  localStorage.setItem("hg.tables", JSON.stringify(list.slice(0, 8)));
}

async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
}

function heroFan() {
  const fan = el("div", "hero-fan");
  ["As", "Kh", "Qd", "Jc", "Ts"].forEach((c, i) => {
    const card = cardElement(c);
    card.classList.add(`fan-card-${i}`);
    fan.append(card);
  });
  return fan;
}

function field(labelText, input) {
  const label = el("label", "field");
  label.append(el("span", "", labelText), input);
  return label;
}

function lobby() {
  document.title = "Hollywood Gin";
  const page = el("main", "lobby");
  page.append(heroFan());
  page.append(el("h1", "", "Hollywood Gin"));
  page.append(el("p", "tagline", "Gin rummy with three games scored at once."));

  const form = el("form", "lobby-form");
  const name = el("input");
  name.name = "name";
  name.maxLength = 24;
  name.autocomplete = "nickname";
  name.value = localStorage.getItem("hg.name") || "";
  name.placeholder = "You";
  form.append(field("Your name", name));

  const level = el("div", "levels");
  level.setAttribute("role", "radiogroup");
  level.setAttribute("aria-label", "computer level");
  const labels = ["Beginner", "Casual", "Solid", "Strong", "Expert"];
  labels.forEach((text, i) => {
    const id = `level-${i + 1}`;
    const radio = el("input");
    radio.type = "radio";
    radio.name = "level";
    radio.id = id;
    radio.value = String(i + 1);
    if (i === 2) radio.checked = true;
    const lab = el("label", "level");
    lab.htmlFor = id;
    lab.append(el("strong", "", String(i + 1)), el("span", "", text));
    level.append(radio, lab);
  });
  const levelField = el("div", "field");
  levelField.append(el("span", "", "Computer level"), level);
  form.append(levelField);

  const preset = el("select");
  preset.name = "preset";
  [["hollywood", "Hollywood (three games to 100)"], ["hollywood-20", "Hollywood, gin bonus 20"],
    ["classic", "Classic (one game to 100)"], ["eaai", "EAAI challenge rules"]]
    .forEach(([value, text]) => {
      const o = el("option", "", text);
      o.value = value;
      preset.append(o);
    });
  form.append(field("Rules", preset));

  const error = el("p", "error hidden");
  error.setAttribute("role", "alert");
  const buttons = el("div", "lobby-buttons");
  const vsComputer = el("button", "btn primary big", "Play the computer");
  vsComputer.type = "submit";
  const vsFriend = el("button", "btn big", "Invite a friend");
  vsFriend.type = "button";
  buttons.append(vsComputer, vsFriend);
  form.append(buttons, error);

  async function start(opponent) {
    error.classList.add("hidden");
    const chosen = form.querySelector("input[name=level]:checked");
    localStorage.setItem("hg.name", name.value.trim());
    const body = { opponent, preset: preset.value, name: name.value.trim() || "You" };
    if (opponent === "computer") body.level = Number(chosen ? chosen.value : 3);
    try {
      vsComputer.disabled = vsFriend.disabled = true;
      const out = await post("/api/tables", body);
      saveSeat(out.table, out.token, opponent);
      if (out.invite) localStorage.setItem(`hg.invite.${out.table}`, out.invite);
      history.pushState({}, "", `/t/${out.table}`);
      route();
    } catch (e) {
      error.textContent = e.message;
      error.classList.remove("hidden");
      vsComputer.disabled = vsFriend.disabled = false;
    }
  }
  form.addEventListener("submit", (e) => { e.preventDefault(); start("computer"); });
  vsFriend.addEventListener("click", () => start("friend"));
  page.append(form);

  const tables = JSON.parse(localStorage.getItem("hg.tables") || "[]");
  if (tables.length) {
    const box = el("section", "resume");
    box.append(el("h2", "", "Your tables"));
    const list = el("ul");
    tables.forEach((t) => {
      const li = el("li");
      const a = el("a", "", `${t.opponent === "computer" ? "vs computer" : "with a friend"} · `
        + new Date(t.at).toLocaleString());
      a.href = `/t/${t.table}`;
      li.append(a);
      list.append(li);
    });
    box.append(list);
    page.append(box);
  }
  app.replaceChildren(page);
  name.focus();
}

function join(tableId) {
  document.title = "Join a table · Hollywood Gin";
  const code = location.hash.slice(1);
  const page = el("main", "lobby");
  page.append(heroFan());
  page.append(el("h1", "", "You are invited"));
  page.append(el("p", "tagline", "A friend has dealt you in to a game of Hollywood Gin."));
  const form = el("form", "lobby-form");
  const name = el("input");
  name.maxLength = 24;
  name.value = localStorage.getItem("hg.name") || "";
  name.placeholder = "Friend";
  form.append(field("Your name", name));
  const go = el("button", "btn primary big", "Join the table");
  go.type = "submit";
  const error = el("p", "error hidden");
  error.setAttribute("role", "alert");
  form.append(go, error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    go.disabled = true;
    try {
      localStorage.setItem("hg.name", name.value.trim());
      const out = await post(`/api/tables/${tableId}/join`,
        { invite: code, name: name.value.trim() || "Friend" });
      saveSeat(out.table, out.token, "friend");
      history.replaceState({}, "", `/t/${out.table}`);
      route();
    } catch (err) {
      if (localStorage.getItem(`hg.seat.${tableId}`)) {
        history.replaceState({}, "", `/t/${tableId}`);
        route();
        return;
      }
      error.textContent = err.message;
      error.classList.remove("hidden");
      go.disabled = false;
    }
  });
  page.append(form);
  app.replaceChildren(page);
  name.focus();
}

let current = null;

function route() {
  if (current) { current.conn.close(); current = null; }
  const path = location.pathname;
  let m = path.match(/^\/t\/([0-9a-f]{32})$/);
  if (m) {
    const token = localStorage.getItem(`hg.seat.${m[1]}`);
    document.title = "Table · Hollywood Gin";
    current = new TableView(app, m[1], token || "x".repeat(16));
    return;
  }
  m = path.match(/^\/join\/([0-9a-f]{32})$/);
  if (m) { join(m[1]); return; }
  lobby();
}

window.addEventListener("popstate", route);
route();
