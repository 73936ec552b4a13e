"""The game in the terminal: a Hollywood match against the computer (``hollywood-gin play``).

The screen shows only the person's view (R3.4): his hand grouped into its
best melds with the deadwood live, the pile (public, R4.4), the stock count,
the computer's card count and the cards it is known to hold.  Every action
goes through :class:`~.session.GameSession`, so it is saved before it is
shown; an illegal attempt shows the engine's reason and changes nothing.

The screens live beside this module: :mod:`.table` draws the table,
:mod:`.game` plays on it, :mod:`.handend` and :mod:`.dialogs` are the rest.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import App

from ..errors import HollywoodGinError
from ..rules import PRESETS, Rules
from ..store import Store
from .dialogs import HelpScreen, NewMatch, NewMatchScreen
from .game import GameScreen
from .handend import HandEndScreen, MatchEndScreen
from .session import COMPUTER, BotFactory, GameSession, Hinter, default_bot, default_hint, resumable
from .table import KEY_NAMES
from .widgets import AskScreen

__all__ = ["KEY_NAMES", "GameScreen", "GinApp", "HandEndScreen", "HelpScreen", "MatchEndScreen",
           "NewMatch", "NewMatchScreen"]



class GinApp(App[None]):
    """``hollywood-gin play``: resume the unfinished match, or start a new one."""

    TITLE = "Hollywood Gin"
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
        delay: float = 0.7,
        four_colour: bool = False,
        bot_factory: BotFactory = default_bot,
        hinter: Hinter = default_hint,
    ) -> None:
        """``ask`` False starts at once with the given level and rules (for tests and
        scripts); ``delay`` is the pause before each computer move, in seconds."""
        super().__init__()
        self.store = store
        self.level = level
        self.rules = rules if rules is not None else PRESETS["hollywood"]
        self.seed = seed
        self.first_dealer = first_dealer
        self.new = new
        self.ask = ask
        self.delay = delay
        self.four_colour = four_colour
        self.bot_factory = bot_factory
        self.hinter = hinter

    def get_default_screen(self) -> GameScreen:
        return GameScreen()

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
        self.call_after_refresh(self._start)

    def _start(self) -> None:
        row = None if self.new else resumable(self.store)
        if row is None:
            self.ask_new_match(first=True)
            return
        try:
            session = GameSession.resume(self.store, row.id, bot_factory=self.bot_factory,
                                         hinter=self.hinter)
        except (HollywoodGinError, ImportError) as exc:
            self.game.say(f"The saved match {row.id[:8]} cannot be resumed: {exc}", error=True)
            self.ask_new_match(first=True)
            return
        totals = session.sheet.totals
        question = Text(
            f"You have an unfinished match against {session.names[COMPUTER]}, "
            f"started {session.started()}: hand {session.hand_number}, "
            f"you {totals[0]} – computer {totals[1]}.\n"
            "Resume it exactly where it stopped?")

        def answered(resume: bool | None) -> None:
            if resume:
                self.game.attach(session)
            else:
                session.abandon()
                self.ask_new_match(first=True)

        self.push_screen(AskScreen("Resume?", question, ("Resume", "r"), ("New match", "n")),
                         answered)

    def ask_new_match(self, first: bool = False) -> None:
        """The new-match dialog, or a match at once when not asking."""
        if not self.ask and first:
            self.start_match(NewMatch(self.level, self.rules, self.first_dealer))
            return
        custom = None if self.rules.preset_name else self.rules

        def chosen(choice: NewMatch | None) -> None:
            if choice is not None:
                old = self.session
                if old is not None and not old.match.finished:
                    old.abandon()
                self.start_match(choice)
            elif self.session is None:
                self.exit()

        self.push_screen(NewMatchScreen(level=self.level, preset=self.rules.preset_name,
                                        custom=custom, first_dealer=self.first_dealer), chosen)

    def start_match(self, choice: NewMatch) -> None:
        try:
            session = GameSession.new(self.store, level=choice.level, rules=choice.rules,
                                      seed=self.seed, first_dealer=choice.first_dealer,
                                      bot_factory=self.bot_factory, hinter=self.hinter)
        except ImportError as exc:
            self.game.say(f"The computer players are not installed: {exc}", error=True)
            return
        self.level, self.rules = choice.level, choice.rules
        self.seed = None  # a seed given on the command line deals the first match only
        self.game.attach(session)
