"""The game in the terminal: a Hollywood match against the computer (``hollywood-gin play``).

The screen shows only the person's view (R3.4): his hand grouped into its
best melds with the deadwood live, the pile (public, R4.4), the stock count,
the computer's card count and the cards it is known to hold.  Every action
goes through :class:`~.session.GameSession`, so it is saved before it is
shown; an illegal attempt says why and changes nothing.

At the start: one unfinished match is offered for resuming, several are listed (the
Saved games screen), none opens the new-match dialog.  Nothing is ever abandoned by
closing a dialog; a new match leaves the others saved.

The screens live beside this module: :mod:`.table` draws the table, :mod:`.game`
plays on it, :mod:`.handend`, :mod:`.review` (the game review), :mod:`.newmatch`,
:mod:`.dialogs` and :mod:`.saved` are the rest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import App

from .. import settings
from ..errors import HollywoodGinError
from ..i18n import _
from ..rules import PRESETS, Rules
from ..store import Store, StoreError
from .dialogs import HelpScreen, PileScreen, RulesScreen
from .game import GameScreen
from .handend import HandEndScreen, MatchEndScreen
from .newmatch import NewMatch, NewMatchScreen
from .saved import NEW, SavedGamesScreen, saved_rows
from .session import COMPUTER, BotFactory, GameSession, Hinter, default_bot, default_hint
from .table import KEY_NAMES
from .widgets import AskScreen, ClickThrough, quit_hint

if TYPE_CHECKING:
    from ..review import ReviewSettings

__all__ = ["KEY_NAMES", "GameScreen", "GinApp", "HandEndScreen", "HelpScreen", "MatchEndScreen",
           "NewMatch", "NewMatchScreen", "PileScreen", "RulesScreen", "SavedGamesScreen"]


class GinApp(App[None]):
    """``hollywood-gin play``: resume an unfinished match, or start a new one."""

    TITLE = "Hollywood Gin"
    ENABLE_COMMAND_PALETTE = False  # Textual's own commands, in English, are not the game's
    CSS = """
    GameScreen { background: #0f2a1d; }
    """

    def __init__(
        self,
        *,
        store: Store,
        level: int = 3,
        rules: Rules | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
        new: bool = False,
        ask: bool = True,
        resume: str | None = None,
        delay: float = 0.7,
        four_colour: bool = False,
        bot_factory: BotFactory = default_bot,
        hinter: Hinter = default_hint,
        review_settings: ReviewSettings | None = None,
    ) -> None:
        """``new`` offers no saved match; ``ask`` False starts at once with the given level
        and rules instead of showing the new-match dialog (given flags mean start now);
        ``resume`` opens that saved match; ``delay`` is the pause before each computer move,
        in seconds; ``review_settings`` how hard the game review looks (its defaults: about
        a second of CPU a hand)."""
        super().__init__()
        self.store = store
        self.level = level
        self.rules = rules if rules is not None else PRESETS["hollywood"]
        self.seed = seed
        self.first_dealer = first_dealer
        self.new = new
        self.ask = ask
        self.resume_id = resume
        self.delay = delay
        self.four_colour = four_colour
        self.bot_factory = bot_factory
        self.hinter = hinter
        self.review_settings = review_settings
        self._click_through = ClickThrough()

    def get_default_screen(self) -> GameScreen:
        return GameScreen()

    async def on_event(self, event: events.Event) -> None:
        """The second click of a double-click that opened a saved game does not click on
        its table (see :class:`ClickThrough`)."""
        if self._click_through.swallows(self, event):
            return
        await super().on_event(event)

    def action_help_quit(self) -> None:
        quit_hint(self)

    def reword(self) -> None:
        """Say everything again in the language now in force (it was just chosen): every
        screen in the stack redraws its words, the footers their key hints."""
        for screen in self.screen_stack:
            reword = getattr(screen, "reword", None)
            if reword is not None:
                reword()
            screen.refresh_bindings()

    @property
    def game(self) -> GameScreen:
        screen = self.screen_stack[0] if self.screen_stack else None
        if not isinstance(screen, GameScreen):
            screen = next(s for s in self.screen_stack if isinstance(s, GameScreen))
        return screen

    @property
    def session(self) -> GameSession | None:
        return self.game.session

    @property
    def busy(self) -> bool:
        """The computer is moving or a hint is being thought out (tests wait for this)."""
        return self.game.thinking or self.game.hinting

    def on_mount(self) -> None:
        # The first dialog goes up before the first frame: keys typed while the program
        # starts land in it, not on the empty table behind it.
        self._start()
        unused = settings.problem()
        if unused is not None:
            self.notify(unused, severity="warning", timeout=12)

    # -- starting ----------------------------------------------------------------------

    def _start(self) -> None:
        if self.resume_id is not None:
            self.resume(self.resume_id, first=True)
            return
        damaged: list[str] = []
        rows = saved_rows(self.store, "match", damaged=damaged)
        for error in damaged:  # the others can still be played
            self.warn(_("A saved match is damaged and left out: {error}").format(error=error))
        if self.new:
            self.ask_new_match(first=True)
            if rows:
                self.game.say(_("Your unfinished matches stay saved: l lists them."))
            return
        if not rows:
            self.ask_new_match(first=True)
        elif len(rows) == 1:
            self._offer_resume(rows[0].id)
        else:
            self.push_screen(self._saved_games(), self._chosen_at_start)

    def _saved_games(self, current: str | None = None) -> SavedGamesScreen:
        return SavedGamesScreen(saved_rows(self.store, "match"),
                                _("Unfinished matches: choose one to resume"), store=self.store,
                                new=_("New match"), current=current)

    def _chosen_at_start(self, match_id: str | None) -> None:
        if match_id is None or match_id == NEW:  # closing the list abandons nothing
            self.ask_new_match(first=True)
        else:
            self.resume(match_id, first=True)

    def _open(self, match_id: str) -> GameSession | None:
        try:
            return GameSession.resume(self.store, match_id, bot_factory=self.bot_factory,
                                      hinter=self.hinter)
        except (HollywoodGinError, ImportError) as exc:
            self.warn(_("The saved match {id} cannot be resumed: {error}").format(
                id=match_id[:8], error=exc))
            return None

    def warn(self, words: str) -> None:
        """An error the player must see even under a dialog: on the table's message line
        and as a notice over whatever screen is up."""
        self.game.say(words, error=True)
        self.notify(words, severity="error", timeout=12)

    def reload_match(self, match_id: str) -> None:
        """Another window played on in this match (its saved log moved on): show it as
        saved, rather than play on from a position that is no longer the match's."""
        session = self._open(match_id)
        if session is None:
            self.game.detach()
            self.ask_new_match()
            return
        self.game.attach(session)
        self.warn(_("This match was played on in another window: it is shown as saved now."))

    def _offer_resume(self, match_id: str) -> None:
        """One unfinished match: resume it, or start a new one (it stays saved)."""
        session = self._open(match_id)
        if session is None:
            self.ask_new_match(first=True)
            return
        totals = session.sheet.totals
        question = Text(_(
            "You have an unfinished match against {name}, started {when}: hand {hand}, "
            "you {you} – computer {computer}.\nResume it exactly where it stopped? "
            "A new match leaves it saved (l lists saved games).").format(
            name=session.names[COMPUTER], when=session.started(), hand=session.hand_number,
            you=totals[0], computer=totals[1]))

        def answered(resume: bool | None) -> None:
            if resume:
                self.game.attach(session)
            else:
                self.ask_new_match(first=True)  # closing the question abandons nothing

        self.push_screen(AskScreen(_("Resume?"), question, (_("Resume"), "r"),
                                   (_("New match"), "n")), answered)

    def resume(self, match_id: str, *, first: bool = False) -> None:
        """Open a saved match (by id or a unique beginning of it) and play on."""
        session = self._open(match_id)
        if session is None:
            if first:
                self.ask_new_match(first=True)
            return
        self.game.attach(session)

    def ask_new_match(self, first: bool = False) -> None:
        """The new-match dialog, or a match at once when not asking.  Cancelling it with no
        match on the table quits; nothing is abandoned either way."""
        if not self.ask and first:
            self.start_match(NewMatch(self.level, self.rules, self.first_dealer))
            return
        if any(isinstance(screen, NewMatchScreen) for screen in self.screen_stack):
            return  # one is open already (an n typed while the program started)

        def chosen(choice: NewMatch | None) -> None:
            if choice is not None:
                self.start_match(choice)
            elif self.session is None:
                self.exit()
            elif self.session.match.finished:
                self.game.show_match_end()

        self.push_screen(NewMatchScreen(level=self.level, rules=self.rules,
                                        first_dealer=self.first_dealer), chosen)

    def start_match(self, choice: NewMatch) -> None:
        try:
            session = GameSession.new(self.store, level=choice.level, rules=choice.rules,
                                      seed=self.seed, first_dealer=choice.first_dealer,
                                      bot_factory=self.bot_factory, hinter=self.hinter)
        except ImportError as exc:
            self.game.say(_("The computer players are not installed: {error}").format(
                error=exc), error=True)
            return
        except StoreError as exc:  # a full disk, a read-only games file
            self.game.say(_("The match could not be started: {error}").format(error=exc),
                          error=True)
            return
        self.level, self.rules = choice.level, choice.rules
        self.seed = None  # a seed given on the command line deals the first match only
        self.game.attach(session)

    def rematch(self) -> None:
        """A new match against the same opponent under the same rules (R7.5: a new match
        may then start); the first dealer is drawn again (R3.1)."""
        session = self.session
        if session is None:
            self.ask_new_match()
            return
        self.start_match(NewMatch(session.level, session.rules, None))

    # -- the other screens ---------------------------------------------------------------

    def show_saved_games(self) -> None:
        """Every unfinished match (this one too): resume another one, start a new one, or
        abandon one in words."""
        current = self.session
        screen = self._saved_games(current.id if current is not None else None)

        def chosen(match_id: str | None) -> None:
            if current is not None and current.id in screen.abandoned:
                self.game.detach()  # this match was given up: no more moves in it
                if match_id is None or match_id in (NEW, current.id):
                    self.ask_new_match()
                    return
            if match_id == NEW:
                self.ask_new_match()
            elif match_id is not None and (current is None or match_id != current.id):
                self.resume(match_id)

        self.push_screen(screen, chosen)

    def show_rules(self) -> None:
        """The rules in force for this match (or the ones a new match would use)."""
        session = self.session
        self.push_screen(RulesScreen(session.rules if session is not None else self.rules))
