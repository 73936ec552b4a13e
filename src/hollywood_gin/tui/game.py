"""The game screen: the table plus the play, the person's keys and clicks through the
session, and the computer's moves one at a time."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.binding import Binding, BindingType
from textual.widgets import Button

from ..actions import Action, Discard, DrawStock, Knock, Pass, TakeDiscard, TakeUpcard
from ..cards import Card
from ..errors import HollywoodGinError, IllegalActionError
from ..hand import HandResult, Phase
from ..melds import discard_choices
from .dialogs import HelpScreen
from .handend import HandEndScreen, MatchEndScreen
from .look import action_words, result_headline
from .session import COMPUTER, HUMAN, GameSession, Move
from .table import KEY_NAMES, KEYS, TableScreen
from .widgets import CardWidget

__all__ = ["GameScreen"]


class GameScreen(TableScreen):
    """The table: the computer's side, stock and pile, the log, your hand, actions, the sheet."""

    DEFAULT_CSS = """
    GameScreen { layout: vertical; }
    #main { height: 1fr; }
    #table { width: 1fr; padding: 0 1; }
    #side { width: 38; padding: 0 1; border-left: vkey $panel-lighten-2; }
    .row { height: 3; }
    #hand-row { height: 3; }
    .caption { height: 1; color: $text-muted; }
    #opp-label { height: 1; margin-top: 1; }
    #middle { height: 4; margin-top: 1; }
    #stock-label { width: 14; padding: 0 1; height: 3; }
    #pile-label { width: 1fr; padding: 0 1; height: 3; }
    #log { height: 9; margin-top: 1; }
    #hand-label { height: 1; margin-top: 1; }
    #keys { height: 1; color: $text-muted; }
    #melds { height: 1; }
    #prompt { height: 2; margin-top: 1; }
    #message { height: 1; }
    #message.-error { color: $error; text-style: bold; }
    #buttons { height: 1; margin-top: 1; }
    #buttons Button { margin-right: 1; min-width: 6; }
    #sheet { height: auto; }
    /* a small terminal (under 104 columns): flat one-line cards, a narrower sheet */
    GameScreen.-narrow #side { width: 33; }
    GameScreen.-narrow #table { padding: 0; }
    GameScreen.-narrow #info { display: none; }
    GameScreen.-narrow #log { height: 1fr; }
    GameScreen.-narrow .row, GameScreen.-narrow #hand-row { height: 1; }
    GameScreen.-narrow #middle { height: 3; }
    GameScreen.-narrow CardWidget { width: 3; height: 1; border: none; margin: 0 1 0 0; }
    GameScreen.-narrow CardWidget.-group { margin: 0 1 0 2; }
    GameScreen.-narrow CardWidget.-meld { border: none; background: #dcefdc; }
    GameScreen.-narrow CardWidget.-new { border: none; background: #d6ecfa; }
    GameScreen.-narrow CardWidget.-taken { border: none; background: #ead9f5; }
    GameScreen.-narrow CardWidget.-hinted { border: none; background: #f7d9a0; }
    GameScreen.-narrow CardWidget.-selected { border: none; background: #ffe45c; }
    GameScreen.-narrow CardWidget.-back { border: none; }
    #info { height: 4; margin-top: 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "take", "take"),
        Binding("x", "pass", "pass"),
        Binding("s", "draw", "stock"),
        Binding("enter,d,space", "discard", "discard"),
        Binding("k", "knock", "knock"),
        Binding("g", "gin", "gin"),
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("left", "move(-1)", "choose", show=False),
        Binding("right", "move(1)", "choose", show=False),
        Binding("c", "colours", "colours", show=False),
        Binding("n", "new_match", "new", show=False),
        Binding("question_mark,f1", "help", "help"),
        Binding("q", "quit", "quit"),
        *(Binding(key, f"pick({i})", show=False) for i, key in enumerate(KEY_NAMES)),
    ]

    # -- showing ---------------------------------------------------------------------

    def attach(self, session: GameSession) -> None:
        """Show a (new or resumed) match and carry on from wherever it stands."""
        self.app.workers.cancel_group(self.app, "computer")  # a match left mid-move stops
        self.thinking = False
        self.session = session
        self.selected = self.hinted = self.new_card = None
        self.log_lines = []
        self._ended_hand = 0
        rules = session.rules
        preset = rules.preset_name or "custom rules"
        self.gin_app.sub_title = f"You vs {session.names[COMPUTER]} · {preset}"
        self._log(Text(f"Hand {session.hand_number}: {self._dealer_words()}.", style="italic"))
        for player, action in session.hand.history:  # a resumed hand: its moves so far
            name = "You" if player == HUMAN else "Computer"
            style = "#7fd1ff" if player == HUMAN else "#ffb86c"
            self._log(Text(action_words(name, action), style=style))
        self.proceed()

    def on_key(self, event: events.Key) -> None:
        """A key whose action is not offered now still gets its reason, not silence."""
        action = _KEY_ACTIONS.get(event.key)
        if action is not None and not self.check_action(action, ()):
            event.stop()
            getattr(self, f"action_{action}")()

    # -- flow ------------------------------------------------------------------------

    def proceed(self) -> None:
        """After any change: redraw, then show the hand's end or let the computer move."""
        session = self.session
        if session is None:
            return
        start_computer = session.computer_to_act and not self.thinking
        if start_computer:
            self.thinking = True
        self.refresh_table()
        if session.hand.is_over:
            if self._ended_hand != session.hand_number:
                self._ended_hand = session.hand_number
                self.app.push_screen(HandEndScreen(session, self.gin_app.four_colour),
                                     self._after_hand_end)
        elif start_computer:
            self.app.run_worker(self._computer_moves(), group="computer", exclusive=True)

    async def _computer_moves(self) -> None:
        """The computer's moves one at a time, each after a short pause so it can be read."""
        session = self.session
        assert session is not None
        try:
            while session.computer_to_act:
                await asyncio.sleep(self.gin_app.delay)
                action = await asyncio.to_thread(session.computer_choice)
                move = session.computer_act(action)
                self._record(move)
                self.refresh_table()
        except HollywoodGinError as exc:
            self.say(f"The computer could not move: {exc}", error=True)
        finally:
            self.thinking = False
        self.proceed()

    def _record(self, move: Move) -> None:
        session = self.session
        assert session is not None
        names = session.names
        name = "You" if move.player == HUMAN else "Computer"
        words = action_words(name, move.action, move.taken)
        style = "#7fd1ff" if move.player == HUMAN else "#ffb86c"
        self._log(Text(words, style=style))
        if move.result is not None:
            self._log(Text(result_headline(move.result, names), style="bold yellow"))

    def _after_hand_end(self, choice: str | None) -> None:
        session = self.session
        assert session is not None
        if choice == "undo" and session.can_undo:
            self.action_undo()
            return
        if session.match.finished:
            self.app.push_screen(MatchEndScreen(session), self._after_match_end)
            return
        session.next_hand()
        self.selected = self.hinted = self.new_card = None
        self.log_lines = []
        self._log(Text(f"Hand {session.hand_number}: {self._dealer_words()}.", style="italic"))
        self.say("")
        self.proceed()

    def _after_match_end(self, choice: str | None) -> None:
        if choice == "new":
            self.gin_app.ask_new_match()
        else:
            self.app.exit()

    def play(self, action: Action) -> HandResult | None:
        """The person's action through the session; an illegal one only shows why (R-cited)."""
        session = self.session
        if session is None:
            self.say("Start a match first (n).", error=True)
            return None
        if self.thinking:
            self.say("Wait: the computer is moving.", error=True)
            return None
        before = set(session.view().hand)
        try:
            move = session.act(action)
        except IllegalActionError as exc:
            self.say(_sentence(str(exc)), error=True)
            self.app.bell()
            return None
        after = set(session.view().hand)
        drawn = after - before
        self.new_card = next(iter(drawn)) if drawn else None
        self.selected = self.hinted = None
        self.say("")
        self._record(move)
        self.proceed()
        return move.result

    # -- actions ---------------------------------------------------------------------

    def action_take(self) -> None:
        session = self.session
        if session is not None and session.hand.phase is Phase.OFFER:
            self.play(TakeUpcard())
        else:
            self.play(TakeDiscard())

    def action_pass(self) -> None:
        self.play(Pass())

    def action_draw(self) -> None:
        self.play(DrawStock())

    def action_pick(self, index: int) -> None:
        """Choose the card at a place in the hand; choosing it again discards it."""
        if index >= len(self.order):
            self.say(f"There is no card {KEYS[index]}: you hold {len(self.order)} cards.",
                     error=True)
            return
        self.choose(self.order[index])

    def choose(self, card: Card) -> None:
        session = self.session
        if session is None:
            return
        if session.hand.phase is not Phase.DISCARD or not session.human_to_act or self.thinking:
            self.play(Discard(card))  # not the time to discard: the engine says why
            return
        if self.selected == card:
            self.play(Discard(card))
            return
        self.selected = card
        self.say("")
        self.refresh_table()

    def action_move(self, step: int) -> None:
        if not self.order:
            return
        if self.selected in self.order:
            assert self.selected is not None
            index = (self.order.index(self.selected) + step) % len(self.order)
        else:
            index = 0 if step > 0 else len(self.order) - 1
        session = self.session
        if session is not None and session.hand.phase is Phase.DISCARD:
            self.selected = self.order[index]
            self.refresh_table()

    def action_discard(self) -> None:
        if self.selected is None:
            session = self.session
            if session is not None and session.hand.phase is Phase.DISCARD:
                self.say("Choose the card to discard first: 1–9, 0, - or click it.", error=True)
            else:
                self.play(Discard(self.order[0]) if self.order else Pass())
            return
        self.play(Discard(self.selected))

    def action_knock(self) -> None:
        session = self.session
        if session is None:
            return
        view = session.view()
        if view.phase is not Phase.DISCARD or not session.human_to_act:
            if view.phase is Phase.OVER:
                self.say("The hand is over.", error=True)
            elif not session.human_to_act or self.thinking:
                self.say("Wait: it is the computer's turn.", error=True)
            else:
                self.say("You knock after taking a card: first draw from the stock (s) or "
                         "take the discard (t) (R4.2, R5.1).", error=True)
            return
        if self.selected is not None:
            self.play(Knock(self.selected))
            return
        options = self._knock_options()
        if options:
            card = min(options, key=lambda c: (c[1], c[0].index))[0]
            self.play(Knock(card))
            return
        best = discard_choices(view.hand)[0]
        self.say(f"You cannot knock: your best discard ({best.card.pretty}) leaves "
                 f"{best.deadwood} deadwood, over the knock limit of {view.knock_limit} (R5.1).",
                 error=True)
        self.app.bell()

    def action_gin(self) -> None:
        session = self.session
        if session is None:
            return
        view = session.view()
        if any(isinstance(a, Knock) and a.card is None for a in view.legal_actions):
            self.play(Knock(None))  # big gin: all eleven cards melded (R5.7 option)
            return
        gins = [c for c, d in self._knock_options() if d == 0]
        if not gins:
            if view.phase is Phase.DISCARD and session.human_to_act:
                best = discard_choices(view.hand)[0]
                self.say(f"No gin: your best discard leaves {best.deadwood} deadwood; gin needs "
                         "0 (R2.5).", error=True)
                self.app.bell()
            else:
                self.action_knock()
            return
        self.play(Knock(self.selected if self.selected in gins else gins[0]))

    def action_hint(self) -> None:
        session = self.session
        if session is None:
            return
        if self.thinking or not session.human_to_act:
            self.say("A hint is given on your turn.", error=True)
            return
        if self.hinting:
            return
        self.hinting = True
        self.say("Thinking about a hint…")
        self.app.run_worker(self._hint(session), group="hint", exclusive=True)

    async def _hint(self, session: GameSession) -> None:
        """The expert thinks on a thread (up to half a second in a close call) so the
        table stays live; a hint that the game has moved past is dropped."""
        try:
            position, view, sheet = session.hint_position()
            action, reason = await asyncio.to_thread(session.think_hint, view, sheet)
        except HollywoodGinError as exc:
            self.say(f"No hint: {exc}", error=True)
            return
        except ImportError:
            self.say("No hint: the computer players are not installed.", error=True)
            return
        finally:
            self.hinting = False
        if session is not self.session or not session.give_hint(position):
            return
        card = action.card if isinstance(action, (Discard, Knock)) else None
        self.hinted = card
        if card is not None:
            self.selected = card
        text = Text.assemble(("Hint: ", "bold yellow"))
        text.append(f"{_action_name(action)} — {reason}")
        self.refresh_table()
        self.say(text)

    def action_undo(self) -> None:
        session = self.session
        if session is None:
            return
        if self.thinking:
            self.say("Wait: the computer is moving.", error=True)
            return
        try:
            undone = session.undo()
        except HollywoodGinError as exc:
            self.say(_sentence(str(exc)), error=True)
            return
        self.selected = self.hinted = self.new_card = None
        self._ended_hand = 0 if not session.hand.is_over else session.hand_number
        self._log(Text(f"You undid your last move ({undone} action"
                       f"{'s' if undone != 1 else ''} taken back).", style="italic"))
        self.say("Undone. This match now counts as assisted.")
        self.proceed()

    def action_colours(self) -> None:
        app = self.gin_app
        app.four_colour = not app.four_colour
        self.say("Four-colour deck " + ("on: ♦ blue, ♣ green." if app.four_colour else "off."))
        self.refresh_table()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())

    def action_new_match(self) -> None:
        self.gin_app.ask_new_match()

    async def action_quit(self) -> None:
        self.app.exit()

    @on(CardWidget.Chosen)
    def _card_clicked(self, event: CardWidget.Chosen) -> None:
        widget = event.widget
        if widget.id == "stock":
            self.action_draw()
        elif widget.id == "pile":
            self.action_take()
        elif widget.has_class("mine") and widget.card is not None:
            self.choose(widget.card)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ident = (event.button.id or "").removeprefix("b-")
        handlers = {
            "take": self.action_take, "pick": self.action_take, "pass": self.action_pass,
            "draw": self.action_draw, "discard": self.action_discard,
            "knock": self.action_knock, "gin": self.action_gin, "hint": self.action_hint,
            "undo": self.action_undo, "help": self.action_help,
        }
        handler = handlers.get(ident)
        if handler is not None:
            handler()



_KEY_ACTIONS = {"k": "knock", "g": "gin"}


def _sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", ")", "!")) else text + "."


def _action_name(action: Action) -> str:
    if isinstance(action, Discard):
        return f"discard {action.card.pretty}"
    if isinstance(action, Knock):
        return "go big gin" if action.card is None else f"knock, discarding {action.card.pretty}"
    return {"pass": "pass the upcard", "take": "take the upcard", "draw": "draw from the stock",
            "pick": "take the discard"}.get(str(action), str(action))

