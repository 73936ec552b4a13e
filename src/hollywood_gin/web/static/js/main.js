// Pages: the lobby (/), joining a friend's table (/join/ID#CODE), the table (/t/ID), and the
// review of a finished match (/review/ID).
// Seat tokens live in this browser's localStorage only, never in a URL the server sees.

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
    return;
  }
  m = path.match(/^\/review\/([0-9a-f]{32})$/);
  if (m) { current = reviewPage(app, m[1], tokenOf(m[1])); return; }
  m = path.match(/^\/join\/([0-9a-f]{32})$/);
  if (m) { joinPage(app, m[1], navigate); return; }
  lobbyPage(app, navigate);
}

window.addEventListener("popstate", route);
route();
