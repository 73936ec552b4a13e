// The lobby: a name, an opponent, the rules (a preset, or every option of the rule book,
// built from what the server serves at /api/rules), this browser's unfinished tables to
// resume or abandon, and the page a friend's invite link opens.

import { finishedTables } from "./accuracy.js";
import { cardElement } from "./cards.js";
import { button, el, post } from "./dom.js";
import { ago, displayName, has, language, t } from "./i18n.js";
import { choiceLabel } from "./ruletext.js";
import { forget, markFinished, myTables, savedTables, saveSeat, tokenOf } from "./seats.js";

function heroFan() {
  const fan = el("div", "hero-fan");
  fan.setAttribute("aria-hidden", "true");
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

/** The words of a refused request, from its code (the server's message is for logs), but
 * for a refusal of the rules themselves: that reason is the rule book's, in the player's
 * language, and only the server knows it. */
export function errorText(err, options = []) {
  if (err.code === "rate") return t("error.rate", { seconds: err.retryAfter || 60 });
  if (err.code === "rule_value" && err.option) {
    const option = options.find((o) => o.name === err.option);
    const label = option ? option.label : err.option;
    return t("error.rule_value", { option: label, range: option ? rangeText(option) : "" });
  }
  if (err.code === "rules") return err.message || t("error.rules_plain");
  if (has(`error.${err.code}`)) return t(`error.${err.code}`);
  if (err instanceof TypeError) return t("error.network");
  return t("error.http");
}

function rangeText(option) {
  const low = option.low ?? 0;
  return option.high === null || option.high === undefined ? t("rule.from", { low })
    : t("rule.range", { low, high: option.high });
}

// -- the rule options form -------------------------------------------------------------------

class RulesForm {
  constructor(described) {
    this.options = described.options;
    this.presets = described.presets;
    this.base = described.default_preset;
    this.inputs = new Map();
    this.errors = new Map();
    this.hints = new Map();
    this.box = el("details", "custom-rules");
    const summary = el("summary", "", t("lobby.custom"));
    this.box.append(summary, el("p", "hint", t("lobby.custom_hint")));
    const grid = el("div", "rule-fields");
    this.options.forEach((o) => grid.append(this.field(o)));
    this.box.append(grid);
  }

  field(option) {
    const wrap = el("div", "rule-field");
    const id = `rule-${option.name}`;
    const error = el("span", "field-error hidden");
    error.id = `${id}-error`;
    this.errors.set(option.name, error);
    const label = el("label");
    label.htmlFor = id;
    label.append(el("span", "", option.label), el("small", "rule-no", option.rule));
    if (option.description) {
      const hint = el("span", "rule-hint", option.description);
      hint.id = `${id}-hint`;
      label.title = option.description;
      wrap.dataset.hint = hint.id;
      this.hints.set(option.name, hint);
    }
    let input;
    if (option.kind === "bool") {
      input = el("input");
      input.type = "checkbox";
      wrap.classList.add("check");
      wrap.append(input, label);
    } else if (option.kind === "choice") {
      input = el("select");
      option.choices.forEach((c) => {
        const o = el("option", "", choiceLabel(option.name, c));
        o.value = c;
        input.append(o);
      });
      wrap.classList.add("choice");
      wrap.append(label, input);
    } else {
      input = el("input");
      input.type = "number";
      input.step = "1";
      input.inputMode = "numeric";
      if (option.low !== null) input.min = String(option.low);
      if (option.high !== null) input.max = String(option.high);
      wrap.append(label, input);
    }
    input.id = id;
    input.name = id;
    const hint = this.hints.get(option.name);
    input.setAttribute("aria-describedby", hint ? `${hint.id} ${error.id}` : error.id);
    input.addEventListener("change", () => this.changed());
    this.inputs.set(option.name, input);
    if (hint) wrap.append(hint);
    wrap.append(error);
    if (option.kind !== "optional_int") return wrap;
    // A number that may be "not played" (big gin): a checkbox first, then the number.
    const played = el("input");
    played.type = "checkbox";
    played.id = `${id}-played`;
    const key = `rule.${option.name}.played`;
    const playedLabel = el("label", "", has(key) ? t(key) : option.label);
    playedLabel.htmlFor = played.id;
    const check = el("div", "rule-field check");
    check.append(played, playedLabel);
    played.addEventListener("change", () => { input.disabled = !played.checked; this.changed(); });
    input.played = played;
    const pair = el("div", "rule-pair");
    pair.append(check, wrap);
    return pair;
  }

  fill(values) {
    this.options.forEach((o) => {
      const input = this.inputs.get(o.name);
      const v = values[o.name];
      if (o.kind === "bool") input.checked = Boolean(v);
      else if (o.kind === "optional_int") {
        input.played.checked = v !== null;
        input.disabled = v === null;
        input.value = v === null ? String(o.offered ?? o.default ?? o.low ?? 1) : String(v);
      } else input.value = String(v);
    });
    this.clearErrors();
  }

  /** The values in the form; a number that is not a whole number is null (refused). */
  values() {
    const out = {};
    this.options.forEach((o) => {
      const input = this.inputs.get(o.name);
      if (o.kind === "bool") out[o.name] = input.checked;
      else if (o.kind === "choice") out[o.name] = input.value;
      else if (o.kind === "optional_int" && !input.played.checked) out[o.name] = null;
      else {
        const n = Number(input.value);
        out[o.name] = input.value.trim() !== "" && Number.isInteger(n) ? n : NaN;
      }
    });
    return out;
  }

  /** Options changed from the base preset (what the server is sent). */
  overrides() {
    const preset = this.presets[this.base];
    const values = this.values();
    const out = {};
    for (const [name, v] of Object.entries(values)) {
      if (v !== preset[name]) out[name] = v;
    }
    return out;
  }

  /** A value the page can tell is wrong before asking (not a whole number, out of bounds). */
  localError() {
    const values = this.values();
    for (const o of this.options) {
      const v = values[o.name];
      if (o.kind !== "int" && !(o.kind === "optional_int" && v !== null)) continue;
      if (Number.isNaN(v) || (o.low !== null && v < o.low) || (o.high !== null && v > o.high)) {
        return { code: "rule_value", option: o.name };
      }
    }
    return null;
  }

  changed() {
    this.clearErrors();
    this.onChange?.();
  }

  matchesPreset(name) {
    const values = this.values();
    return Object.entries(this.presets[name]).every(([k, v]) => values[k] === v);
  }

  clearErrors() {
    this.errors.forEach((e) => { e.classList.add("hidden"); e.textContent = ""; });
    this.inputs.forEach((i) => i.removeAttribute("aria-invalid"));
  }

  showError(option, text) {
    const input = this.inputs.get(option);
    const error = this.errors.get(option);
    if (!input || !error) return false;
    this.box.open = true;
    input.setAttribute("aria-invalid", "true");
    error.textContent = text;
    error.classList.remove("hidden");
    input.focus();
    return true;
  }
}

// -- this browser's tables --------------------------------------------------------------------

function tableLine(info) {
  const me = info.seat;
  const opp = 1 - me;
  const who = info.opponent === "computer" ? t("lobby.vs_computer", { level: info.level })
    : info.joined ? t("lobby.vs_friend", { name: displayName(info.names[opp]) }) : t("lobby.friend_not_joined");
  const rules = info.preset ? t(`preset.${info.preset}`) : t("preset.custom");
  const bits = [rules, t("lobby.score", { me: info.totals[me], opp: info.totals[opp] }),
    t("lobby.hand", { n: info.hand_number }), ago(info.updated_at * 1000)];
  if (info.your_turn) bits.push(t("lobby.your_turn"));
  return { who, rest: bits.join(" · ") };
}

function confirmAbandon(info, onDone) {
  const dialog = el("dialog", "confirm");
  dialog.setAttribute("aria-labelledby", "abandon-title");
  const title = el("h2", "", t("abandon.title"));
  title.id = "abandon-title";
  const name = displayName(info.names[1 - info.seat]);
  const text = info.opponent === "computer" ? t("abandon.computer") : t("abandon.friend", { name });
  const error = el("p", "error hidden");
  error.setAttribute("role", "alert");
  const keep = button(t("abandon.keep"), "primary", () => dialog.close());
  const yes = button(t("abandon.confirm"), "danger", async () => {
    yes.disabled = true;
    try {
      await post(`/api/tables/${info.table}/abandon`, { token: tokenOf(info.table) });
      forget(info.table);
      dialog.close();
      onDone();
    } catch (err) {
      error.textContent = errorText(err);
      error.classList.remove("hidden");
      yes.disabled = false;
    }
  });
  const row = el("div", "dialog-buttons");
  row.append(keep, yes);
  dialog.append(title, el("p", "", text), error, row);
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  keep.focus();
}

function yourTables() {
  const saved = savedTables().filter((s) => !s.finished && tokenOf(s.table));
  const box = el("section", "resume");
  box.setAttribute("aria-labelledby", "your-tables");
  const head = el("h2", "", t("lobby.your_tables"));
  head.id = "your-tables";
  const note = el("p", "note", t("lobby.looking"));
  note.setAttribute("role", "status");
  const list = el("ul");
  box.append(head, note, list);
  if (!saved.length) {
    note.textContent = t("lobby.none");
    return box;
  }
  const seats = saved.map((s) => ({ table: s.table, token: tokenOf(s.table) }));
  myTables(seats).then((out) => {
    let shown = 0;
    out.tables.forEach((info) => {
      if (info.gone || info.status === "abandoned") { forget(info.table); return; }
      if (info.status === "finished") { markFinished(info.table); return; }
      const li = el("li", "saved-table");
      li.dataset.table = info.table;
      const { who, rest } = tableLine(info);
      const text = el("div", "info");
      text.append(el("strong", "", who), el("span", "", rest));
      const name = info.opponent === "computer" ? t("lobby.vs_computer", { level: info.level })
        : displayName(info.names[1 - info.seat]);
      const resume = el("a", "btn primary", t("lobby.resume"));
      resume.href = `/t/${info.table}`;
      resume.setAttribute("aria-label", t("lobby.resume_label", { name }));
      const abandon = button(t("lobby.abandon"), "", () => confirmAbandon(info, () => {
        li.remove();
        if (!list.children.length) {
          note.textContent = t("lobby.none");
          note.classList.remove("hidden");
        }
      }));
      abandon.setAttribute("aria-label", t("lobby.abandon_label", { name }));
      const actions = el("div", "row-buttons");
      actions.append(resume, abandon);
      li.append(text, actions);
      list.append(li);
      shown += 1;
    });
    note.textContent = shown ? "" : t("lobby.none");
    note.classList.toggle("hidden", shown > 0);
  }).catch(() => { note.textContent = t("lobby.unreachable"); });
  return box;
}

// -- the lobby page ---------------------------------------------------------------------------

export function lobbyPage(app, navigate) {
  document.title = t("app.title");
  const page = el("main", "lobby");
  page.append(heroFan(), el("h1", "", t("app.title")), el("p", "tagline", t("app.tagline")));

  const form = el("form", "lobby-form");
  form.noValidate = true;
  const name = el("input");
  name.name = "name";
  name.maxLength = 24;
  name.autocomplete = "nickname";
  name.value = localStorage.getItem("hg.name") || "";
  name.placeholder = t("lobby.name_placeholder");
  form.append(field(t("lobby.name"), name));

  const level = el("div", "levels");
  level.setAttribute("role", "radiogroup");
  level.setAttribute("aria-labelledby", "level-label");
  for (let i = 1; i <= 5; i++) {
    const id = `level-${i}`;
    const radio = el("input");
    radio.type = "radio";
    radio.name = "level";
    radio.id = id;
    radio.value = String(i);
    if (i === 3) radio.checked = true;
    const lab = el("label", "level");
    lab.htmlFor = id;
    lab.append(el("strong", "", String(i)), el("span", "", t(`level.${i}`)));
    level.append(radio, lab);
  }
  const levelField = el("div", "field");
  const levelLabel = el("span", "", t("lobby.level"));
  levelLabel.id = "level-label";
  levelField.append(levelLabel, level);
  form.append(levelField);

  const preset = el("select");
  preset.name = "preset";
  const presetNames = ["hollywood", "hollywood-20", "classic", "eaai"];
  presetNames.forEach((value) => {
    const o = el("option", "", t(`preset.${value}`));
    o.value = value;
    preset.append(o);
  });
  const custom = el("option", "", t("preset.custom"));
  custom.value = "custom";
  custom.disabled = true;
  const rulesField = el("div", "field");
  rulesField.append(field(t("lobby.rules"), preset));
  const readRules = el("a", "read-rules", t("lobby.read_rules"));
  readRules.href = `/rules?preset=hollywood&lang=${language()}`;
  rulesField.append(readRules);
  form.append(rulesField);

  let rulesForm = null;
  const rulesSlot = el("div", "rules-slot");
  form.append(rulesSlot);
  fetch("/api/rules", { headers: { "accept-language": language() } })
    .then((r) => r.json()).then((described) => {
    rulesForm = new RulesForm(described);
    rulesForm.fill(described.presets[preset.value]);
    rulesForm.onChange = () => {
      const same = presetNames.find((n) => rulesForm.matchesPreset(n));
      if (same) { preset.value = same; rulesForm.base = same; custom.remove(); } else {
        if (!custom.parentNode) preset.append(custom);
        preset.value = "custom";
      }
    };
    rulesSlot.append(rulesForm.box);
  }).catch(() => { /* the presets still work without the options */ });
  preset.addEventListener("change", () => {
    if (preset.value === "custom") return;
    readRules.href = `/rules?preset=${encodeURIComponent(preset.value)}&lang=${language()}`;
    custom.remove();
    if (rulesForm) { rulesForm.base = preset.value; rulesForm.fill(rulesForm.presets[preset.value]); }
  });

  const error = el("p", "error hidden");
  error.setAttribute("role", "alert");
  const buttons = el("div", "lobby-buttons");
  const vsComputer = el("button", "btn primary big", t("lobby.play_computer"));
  vsComputer.type = "submit";
  const vsFriend = el("button", "btn big", t("lobby.invite_friend"));
  vsFriend.type = "button";
  buttons.append(vsComputer, vsFriend);
  form.append(buttons, error);

  function showError(err) {
    const text = errorText(err, rulesForm ? rulesForm.options : []);
    if (err.option && rulesForm) rulesForm.showError(err.option, text);
    error.textContent = text;
    error.classList.remove("hidden");
  }

  async function start(opponent) {
    error.classList.add("hidden");
    if (rulesForm) rulesForm.clearErrors();
    const local = rulesForm && rulesForm.localError();
    if (local) { showError(local); return; }
    const chosen = form.querySelector("input[name=level]:checked");
    localStorage.setItem("hg.name", name.value.trim());
    const base = preset.value === "custom" ? (rulesForm ? rulesForm.base : "hollywood")
      : preset.value;
    // No name typed: the server's default, which each player then reads in his language.
    const body = { opponent, preset: base, name: name.value.trim() || null };
    if (rulesForm) {
      const rules = rulesForm.overrides();
      if (Object.keys(rules).length) body.rules = rules;
    }
    if (opponent === "computer") body.level = Number(chosen ? chosen.value : 3);
    try {
      vsComputer.disabled = vsFriend.disabled = true;
      const out = await post("/api/tables", body);
      saveSeat(out.table, out.token, opponent);
      if (out.invite) localStorage.setItem(`hg.invite.${out.table}`, out.invite);
      navigate(`/t/${out.table}`);
    } catch (err) {
      showError(err);
      vsComputer.disabled = vsFriend.disabled = false;
    }
  }
  form.addEventListener("submit", (e) => { e.preventDefault(); start("computer"); });
  vsFriend.addEventListener("click", () => start("friend"));
  // A player coming back wants his tables first; a new one finds the form first.
  if (savedTables().some((s) => !s.finished)) page.append(yourTables(), form);
  else page.append(form);
  const finished = finishedTables(); // their reviews, and the accuracy over time
  if (finished) page.append(finished);
  app.replaceChildren(page);
  name.focus({ preventScroll: true });
}

export function joinPage(app, tableId, navigate) {
  document.title = `${t("join.title")} · ${t("app.title")}`;
  const code = location.hash.slice(1);
  const page = el("main", "lobby");
  page.append(heroFan(), el("h1", "", t("join.title")), el("p", "tagline", t("join.tagline")));
  const form = el("form", "lobby-form");
  const name = el("input");
  name.maxLength = 24;
  name.value = localStorage.getItem("hg.name") || "";
  name.placeholder = t("join.placeholder");
  form.append(field(t("lobby.name"), name));
  const go = el("button", "btn primary big", t("join.button"));
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
        { invite: code, name: name.value.trim() || null });
      saveSeat(out.table, out.token, "friend");
      navigate(`/t/${out.table}`, true);
    } catch (err) {
      if (tokenOf(tableId)) { navigate(`/t/${tableId}`, true); return; }
      error.textContent = errorText(err);
      error.classList.remove("hidden");
      go.disabled = false;
    }
  });
  page.append(form);
  app.replaceChildren(page);
  name.focus();
}
