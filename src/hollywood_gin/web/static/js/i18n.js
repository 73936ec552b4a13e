// Every word the page shows a player, keyed by id, so that a translation is one more table.
// t("key", {name: "Bob"}) fills {placeholders}; a message with plural forms is an object
// ({one, other, ...}, chosen by Intl.PluralRules from params.n). Server errors arrive as
// codes; the words for them are here too.

const EN = {
  "app.title": "Hollywood Gin",
  "app.tagline": "Gin rummy with three games scored at once.",
  "app.lobby_link": "Hollywood Gin: back to the lobby",
  // Translators: the label of the language list on every page (read by screen readers,
  // and shown beside the list on a wide screen).
  "lang.label": "Language",
  // Translators: the names the server gives a player who typed none, shown to the other
  // player: the computer, the friend who was invited, the one who invited.
  "name.computer": "Computer",
  "name.friend": "Friend",
  "name.player": "Player",
  // Translators: joining a list where the browser cannot (Lao and Hausa): "{a} and {b}"
  // ends it ("7♥, 8♥ and 9♥"), "{a}, {b}" goes before; {a} may be a list already.
  "list.and": "{a} and {b}",
  "list.comma": "{a}, {b}",
  // Translators: how long ago a table was played, where the browser cannot say it (Lao and
  // Hausa); {n} is a whole number.
  "ago.now": "just now",
  "ago.second": { one: "{n} second ago", other: "{n} seconds ago" },
  "ago.minute": { one: "{n} minute ago", other: "{n} minutes ago" },
  "ago.hour": { one: "{n} hour ago", other: "{n} hours ago" },
  "ago.day": { one: "{n} day ago", other: "{n} days ago" },
  "ago.week": { one: "{n} week ago", other: "{n} weeks ago" },
  "ago.month": { one: "{n} month ago", other: "{n} months ago" },
  "ago.year": { one: "{n} year ago", other: "{n} years ago" },

  // -- lobby ----------------------------------------------------------------------------
  "lobby.name": "Your name",
  "lobby.name_placeholder": "You",
  "lobby.level": "Computer level",
  "level.1": "Beginner",
  "level.2": "Casual",
  "level.3": "Solid",
  "level.4": "Strong",
  "level.5": "Expert",
  "lobby.rules": "Rules",
  "lobby.custom": "Change the rules",
  "lobby.custom_hint": "Every option of the rule book; a preset fills them in.",
  "lobby.read_rules": "Read the rules",
  "lobby.play_computer": "Play the computer",
  "lobby.invite_friend": "Invite a friend",
  "lobby.your_tables": "Your unfinished tables",
  "lobby.looking": "Looking up your tables…",
  "lobby.unreachable": "The server cannot be reached to list your tables.",
  "lobby.none": "No unfinished tables in this browser.",
  "lobby.vs_computer": "Computer, level {level}",
  "lobby.vs_friend": "{name}",
  "lobby.friend_not_joined": "Friend not joined yet",
  "lobby.score": "{me} to {opp}",
  "lobby.hand": "hand {n}",
  "lobby.your_turn": "your turn",
  "lobby.resume": "Resume",
  "lobby.resume_label": "Resume the match against {name}",
  "lobby.abandon": "Abandon…",
  "lobby.abandon_label": "Abandon the match against {name}…",
  "preset.hollywood": "Hollywood (three games to 100)",
  "preset.hollywood-20": "Hollywood, gin bonus 20",
  "preset.classic": "Classic (one game to 100)",
  "preset.eaai": "EAAI challenge rules",
  "preset.custom": "Custom rules",

  "abandon.title": "Abandon this match?",
  "abandon.computer": "Abandon your match against the computer? It ends for good: it cannot be resumed.",
  "abandon.friend": "Abandon your match against {name}? It ends for both of you: it cannot be resumed.",
  "abandon.confirm": "Abandon the match",
  "abandon.keep": "Keep it",

  "join.title": "You are invited",
  "join.tagline": "A friend has dealt you in to a game of Hollywood Gin.",
  "join.placeholder": "Friend",
  "join.button": "Join the table",

  // -- rule options: their labels come from the server (hollywood_gin.rules.OPTIONS) ------
  "rule.big_gin_bonus.played": "Big gin is played",
  "choice.next_dealer.winner": "the hand's winner",
  "choice.next_dealer.alternate": "each player in turn",
  "choice.next_dealer.loser": "the hand's loser",
  "choice.entry_rule.traditional": "traditional",
  "choice.entry_rule.by_count": "by the count of wins",
  "rule.range": "a whole number from {low} to {high}",
  "rule.from": "a whole number, {low} or more",

  // -- errors of the server, by code ------------------------------------------------------
  "error.origin": "This page may not make tables on this server.",
  "error.too_large": "The request was too large for the server.",
  "error.bad_json": "The server did not understand the page: reload it.",
  "error.unknown_field": "The server did not understand the page: reload it.",
  "error.opponent": "Choose the computer or a friend.",
  "error.level": "Choose a computer level from 1 to 5.",
  "error.preset": "Choose one of the rule presets.",
  "error.name": "That name cannot be used.",
  "error.rule_unknown": "This server does not know one of the rule options: reload the page.",
  "error.rule_value": "{option}: choose {range}.",
  "error.rules_plain": "These rules cannot be played together.",
  "error.rate": "You have made many tables just now: try again in {seconds} seconds.",
  "error.no_table": "There is no such table.",
  "error.invite": "This invite link does not open the table: ask your friend for a new one.",
  "error.seat_taken": "Someone has taken the friend's seat at this table already.",
  "error.token": "This browser holds no seat at that table.",
  "error.finished": "That match is over already.",
  "error.unavailable": "The computer player cannot start on this server.",
  "error.network": "The server cannot be reached: check the connection and try again.",
  "error.http": "The server refused the request.",

  "ws.not_your_turn": "It is not your turn.",
  "ws.illegal": "That move is not allowed now.",
  "ws.stale": "The table had moved on: here it is as it is now.",
  "ws.waiting": "Your friend has not joined yet.",
  "ws.conflict": "The table was changed elsewhere: here it is as saved.",
  "ws.server": "The server could not save that: try again.",
  "ws.rate": "Too many clicks at once: slow down a little.",
  "ws.abandoned": "This match was abandoned.",
  "ws.other": "The server did not understand the page: reload it.",

  // -- the table --------------------------------------------------------------------------
  "table.felt": "card table",
  "conn.connecting": "connecting…",
  "conn.online": "online",
  "conn.offline": "connection lost: reconnecting…",
  "offline.banner": "Connection lost. Reconnecting… Nothing can be played until the table is back.",
  "fatal.title": "You have no seat at this table",
  "fatal.auth": "This browser holds no seat at this table, or the link is wrong.",
  "fatal.refused": "This browser may not open that table.",
  "fatal.back": "Back to the lobby",
  "keys.help": "Keys: ← → choose a card · Enter discard · D draw · U take the discard · P pass · K knock · G gin · N next hand · V review the hand · W review the match",

  "seat.dealer": "dealer",
  "seat.dealer_chip": "D",
  "seat.level": "level {level}",
  "seat.away": "away",
  "seat.you": "{name} (you)",
  "opp.hand": {
    one: "{name} holds 1 card",
    other: "{name} holds {n} cards",
  },
  "opp.known": "{list} among them (taken from the discard pile)",
  "opp.known_title": "taken from the discard pile",

  "card.spoken": "{rank} of {suit}",
  "card.back": "a face-down card",
  "rank.A": "ace", "rank.2": "2", "rank.3": "3", "rank.4": "4", "rank.5": "5", "rank.6": "6",
  "rank.7": "7", "rank.8": "8", "rank.9": "9", "rank.T": "10", "rank.J": "jack",
  "rank.Q": "queen", "rank.K": "king",
  "suit.s": "spades", "suit.h": "hearts", "suit.d": "diamonds", "suit.c": "clubs",

  "stock.label": {
    one: "stock, 1 card",
    other: "stock, {n} cards",
  },
  "stock.can": "{label}: press to draw",
  "pile.label": "discard pile, {card} on top",
  "pile.can": "{label}: press to take it",
  "pile.empty": "discard pile, empty",
  "pile.empty_text": "discard pile",

  "status.waiting_join": "Waiting for your friend to join…",
  "status.hand_over": "The hand is over.",
  "status.match_over": "The match is over.",
  "status.thinking": "{name} is thinking…",
  "status.their_turn": "{name}'s turn…",
  "status.away": "{name}'s turn, but {name} has left the table: the game waits for them.",
  "status.offer": "Your turn: take the {card} or pass.",
  "status.draw_or_pick": "Your turn: draw from the stock or take the {card}.",
  "status.draw": "Your turn: draw from the stock.",
  "status.discard": "Discard a card: click it twice, or drag it to the pile.",
  "status.offline": "Reconnecting… the table waits for the connection.",
  "status.abandoned": "This match was abandoned.",

  "hand.label": "your hand",
  "group.set": "set",
  "group.run": "run",
  "group.deadwood": "deadwood {n}",
  "card.taken": "taken",
  "card.taken_title": "taken from the pile: it cannot go back this turn",
  "dw.deadwood": "deadwood",
  "dw.after": "after {card}",
  "dw.limit": "knock at ≤ {n}",
  "dw.gin_only": "gin only",

  "btn.take": "Take {card}",
  "btn.pass": "Pass",
  "btn.draw": "Draw",
  "btn.discard": "Discard",
  "btn.discard_card": "Discard {card}",
  "btn.gin": "Gin · lay down {card}",
  "btn.knock": "Knock · lay down {card}",
  "btn.big_gin": "Big gin!",
  // Translators: the button (key H) that asks the computer what to do now, at a table
  // against the computer; then the status line: {action} is a button's words ("Discard
  // 7♥"), {why} the computer's reason, already in the page's language.
  "btn.hint": "Hint",
  "hint.thinking": "Thinking about a hint…",
  "hint.says": "Hint: {action} — {why}",
  "hint.error.not_your_turn": "A hint is given on your turn.",
  "hint.error.friend": "Hints are given at tables against the computer.",
  "hint.error.other": "No hint just now: try again.",
  "btn.next": "Next hand",
  "btn.rematch": "Rematch",
  "btn.accept_rematch": "Accept the rematch",
  "btn.new_match": "New match",
  "btn.to_rematch": "Go to the rematch",
  "btn.copy": "Copy link",
  "btn.copied": "Copied",
  "btn.lobby": "Back to the lobby",

  // -- the log of moves (past tense: the same words for "You" and a name) ------------------
  "log.title": "Moves · hand {n}",
  "log.new_deal": "New deal.",
  // Translators: under the move log, the whole discard pile (public, R4.4), bottom to top;
  // {cards} are the cards ("5♠ 7♥ J♦"), {n} how many.
  "log.pile": { one: "Discard pile, bottom to top ({n} card): {cards}",
    other: "Discard pile, bottom to top ({n} cards): {cards}" },
  "log.pile_empty": "The discard pile is empty.",
  "log.you": "You",
  "log.pass": "{who} passed on the upcard {card}",
  "log.pass_plain": "{who} passed on the upcard",
  "log.take": "{who} took the upcard {card}",
  "log.take_plain": "{who} took the upcard",
  "log.draw": "{who} drew from the stock",
  "log.pick": "{who} took {card} from the discard pile",
  "log.pick_plain": "{who} took the top discard",
  "log.discard": "{who} discarded {card}",
  "log.knock": "{who} knocked, laying {card} face down",
  "log.big_gin": "{who} went big gin",
  "log.last": "Last move: {move}",

  // -- the end of a hand and of the match -------------------------------------------------
  "result.knock": "Knock!",
  "result.undercut": "Undercut!",
  "result.gin": "Gin!",
  "result.big_gin": "Big gin!",
  "result.dead": "Dead hand: nobody scores",
  "result.you_win": {
    one: "You win 1 point",
    other: "You win {n} points",
  },
  "result.they_win": {
    one: "{name} wins 1 point",
    other: "{name} wins {n} points",
  },
  "explain.knock.you": "You knocked with less deadwood than {opp}: you score the difference, {detail}.",
  "explain.knock.other": "{name} knocked with less deadwood than you: {name} scores the difference, {detail}.",
  "explain.undercut.you": "{opp} knocked, but your deadwood was as low or lower: you score the undercut bonus plus the difference, {detail}.",
  "explain.undercut.other": "You knocked, but {name}'s deadwood was as low or lower: {name} scores the undercut bonus plus the difference, {detail}.",
  "explain.gin.you": "You went gin, no deadwood at all: you score the gin bonus plus {opp}'s deadwood, {detail}.",
  "explain.gin.other": "{name} went gin, no deadwood at all: {name} scores the gin bonus plus your deadwood, {detail}.",
  "explain.big_gin.you": "You melded all eleven cards: you score the big gin bonus plus {opp}'s deadwood, {detail}.",
  "explain.big_gin.other": "{name} melded all eleven cards: {name} scores the big gin bonus plus your deadwood, {detail}.",
  "explain.dead": {
    one: "The stock was down to 1 card: the hand is dead and nobody scores.",
    other: "The stock was down to {n} cards: the hand is dead and nobody scores.",
  },
  "explain.points": {
    one: "1 point",
    other: "{n} points",
  },
  "layout.knocked": "knocked",
  "layout.defended": "defended",
  "layout.deadwood": "deadwood {n}",
  "layout.laid_off": "laid off",
  "layout.deadwood_group": "deadwood",
  "layout.laid_on": "laid off on {cards}",
  "layout.melds": "melds",
  "result.game": "game {n}",
  "result.entered": {
    one: "1 point entered in {games}.",
    other: "{n} points entered in {games}.",
  },
  "result.enters_none": {
    one: "1 point enters no game: the games it would enter have closed.",
    other: "{n} points enter no game: the games it would enter have closed.",
  },
  "result.closes": "It closes {games}!",
  "result.waiting": "Waiting for {name}…",
  "result.they_wait": "{name} is ready for the next hand.",
  "match.won": "You win the match!",
  "match.lost": "{name} wins the match",
  "match.drawn": "The match is drawn",
  "match.summary": "Games {mine} to {theirs} · totals {me} to {opp}",
  "match.result": "Result: {value}",
  "rematch.asked": "Waiting for {name} to accept the rematch…",
  "rematch.offered": "{name} wants a rematch.",
  "abandoned.title": "Match abandoned",
  "abandoned.you": "You abandoned this match.",
  "abandoned.other": "{name} abandoned this match.",
  "invite.title": "Invite a friend",
  "invite.text": "Send this link to the friend you want to play. It opens the other seat once; the game starts as soon as they join.",
  "invite.link": "invite link",
  "invite.elsewhere": "The invite link was shown in the browser that created the table.",
  "announce.label": "What happens at the table",
  "announce.result": "The hand is over. {title}. {explain}",
  "announce.joined": "{name} has joined the table.",
  "announce.next": "Hand {n} is dealt.",
  "announce.drew": "You drew {card}.",

  // -- the scoresheet ---------------------------------------------------------------------
  "sheet.hollywood": "Hollywood scoresheet",
  "sheet.plain": "Scoresheet",
  "sheet.games": "Games {me} to {opp}",
  "sheet.game": "Game {n}",
  "sheet.total": "Total",
  "sheet.player": "Player",
  "sheet.you": "You",
  "sheet.you_lower": "you",
  "sheet.won": "won by {who}",
  "sheet.shutout": "won by {who}, a shutout",
  "sheet.won_short": "won",
  "sheet.shutout_short": "shutout",
  "sheet.boxes": {
    one: "1 box",
    other: "{n} boxes",
  },
  "sheet.note": "Each game to {target}; totals include bonuses.",
  "sheet.over": "Match over",
  "sheet.rules": "Rules in force",
  "sheet.rule_book": "The rule book for these rules",

  // -- the game review ----------------------------------------------------------------------
  "rv.title_hand": "Review of hand {n}",
  "rv.title_match": "Review of your match",
  "rv.page_title": "Game review",
  "rv.reviewing": "Reviewing your decisions…",
  "rv.reviewing_hand": "Reviewing hand {n} of {total}…",
  "rv.progress_label": "hands reviewed",
  "rv.waiting": "Your decisions are being reviewed.",
  "rv.none": "No decision to review: every turn had a single legal action.",
  "rv.accuracy": "accuracy {n} of 100",
  "rv.lost": "{n} expected points lost",
  "rv.decisions": {
    one: "1 decision",
    other: "{n} decisions",
  },
  "rv.bad": {
    one: "1 mistake or blunder",
    other: "{n} mistakes or blunders",
  },
  "rv.hands_done": "{n} of {total} hands reviewed",
  "rv.no_mistake": "no inaccuracy, mistake or blunder",
  "rv.previous": "Previous",
  "rv.next": "Next",
  "rv.next_mistake": "Next mistake",
  "rv.back": "Back",
  "rv.try_again": "Try again",
  "rv.moves_label": "moves of the hand; your decisions can be chosen",
  "rv.table_label": "the table as it was at this decision",
  "rv.hand_head": "Hand {n}",
  "rv.line": "Decision {n}, hand {hand}: {choice}, {grade}, {loss} points lost",
  "rv.upcard": "upcard offered",
  "rv.pile_top": "top of the pile",
  "rv.your_cards": "your cards, deadwood {n}",
  "rv.drawn": "just drawn",
  "rv.thrown": "the card you threw",
  "rv.better_card": "the better card to throw",
  "rv.decision_title": "Decision {n} of {total} · hand {hand} · {kind}",
  "rv.kind.upcard": "the upcard",
  "rv.kind.draw": "the draw",
  "rv.kind.discard": "the discard",
  "rv.kind.knock": "knock or play on",
  "rv.kind.gin": "gin or play on",
  "rv.you_chose": "You chose:",
  "rv.better": "Better:",
  "rv.loss": "You lost {n} expected points (95%: {low} to {high}).",
  "rv.held_out": "Your loss is less than the gap in points: each choice is held against a best picked on other deals, so the review's own luck is not charged to you.",
  "rv.was_best": "That was the best choice found.",
  "rv.as_good": "The best found was to {best}; yours did as well on these deals.",
  "rv.within_chance": "The best found was to {best}; its lead over yours is within chance on these deals.",
  "rv.equity": "On the score sheet the best is to {action}.",
  "rv.choices_caption": "Every choice with its expected points for you and what it loses against the best",
  "rv.col.choice": "choice",
  "rv.col.points": "points",
  "rv.col.loss": "loss",
  "rv.more": {
    one: "and 1 more choice",
    other: "and {n} more choices",
  },
  "rv.hindsight": "Hindsight (not used for the grade):",
  "rv.held": "{name} held {cards};",
  "rv.real_best": "on the real cards your choice scores {mine}.",
  "rv.real_worked": "on the real cards your choice scores {mine}, the better one {best}: it worked out.",
  "rv.real_failed": "on the real cards your choice scores {mine}, the better one {best}: it did not work out.",
  "rv.grade.best": "best",
  "rv.grade.good": "good",
  "rv.grade.inaccuracy": "inaccuracy",
  "rv.grade.mistake": "mistake",
  "rv.grade.blunder": "blunder",
  "rv.act.pass": "pass the upcard",
  "rv.act.take": "take the upcard",
  "rv.act.draw": "draw from the stock",
  "rv.act.pick": "take the discard",
  "rv.act.discard": "discard {card}",
  "rv.act.knock": "knock, laying {card} face down",
  "rv.act.gin": "go gin, laying {card} face down",
  "rv.act.big_gin": "go big gin",
  "rv.chart_title": "Expected points lost per decision",
  "rv.chart_desc": "{n} decisions. The largest loss is {most} points, at decision {at} (hand {hand}). Inaccuracies: {inaccuracies}, mistakes: {mistakes}, blunders: {blunders}.",
  "rv.chart_caption": "Expected points lost per decision; the lines mark an inaccuracy (1), a mistake (3) and a blunder (8). Click a bar to see that decision.",
  "rv.chart_hand": "H{n}",
  "rv.note": "?! marks an inaccuracy, ? a mistake, ?? a blunder. A loss is in expected points against the best choice found, both players then playing on as the expert's playouts do; the verdict never looks at the opponent's hidden cards.",
  "rv.error.not_over": "That hand is not over yet: only finished hands are reviewed.",
  "rv.error.token": "This browser holds no seat at this table.",
  "rv.error.no_table": "There is no such table.",
  "rv.error.other": "The review could not be made just now.",
  "rv.no_seat": "This browser holds no seat at this table, so it cannot show its review.",
  "rv.not_finished": "This match is not over yet. Each hand can be reviewed at the table when it ends; the whole match here once it is over.",
  "rv.to_table": "Go to the table",
  "btn.review_hand": "Review this hand",
  "btn.review_match": "Review the match",
  "lobby.finished": "Your finished matches",
  "lobby.accuracy_title": "Your accuracy over time",
  "lobby.accuracy_desc": "Accuracy of your decisions in each reviewed match, 0 to 100, oldest first.",
  "lobby.accuracy_point": "{when}: {name}, accuracy {n}",
  "lobby.accuracy": "accuracy {n}",
  "lobby.not_reviewed": "not reviewed yet",
  "lobby.review": "Review",
  "lobby.review_label": "Review the match against {name}",
  "lobby.friends": "friends",
};

/** The languages offered, each in its own name (i18n.LANGUAGES in Python: a test checks). */
export const LANGUAGES = {
  en: "English", af: "Afrikaans", lt: "Lietuvių", nb: "Norsk bokmål", lo: "ລາວ", ha: "Hausa",
};
const PSEUDO = "qps"; // the tests' pseudo-locale: never offered, accepted when asked for
const STORE_KEY = "hg.lang";

let LANG = "en";
let decimalMark = ".";
let plurals = new Intl.PluralRules("en");
let catalogue = EN;

/** The language the page speaks now. */
export function language() {
  return LANG;
}

/** The language to start in: the one chosen in this browser, else the page's (the server set
 * <html lang> from Accept-Language or ?lang=). */
export function startLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  const saved = localStorage.getItem(STORE_KEY);
  for (const lang of [asked, saved, document.documentElement.lang]) {
    if (lang && (lang in LANGUAGES || lang === PSEUDO)) return lang;
  }
  return "en";
}

/** Speak `lang` from now on: its catalogue fetched from the server (the same .po files as
 * Python), <html lang> set (it picks the font and the line breaker), Intl formatting in it.
 * A catalogue that cannot be fetched leaves the English. */
export async function useLanguage(lang) {
  if (!(lang in LANGUAGES) && lang !== PSEUDO) lang = "en";
  let messages = {};
  let mark = ".";
  if (lang !== "en") {
    try {
      const res = await fetch(`/i18n/${lang}.json`);
      if (res.ok) {
        const data = await res.json();
        messages = data.messages || {};
        mark = data.decimal_mark || ".";
      }
    } catch {
      messages = {};
    }
  }
  decimalMark = mark;
  LANG = lang;
  plurals = new Intl.PluralRules(intlLocale(lang));
  setCatalogue(messages);
  document.documentElement.lang = lang;
  return lang;
}

/** `x` with `digits` decimals, in the language's own decimal mark ("9,8" in Lithuanian, as
 * the terminal writes it): the server's catalogue names the mark (i18n.DECIMAL_MARKS),
 * since the browser's Intl may not know the language (Chromium has no Lao numbers). */
export function decimal(x, digits = 1) {
  return Number(x).toFixed(digits).replace(".", decimalMark);
}

/** Keep `lang` as this browser's choice (every page, every table, next time too). */
export function saveLanguage(lang) {
  localStorage.setItem(STORE_KEY, lang);
}

/** Intl's locale for a language's plurals: the pseudo-locale counts as English. */
function intlLocale(lang) {
  return lang === PSEUDO ? "en" : lang;
}

/** Use a translated catalogue (missing keys fall back to English). */
export function setCatalogue(messages) {
  catalogue = { ...EN, ...messages };
}

/** Whether a message exists (rule options the page does not know yet get their name). */
export function has(key) {
  return key in catalogue;
}

/** The message `key` with its {placeholders} filled from `params`. */
export function t(key, params = {}) {
  let msg = catalogue[key];
  if (msg === undefined) return key;
  if (typeof msg === "object") {
    msg = msg[plurals.select(Number(params.n))] ?? msg.other;
  }
  return msg.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** A player's name as shown: the server's names for a player who typed none are words. */
export function displayName(name) {
  const words = { Computer: "name.computer", Friend: "name.friend", You: "name.player" };
  return name in words ? t(words[name]) : name;
}

/** The language list shown on every page; choosing one saves it and calls `changed(lang)`
 * once its catalogue is in (the page then draws itself again). */
export function languageSwitcher(changed) {
  const label = document.createElement("label");
  label.className = "lang-switch";
  const words = document.createElement("span");
  words.className = "lang-label";
  words.textContent = t("lang.label");
  const select = document.createElement("select");
  select.setAttribute("aria-label", t("lang.label"));
  const codes = LANG === PSEUDO ? [...Object.keys(LANGUAGES), PSEUDO] : Object.keys(LANGUAGES);
  for (const code of codes) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = LANGUAGES[code] || code;
    select.append(option);
  }
  select.value = LANG;
  select.addEventListener("change", async () => {
    const lang = await useLanguage(select.value);
    saveLanguage(lang);
    changed(lang);
  });
  label.append(words, select);
  return label;
}

/** Whether the browser's Intl writes lists and times in `lang` itself (Chromium has no Lao
 * or Hausa for them and would write English): else the page's own words below. */
function intlSpeaks(kind, lang) {
  if (lang === PSEUDO) return false;
  try {
    return kind.supportedLocalesOf([lang]).length > 0;
  } catch {
    return false;
  }
}

/** "a, b and c" in the page's language. */
export function list(items) {
  if (intlSpeaks(Intl.ListFormat, LANG)) {
    return new Intl.ListFormat(LANG, { style: "long", type: "conjunction" }).format(items);
  }
  if (items.length < 2) return items.join("");
  let head = items[0];
  for (const item of items.slice(1, -1)) head = t("list.comma", { a: head, b: item });
  return t("list.and", { a: head, b: items[items.length - 1] });
}

/** "5 minutes ago" in the page's language. */
export function ago(ms) {
  const s = Math.round((ms - Date.now()) / 1000);
  const steps = [[60, "second"], [3600, "minute"], [86400, "hour"], [604800, "day"],
    [2629800, "week"], [31557600, "month"], [Infinity, "year"]];
  const native = intlSpeaks(Intl.RelativeTimeFormat, LANG)
    ? new Intl.RelativeTimeFormat(LANG, { numeric: "auto" }) : null;
  let unit = 1;
  for (const [limit, name] of steps) {
    if (Math.abs(s) < limit) {
      const n = Math.round(s / unit);
      if (native) return native.format(n, name);
      return n === 0 && name === "second" ? t("ago.now") : t(`ago.${name}`, { n: Math.abs(n) });
    }
    unit = limit;
  }
  return "";
}
