// Keeping the keyboard's place on the table. Every state frame redraws the stock, the pile,
// the hand and the buttons, and a redrawn control is a new element: without this the focus
// fell to <body> after every move, and a keyboard or screen-reader player had to Tab back
// through the page to play on.

/** What the focus is on, in the table's own terms, before a redraw: "stock", "pile",
 * "card:7h", "button:D" (by its shortcut), "lost" (on <body>: a redraw or a closed dialog
 * took it), or null when it is elsewhere on the page (the sheet, the log, the language menu),
 * where it is left alone. */
export function focusPlace(view) {
  const now = document.activeElement;
  if (!now || now === document.body) return "lost";
  if (view.overlay.contains(now)) return "overlay";
  if (!view.felt.contains(now)) return null;
  if (now === view.stockEl) return "stock";
  if (now === view.pileEl) return "pile";
  if (now.dataset && now.dataset.card && view.meSeat.contains(now)) {
    return `card:${now.dataset.card}`;
  }
  const key = now.getAttribute && now.getAttribute("aria-keyshortcuts");
  return key ? `button:${key}` : null;
}

/** Put the focus back after a redraw: on the same control if it is still there, else on
 * what the player does next (after a draw the card drawn, when a draw is due the stock,
 * after a discard a neighbouring card). A dialog over the table keeps its own focus. */
export function restoreFocus(view, place, handBefore) {
  if (place === null || !view.overlay.classList.contains("hidden")) return;
  if (place === "overlay") { // the panel that had the focus is gone: as if it were lost
    if (document.activeElement && document.activeElement !== document.body) return;
    place = "lost";
  }
  if (place === "lost" && document.activeElement && document.activeElement !== document.body) {
    return;
  }
  const target = sameControl(view, place) || nextControl(view, place, handBefore);
  if (target && target !== document.activeElement) target.focus({ preventScroll: true });
}

function handCards(view) {
  return [...view.meSeat.querySelectorAll(".hand .card")];
}

function sameControl(view, place) {
  const h = view.state.hand;
  const mine = view.myTurn();
  if (place === "stock" || place === "pile") {
    // Having drawn, the player's next move is in the hand: the card drawn.
    if (mine && h.phase === "discard") return null;
    return place === "stock" ? view.stockEl : view.pileEl;
  }
  if (place.startsWith("card:")) {
    return view.meSeat.querySelector(`.hand [data-card="${place.slice(5)}"]`);
  }
  if (place.startsWith("button:")) {
    const key = place.slice(7);
    return [...view.meSeat.querySelectorAll(".actions button")]
      .find((b) => b.getAttribute("aria-keyshortcuts") === key && !b.disabled) || null;
  }
  return null;
}

function nextControl(view, place, handBefore) {
  const h = view.state.hand;
  const cards = handCards(view);
  if (view.myTurn() && (h.phase === "draw" || h.phase === "offer")) {
    return h.phase === "draw" ? view.stockEl : view.meSeat.querySelector(".actions button");
  }
  if (view.myTurn() && h.phase === "discard") {
    const fresh = cards.find((c) => !handBefore.includes(c.dataset.card));
    return fresh || cards[0] || null;
  }
  if (place.startsWith("card:")) { // the card was thrown: its neighbour in the hand
    const gone = handBefore.indexOf(place.slice(5));
    return cards[Math.min(Math.max(gone, 0), cards.length - 1)] || view.stockEl;
  }
  return cards[0] || view.stockEl;
}
