"""The game review for the web: ``POST /api/tables/TABLE/review``.

A seat (its token says which) asks for the review of one finished hand of its match, or
for the list of the match's hands and what is reviewed.  The review shows that seat's
decisions from that seat's view only; the hindsight lines (the opponent's real cards)
come only in hands that are over, where the hand's end has shown both hands (R3.4), and
a hand not over is refused (``not_over``).

A hand's review costs about a second of CPU, so it never runs on the event loop nor on
its threads: a small pool of worker **processes** makes it (``serve --review-workers``,
default 1), from a plain copy of the match's log taken under no lock (the match goes on
meanwhile).  Each review is kept in the store (``hg_reviews``, per table, hand, seat and
method), so a reload or a second look reads it back; two requests for the same review
while it is being made share the one computation; past :data:`MAX_WAITING` reviews
waiting, a request is answered ``busy`` with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from ..actions import Discard, Pass, TakeDiscard, TakeUpcard
from ..cards import Card, parse_cards
from ..match import Match
from ..melds import best_melds
from ..review.saved import match_log
from ..store import PersistentMatch, ReviewRow, Store, StoreError
from .options import TableError
from .tables import TABLE_ID_RE

if TYPE_CHECKING:
    from ..review import ReviewSettings
    from .tables import TableManager

__all__ = ["MAX_WAITING", "Reviewer", "token_ok"]

log = logging.getLogger("hollywood_gin.web")

#: Reviews that may wait for a worker at once; past it requests are answered ``busy``.
MAX_WAITING = 32
BUSY_RETRY = 5  # seconds a busy answer asks the page to wait
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _leave_interrupts_to_the_server() -> None:
    """A review worker ignores Ctrl+C: the server shuts the pool down itself, and a worker
    interrupted in its queue's read printed a traceback at every stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def token_ok(token: object) -> bool:
    """A seat token's shape, checked before the store is asked."""
    return isinstance(token, str) and 16 <= len(token) <= 64 and set(token) <= TOKEN_CHARS


def _layout(cards: list[str]) -> dict[str, Any]:
    layout = best_melds(parse_cards(" ".join(cards))) if cards else None
    if layout is None:
        return {"melds": [], "unmatched": [], "deadwood": 0}
    return {"melds": [[c.text for c in m] for m in layout.melds],
            "unmatched": [c.text for c in layout.unmatched], "deadwood": layout.deadwood}


def _moves(match: Match, number: int) -> list[list[Any]]:
    """The finished hand's public log, ``[player, action, card]`` with the pile card each
    pass, take and discard moved (as the table's log names them)."""
    hand = match.hands[number - 1]
    pile: list[Card] = [hand.deck[20]] if hand.deck is not None else []
    out: list[list[Any]] = []
    for player, action in hand.history:
        card: Card | None = None
        if isinstance(action, TakeUpcard | TakeDiscard):
            card = pile.pop() if pile else None
        elif isinstance(action, Pass):
            card = pile[-1] if pile else None
        elif isinstance(action, Discard):
            card = action.card
            pile.append(card)
        out.append([player, str(action), None if card is None else card.text])
    return out


def _for_the_page(text: str, moves: list[list[Any]]) -> dict[str, Any]:
    """A kept hand review as the page draws it: each decision's cards laid out in their
    best melds, and the hand's moves with their public cards."""
    data: dict[str, Any] = json.loads(text)
    for decision in data.get("decisions", []):
        cards = decision["view"]["hand"]
        decision["layout"] = _layout(cards)
        for choice in decision["choices"]:  # a knock that leaves no deadwood is a gin
            verb, _, card = choice["action"].partition(" ")
            if verb == "knock":
                choice["gin"] = _layout([c for c in cards if c != card])["deadwood"] == 0
    data["moves"] = moves
    return data


class Reviewer:
    """Hand reviews for the seats of web tables, made in worker processes and kept."""

    def __init__(self, manager: TableManager, *, settings: ReviewSettings | None = None,
                 workers: int = 1) -> None:
        from ..review import ReviewSettings

        self.manager = manager
        self.store: Store = manager.store
        self.settings = settings or ReviewSettings()
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._making: dict[tuple[str, int, int], asyncio.Future[str]] = {}

    @property
    def method(self) -> str:
        from ..review.saved import method_key

        return method_key(self.settings)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def pool(self) -> ProcessPoolExecutor:
        """The worker processes (made on first use), for the reviews and the hints."""
        if self._pool is None:
            # A fresh interpreter per worker: forking a server with threads is not safe.
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_leave_interrupts_to_the_server)
        return self._pool

    # -- the request -----------------------------------------------------------------------

    async def answer(self, table_id: str, token: object, hand: object) -> dict[str, Any]:
        """The body of a review request: the hands (no ``hand``), or one hand's review."""
        seat, match, names = await self._seat(table_id, token)
        if hand is None:
            return await self._summary(table_id, seat, match, names)
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= len(
                match.hands):
            raise TableError(400, "hand", f"hand must be a whole number from 1 to "
                             f"{len(match.hands)}, the hands dealt so far")
        if not match.hands[hand - 1].is_over:
            raise TableError(409, "not_over", f"hand {hand} is not over: only finished hands "
                             "are reviewed (R3.4)")
        # A finished hand never changes: what is read of it now is what is reviewed, while
        # the table goes on (nothing of the match is read after an await but this).
        moves = _moves(match, hand)
        snapshot = (match.rules.to_dict(), match.seed, match.first_dealer,
                    match_log(match, hand))
        data = await self._hand(table_id, seat, snapshot, hand)
        page = await self.manager.run(_for_the_page, data, moves)
        return {"table": table_id, "seat": seat, "names": list(names), "hand": hand,
                "finished": match.finished, "review": page}

    async def _seat(self, table_id: str, token: object) -> tuple[int, Match, tuple[str, str]]:
        """The seat a token opens, and its match (the live table's, which goes on while it
        is read: only finished hands are read, and they never change; or replayed from
        the store)."""
        if not TABLE_ID_RE.fullmatch(table_id):
            raise TableError(404, "no_table", "no such table")
        if not token_ok(token):
            raise TableError(403, "token", "the token does not open a seat at this table")
        assert isinstance(token, str)
        seat = await self.manager.run(self.store.seat_of_token, table_id, token)
        if seat is None:
            raise TableError(403, "token", "the token does not open a seat at this table")
        live = self.manager.live(table_id)
        if live is not None:
            return seat, live.pm.match, live.info.names
        try:
            pm: PersistentMatch = await self.manager.run(self.store.open_match, table_id)
            seats = await self.manager.run(self.store.seats, table_id)
        except StoreError:
            raise TableError(404, "no_table", "no such table") from None
        names = (seats.get(0, pm.players[0]), seats.get(1, pm.players[1]))
        return seat, pm.match, names

    async def _summary(self, table_id: str, seat: int, match: Match, names: tuple[str, str]
                       ) -> dict[str, Any]:
        rows = await self.manager.run(self.store.review_rows, [table_id])
        mine = {r.hand_number: r for r in rows if r.seat == seat and r.method == self.method}
        hands = []
        for k, hand in enumerate(match.hands, 1):
            row = mine.get(k)
            result = hand.result
            hands.append({
                "hand": k, "over": hand.is_over,
                "reviewed": row is not None,
                "accuracy": None if row is None else row.accuracy,
                "decisions": None if row is None else row.decisions,
                "points_lost": None if row is None else row.points_lost,
                "winner": None if result is None else result.winner,
                "points": None if result is None else result.points,
            })
        return {"table": table_id, "seat": seat, "names": list(names),
                "finished": match.finished, "hands": hands,
                "accuracy": _match_accuracy(list(mine.values()), match)}

    async def _hand(self, table_id: str, seat: int, snapshot: tuple[Any, ...], number: int
                    ) -> str:
        """The kept review's JSON, or a new one made in a worker process and kept."""
        method = self.method
        kept = await self.manager.run(self.store.reviews, table_id, seat, method, [number])
        if number in kept:
            return kept[number]
        key = (table_id, number, seat)
        waiting = self._making.get(key)
        if waiting is None:
            if len(self._making) >= MAX_WAITING:
                raise TableError(503, "busy", "the server is reviewing many hands: try again "
                                 "in a few seconds", retry_after=BUSY_RETRY)
            waiting = asyncio.get_running_loop().create_future()
            self._making[key] = waiting
            asyncio.get_running_loop().create_task(
                self._make(key, waiting, snapshot, number, seat, method))
        return await asyncio.shield(waiting)

    async def _make(self, key: tuple[str, int, int], done: asyncio.Future[str],
                    snapshot: tuple[Any, ...], number: int, seat: int, method: str) -> None:
        from ..review.saved import review_from_log

        try:
            loop = asyncio.get_running_loop()
            rules, seed, first_dealer, log_ = snapshot
            data, row = await loop.run_in_executor(
                self.pool(), review_from_log, rules, seed, first_dealer, log_, seat,
                self.settings)
            kept = ReviewRow(key[0], number, seat, method, row.created_at, row.decisions,
                             row.accuracy, row.points_lost)
            await self.manager.run(self.store.save_review, kept, data)
        except Exception as exc:
            log.exception("reviewing hand %s of table %s failed", number, key[0])
            if not done.done():
                done.set_exception(TableError(503, "review", f"the review could not be made: "
                                              f"{type(exc).__name__}"))
                done.exception()  # marked seen: nobody may be waiting any more
        else:
            if not done.done():
                done.set_result(data)
        finally:
            self._making.pop(key, None)


def _match_accuracy(rows: list[ReviewRow], match: Match) -> float | None:
    if not match.finished or len(rows) != len(match.hands):
        return None
    decisions = sum(r.decisions for r in rows)
    if not decisions:
        return None
    return sum((r.accuracy or 0.0) * r.decisions for r in rows) / decisions
