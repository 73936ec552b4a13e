"""The table as the game screen draws it: the computer's side, stock and pile, the hand,
the prompt, the buttons and the sheet, all from the person's view (R3.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Static

from ..actions import DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card
from ..hand import Phase
from ..melds import best_melds, discard_choices
from .look import card_ink, cards_ink, meld_ink, sheet_table
from .session import COMPUTER, HUMAN, GameSession
from .widgets import CardWidget

if TYPE_CHECKING:
    from .app import GinApp

__all__ = ["KEYS", "KEY_NAMES", "TableScreen"]

KEYS = "1234567890-"
KEY_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "minus"]
_FOOTER_ACTIONS = ("knock", "gin")


class TableScreen(Screen[None]):
    """What the game screen shows and how it is redrawn; the game screen adds the play."""

    def __init__(self) -> None:
        super().__init__()
        self.session: GameSession | None = None
        self.order: list[Card] = []  # the person's cards in the order shown
        self.selected: Card | None = None
        self.hinted: Card | None = None
        self.hinting = False  # a hint is being thought out
        self.new_card: Card | None = None
        self.log_lines: list[Text] = []
        self.thinking = False
        self._ended_hand = 0  # the hand whose end was shown
        self._offered: tuple[bool | None, ...] = ()
        self._shown: dict[str, Text | str] = {}
        self._sheet_key: tuple[object, ...] = ()

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
            with Vertical(id="table"):
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
                with Horizontal(id="buttons"):
                    for ident, label in (
                        ("take", "Take upcard (t)"), ("pass", "Pass (x)"),
                        ("draw", "Draw stock (s)"), ("pick", "Take discard (t)"),
                        ("discard", "Discard"), ("knock", "Knock (k)"), ("gin", "Gin! (g)"),
                        ("hint", "Hint (h)"), ("undo", "Undo (u)"), ("help", "Help (?)"),
                    ):
                        button = Button(label, id=f"b-{ident}", compact=True,
                                        variant="warning" if ident in ("knock", "gin")
                                        else "default")
                        button.can_focus = False
                        yield button
            with Vertical(id="side"):
                yield Static("", id="sheet")
                yield Static("", id="info")
                yield Static("", id="log")
        yield Footer()

    # -- showing ---------------------------------------------------------------------

    def on_mount(self) -> None:
        for widget in self.query(CardWidget).results(CardWidget):
            widget.hide()  # nothing on the table until a match is dealt
        for button in self.query("#buttons Button").results(Button):
            button.display = False

    def _dealer_words(self) -> str:
        assert self.session is not None
        dealer = self.session.hand.dealer
        return "you deal" if dealer == HUMAN else "the computer deals"

    def _log(self, line: Text) -> None:
        self.log_lines = [*self.log_lines, line][-8:]

    def say(self, text: str | Text, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(error, "-error")
        message.update(text)

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
        label.append(f" · {view.opponent_card_count} cards", style="")
        if known:
            label.append(" · known from the pile: ")
            label.append_text(cards_ink(known, four))
        if view.dealer == COMPUTER:
            label.append(" · dealer", style="dim")
        self._put("opp-label", label)
        # the stock and the pile
        stock = self.query_one("#stock", CardWidget)
        if view.stock_count:
            stock.show_back()
        else:
            stock.show_empty()
        self._put("stock-label",
            Text.assemble(("Stock\n", "bold"), f"{view.stock_count} cards\n",
                          ("click or s", "dim")))
        pile = self.query_one("#pile", CardWidget)
        upcard = view.upcard
        if upcard is not None:
            pile.show_face(upcard, four_colour=four)
        else:
            pile.show_empty()
        pile_label = Text.assemble(
            ("Upcard\n" if view.phase is Phase.OFFER else "Discard pile\n", "bold"))
        under = list(reversed(view.discard_pile[:-1]))
        if under:
            pile_label.append("below: ")
            pile_label.append_text(cards_ink(under[:8], four))
            if len(under) > 8:
                pile_label.append(" …", style="dim")
        else:
            pile_label.append("nothing below", style="dim")
        pile_label.append("\nclick or t", style="dim")
        self._put("pile-label", pile_label)
        log = Text.assemble(("Moves\n", "bold"))
        log.append_text(Text("\n").join(self.log_lines))
        self._put("log", log)
        self._refresh_hand(view, four)
        self._refresh_prompt(view)
        self._refresh_buttons(view)
        compact = self.has_class("-narrow")
        if self._sheet_key != (session.id, session.sheet.entries, compact):
            self._sheet_key = (session.id, session.sheet.entries, compact)
            self.query_one("#sheet", Static).update(
                sheet_table(session.sheet, names, title="Hollywood scoresheet", compact=compact))
        info = Text(f"Hand {session.hand_number} · {self._dealer_words()}\n")
        rules = session.rules
        info.append(f"Rules: {rules.preset_name or 'custom'} · knock ≤ {view.knock_limit} · "
                    f"gin +{rules.gin_bonus} · undercut +{rules.undercut_bonus}\n")
        if session.assisted:
            info.append("Assisted: hints or undo used\n", style="yellow")
        info.append("Match " + session.id[:8], style="dim")
        self._put("info", info)
        offered = tuple(self.check_action(a, ()) for a in _FOOTER_ACTIONS)
        if offered != self._offered:  # the footer is rebuilt on every refresh: only on change
            self._offered = offered
            self.refresh_bindings()

    def _refresh_hand(self, view_hand: object, four: bool) -> None:
        session = self.session
        assert session is not None
        view = session.view()
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
        label = Text.assemble(("Your hand", "bold #7fd1ff"))
        label.append(f" · deadwood {layout.deadwood}", style="bold")
        if len(view.hand) == 11:
            best = discard_choices(view.hand)[0]
            label.append(f" · best discard leaves {best.deadwood}")
        if view.dealer == HUMAN:
            label.append(" · dealer", style="dim")
        self._put("hand-label", label)
        melds = Text()
        for meld in layout.melds:
            melds.append_text(meld_ink(meld, four))
            melds.append(" ")
        melds.append("deadwood " if layout.melds else "no melds yet · deadwood ", style="dim")
        melds.append_text(cards_ink(layout.unmatched, four))
        melds.append(f" = {layout.deadwood}")
        self._put("melds", melds)

    def _refresh_prompt(self, view: object) -> None:
        session = self.session
        assert session is not None
        v = session.view()
        four = self.gin_app.four_colour
        prompt = Text()
        if v.phase is Phase.OVER:
            prompt.append("The hand is over.", style="bold")
        elif self.thinking or v.to_act == COMPUTER:
            prompt.append("The computer is thinking…", style="italic")
        elif v.phase is Phase.OFFER:
            prompt.append("The opening (R4.1): ", style="bold")
            prompt.append("take the upcard ")
            if v.upcard is not None:
                prompt.append_text(card_ink(v.upcard, four))
            prompt.append(" (t, or click it) or pass (x).")
        elif v.phase is Phase.DRAW:
            prompt.append("Your turn: ", style="bold")
            if v.upcard_refused:
                prompt.append("both passed the upcard, so draw from the stock (s) (R4.1).")
            else:
                prompt.append("draw from the stock (s) or take ")
                if v.upcard is not None:
                    prompt.append_text(card_ink(v.upcard, four))
                prompt.append(" from the pile (t).")
        else:
            prompt.append("Discard: ", style="bold")
            if self.selected is None:
                prompt.append("choose a card (1–9, 0, -, ← →, or click it), then again or "
                              "Enter to discard it.")
                knocks = self._knock_options()
                if knocks:
                    best = min(knocks, key=lambda c: c[1])
                    word = "go gin" if best[1] == 0 else "knock"
                    prompt.append(f"\nYou can {word}: ", style="bold yellow")
                    prompt.append(f"{'g' if best[1] == 0 else 'k'} discards ")
                    prompt.append_text(card_ink(best[0], four))
                    prompt.append(f" and leaves {best[1]} deadwood.")
            else:
                rest = [c for c in v.hand if c != self.selected]
                after = best_melds(rest)
                prompt.append("discard ")
                prompt.append_text(card_ink(self.selected, four))
                prompt.append(f"? It leaves deadwood {after.deadwood}. Enter or again to "
                              "discard, another key to change.")
                if self.selected == v.taken_card and not v.rules.discard_taken_card:
                    prompt.append("\nIt was just taken from the pile, so it may not be "
                                  "discarded this turn (R4.3).", style="yellow")
                elif after.deadwood <= v.knock_limit:
                    word = "Gin" if after.deadwood == 0 else "Knock"
                    prompt.append(f"\n{word} ({word[0].lower()}) would show ", style="yellow")
                    for meld in after.melds:
                        prompt.append_text(meld_ink(meld, four))
                        prompt.append(" ")
                    if after.unmatched:
                        prompt.append("with ")
                        prompt.append_text(cards_ink(after.unmatched, four))
        self._put("prompt", prompt)

    def _knock_options(self) -> list[tuple[Card, int]]:
        """Legal knock discards and the deadwood each leaves (R5.1), from the legal actions."""
        assert self.session is not None
        view = self.session.view()
        cards = [a.card for a in view.legal_actions if isinstance(a, Knock) and a.card]
        if not cards:
            return []
        left = {c.card: c.deadwood for c in discard_choices(view.hand)}
        return [(card, left[card]) for card in cards]

    def _refresh_buttons(self, view: object) -> None:
        session = self.session
        assert session is not None
        v = session.view()
        mine = session.human_to_act and not self.thinking
        legal = v.legal_actions if mine else ()
        knocks = self._knock_options() if mine else []
        show = {
            "take": any(isinstance(a, TakeUpcard) for a in legal),
            "pass": any(isinstance(a, Pass) for a in legal),
            "draw": any(isinstance(a, DrawStock) for a in legal),
            "pick": any(isinstance(a, TakeDiscard) for a in legal),
            "discard": v.phase is Phase.DISCARD and mine,
            "knock": any(d > 0 for _, d in knocks),
            "gin": any(d == 0 for _, d in knocks) or any(
                isinstance(a, Knock) and a.card is None for a in legal),
            "hint": mine,
            "undo": session.can_undo and not self.thinking,
            "help": True,
        }
        for ident, visible in show.items():
            button = self.query_one(f"#b-{ident}", Button)
            if button.display != visible:
                button.display = visible
        if v.upcard is not None:
            self._label("take", f"Take {v.upcard.pretty} (t)")
            self._label("pick", f"Take {v.upcard.pretty} (t)")
        self._label("discard", f"Discard {self.selected.pretty} (⏎)" if self.selected
                    else "Discard… (choose a card)")
        sel = [d for c, d in knocks if c == self.selected]
        self._label("knock", f"Knock {self.selected.pretty} (k)"
                    if self.selected and sel and sel[0] else "Knock (k)")

    def _put(self, ident: str, content: Text) -> None:
        """Update a Static only when its text changed (each update re-lays the screen out)."""
        if self._shown.get(ident) != content:
            self._shown[ident] = content
            # every one of these has a fixed size, so no new layout is needed
            self.query_one(f"#{ident}", Static).update(content, layout=False)

    def _label(self, ident: str, label: str) -> None:
        if self._shown.get(f"b-{ident}") != label:
            self._shown[f"b-{ident}"] = label
            button = self.query_one(f"#b-{ident}", Button)
            button.label = label
            button.refresh(layout=True)  # its width follows the new label

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footer keys: knock and gin are offered only when legal (R5.1, R2.5).  The other keys
        stay put (rebuilding the footer at every move is slow); out of turn they say why."""
        session = self.session
        if action not in ("knock", "gin"):
            return True
        if session is None or not session.human_to_act or self.thinking:
            return False
        gin = any(d == 0 for _, d in self._knock_options()) or any(
            isinstance(a, Knock) and a.card is None for a in session.view().legal_actions)
        if action == "gin":
            return gin
        return any(d > 0 for _, d in self._knock_options())

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < 104
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            self.refresh_table()

