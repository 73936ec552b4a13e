"""The game review in the terminal: after a hand or a match, the person steps through his
decisions with the hand drawn as he saw it (his cards, the pile, the upcard, what he knew
of the computer's), the choice he made, the better one, and what it cost.

The review is made on a worker thread (:func:`hollywood_gin.review.saved.review_saved`,
which keeps every hand it reviews in the store, so it is made once), with a progress
bar; the screen stays live, decisions can be read as soon as their hand is done, and
closing the screen stops the work and returns to the game exactly where it was.  Only
finished hands are reviewed, where both hands have been shown (R3.4); the hindsight
line (what the computer really held) is labelled and never used for a grade.

Fits 80x24: a summary line, the move list on the left (the person's decisions
selectable, mistakes marked), the position and the verdict on the right (it scrolls if
it must), the buttons at the bottom.
"""

from __future__ import annotations

import copy
import threading
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from ..actions import Discard, Knock, TakeDiscard, TakeUpcard
from ..cards import Card
from ..errors import HollywoodGinError
from ..hand import Phase
from ..i18n import _, local_number, ngettext
from ..match import Match
from ..melds import best_melds
from ..store import Store
from .look import action_words, card_ink, cards_ink, meld_ink
from .widgets import CardWidget

if TYPE_CHECKING:
    from ..review import DecisionReview, HandReview, ReviewSettings

__all__ = ["GRADE_MARKS", "ReviewScreen"]

#: How a decision is marked in the move list, by grade (chess's marks): best and good
#: are left plain.
GRADE_MARKS = {"best": "  ", "good": "  ", "inaccuracy": "?!", "mistake": "? ",
               "blunder": "??"}
_GRADE_STYLE = {"best": "bold #6ee07a", "good": "#6ee07a", "inaccuracy": "bold #f0c020",
                "mistake": "bold #ff9f43", "blunder": "bold #ff5555"}
NARROW = 100  # under this many columns the hand's cards go flat


def _grade_words(grade: str) -> str:
    return {"best": _("best"), "good": _("good"), "inaccuracy": _("inaccuracy"),
            "mistake": _("mistake"), "blunder": _("blunder")}[grade]


class ReviewScreen(Screen[None]):
    """Step through the person's decisions in some finished hands of a match."""

    DEFAULT_CSS = """
    ReviewScreen { background: #0f2a1d; layout: vertical; }
    ReviewScreen #rv-summary { height: auto; padding: 0 1; background: #163d2a; }
    ReviewScreen #rv-progress { height: 1; padding: 0 1; }
    ReviewScreen #rv-progress ProgressBar { width: 34; }
    ReviewScreen #rv-progress-label { width: 1fr; }
    ReviewScreen #rv-cols { height: 1fr; }
    ReviewScreen #rv-moves { width: 40; height: 1fr; border: none; padding: 0;
        background: #12301f; }
    ReviewScreen #rv-detail { width: 1fr; height: 1fr; padding: 0 1; }
    ReviewScreen #rv-title, ReviewScreen #rv-position, ReviewScreen #rv-verdict {
        height: auto; }
    ReviewScreen #rv-hand { height: 3; margin: 0 0 0 0; }
    ReviewScreen #rv-buttons { height: 1; align-horizontal: center; }
    ReviewScreen #rv-buttons Button { margin: 0 1; }
    ReviewScreen.-narrow #rv-moves { width: 30; }
    ReviewScreen.-narrow #rv-hand { height: 1; }
    ReviewScreen.-narrow CardWidget { width: 3; height: 1; border: none; margin: 0 1 0 0; }
    ReviewScreen.-narrow CardWidget.-group { margin: 0 1 0 1; }
    ReviewScreen.-narrow CardWidget.-meld { border: none; background: #dcefdc; }
    ReviewScreen.-narrow CardWidget.-new { border: none; background: #d6ecfa; }
    ReviewScreen.-narrow CardWidget.-taken { border: none; background: #ead9f5; }
    ReviewScreen.-narrow CardWidget.-hinted { border: none; background: #f7d9a0; }
    ReviewScreen.-narrow CardWidget.-selected { border: none; background: #ffe45c; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,v", "close", "close"),
        Binding("left,p", "step(-1)", "previous", show=False),
        Binding("right,n", "step(1)", "next", show=False),
        Binding("m", "mistake", "next mistake", show=False),
        Binding("home", "jump(0)", "first", show=False),
        Binding("end", "jump(-1)", "last", show=False),
        Binding("left_square_bracket", "hand(-1)", "previous hand", show=False),
        Binding("right_square_bracket", "hand(1)", "next hand", show=False),
    ]

    def __init__(
        self,
        *,
        store: Store,
        match_id: str,
        match: Match,
        player: int,
        names: tuple[str, str],
        hands: list[int] | None = None,
        settings: ReviewSettings | None = None,
        four_colour: bool = False,
    ) -> None:
        """Review ``player``'s decisions in ``hands`` (default: every finished hand) of the
        saved match ``match_id``; ``match`` is it as replayed (a copy is reviewed)."""
        super().__init__()
        self._store = store
        self._match_id = match_id
        self._match = copy.deepcopy(match)
        self._player = player
        self._names = names
        finished = [k for k in range(1, len(match.hands) + 1) if match.hands[k - 1].is_over]
        self._wanted = list(hands) if hands is not None else finished
        self._whole = hands is None  # the match's review, not one hand's
        self._settings = settings
        self._four = four_colour
        self._hands: dict[int, HandReview] = {}
        self._flat: list[tuple[int, int]] = []  # (hand, index of the decision in it)
        self._at: int | None = None  # place in _flat shown
        self._hand_shown: int | None = None  # the hand whose moves the list holds
        self._stop = threading.Event()
        self._failed: str | None = None
        self.done = False  # every hand asked for is reviewed (tests wait for this)

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="rv-summary")
        with Horizontal(id="rv-progress"):
            yield ProgressBar(total=None, show_eta=False, id="rv-bar")
            yield Static(_("Reviewing your decisions…"), id="rv-progress-label")
        with Horizontal(id="rv-cols"):
            yield OptionList(id="rv-moves")
            with VerticalScroll(id="rv-detail"):
                yield Static("", id="rv-title")
                with Horizontal(id="rv-hand"):
                    for i in range(11):
                        yield CardWidget(slot=i, classes="rv-card")
                yield Static("", id="rv-position")
                yield Static("", id="rv-verdict")
        with Horizontal(id="rv-buttons"):
            for ident, label in (("previous", _("◀ Previous")), ("next", _("Next ▶")),
                                 ("mistake", _("Next mistake (m)")),
                                 ("close", _("Close (Esc)"))):
                button = Button(label, id=f"rv-{ident}", compact=True)
                button.can_focus = False
                yield button

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < NARROW, "-narrow")
        for widget in self.query(CardWidget).results(CardWidget):
            widget.hide()
        self._draw_summary()
        self.query_one("#rv-moves", OptionList).focus()
        self._review()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < NARROW, "-narrow")

    # -- the work, on a thread ---------------------------------------------------------

    @work(thread=True, exclusive=True, group="review")
    def _review(self) -> None:
        from ..review.saved import ReviewCancelled, review_saved

        app = self.app
        try:
            review_saved(self._store, self._match_id, self._player, match=self._match,
                         names=self._names, hands=self._wanted, settings=self._settings,
                         progress=lambda done, total: app.call_from_thread(
                             self._progress, done, total),
                         cancelled=self._stop.is_set,
                         on_hand=lambda h: app.call_from_thread(self._arrived, h))
        except ReviewCancelled:
            return
        except (HollywoodGinError, ImportError) as exc:
            if not self._stop.is_set():
                app.call_from_thread(self._fail, str(exc))
            return
        if not self._stop.is_set():
            app.call_from_thread(self._finished)

    def _progress(self, done: int, total: int) -> None:
        if not self.is_attached:
            return
        self.query_one("#rv-bar", ProgressBar).update(total=max(total, 1), progress=done)
        self.query_one("#rv-progress-label", Static).update(
            ngettext("Reviewing: {done} of {total} decision", "Reviewing: {done} of {total} "
                     "decisions", total).format(done=done, total=total))

    def _arrived(self, review: HandReview) -> None:
        if not self.is_attached:
            return
        self._hands[review.hand_number] = review
        current = self._flat[self._at] if self._at is not None else None
        self._flat = [(k, i) for k in sorted(self._hands)
                      for i in range(len(self._hands[k].decisions))]
        self._draw_summary()
        if current is not None:
            self._at = self._flat.index(current)
        elif self._flat:
            self._show(0)
        elif len(self._hands) == 1:
            self._show_hand_only(review.hand_number)

    def _finished(self) -> None:
        if not self.is_attached:
            return
        self.done = True
        self.query_one("#rv-progress").display = False
        self._draw_summary()
        if not self._flat:
            self.query_one("#rv-verdict", Static).update(Text(_(
                "No decision to review: every turn had a single legal action.")))

    def _fail(self, error: str) -> None:
        if not self.is_attached:
            return
        self._failed = error
        self.done = True
        self.query_one("#rv-progress").display = False
        self.query_one("#rv-summary", Static).update(Text(
            _("The review could not be made: {error}").format(error=error), style="bold red"))

    # -- drawing -----------------------------------------------------------------------

    def _draw_summary(self) -> None:
        if self._failed:
            return
        many = len(self._wanted) > 1
        if self._whole:
            title = _("Review of your match")
        else:
            title = _("Review of hand {n}").format(n=self._wanted[0] if self._wanted else 1)
        line = Text(title, style="bold #7fd1ff")
        decisions = [d for k in sorted(self._hands) for d in self._hands[k].decisions]
        if decisions:
            from ..review import accuracy_of

            acc = accuracy_of(decisions)
            lost = sum(d.loss for d in decisions)
            worst = sum(1 for d in decisions if d.grade.severity >= 3)
            line.append(" · " + _("accuracy {accuracy:.0f} of 100").format(accuracy=acc),
                        style="bold")
            line.append(" · " + _("{lost:.1f} points lost").format(lost=local_number(lost)))
            line.append(" · " + ngettext("{n} decision", "{n} decisions", len(decisions))
                        .format(n=len(decisions)))
            if worst:
                line.append(" · " + ngettext("{n} mistake or blunder", "{n} mistakes or "
                                             "blunders", worst).format(n=worst),
                            style="bold #ff9f43")
        if many and len(self._hands) < len(self._wanted):
            line.append(" · " + _("{done} of {total} hands reviewed").format(
                done=len(self._hands), total=len(self._wanted)), style="dim")
        if decisions:  # the marks' key, always in sight (the detail's own can scroll away)
            line.append("\n")
            for n, grade in enumerate(("inaccuracy", "mistake", "blunder")):
                line.append(" · " if n else "")
                line.append(GRADE_MARKS[grade].strip(), style=_GRADE_STYLE[grade])
                line.append(" " + _grade_words(grade), style="dim")
        self.query_one("#rv-summary", Static).update(line)

    def _moves(self, review: HandReview) -> list[Option]:
        """The hand's moves in words, the person's decisions marked by grade and selectable;
        the computer's moves and forced ones are there to read, not to choose."""
        hand = self._match.hands[review.hand_number - 1]
        pile: list[Card] = [hand.deck[20]] if hand.deck is not None else []
        by_ply = {d.ply: i for i, d in enumerate(review.decisions)}
        out = []
        for ply, (player, action) in enumerate(review.history):
            taken = None
            if isinstance(action, TakeUpcard | TakeDiscard) and pile:
                taken = pile.pop()
            elif isinstance(action, Discard):
                pile.append(action.card)
            words = action_words(self._names[player], action, taken, over=True)
            index = by_ply.get(ply) if player == self._player else None
            if index is None:
                out.append(Option(_hanging("", Text(words, style="dim")), disabled=True))
                continue
            grade = review.decisions[index].grade.value
            out.append(Option(_hanging(GRADE_MARKS[grade], Text(
                words, style="bold" if grade in ("best", "good") else _GRADE_STYLE[grade]),
                _GRADE_STYLE[grade]), id=f"d{review.hand_number}-{index}"))
        return out

    def _list_hand(self, number: int) -> None:
        if self._hand_shown == number:
            return
        self._hand_shown = number
        moves = self.query_one("#rv-moves", OptionList)
        moves.clear_options()
        moves.add_options(self._moves(self._hands[number]))

    def _show_hand_only(self, number: int) -> None:
        self._list_hand(number)
        self.query_one("#rv-title", Static).update(Text(_("Hand {n}").format(n=number),
                                                        style="bold"))

    def _show(self, at: int) -> None:
        """Show the decision at place ``at`` of all the decisions reviewed so far."""
        if not self._flat:
            return
        at %= len(self._flat)
        self._at = at
        number, index = self._flat[at]
        review = self._hands[number]
        decision = review.decisions[index]
        self._list_hand(number)
        moves = self.query_one("#rv-moves", OptionList)
        option = moves.get_option_index(f"d{number}-{index}")
        if moves.highlighted != option:
            moves.highlighted = option
        self._draw_decision(review, index, decision)

    def _draw_decision(self, review: HandReview, index: int, d: DecisionReview) -> None:
        four = self._four
        kind = {"upcard": _("the upcard"), "draw": _("the draw"), "discard": _("the discard"),
                "knock": _("knock or play on"), "gin": _("gin or play on")}[d.kind.value]
        title = Text(_("Hand {hand} · decision {n} of {total}: {kind}").format(
            hand=review.hand_number, n=index + 1, total=len(review.decisions), kind=kind),
            style="bold #7fd1ff")
        self.query_one("#rv-title", Static).update(title)
        self._draw_hand(d)
        self.query_one("#rv-position", Static).update(self._position(d, four))
        self.query_one("#rv-verdict", Static).update(self._verdict(d, four))
        self.query_one("#rv-detail", VerticalScroll).scroll_home(animate=False)

    def _draw_hand(self, d: DecisionReview) -> None:
        """His cards as he held them, grouped into their best melds; the card just drawn or
        taken marked, the card he threw (if he threw one) selected, the better one hinted."""
        view = d.view
        layout = best_melds(view.hand)
        order: list[Card] = []
        starts: set[int] = set()
        for meld in layout.melds:
            starts.add(len(order))
            order.extend(meld)
        if layout.unmatched:
            starts.add(len(order))
            order.extend(layout.unmatched)
        starts.discard(0)
        melded = {c for m in layout.melds for c in m}
        thrown = _card_of(d.chosen_action)
        better = _card_of(d.best_action) if d.chosen != d.best else None
        for i, widget in enumerate(self.query(CardWidget).results(CardWidget)):
            if i >= len(order):
                widget.hide()
                continue
            card = order[i]
            widget.show_face(card, four_colour=self._four)
            widget.mark("-group", i in starts)
            widget.mark("-meld", card in melded)
            widget.mark("-new", card == view.drawn_card)
            widget.mark("-taken", card == view.taken_card)
            widget.mark("-selected", card == thrown)
            widget.mark("-hinted", card == better)

    def _position(self, d: DecisionReview, four: bool) -> Text:
        view = d.view
        layout = best_melds(view.hand)
        text = Text(_("Your deadwood: {n}").format(n=layout.deadwood), style="bold")
        if layout.melds:
            text.append(" · " + _("melds:") + " ")
            for n, meld in enumerate(layout.melds):
                if n:
                    text.append(" ")
                text.append_text(meld_ink(meld, four))
        if view.drawn_card is not None:
            text.append("\n" + _("drawn:") + " ")
            text.append_text(card_ink(view.drawn_card, four))
        if view.taken_card is not None:
            text.append("\n" + _("taken from the pile:") + " ")
            text.append_text(card_ink(view.taken_card, four))
        top = view.discard_pile[-1] if view.discard_pile else None
        text.append("\n")
        if view.phase is Phase.OFFER and top is not None:
            text.append(_("Upcard offered:") + " ", style="bold")
            text.append_text(card_ink(top, four))
        elif top is not None:
            text.append(_("Top of the pile:") + " ", style="bold")
            text.append_text(card_ink(top, four))
            below = list(reversed(view.discard_pile[:-1]))[:6]
            if below:
                text.append(" · " + _("below:") + " ", style="dim")
                text.append_text(cards_ink(below, four))
        else:
            text.append(_("The pile is empty."), style="dim")
        text.append(" · " + ngettext("stock {n} card", "stock {n} cards", view.stock_count)
                    .format(n=view.stock_count))
        other = self._names[1 - view.player]
        text.append("\n" + ngettext("{name}: {n} card", "{name}: {n} cards",
                                    view.opponent_card_count).format(
            name=other, n=view.opponent_card_count))
        if view.opponent_known:
            text.append(" · " + _("known from the pile:") + " ")
            text.append_text(cards_ink(view.opponent_known, four))
        return text

    def _verdict(self, d: DecisionReview, four: bool) -> RenderableType:
        from ..review.text import describe_action

        hand = d.view.hand
        grade = d.grade.value
        parts: list[RenderableType] = []
        chose = Text(_("You chose:") + " ", style="bold")
        chose.append(describe_action(d.chosen_action, hand))
        chose.append(" — ")
        chose.append(_grade_words(grade) + " " + GRADE_MARKS[grade].strip(),
                     style=_GRADE_STYLE[grade])
        parts.append(Text(""))
        parts.append(chose)
        if d.chosen != d.best and d.loss < 0.05:  # another choice, but no measurable loss
            best = describe_action(d.best_action, hand)
            # "did as well" only where the points say so too (it was said of a choice the
            # table showed 1.9 points behind; a QA pass)
            said = (_("The best found was to {best}; yours did as well on these deals.")
                    if d.points_gap < 0.05 else
                    _("The best found was to {best}; its lead over yours is within chance "
                      "on these deals."))
            parts.append(Text(said.format(best=best), style="#6ee07a"))
        elif d.chosen != d.best:
            low, high = d.loss_interval
            better = Text(_("Better:") + " ", style="bold")
            better.append(describe_action(d.best_action, hand), style="bold #6ee07a")
            parts.append(better)
            parts.append(Text(_("You lost {loss:.1f} expected points (95%: {low:.1f} to "
                                "{high:.1f}).").format(loss=local_number(d.loss),
                                                       low=local_number(low),
                                                       high=local_number(high))))
            if d.loss_below_gap:
                # Translators: under a loss smaller than the gap the table's points column
                # shows (the loss is cross-fitted: docs/review.md, "No winner's curse").
                parts.append(Text(_("Your loss is less than the gap in points: each choice is "
                                    "held against a best picked on other deals, so the "
                                    "review's own luck is not charged to you."), style="dim"))
        else:
            parts.append(Text(_("That was the best choice found."), style="#6ee07a"))
        if d.equity_best is not None and d.equity_best != d.best:
            parts.append(Text(_("On the score sheet the best is to {action}.").format(
                action=describe_action(d.choices[d.equity_best].action, hand)), style="dim"))
        parts.append(Text(""))
        parts.append(self._choices(d))
        h = d.hindsight
        if h is not None:
            line = Text(_("Hindsight (not used for the grade):") + " ", style="italic dim")
            line.append(_("{name} held").format(name=self._names[1 - d.player]) + " ",
                        style="dim")
            line.append_text(cards_ink(h.opponent_hand, four))
            if d.chosen == d.best:
                outcome = _("on the real cards your choice scores {mine:+d}.").format(
                    mine=h.chosen_points)
            else:
                worked = _("it worked out") if h.worked_out else _("it did not work out")
                outcome = _("on the real cards your choice scores {mine:+d}, the better one "
                            "{best:+d}: {worked}.").format(mine=h.chosen_points,
                                                           best=h.best_points, worked=worked)
            line.append("; " + outcome, style="dim")
            parts.append(Text(""))
            parts.append(line)
        parts.append(Text(""))
        parts.append(Text(_("In the move list ?! marks an inaccuracy, ? a mistake, ?? a blunder. "
                            "A loss is in expected points against the best choice, both "
                            "players then playing on as the expert's playouts do."),
                          style="dim"))
        return Group(*parts)

    def _choices(self, d: DecisionReview) -> Table:
        """The choices, best first: the expected points of each for you and what it loses."""
        from ..review.text import describe_action

        table = Table(box=None, show_header=True, padding=(0, 1, 0, 0), pad_edge=False,
                      header_style="dim")
        table.add_column(_("choice"), no_wrap=False, ratio=1)
        table.add_column(_("points"), justify="right", no_wrap=True)
        table.add_column(_("loss"), justify="right", no_wrap=True)
        ranked = sorted(range(len(d.choices)), key=lambda i: -d.choices[i].points)
        shown = ranked[:4]
        if d.chosen not in shown:
            shown.append(d.chosen)
        for i in shown:
            c = d.choices[i]
            name = Text("▸ " if i == d.chosen else "  ")
            name.append(describe_action(c.action, d.view.hand),
                        style=_GRADE_STYLE[c.grade.value] if i == d.chosen else "")
            table.add_row(name, f"{local_number(c.points):+.1f}",
                          "–" if c.loss == 0 else f"{local_number(c.loss):.1f}")
        if len(d.choices) > len(shown):
            more = len(d.choices) - len(shown)
            table.add_row(Text(ngettext("  and {n} more choice", "  and {n} more choices",
                                        more).format(n=more), style="dim"), "", "")
        return table

    # -- keys and clicks ---------------------------------------------------------------

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        ident = event.option.id
        if ident is None or not ident.startswith("d"):
            return
        number, index = (int(x) for x in ident[1:].split("-"))
        place = self._flat.index((number, index))
        if place != self._at:
            self._show(place)

    def action_step(self, step: int) -> None:
        if self._flat:
            self._show((self._at or 0) + step if self._at is not None else 0)

    def action_jump(self, where: int) -> None:
        if self._flat:
            self._show(where)

    def action_hand(self, step: int) -> None:
        """The first decision of the previous or next hand reviewed."""
        if not self._flat or self._at is None:
            return
        numbers = sorted({k for k, _i in self._flat})
        current = self._flat[self._at][0]
        target = numbers[(numbers.index(current) + step) % len(numbers)]
        self._show(self._flat.index(next(p for p in self._flat if p[0] == target)))

    def action_mistake(self) -> None:
        """The next decision graded an inaccuracy or worse (marked in the move list)."""
        if not self._flat:
            return
        start = self._at if self._at is not None else -1
        for step in range(1, len(self._flat) + 1):
            place = (start + step) % len(self._flat)
            number, index = self._flat[place]
            if self._hands[number].decisions[index].grade.severity >= 2:
                self._show(place)
                return
        self.notify(_("No inaccuracy, mistake or blunder here."), timeout=3)

    def action_close(self) -> None:
        """Leave the review: the work stops (hands done so far stay kept), the game is as it
        was."""
        self._stop.set()
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        ident = (event.button.id or "").removeprefix("rv-")
        if ident == "previous":
            self.action_step(-1)
        elif ident == "next":
            self.action_step(1)
        elif ident == "mistake":
            self.action_mistake()
        elif ident == "close":
            self.action_close()


def _hanging(mark: str, words: Text, style: str = "") -> Table:
    """A move list line: its mark in a margin, the words wrapping under themselves."""
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(width=2, no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(Text(mark, style=style), words)
    return grid


def _card_of(action: Any) -> Card | None:
    """The card an action throws (a discard, or a knock's discard), if any."""
    if isinstance(action, Discard | Knock):
        card: Card | None = action.card
        return card
    return None
