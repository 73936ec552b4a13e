"""The table as the game screen draws it: the computer's side, stock and pile, the hand,
the prompt, the buttons and the sheet, all from the person's view (R3.4).

At 80x24, the standard terminal, everything fits: cards go flat, texts wrap rather than
being cut, the buttons sit on two rows, and the table column scrolls if a long message
ever needs more room, so no number and no button is ever out of reach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, HorizontalScroll, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static

from ..actions import Discard, DrawStock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card
from ..hand import HandView, Phase
from ..i18n import _, ngettext
from ..melds import best_melds, discard_choices
from .look import (
    GLUE,
    LABEL_MOST,
    Flow,
    action_words,
    card_ink,
    cards_ink,
    glued,
    meld_ink,
    natural_width,
    result_headline,
    sheet_table,
    styled,
)
from .rulewords import rules_name, rules_summary, sheet_title
from .session import COMPUTER, HUMAN, GameSession
from .widgets import ButtonFlow, CardWidget, Worded, cap_height
from .words import gin_allowed, knock_options

if TYPE_CHECKING:
    from .app import GinApp

__all__ = ["AID_BUTTONS", "KEYS", "KEY_NAMES", "NARROW", "PLAY_BUTTONS", "TableScreen",
           "button_label"]

KEYS = "1234567890-"
KEY_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "minus"]
NARROW = 104  # under this many columns the cards go flat and the sidebar narrows
SIDE_WIDE, SIDE_NARROW = 38, 33  # the side panel's width (the CSS's), wide and narrow
TABLE_WIDE, TABLE_NARROW = 72, 47  # what the table needs beside it: eleven cards whole

#: The buttons, in two rows: the play, then the aids.  Labels are translated when shown.
PLAY_BUTTONS = ("take", "pass", "draw", "pick", "discard", "knock", "gin")
AID_BUTTONS = ("hint", "undo", "pile", "help")


def button_label(ident: str) -> str:
    return {
        "take": _("Take upcard (t)"), "pass": _("Pass (x)"), "draw": _("Draw stock (s)"),
        "pick": _("Take discard (t)"), "discard": _("Discard"), "knock": _("Knock (k)"),
        "gin": _("Gin! (g)"), "hint": _("Hint (h)"), "undo": _("Undo (u)"),
        "pile": _("Pile (p)"), "help": _("Help (?)"),
    }[ident]


class TableScreen(Worded, Screen[None]):
    """What the game screen shows and how it is redrawn; the game screen adds the play."""

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    TableScreen #main { height: 1fr; }
    TableScreen #table-col { width: 1fr; }
    TableScreen #table { height: auto; padding: 0 1; scrollbar-size-vertical: 1; }
    TableScreen #side { width: 38; padding: 0 1; border-left: vkey $panel-lighten-2; }
    TableScreen .row { height: 3; }
    TableScreen #hand-row { height: 3; }
    TableScreen #opp-label { height: auto; margin-top: 1; }
    TableScreen #middle { height: 4; margin-top: 1; }
    TableScreen #stock-label { width: 14; padding: 0 1; height: 3; }
    TableScreen #pile-label { width: 1fr; padding: 0 1; height: 3; }
    TableScreen #hand-label { height: auto; margin-top: 1; }
    TableScreen #keys { height: 1; color: $text-muted; }
    TableScreen #melds { height: auto; }
    TableScreen #prompt { height: auto; min-height: 2; margin-top: 1; }
    TableScreen #message { height: auto; min-height: 1; }
    TableScreen #message.-error { color: $error; text-style: bold; }
    TableScreen .buttons { height: auto; padding: 0 1; }
    TableScreen #play-buttons { margin-top: 1; }
    TableScreen .buttons Button { margin-right: 1; min-width: 6; }
    TableScreen #sheet-box { height: auto; scrollbar-size-horizontal: 1; }
    TableScreen #sheet { height: auto; width: auto; }
    TableScreen #rules-line { height: auto; color: $text-muted; }
    TableScreen #info { height: auto; margin-top: 1; color: $text-muted; }
    TableScreen #log-box { height: 1fr; margin-top: 1; scrollbar-size-vertical: 1; }
    TableScreen #log { height: auto; }
    /* a small terminal (under 104 columns): flat one-line cards, a narrower sheet */
    TableScreen.-narrow #side { width: 33; }
    TableScreen.-narrow #table, TableScreen.-narrow .buttons { padding: 0; }
    TableScreen.-narrow #play-buttons { margin-top: 0; }
    TableScreen.-narrow #info { display: none; }
    TableScreen.-narrow #opp-label { margin-top: 0; }
    TableScreen.-narrow .row, TableScreen.-narrow #hand-row { height: 1; }
    TableScreen.-narrow #middle { height: 3; margin-top: 0; }
    TableScreen.-narrow #prompt { margin-top: 0; }
    TableScreen.-narrow CardWidget { width: 3; height: 1; border: none; margin: 0 1 0 0; }
    TableScreen.-narrow CardWidget.-group { margin: 0 1 0 2; }
    TableScreen.-narrow CardWidget.-meld { border: none; background: #dcefdc; }
    TableScreen.-narrow CardWidget.-new { border: none; background: #d6ecfa; }
    TableScreen.-narrow CardWidget.-taken { border: none; background: #ead9f5; }
    TableScreen.-narrow CardWidget.-hinted { border: none; background: #f7d9a0; }
    TableScreen.-narrow CardWidget.-selected { border: none; background: #ffe45c; }
    TableScreen.-narrow CardWidget.-back { border: none; }
    """

    AUTO_HEIGHT: ClassVar[frozenset[str]] = frozenset(
        {"opp-label", "hand-label", "melds", "prompt", "rules-line", "info", "log"})

    def __init__(self) -> None:
        super().__init__()
        self.session: GameSession | None = None
        self.order: list[Card] = []  # the person's cards in the order shown
        self.selected: Card | None = None
        self.hinted: Card | None = None
        self._hint_for: tuple[GameSession, int] | None = None  # a hint being thought out
        self.new_card: Card | None = None
        self.thinking = False
        self._ended_hand = 0  # the hand whose end was shown
        self._shown: dict[str, Text | Flow | str] = {}
        self._sheet_key: tuple[object, ...] = ()

    @property
    def hinting(self) -> bool:
        """A hint is being thought out."""
        return self._hint_for is not None

    @property
    def gin_app(self) -> GinApp:
        from .app import GinApp  # the app module imports this one

        app = self.app
        assert isinstance(app, GinApp)
        return app

    # -- layout ----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="main"):
            with Vertical(id="table-col"):
                with VerticalScroll(id="table"):
                    yield Static("", id="opp-label")
                    with Horizontal(classes="row", id="opp-row"):
                        for i in range(11):
                            yield CardWidget(slot=i, classes="opp")
                    with Horizontal(id="middle"):
                        yield CardWidget(id="stock")
                        yield Static("", id="stock-label")
                        yield CardWidget(id="pile")
                        yield Static("", id="pile-label")
                    yield Static("", id="hand-label")
                    with Horizontal(id="hand-row"):
                        for i in range(11):
                            yield CardWidget(slot=i, classes="mine")
                    yield Static("", id="keys")
                    yield Static("", id="melds")
                    yield Static("", id="prompt")
                    yield Static("", id="message")
                # the buttons stay in sight below the table, which scrolls if it must
                for row, idents in (("play-buttons", PLAY_BUTTONS), ("aid-buttons", AID_BUTTONS)):
                    with ButtonFlow(id=row, classes="buttons"):
                        for ident in idents:
                            button = Button(button_label(ident), id=f"b-{ident}", compact=True,
                                            variant="warning" if ident in ("knock", "gin")
                                            else "default")
                            button.can_focus = False
                            yield button
            with Vertical(id="side"):
                with HorizontalScroll(id="sheet-box"):  # four or five games may need it
                    yield Static("", id="sheet")
                yield Static("", id="rules-line")
                yield Static("", id="info")
                with VerticalScroll(id="log-box"):
                    yield Static("", id="log")
        yield Footer()

    # -- showing ---------------------------------------------------------------------

    def on_mount(self) -> None:
        self.clear_table()
        narrow = self.app.size.width < NARROW
        self.set_class(narrow, "-narrow")
        self._fit_buttons()

    def _fit_buttons(self) -> None:
        """The table scrolls before the buttons below it (one row each, more in a long
        language) would leave the screen: header, footer, the buttons, a gap when wide."""
        rows = sum(flow.rows for flow in self.query(ButtonFlow).results(ButtonFlow))
        cap_height(self.query_one("#table"), 2 + rows + (0 if self.has_class("-narrow") else 1))

    def on_button_flow_reflowed(self, event: ButtonFlow.Reflowed) -> None:
        self._fit_buttons()

    def clear_table(self) -> None:
        """Nothing on the table: before a match is dealt, or once it is abandoned."""
        for widget in self.query(CardWidget).results(CardWidget):
            widget.hide()
        for button in self.query(".buttons Button").results(Button):
            button.display = False
        for ident in ("opp-label", "stock-label", "pile-label", "hand-label", "keys", "melds",
                      "prompt", "sheet", "rules-line", "info", "log"):
            self._put(ident, Text())
        self._sheet_key = ()

    def _dealer_words(self) -> str:
        assert self.session is not None
        dealer = self.session.hand.dealer
        return _("you deal") if dealer == HUMAN else _("the computer deals")

    def say(self, text: str | Text, error: bool = False) -> None:
        if not self.query("#message"):  # said as the app starts: once the table is drawn
            self.app.call_after_refresh(self.say, text, error)
            return
        message = self.query_one("#message", Static)
        message.set_class(error, "-error")
        message.update(text)
        if text:  # on a crowded screen the table scrolls to what was just said
            self.call_after_refresh(message.scroll_visible, animate=False)

    def log_text(self) -> Text:
        """The moves of this hand, rebuilt from the session's log every time, so an undone
        move never lingers in the list (R4.4: all of it is public)."""
        session = self.session
        assert session is not None
        log = Text.assemble((_("Moves") + "\n", "bold"))
        log.append(_("Hand {n}: {dealer}.").format(n=session.hand_number,
                                                    dealer=self._dealer_words()),
                   style="italic")
        for move in session.moves():
            style = "#7fd1ff" if move.player == HUMAN else "#ffb86c"
            log.append("\n")
            log.append(action_words(session.names[move.player], move.action, move.taken),
                       style=style)
            if move.result is not None:
                log.append("\n")
                log.append(result_headline(move.result, session.names), style="bold yellow")
        return log

    def refresh_table(self) -> None:
        """Redraw everything from the person's view (the only state the screen reads)."""
        session = self.session
        if session is None:
            return
        four = self.gin_app.four_colour
        view = session.view()
        names = session.names
        # the computer's side: a back for each unknown card, faces for known ones (R4.4)
        known = list(view.opponent_known)
        hidden = view.opponent_card_count - len(known)
        for i, widget in enumerate(self.query("CardWidget.opp").results(CardWidget)):
            widget.mark("-group", i == hidden and bool(known))
            if i < hidden:
                widget.show_back()
            elif i < hidden + len(known):
                widget.show_face(known[i - hidden], four_colour=four)
            else:
                widget.hide()
        label = Text.assemble((f"{names[COMPUTER]}", "bold #ffb86c"))
        label.append(" · " + ngettext("{n} card", "{n} cards", view.opponent_card_count)
                     .format(n=view.opponent_card_count))
        if known:
            label.append(" · " + _("known from the pile:") + " ")
            label.append_text(cards_ink(known, four))
        if view.dealer == COMPUTER:
            label.append(" · " + _("dealer"), style="dim")
        self._put("opp-label", label)
        self._refresh_middle(view, four)
        self._refresh_hand(view, four)
        self._refresh_prompt(view, four)
        self._refresh_buttons(view)
        self._refresh_side(session, view)

    def _refresh_middle(self, view: HandView, four: bool) -> None:
        """The stock and the pile; the pile's cards below the top, as many as fit (all of
        them on the pile screen, p or a click on this label: R4.4)."""
        stock = self.query_one("#stock", CardWidget)
        if view.stock_count:
            stock.show_back()
        else:
            stock.show_empty()
        self._put("stock-label", Text.assemble(
            (_("Stock") + "\n", "bold"),
            ngettext("{n} card", "{n} cards", view.stock_count).format(n=view.stock_count)
            + "\n", (_("click or s"), "dim")))
        pile = self.query_one("#pile", CardWidget)
        upcard = view.upcard
        if upcard is not None:
            pile.show_face(upcard, four_colour=four)
        else:
            pile.show_empty()
        title = _("Upcard") if view.phase is Phase.OFFER else _("Discard pile")
        count = len(view.discard_pile)
        pile_label = Text.assemble((title, "bold"), (f" · {count}", "dim"), "\n")
        under = list(reversed(view.discard_pile[:-1]))
        if under:
            width = self.query_one("#pile-label", Static).content_region.width or 30
            shown = Text(_("below:") + " ")
            more = " " + _("…")
            for n, card in enumerate(under):
                if len(shown.plain) + len(card.pretty) + 1 + (len(more) if n < len(under) - 1
                                                               else 0) > width:
                    shown.append(more, style="dim")
                    break
                if n:
                    shown.append(" ")
                shown.append_text(card_ink(card, four))
            pile_label.append_text(shown)
        else:
            pile_label.append(_("nothing below"), style="dim")
        if upcard is not None:
            pile_label.append("\n" + _("t: take · p: all"), style="dim")
        self._put("pile-label", pile_label)

    def _refresh_side(self, session: GameSession, view: HandView) -> None:
        compact = self.has_class("-narrow")
        rules = session.rules
        width = self.app.size.width
        if self._sheet_key != (session.id, session.sheet.entries, compact, width):
            self._sheet_key = (session.id, session.sheet.entries, compact, width)
            # The sheet whole in its panel (never a number hidden): in a long language the
            # panel grows into what the table can spare (its cards, flat or not, stay whole),
            # then the names' column narrows; only then, five games say, does it scroll.
            base = SIDE_NARROW if compact else SIDE_WIDE
            room = base - 3  # its border and padding
            spare = max(0, width - base - (TABLE_NARROW if compact else TABLE_WIDE))
            for label in (None, *range(LABEL_MOST - 1, 4, -1)):
                table = sheet_table(session.sheet, session.names, title=sheet_title(rules),
                                    compact=compact, label=label)
                need = natural_width(table, room)
                if need <= room + spare + 1:  # + 1: the panel's right padding
                    break
            side = self.query_one("#side")
            grow = min(spare, max(0, need - room))
            side.styles.width = base + grow if grow else None  # None: as the CSS says
            side.styles.padding = (0, 0, 0, 1) if need > room + grow else None
            sheet = self.query_one("#sheet", Static)
            sheet.styles.width = need  # wider than the side: scrolls
            sheet.update(table)
        line = Text(_("Rules:") + " ", style="bold")
        line.append(rules_summary(rules))
        if rules.oklahoma:
            line.append(" · " + _("this hand: knock ≤ {limit}").format(limit=view.knock_limit))
        self._put("rules-line", line)
        info = Text(_("Hand {n} · {dealer}").format(n=session.hand_number,
                                                     dealer=self._dealer_words()) + "\n")
        if session.assisted:
            info.append(_("Assisted: hints or undo used") + "\n", style="yellow")
        info.append(_("Match {id}").format(id=session.id[:8]), style="dim")
        self._put("info", info)
        log = self.log_text()
        if self._shown.get("log") != log:
            self._put("log", log)
            # the latest move in sight, once the new text is laid out, and kept there when
            # the screen is laid out again (a resize, a resume) until the person scrolls up
            box = self.query_one("#log-box", VerticalScroll)
            box.anchor()
            self.call_after_refresh(box.scroll_end, animate=False)
        self.gin_app.sub_title = _("You vs {name} · {rules}").format(
            name=session.names[COMPUTER], rules=rules_name(rules))

    def _refresh_hand(self, view: HandView, four: bool) -> None:
        layout = best_melds(view.hand)
        order: list[Card] = []
        starts: set[int] = set()
        meld_cards: set[Card] = set()
        for meld in layout.melds:
            starts.add(len(order))
            order.extend(meld)
            meld_cards.update(meld)
        if layout.unmatched:
            starts.add(len(order))
            order.extend(layout.unmatched)
        starts.discard(0)
        self.order = order
        if self.selected not in order:
            self.selected = None
        for i, widget in enumerate(self.query("CardWidget.mine").results(CardWidget)):
            if i >= len(order):
                widget.hide()
                continue
            card = order[i]
            widget.show_face(card, four_colour=four)
            widget.mark("-group", i in starts)
            widget.mark("-meld", card in meld_cards)
            widget.mark("-new", card == self.new_card)
            widget.mark("-taken", card == view.taken_card)
            widget.mark("-hinted", card == self.hinted)
            widget.mark("-selected", card == self.selected)
        # each card's key under it: cards 5 wide (3 when narrow), 1 apart, 3 (2) before a group
        narrow = self.has_class("-narrow")
        keys = Text(" " if narrow else "  ")
        for i in range(len(order)):
            if i in starts:
                keys.append(" " if narrow else "  ")
            keys.append(KEYS[i] + (" " * (3 if narrow else 5)),
                        style="bold" if order[i] == self.selected else "")
        self._put("keys", keys)
        label = Text.assemble((_("Your hand"), "bold #7fd1ff"))
        label.append(" · " + _("deadwood {n}").format(n=layout.deadwood), style="bold")
        if len(view.hand) == 11:
            best = discard_choices(view.hand)[0]
            label.append(" · " + _("best discard: {n}").format(n=best.deadwood))
        if view.dealer == HUMAN:
            label.append(" · " + _("dealer"), style="dim")
        self._put("hand-label", label)
        # a line that wraps breaks between melds and cards, never inside a meld's brackets
        # nor between the "=" and the count (Flow)
        melds = Text()
        for meld in layout.melds:
            melds.append_text(glued(meld_ink(meld, four)))
            melds.append(" ")
        melds.append(_("deadwood") + " " if layout.melds else _("no melds yet · deadwood") + " ",
                     style="dim")
        melds.append_text(cards_ink(layout.unmatched, four))
        melds.append(f" ={GLUE}{layout.deadwood}")
        self._put("melds", Flow(melds))

    def _refresh_prompt(self, v: HandView, four: bool) -> None:
        prompt = Text()
        if v.phase is Phase.OVER:
            prompt.append(_("The hand is over."), style="bold")
        elif self.thinking or v.to_act == COMPUTER:
            prompt.append(_("The computer is thinking…"), style="italic")
        elif v.phase is Phase.OFFER:
            prompt.append(_("The opening (R4.1):") + " ", style="bold")
            # Translators: the table's prompt; {card} is the upcard, like 7♥; t and x are
            # the keys.
            prompt.append_text(styled(_("take the upcard {card} (t, or click it) or pass (x)."),
                                      card=self._card_or_none(v, four)))
        elif v.phase is Phase.DRAW:
            prompt.append(_("Your turn:") + " ", style="bold")
            if v.upcard_refused:
                prompt.append(_("both passed the upcard, so draw from the stock (s) (R4.1)."))
            else:
                # Translators: the table's prompt; {card} is the top of the pile, like 7♥;
                # s and t are the keys.
                prompt.append_text(styled(_("draw from the stock (s) or take {card} from the "
                                            "pile (t)."), card=self._card_or_none(v, four)))
        elif self.selected is None:
            prompt.append(_("Discard:") + " ", style="bold")
            prompt.append(_("choose a card (1–9, 0, -, ← →, or click it), then again or "
                            "Enter to discard it."))
            knocks = knock_options(v)
            if knocks:
                best = min(knocks, key=lambda c: c[1])
                gin = best[1] == 0
                prompt.append("\n" + (_("You can go gin:") if gin else _("You can knock:")) + " ",
                              style="bold yellow")
                # Translators: after "You can go gin:" / "You can knock:"; g and k are the
                # keys, {card} the card they discard (like 7♥), {n} the deadwood left.
                prompt.append_text(styled(
                    _("g discards {card} and leaves {n} deadwood.") if gin
                    else _("k discards {card} and leaves {n} deadwood."),
                    card=card_ink(best[0], four), n=best[1]))
        else:
            # the selected card is always one that may be discarded (R4.3): choosing the
            # card just taken from the pile is refused before it is selected
            rest = [c for c in v.hand if c != self.selected]
            after = best_melds(rest)
            # Translators: the table's prompt once a card is chosen; {card} is it (like 7♥),
            # {n} the deadwood it leaves.
            question = styled(_("Discard {card}?"), card=card_ink(self.selected, four))
            question.stylize("bold")
            prompt.append_text(question)
            prompt.append(" " + _("It leaves deadwood {n}: Enter or the same key "
                                  "discards it.").format(n=after.deadwood))
            if after.deadwood <= v.knock_limit:
                gin = after.deadwood == 0
                melds = Text(" ").join(meld_ink(meld, four) for meld in after.melds)
                prompt.append("\n")
                if after.unmatched:
                    # Translators: {melds} are the melds a knock would show (like [4♥ 5♥
                    # 6♥] [9♣ 9♦ 9♠]), {cards} the deadwood cards; g and k are the keys.
                    prompt.append_text(styled(
                        _("Gin (g) would show {melds} with {cards}") if gin
                        else _("Knock (k) would show {melds} with {cards}"),
                        melds=melds, cards=cards_ink(after.unmatched, four)))
                else:
                    prompt.append_text(styled(
                        _("Gin (g) would show {melds}") if gin
                        else _("Knock (k) would show {melds}"), melds=melds))
        self._put("prompt", prompt)

    def _card_or_none(self, view: HandView, four: bool) -> Text:
        """The top of the pile in its colour (a dash if the pile is empty)."""
        return card_ink(view.upcard, four) if view.upcard is not None else Text("–")

    def may_discard(self, view: HandView, card: Card) -> bool:
        """Discarding ``card`` is legal now (R4.2, R4.3)."""
        return Discard(card) in view.legal_actions

    def _refresh_buttons(self, v: HandView) -> None:
        session = self.session
        assert session is not None
        mine = session.human_to_act and not self.thinking
        legal = v.legal_actions if mine else ()
        knocks = knock_options(v) if mine else []
        show = {
            "take": any(isinstance(a, TakeUpcard) for a in legal),
            "pass": any(isinstance(a, Pass) for a in legal),
            "draw": any(isinstance(a, DrawStock) for a in legal),
            "pick": any(isinstance(a, TakeDiscard) for a in legal),
            "discard": any(isinstance(a, Discard) for a in legal),
            "knock": any(d > 0 for _c, d in knocks),
            "gin": mine and gin_allowed(v),
            "hint": mine,
            "undo": session.can_undo and not self.thinking,
            "pile": True,
            "help": True,
        }
        for ident, visible in show.items():
            button = self.query_one(f"#b-{ident}", Button)
            if button.display != visible:
                button.display = visible
        self._reflow_buttons()
        if v.upcard is not None:
            self._label("take", _("Take {card} (t)").format(card=v.upcard.pretty))
            self._label("pick", _("Take {card} (t)").format(card=v.upcard.pretty))
        selected = self.selected
        if selected is not None and self.may_discard(v, selected):
            self._label("discard", _("Discard {card} (⏎)").format(card=selected.pretty))
        else:
            self._label("discard", _("Discard… (choose a card)"))
        sel = [d for c, d in knocks if c == selected]
        if selected is not None and sel and sel[0]:
            self._label("knock", _("Knock {card} (k)").format(card=selected.pretty))
        else:
            self._label("knock", _("Knock (k)"))

    def _put(self, ident: str, content: Text | Flow) -> None:
        """Update a Static only when its text changed (each update may re-lay the screen
        out: only the ones whose height follows their text ask for it)."""
        if self._shown.get(ident) != content:
            self._shown[ident] = content
            self.query_one(f"#{ident}", Static).update(content,
                                                       layout=ident in self.AUTO_HEIGHT)

    def _label(self, ident: str, label: str) -> None:
        if self._shown.get(f"b-{ident}") != label:
            self._shown[f"b-{ident}"] = label
            button = self.query_one(f"#b-{ident}", Button)
            button.label = label
            button.refresh(layout=True)  # its width follows the new label
            self._reflow_buttons()

    def _reflow_buttons(self) -> None:
        for flow in self.query(ButtonFlow).results(ButtonFlow):
            flow.reflow()

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < NARROW
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
        self._fit_buttons()
        self._shown.pop("pile-label", None)  # how many pile cards fit follows the width
        self.refresh_table()
