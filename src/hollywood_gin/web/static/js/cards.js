// Playing cards drawn as SVG strings: no images to fetch, crisp at any size.
// A card is its canonical text: rank letter A23456789TJQK then suit letter s h d c.

import { t } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const SUIT_GLYPH = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RED = "#c3262f";
const BLACK = "#1d1f24";

// Suit shapes in a 100 x 100 box, centred on (50, 50).
const SHAPES = {
  h: '<path d="M50 92 C26 72 6 55 6 33 C6 17 18 6 31 6 C40 6 46 11 50 19 C54 11 60 6 69 6 C82 6 94 17 94 33 C94 55 74 72 50 92 Z"/>',
  d: '<path d="M50 3 C60 20 76 38 90 50 C76 62 60 80 50 97 C40 80 24 62 10 50 C24 38 40 20 50 3 Z"/>',
  s: '<path d="M50 4 C64 24 94 38 94 60 C94 74 84 82 72 82 C64 82 58 78 54 72 C55 82 59 89 68 96 L32 96 C41 89 45 82 46 72 C42 78 36 82 28 82 C16 82 6 74 6 60 C6 38 36 24 50 4 Z"/>',
  c: '<circle cx="50" cy="27" r="21"/><circle cx="27" cy="58" r="21"/><circle cx="73" cy="58" r="21"/>' +
     '<path d="M45 50 L55 50 C55 74 60 86 69 96 L31 96 C40 86 45 74 45 50 Z"/>',
};

// Pip centres on a 100 x 140 card for the number cards.
const PIPS = {
  2: [[50, 32], [50, 108]],
  3: [[50, 32], [50, 70], [50, 108]],
  4: [[31, 32], [69, 32], [31, 108], [69, 108]],
  5: [[31, 32], [69, 32], [50, 70], [31, 108], [69, 108]],
  6: [[31, 32], [69, 32], [31, 70], [69, 70], [31, 108], [69, 108]],
  7: [[31, 32], [69, 32], [50, 51], [31, 70], [69, 70], [31, 108], [69, 108]],
  8: [[31, 32], [69, 32], [50, 51], [31, 70], [69, 70], [50, 89], [31, 108], [69, 108]],
  9: [[31, 30], [69, 30], [31, 57], [69, 57], [50, 70], [31, 83], [69, 83], [31, 110], [69, 110]],
  10: [[31, 30], [69, 30], [50, 44], [31, 57], [69, 57], [31, 83], [69, 83], [50, 96], [31, 110],
    [69, 110]],
};

export function rankOf(card) { return card[0]; }
export function suitOf(card) { return card[1]; }
export function isRed(card) { return card[1] === "h" || card[1] === "d"; }
export function rankLabel(card) { return card[0] === "T" ? "10" : card[0]; }
export function cardValue(card) {
  const r = "A23456789TJQK".indexOf(card[0]) + 1;
  return Math.min(r, 10);
}

/** "7♥" for status lines and buttons. */
export function pretty(card) { return rankLabel(card) + SUIT_GLYPH[card[1]]; }

/** "7 of hearts", for screen readers. */
export function spoken(card) {
  return t("card.spoken", { rank: t(`rank.${card[0]}`), suit: t(`suit.${card[1]}`) });
}

function shape(suit, cx, cy, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${cx - size / 2} ${cy - size / 2}) scale(${s})${rot}">` +
    `${SHAPES[suit]}</g>`;
}

function corner(card, color) {
  const label = rankLabel(card);
  const size = label === "10" ? 17 : 19;
  return `<g fill="${color}">` +
    `<text x="11" y="22" font-size="${size}" text-anchor="middle" font-weight="700" ` +
    `font-family="Georgia, 'DejaVu Serif', serif" letter-spacing="-1">${label}</text>` +
    shape(card[1], 11, 33, 13) + `</g>`;
}

function faceCentre(card, color) {
  const letter = card[0];
  const tint = isRed(card) ? "#fbe9e7" : "#e8edf5";
  return `<rect x="22" y="16" width="56" height="108" rx="6" fill="${tint}" stroke="${color}" ` +
    `stroke-width="1.6"/>` +
    `<rect x="25" y="19" width="50" height="102" rx="4" fill="none" stroke="${color}" ` +
    `stroke-width="0.6" stroke-dasharray="2 2"/>` +
    `<g fill="${color}">${shape(card[1], 50, 38, 22)}` +
    `<text x="50" y="88" font-size="44" text-anchor="middle" font-weight="700" ` +
    `font-family="Georgia, 'DejaVu Serif', serif">${letter}</text>` +
    `${shape(card[1], 50, 106, 14, true)}</g>`;
}

function pipsCentre(card, color) {
  const rank = card[0] === "T" ? 10 : Number(card[0]);
  const size = rank >= 9 ? 17 : 19;
  return `<g fill="${color}">` + PIPS[rank].map(([x, y]) => shape(card[1], x, y, size, y > 72))
    .join("") + `</g>`;
}

/** The SVG markup of a card's face. */
export function faceSVG(card) {
  const color = isRed(card) ? RED : BLACK;
  let centre;
  if (card[0] === "A") {
    centre = `<g fill="${color}">${shape(card[1], 50, 70, card[1] === "s" ? 52 : 42)}</g>`;
  } else if ("JQK".includes(card[0])) {
    centre = faceCentre(card, color);
  } else {
    centre = pipsCentre(card, color);
  }
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="card-svg" aria-hidden="true">` +
    `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="#fffdf8" ` +
    `stroke="#b9b3a6" stroke-width="1.5"/>` + corner(card, color) +
    `<g transform="rotate(180 50 70)">${corner(card, color)}</g>` + centre + `</svg>`;
}

/** The SVG markup of a card's back. */
export function backSVG() {
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 100 140" class="card-svg" aria-hidden="true">` +
    `<defs><pattern id="hg-lattice" width="10" height="10" patternUnits="userSpaceOnUse" ` +
    `patternTransform="rotate(45)"><rect width="10" height="10" fill="#1d3a6e"/>` +
    `<path d="M0 5 H10 M5 0 V10" stroke="#c9a54a" stroke-width="1.1" opacity="0.75"/></pattern>` +
    `</defs>` +
    `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="#fffdf8" ` +
    `stroke="#b9b3a6" stroke-width="1.5"/>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="url(#hg-lattice)"/>` +
    `<rect x="6" y="6" width="88" height="128" rx="5" fill="none" stroke="#c9a54a" ` +
    `stroke-width="1.5"/>` +
    `<circle cx="50" cy="70" r="17" fill="#1d3a6e" stroke="#c9a54a" stroke-width="1.5"/>` +
    `<text x="50" y="77" font-size="19" text-anchor="middle" fill="#e6c86e" ` +
    `font-family="Georgia, 'DejaVu Serif', serif" font-weight="700">HG</text></svg>`;
}

/** A card element: a <div> (or <button> when interactive) holding its SVG. */
export function cardElement(card, { button = false, back = false, key = null } = {}) {
  const el = document.createElement(button ? "button" : "div");
  el.className = "card" + (back ? " back" : "");
  if (button) el.type = "button";
  if (back) {
    el.innerHTML = backSVG();
    el.setAttribute("aria-label", t("card.back"));
  } else {
    el.innerHTML = faceSVG(card);
    el.dataset.card = card;
    el.setAttribute("aria-label", spoken(card));
    if (!button) el.setAttribute("role", "img");
  }
  el.dataset.key = key || card || "back";
  return el;
}
