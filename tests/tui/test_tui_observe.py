"""Issue 14: the terminal game shows the computer every ended hand (``Bot.observe``), as the
arena does, so the expert learns its opponent in real play, and again after a resume or an
undo (the session reseeds its bot each hand, then replays what it has seen)."""

from __future__ import annotations

from pathlib import Path

from hollywood_gin.actions import Action
from hollywood_gin.bots import Bot, make_bot
from hollywood_gin.hand import HandView, Phase
from hollywood_gin.rules import Rules
from hollywood_gin.sheet import ScoreSheet
from hollywood_gin.store import Store
from hollywood_gin.tui.session import COMPUTER, HUMAN, GameSession


class Watcher(Bot):
    """Plays like ``basic`` and keeps what it is shown since its last reset."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.inner = make_bot("basic", seed=seed)
        self.observed: list[tuple[HandView, ScoreSheet | None]] = []

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.inner.reset(seed)
        self.observed = []

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action:
        return self.inner.choose(view, sheet)

    def observe(self, view: HandView, sheet: ScoreSheet | None = None) -> None:
        self.observed.append((view, sheet))


def _play_hand(session: GameSession, person: Bot) -> None:
    while not session.hand.is_over:
        if session.human_to_act:
            session.act(person.choose(session.view(), session.sheet.copy()))
        else:
            session.computer_act(session.computer_choice())


def test_the_computer_is_shown_each_ended_hand_once_from_its_seat(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    session = GameSession.new(store, level=2, rules=Rules.preset("eaai"), seed=4,
                              first_dealer=0, bot_factory=lambda level, seed: Watcher(seed))
    bot = session.bot
    assert isinstance(bot, Watcher) and bot.observed == []
    person = make_bot("basic", seed=1)
    for played in (1, 2, 3):
        _play_hand(session, person)
        if session.match.finished:
            break
        session.next_hand()
        assert len(bot.observed) == played
        for number, (view, sheet) in enumerate(bot.observed):
            ended = session.match.hands[number]
            assert view == ended.view(COMPUTER) and view.phase is Phase.OVER
            assert view.player == COMPUTER and view.player != HUMAN
            assert sheet is not None
        assert bot.observed[-1][1] is not None
        assert bot.observed[-1][1].totals == session.sheet.totals
    store.close()


def test_a_resumed_expert_knows_the_opponent_as_the_one_that_played(tmp_path: Path) -> None:
    """After ``play`` resumes a saved match, the expert's model of how the person knocks is
    the one the computer had learnt playing the hands before (observe_match)."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    store = Store(url)
    session = GameSession.new(store, level=5, rules=Rules.preset("eaai"), seed=7,
                              first_dealer=0,
                              bot_factory=lambda level, seed: make_bot(
                                  "level5:samples=8,min_samples=8", seed=seed))
    person = make_bot("basic", seed=2)  # knocks as soon as he can: the eager style
    prior = make_bot("expert").opponent.weights()  # type: ignore[attr-defined]
    learnt = prior
    while learnt == prior and not session.match.finished:
        _play_hand(session, person)
        session.next_hand()
        learnt = session.bot.inner.opponent.weights()  # type: ignore[attr-defined]
    assert learnt[0] > prior[0]  # the hands played taught it that he is eager
    store.close()

    store = Store(url)
    resumed = GameSession.resume(store, session.id, bot_factory=lambda level, seed: make_bot(
        "level5:samples=8,min_samples=8", seed=seed))
    assert resumed.bot.inner.opponent.weights() == learnt  # type: ignore[attr-defined]
    store.close()
