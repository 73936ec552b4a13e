// Small DOM helpers shared by the pages.

import { language } from "./i18n.js";

/** A new element with a class and text. */
export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A button; `key` is its keyboard shortcut, shown and announced (aria-keyshortcuts). */
export function button(label, cls, onClick, key) {
  const b = el("button", "btn " + (cls || ""), label);
  b.type = "button";
  b.addEventListener("click", onClick);
  if (key) {
    const hint = el("kbd", "", key);
    hint.setAttribute("aria-hidden", "true");
    b.append(hint);
    b.setAttribute("aria-keyshortcuts", key);
  }
  return b;
}

/** Text only screen readers read (in the accessibility tree, off the screen). */
export function srOnly(tag, text) {
  return el(tag, "sr-only", text);
}

/** POST JSON to the server; a refusal throws an Error carrying the server's code. */
export async function post(url, body) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "accept-language": language() },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.code = data.code || "http";
    err.option = data.option || null;
    err.status = res.status;
    err.retryAfter = Number(res.headers.get("retry-after")) || null;
    throw err;
  }
  return data;
}
