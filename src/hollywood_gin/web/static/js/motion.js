// Moving cards by hand and on their own: drag and drop between the hand, the stock and the
// pile (an intent, like a click), and the short FLIP animations of every draw and discard.

// -- drag and drop -------------------------------------------------------------------------

export function bindDrag(view, node, kind, card) {
  node.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !view.state || !view.myTurn() || !view.canAct()) return;
    const h = view.state.hand;
    if (kind === "hand" && !(h.phase === "discard" && view.legal(`discard ${card}`))) return;
    if (kind === "stock" && !view.legal("draw")) return;
    if (kind === "pile" && !(view.legal("pick") || view.legal("take"))) return;
    const moving = kind === "hand" ? node : node.querySelector(".card:last-of-type");
    if (!moving) return;
    view.drag = { kind, card, node, moving, x: e.clientX, y: e.clientY, started: false,
      id: e.pointerId };
    try { node.setPointerCapture(e.pointerId); } catch { /* the pointer is gone already */ }
  });
  node.addEventListener("pointermove", (e) => {
    const d = view.drag;
    if (!d || d.node !== node || d.id !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.started && Math.hypot(dx, dy) > 8) {
      d.started = true;
      d.moving.classList.add("dragging");
      view.felt.classList.add(kind === "hand" ? "drag-discard" : "drag-draw");
    }
    if (d.started) d.moving.style.translate = `${dx}px ${dy}px`;
  });
  const end = (e) => {
    const d = view.drag;
    if (!d || d.node !== node) return;
    view.drag = null;
    if (!d.started) return;
    d.moving.classList.remove("dragging");
    d.moving.style.translate = "";
    view.felt.classList.remove("drag-discard", "drag-draw");
    view.suppressClick = true;
    setTimeout(() => { view.suppressClick = false; }, 0);
    if (e.type === "pointercancel") return;
    const over = (target) => {
      if (!target) return false;
      const r = target.getBoundingClientRect();
      const pad = 30;
      return e.clientX > r.left - pad && e.clientX < r.right + pad
        && e.clientY > r.top - pad && e.clientY < r.bottom + pad;
    };
    if (d.kind === "hand" && over(view.pileEl)) view.act(`discard ${d.card}`);
    else if (d.kind === "stock" && over(view.handEl)) view.act("draw");
    else if (d.kind === "pile" && over(view.handEl)) { if (!view.act("pick")) view.act("take"); }
  };
  node.addEventListener("pointerup", end);
  node.addEventListener("pointercancel", end);
}


// -- animation (FLIP: first, last, invert, play) -------------------------------------------

export function snapshot(view) {
  const rects = new Map();
  view.felt.querySelectorAll(".seat [data-key], .middle [data-key]").forEach((node) => {
    rects.set(node.dataset.key, node.getBoundingClientRect());
  });
  const box = (node) => (node ? node.getBoundingClientRect() : null);
  return {
    rects,
    stock: box(view.stockEl),
    pile: box(view.pileEl),
    opp: box(view.oppSeat.querySelector(".opp-hand")),
  };
}

export function animate(view, before) {
  const nodes = view.felt.querySelectorAll(".seat [data-key], .middle [data-key]");
  nodes.forEach((node) => {
    const key = node.dataset.key;
    if (key.startsWith("st") || key === "stock-top") return;
    const now = node.getBoundingClientRect();
    let from = before.rects.get(key);
    if (!from) {
      if (node.closest(".hand")) from = before.stock;
      else if (node.closest(".pile")) from = before.opp;
      else if (node.closest(".opp-hand") && key.startsWith("opp-")) from = before.stock;
    }
    if (!from) return;
    const dx = from.left - now.left;
    const dy = from.top - now.top;
    if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return;
    node.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0px 0px" }],
      { duration: 280, easing: "cubic-bezier(.2,.7,.3,1)" });
  });
}
