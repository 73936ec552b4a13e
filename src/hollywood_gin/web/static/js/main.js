// Pages: the lobby (/), joining a friend's table (/join/ID#CODE), the table (/t/ID), and the
// review of a finished match (/review/ID).
// Seat tokens live in this browser's localStorage only, never in a URL the server sees.

import { languageSwitcher, startLanguage, useLanguage } from "./i18n.js";
import { joinPage, lobbyPage } from "./lobby.js";
import { reviewPage } from "./review.js";
import { tokenOf } from "./seats.js";
import { TableView } from "./table.js";

const app = document.getElementById("app");
let current = null;

function navigate(path, replace = false) {
  if (replace) history.replaceState({}, "", path); else history.pushState({}, "", path);
  route();
}

function route() {
  if (current) { current.close(); current = null; }
  const path = location.pathname;
  let m = path.match(/^\/t\/([0-9a-f]{32})$/);
  if (m) {
    current = new TableView(app, m[1], tokenOf(m[1]) || "x".repeat(16), navigate);
  } else if ((m = path.match(/^\/review\/([0-9a-f]{32})$/))) {
    current = reviewPage(app, m[1], tokenOf(m[1]));
  } else if ((m = path.match(/^\/join\/([0-9a-f]{32})$/))) {
    joinPage(app, m[1], navigate);
  } else {
    lobbyPage(app, navigate);
  }
  placeSwitcher();
}

/** The language list on every view: in the view's top bar if it has one, else in the corner.
 * A choice draws the view again in that language (a table reconnects, saying it in hello). */
function placeSwitcher() {
  document.querySelectorAll(".lang-switch").forEach((node) => node.remove());
  const switcher = languageSwitcher(() => route());
  const bar = app.querySelector(".topbar");
  if (bar) {
    bar.append(switcher);
  } else {
    switcher.classList.add("corner");
    document.body.append(switcher);
  }
}

window.addEventListener("popstate", route);
useLanguage(startLanguage()).then(route);
