"""The game screen: the table plus the play, the person's keys and clicks through the
session, and the computer's moves one at a time.

Every key works in every phase: when its action is not legal now, the screen says why
and names what is (:func:`~.words.refusal`), and never offers an illegal choice.
"""

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
from ..i18n import N_, _, ngettext
from ..melds import discard_choices
from ..store import StoreConflict, StoreError
from .dialogs import HelpScreen, PileScreen
from .handend import HandEndScreen, MatchEndScreen
from .session import HUMAN, GameSession
from .table import AID_BUTTONS, KEY_NAMES, KEYS, PLAY_BUTTONS, TableScreen, button_label
from .widgets import CardWidget
from .words import hint_words, knock_options, legal_now, not_saved, refusal, sentence

__all__ = ["GameScreen"]


class GameScreen(TableScreen):
    """The table: the computer's side, stock and pile, the log, your hand, actions, the sheet."""

    _said_wait = False  # the message line says to wait for the computer

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "take", "take", show=False),
        Binding("x", "pass", "pass", show=False),
        Binding("s", "draw", "stock", show=False),
        Binding("enter,d,space", "discard", "discard", show=False),
        Binding("k", "knock", "knock", show=False),
        Binding("g", "gin", "gin", show=False),
        # Translators: key hints in the footer of the game's table, beside their keys (h,
        # u, p, ?, q): one short word each (five of them share one line at 80 columns).
        Binding("h", "hint", N_("hint")),
        Binding("u", "undo", N_("undo")),
        Binding("p", "pile", N_("pile")),
        Binding("r", "rules", "rules", show=False),
        Binding("left", "move(-1)", "choose", show=False),
        Binding("right", "move(1)", "choose", show=False),
        Binding("c", "colours", "colours", show=False),
        Binding("n", "new_match", "new", show=False),
        Binding("l", "saved_games", "saved", show=False),
        Binding("a", "stats", "stats", show=False),
        Binding("question_mark,f1", "help", N_("help")),
        Binding("f2", "language", "language", show=False),
        Binding("q", "quit", N_("quit")),
        *(Binding(key, f"pick({i})", show=False) for i, key in enumerate(KEY_NAMES)),
    ]

    # -- showing ---------------------------------------------------------------------

    def attach(self, session: GameSession) -> None:
        """Show a (new or resumed) match and carry on from wherever it stands."""
        if not self.query("#message"):  # the app starts: the table is drawn first
            self.app.call_after_refresh(self.attach, session)
            return
        self.app.workers.cancel_group(self.app, "computer")  # a match left mid-move stops
        self.thinking = False
        self.session = session
        self.selected = self.hinted = self.new_card = None
        self._ended_hand = 0
        self.say("")
        self.proceed()

    def reword(self) -> None:
        """The table in the language just chosen: buttons, texts, key hints."""
        self._shown.clear()
        self._sheet_key = ()
        for ident in (*PLAY_BUTTONS, *AID_BUTTONS):
            self.query_one(f"#b-{ident}", Button).label = button_label(ident)
        self.say("")
        if self.session is not None:
            self.refresh_table()

    def detach(self) -> None:
        """An empty table: the match shown was abandoned (its computer stops moving)."""
        self.app.workers.cancel_group(self.app, "computer")
        self.thinking = False
        self.session = None
        self.selected = self.hinted = self.new_card = None
        self.clear_table()
        self.say("")

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
            self.app.run_worker(self._computer_moves(session), group="computer",
                                exclusive=True)

    async def _computer_moves(self, session: GameSession) -> None:
        """The computer's moves one at a time, each after a short pause so it can be read."""
        try:
            while session.computer_to_act and session is self.session:
                await asyncio.sleep(self.gin_app.delay)
                action = await asyncio.to_thread(session.computer_choice)
                if session is not self.session:
                    return  # another match was opened while it thought
                session.computer_act(action)
                self.refresh_table()
        except StoreConflict:
            self.thinking = False
            self.gin_app.reload_match(session.id)
            return
        except HollywoodGinError as exc:
            self.say(_("The computer could not move: {error}").format(error=exc), error=True)
        finally:
            if session is self.session:
                self.thinking = False
        if session is self.session:
            if self._said_wait:
                self._said_wait = False
                self.say("")
            self.proceed()

    def review(self, hands: list[int] | None) -> None:
        """The game review of ``hands`` (None: the whole match, every finished hand) for the
        person, over the table; closing it comes back to the hand's or the match's end."""
        from .review import ReviewScreen

        session = self.session
        assert session is not None
        app = self.gin_app
        screen = ReviewScreen(store=session.store, match_id=session.id, match=session.match,
                              player=HUMAN, names=session.names, hands=hands,
                              settings=app.review_settings, four_colour=app.four_colour)
        self.app.push_screen(screen, lambda _none: self._after_review(session, hands))

    def _after_review(self, session: GameSession, hands: list[int] | None) -> None:
        if session is not self.session:  # pragma: no cover - the review is modal
            return
        if hands is None:
            self.app.push_screen(MatchEndScreen(session), self._after_match_end)
        else:
            self.app.push_screen(HandEndScreen(session, self.gin_app.four_colour),
                                 self._after_hand_end)

    def show_match_end(self) -> None:
        """The finished match's end again (the new-match dialog it opened was closed): the
        finished table has no move to make, so the choices of its end are what is left."""
        session = self.session
        assert session is not None and session.match.finished
        self.app.push_screen(MatchEndScreen(session), self._after_match_end)

    def _after_hand_end(self, choice: str | None) -> None:
        session = self.session
        assert session is not None
        if choice == "review":
            self.review([session.hand_number])
            return
        if session.match.finished:
            self.app.push_screen(MatchEndScreen(session), self._after_match_end)
            return
        try:
            session.next_hand()
        except StoreError as exc:  # nothing was dealt: the hand's end comes back, saying why
            self.app.bell()
            self.app.push_screen(HandEndScreen(session, self.gin_app.four_colour,
                                               notice=not_saved(exc)), self._after_hand_end)
            return
        self.selected = self.hinted = self.new_card = None
        self.say("")
        self.proceed()

    def _after_match_end(self, choice: str | None) -> None:
        if choice == "review":
            self.review(None)
        elif choice == "rematch":
            self.gin_app.rematch()
        elif choice == "new":
            self.gin_app.ask_new_match()
        else:
            self.app.exit()

    def refuse(self, words: str) -> None:
        self.say(words, error=True)
        self.app.bell()

    def refuse_while_thinking(self) -> None:
        """A key during the computer's turn: refused, and the refusal goes once the computer
        has moved (it stayed, saying to wait, on the player's own turn)."""
        self.refuse(_("Wait: it is the computer's turn."))
        self._said_wait = True

    def play(self, action: Action) -> HandResult | None:
        """The person's action through the session; an illegal one only shows why, in the
        screen's words (R-cited), and changes nothing."""
        session = self.session
        if session is None:
            self.refuse(_("Start a match first (n)."))
            return None
        if self.thinking:
            self.refuse_while_thinking()
            return None
        view = session.view()
        try:
            move = session.act(action)
        except IllegalActionError:
            self.refuse(refusal(view, action))
            return None
        except StoreConflict:
            self.gin_app.reload_match(session.id)
            return None
        except StoreError as exc:  # the store commits before the game moves: nothing changed
            self.refuse(not_saved(exc))
            return None
        drawn = set(session.view().hand) - set(view.hand)
        self.new_card = next(iter(drawn)) if drawn else None
        self.selected = self.hinted = None
        self.say("")
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
            self.refuse(ngettext("There is no card {key}: you hold {n} card.",
                                 "There is no card {key}: you hold {n} cards.",
                                 len(self.order)).format(key=KEYS[index], n=len(self.order)))
            return
        self.choose(self.order[index])

    def _discarding(self) -> bool:
        """The person is to discard now (and the computer is not moving)."""
        session = self.session
        return (session is not None and session.human_to_act and not self.thinking
                and session.hand.phase is Phase.DISCARD)

    def choose(self, card: Card) -> None:
        """Select a card to discard; the card just taken from the pile is never selected,
        since its discard is not legal this turn (R4.3)."""
        session = self.session
        if session is None:
            return
        if not self._discarding():
            self.play(Discard(card))  # not the time to discard: says why and what is legal
            return
        view = session.view()
        if not self.may_discard(view, card):
            self.refuse(refusal(view, Discard(card)))
            return
        if self.selected == card:
            self.play(Discard(card))
            return
        self.selected = card
        self.say("")
        self.refresh_table()

    def action_move(self, step: int) -> None:
        """Move the choice along the hand, over the cards that may be discarded only."""
        session = self.session
        if session is None or not self.order or not self._discarding():
            return
        view = session.view()
        allowed = [c for c in self.order if self.may_discard(view, c)]
        if not allowed:
            return
        if self.selected in allowed:
            assert self.selected is not None
            index = (allowed.index(self.selected) + step) % len(allowed)
        else:
            index = 0 if step > 0 else len(allowed) - 1
        self.selected = allowed[index]
        self.say("")
        self.refresh_table()

    def action_discard(self) -> None:
        session = self.session
        if session is None:
            self.refuse(_("Start a match first (n)."))
            return
        if self.selected is not None:
            self.play(Discard(self.selected))
        elif self._discarding():
            self.refuse(_("Choose the card to discard first: 1–9, 0, - or click it."))
        elif self.thinking:
            self.refuse_while_thinking()
        else:
            view = session.view()
            self.refuse(refusal(view, Discard(view.hand[0])))

    def action_knock(self) -> None:
        session = self.session
        if session is None:
            self.refuse(_("Start a match first (n)."))
            return
        view = session.view()
        if not self._discarding():
            if self.thinking:
                self.refuse_while_thinking()
            else:
                self.refuse(refusal(view, Knock(view.hand[0])))
            return
        if self.selected is not None:
            self.play(Knock(self.selected))
            return
        options = knock_options(view)
        if options:
            card = min(options, key=lambda c: (c[1], c[0].index))[0]
            self.play(Knock(card))
            return
        best = min((c for c in discard_choices(view.hand) if self.may_discard(view, c.card)),
                   key=lambda c: c.deadwood)
        self.refuse(_("You cannot knock: your best discard ({card}) leaves {n} deadwood, over "
                      "the knock limit of {limit} (R5.1); {legal}.").format(
            card=best.card.pretty, n=best.deadwood, limit=view.knock_limit,
            legal=legal_now(view)))

    def action_gin(self) -> None:
        session = self.session
        if session is None:
            self.refuse(_("Start a match first (n)."))
            return
        view = session.view()
        if not self._discarding():
            if self.thinking:
                self.refuse_while_thinking()
            else:
                self.refuse(refusal(view, Knock(None)))
            return
        if any(isinstance(a, Knock) and a.card is None for a in view.legal_actions):
            self.play(Knock(None))  # big gin: all eleven cards melded (R5.7 option)
            return
        gins = [c for c, d in knock_options(view) if d == 0]
        if gins:
            self.play(Knock(self.selected if self.selected in gins else gins[0]))
            return
        best = min((c for c in discard_choices(view.hand) if self.may_discard(view, c.card)),
                   key=lambda c: c.deadwood)
        self.refuse(_("No gin: your best discard leaves {n} deadwood; gin needs 0 (R2.5). "
                      "Now {legal}.").format(n=best.deadwood, legal=legal_now(view)))

    def action_hint(self) -> None:
        session = self.session
        if session is None:
            return
        if self.thinking or not session.human_to_act:
            self.refuse(_("A hint is given on your turn."))
            return
        asked = (session, session.pm.action_count)
        if self._hint_for == asked:
            return  # this very position is being thought out
        # A hint still being thought out for a position the game has moved past is given
        # up (its worker is cancelled, its answer dropped), so it never blocks this one.
        self._hint_for = asked
        self.say(_("Thinking about a hint…"))
        self.app.run_worker(self._hint(session, asked), group="hint", exclusive=True)

    async def _hint(self, session: GameSession, asked: tuple[GameSession, int]) -> None:
        """The expert thinks on a thread (up to half a second in a close call) so the
        table stays live; a hint that the game has moved past is dropped."""
        try:
            position, view, sheet = session.hint_position()
            action, reason = await asyncio.to_thread(session.think_hint, view, sheet)
        except HollywoodGinError:
            self.refuse(_("No hint: a hint is given on your turn."))
            return
        except ImportError:
            self.refuse(_("No hint: the computer players are not installed."))
            return
        finally:
            if self._hint_for == asked:  # not a newer hint's
                self._hint_for = None
        try:
            if session is not self.session or not session.give_hint(position):
                return
        except StoreError as exc:  # not counted, so not shown: a hint always counts
            self.refuse(not_saved(exc))
            return
        card = action.card if isinstance(action, (Discard, Knock)) else None
        self.hinted = card
        if card is not None:
            self.selected = card
        text = Text.assemble((_("Hint:") + " ", "bold yellow"))
        text.append(hint_words(action, reason, view))
        self.refresh_table()
        self.say(text)

    def action_language(self) -> None:
        """The language list at the table too (the README says F2 and it did nothing here)."""
        from .language import ask_language

        ask_language(self.app, self.gin_app.reword)

    def action_undo(self) -> None:
        session = self.session
        if session is None:
            return
        if self.thinking:
            self.refuse_while_thinking()
            return
        try:
            undone = session.undo()
        except StoreConflict:  # played on in another window: nothing was taken back here
            self.gin_app.reload_match(session.id)
            return
        except StoreError as exc:  # a full disk: the bare database error said nothing else
            self.refuse(not_saved(exc))
            return
        except HollywoodGinError as exc:
            self.refuse(sentence(str(exc)))
            return
        self.selected = self.hinted = self.new_card = None
        self._ended_hand = 0 if not session.hand.is_over else session.hand_number
        self.say(ngettext("Undone: {n} action taken back. This match now counts as assisted.",
                          "Undone: {n} actions taken back. This match now counts as assisted.",
                          undone).format(n=undone))
        self.proceed()

    def action_colours(self) -> None:
        app = self.gin_app
        app.four_colour = not app.four_colour
        self.say(_("Four-colour deck on: ♦ blue, ♣ green.") if app.four_colour
                 else _("Four-colour deck off."))
        self.refresh_table()

    def action_help(self) -> None:
        session = self.session
        rules = session.rules if session is not None else self.gin_app.rules
        self.app.push_screen(HelpScreen(rules), self._after_help)

    def _after_help(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_match()
        elif choice == "saved":
            self.action_saved_games()
        elif choice == "rules":
            self.action_rules()

    def action_pile(self) -> None:
        """The whole discard pile, from the top down, with who put each card there (R4.4)."""
        session = self.session
        if session is None:
            self.refuse(_("Start a match first (n)."))
            return
        self.app.push_screen(PileScreen(session, self.gin_app.four_colour))

    def action_rules(self) -> None:
        self.gin_app.show_rules()

    def action_stats(self) -> None:
        """Your statistics, and "Review this match" for any finished match."""
        from .statsscreen import StatsScreen

        self.app.push_screen(StatsScreen(self.gin_app.store), self._after_stats)

    def _after_stats(self, match_id: str | None) -> None:
        """Review the match chosen in the statistics; closing the review comes back to them."""
        if match_id is None:
            return
        from ..replay import player_name
        from .review import ReviewScreen

        app = self.gin_app
        try:
            saved = app.store.open_match(match_id)
        except HollywoodGinError as exc:
            self.say(_("The match {id} cannot be reviewed: {error}").format(
                id=match_id[:8], error=exc), error=True)
            return
        screen = ReviewScreen(store=app.store, match_id=match_id, match=saved.match, player=HUMAN,
                              names=(player_name(saved.players[0]),
                                     player_name(saved.players[1])),
                              settings=app.review_settings,
                              four_colour=app.four_colour)
        self.app.push_screen(screen, lambda _none: self.action_stats())

    def action_new_match(self) -> None:
        self.gin_app.ask_new_match()

    def action_saved_games(self) -> None:
        self.gin_app.show_saved_games()

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

    def on_click(self, event: events.Click) -> None:
        if event.widget is not None and event.widget.id == "pile-label":
            event.stop()
            self.action_pile()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ident = (event.button.id or "").removeprefix("b-")
        handlers = {
            "take": self.action_take, "pick": self.action_take, "pass": self.action_pass,
            "draw": self.action_draw, "discard": self.action_discard,
            "knock": self.action_knock, "gin": self.action_gin, "hint": self.action_hint,
            "undo": self.action_undo, "help": self.action_help, "pile": self.action_pile,
        }
        handler = handlers.get(ident)
        if handler is not None:
            handler()
