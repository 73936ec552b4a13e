"""Hints for the web: ``POST /api/tables/TABLE/hint``.

At a table against the computer, a seat (its token says which) asks on its turn what the
expert would do, and why: the same suggestion as the terminal game's ``h``
(:func:`hollywood_gin.bots.hint`), thought out from that seat's view alone (R3.4: never
the computer's cards nor the stock), with its reason in the page's language.  Between
friends there is no hint: the other player is a person, not the expert's opponent.

The expert thinks for up to half a second of CPU, so the hint is made where the reviews
are (their pool of worker processes), never on the event loop.  The answer carries the
action count it was thought out at: the page drops a hint the game has moved past.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from .. import i18n
from ..cards import Card
from ..hand import HandView
from ..sheet import ScoreSheet
from .options import TableError
from .reviews import token_ok
from .tables import TABLE_ID_RE

if TYPE_CHECKING:
    from .reviews import Reviewer
    from .tables import TableManager

__all__ = ["Hints", "hint_for"]


def hint_for(view: HandView, sheet: ScoreSheet, lang: str) -> tuple[str, str, list[str]]:
    """The expert's action (in the protocol's text form), its reason in ``lang`` and the
    cards the reason names (the page says them by name to a screen reader, which read
    "10♠" as symbols): run in a worker process."""
    from .. import bots
    from ..bots.base import Reason

    suggestion = bots.hint(view, sheet)

    def cards(reason: Reason) -> list[str]:
        out: list[str] = []
        for _name, value in reason.values:
            if isinstance(value, Card):
                out.append(value.text)
            elif isinstance(value, Reason):
                out += cards(value)
        return out

    with i18n.using(lang):
        return str(suggestion.action), suggestion.reason.words(), cards(suggestion.reason)


class Hints:
    """The expert's suggestions for the person at a table against the computer."""

    def __init__(self, manager: TableManager, reviewer: Reviewer) -> None:
        self.manager = manager
        self.reviewer = reviewer

    async def answer(self, table_id: str, token: object) -> dict[str, Any]:
        if not TABLE_ID_RE.fullmatch(table_id):
            raise TableError(404, "no_table", "no such table")
        if not token_ok(token):
            raise TableError(403, "token", "the token does not open a seat at this table")
        assert isinstance(token, str)
        seat = await self.manager.run(self.manager.store.seat_of_token, table_id, token)
        if seat is None:
            raise TableError(403, "token", "the token does not open a seat at this table")
        table = await self.manager.table(table_id)
        if table.info.opponent != "computer":
            raise TableError(409, "friend", "hints are given at tables against the computer, "
                             "not between friends")
        async with table.lock:
            hand = table.pm.match.hand
            if table.abandoned is not None or table.pm.match.finished:
                raise TableError(409, "finished", "the match is over already")
            if hand.is_over or hand.to_act != seat:
                raise TableError(409, "not_your_turn", "a hint is given on your turn")
            view, sheet = hand.view(seat), table.pm.match.sheet.copy()
            seq = table.pm.action_count
        loop = asyncio.get_running_loop()
        action, why, cards = await loop.run_in_executor(self.reviewer.pool(), hint_for, view,
                                                        sheet, i18n.language())
        return {"table": table_id, "seat": seat, "seq": seq, "action": action, "why": why,
                "cards": cards}
