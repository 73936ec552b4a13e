"""The lobby's requests: create a table, join a friend's, list this browser's tables, abandon
one.  Each checks what it is sent and answers with a :class:`TableError` code when it
refuses; the live tables themselves are :mod:`.tables`'s."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from typing import Any, NamedTuple

from sqlalchemy.exc import IntegrityError

from ..store import PersistentMatch, Store, StoreError
from .options import DEFAULT_PRESET, LEVELS, TableError, clean_name, rules_from
from .tables import TABLE_ID_RE, TableManager

__all__ = ["MAX_LISTED", "Created", "Lobby"]

log = logging.getLogger("hollywood_gin.web")

#: Tables one "my tables" request may ask about (a browser keeps this many at most).
MAX_LISTED = 30
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class Created(NamedTuple):
    """A new table: the answer for its creator, and what was chosen for it (the level and
    preset a request left out get their defaults), for the log."""

    answer: dict[str, Any]
    level: int | None
    preset: str


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _summary(store: Store, table_id: str, token: str, method: str | None = None
             ) -> dict[str, Any] | None:
    """What the lobby lists of one table, if ``token`` opens a seat at it (a store call);
    with the seat's accuracy over the match once every hand of a finished match has a
    review made by ``method``."""
    seat = store.seat_of_token(table_id, token)
    if seat is None:
        return None
    stored = store.load(table_id)
    seats = store.seats(table_id)
    match = PersistentMatch(store, stored).match
    meta = stored.meta
    names = [seats.get(s, stored.players[s]) for s in (0, 1)]
    opponent = "computer" if meta.get("opponent") == "computer" else "friend"
    hand = match.hand
    accuracy = None
    if method is not None and match.finished:
        from ..review.saved import match_accuracies

        rows = [r for r in store.review_rows([table_id]) if r.method == method]
        found = match_accuracies(rows, {table_id: len(match.hands)}).get((table_id, seat))
        accuracy = None if found is None else found.accuracy
    return {
        "table": table_id,
        "seat": seat,
        "status": stored.status,
        "opponent": opponent,
        "names": names,
        "level": meta.get("level") if opponent == "computer" else None,
        "preset": match.rules.preset_name,
        "rules": match.rules.to_dict(),
        "joined": opponent == "computer" or (1 - seat) in seats,
        "hand_number": len(match.hands),
        "your_turn": not hand.is_over and hand.to_act == seat,
        "totals": list(match.sheet.totals),
        "games_won": list(match.sheet.games_won),
        "created_at": stored.created_at,
        "updated_at": stored.updated_at,
        "accuracy": accuracy,
    }


class Lobby:
    """Creating, joining, listing and abandoning tables, over a :class:`TableManager`."""

    def __init__(self, manager: TableManager, review_method: str | None = None) -> None:
        """``review_method`` is the key of the reviews the server makes (the lobby lists a
        finished match's accuracy from them)."""
        self.manager = manager
        self.store = manager.store
        self.review_method = review_method

    async def create(
        self, *, opponent: object, level: object, preset: object, rules: object, name: object
    ) -> Created:
        """A new table with its first hand dealt; answers seat 0's token (and an invite)."""
        if opponent not in ("computer", "friend"):
            raise TableError(400, "opponent", "opponent must be 'computer' or 'friend'")
        chosen = rules_from(preset, rules)
        me = clean_name(name, "You")
        invite: str | None = None
        extra: dict[str, Any] = {}
        if opponent == "computer":
            if level is None:
                level = 3
            # 3.0 == 3 and True == 1: the type is checked, not only the value
            if type(level) is not int or level not in LEVELS:
                raise TableError(400, "level", "level must be a whole number from 1 to 5")
            try:  # fail now, not at the computer's first turn
                self.manager.bot_factory(f"level{level}", 0)
            except Exception as exc:
                log.exception("no computer player")
                raise TableError(503, "unavailable",
                                 f"the computer player is not available: {exc}") from None
            names = (me, "Computer")
        else:
            if level is not None:  # "garbage" was taken without a word
                raise TableError(400, "level", "a friend's table has no computer player, so "
                                 "no level: leave level out")
            invite = secrets.token_urlsafe(18)
            extra["invite"] = _hash(invite)
            names = (me, "Friend")
        preset_name = preset if isinstance(preset, str) else DEFAULT_PRESET
        table, tokens = await self.manager.new_table(
            rules=chosen, names=names, opponent="computer" if opponent == "computer" else "friend",
            preset=preset_name, level=level, seats=(0,), extra=extra)
        out: dict[str, Any] = {"table": table, "seat": 0, "token": tokens[0]}
        if invite is not None:
            out["invite"] = invite
        return Created(out, level if type(level) is int else None, preset_name)

    async def join(self, table_id: str, *, invite: object, name: object) -> dict[str, Any]:
        """Claim seat 1 of a friend table with its invite code (once)."""
        if not TABLE_ID_RE.fullmatch(table_id):
            raise TableError(404, "no_table", "no such table")
        if not isinstance(invite, str) or len(invite) > 64:
            raise TableError(400, "invite", "invite must be the code from the invite link")
        friend = clean_name(name, "Friend")
        try:
            stored = await self.manager.run(self.store.load, table_id)
        except StoreError:
            raise TableError(404, "no_table", "no such table") from None
        expected = stored.meta.get("invite")
        if not isinstance(expected, str) or not hmac.compare_digest(expected, _hash(invite)):
            raise TableError(403, "invite", "this invite code does not open the table")
        try:
            token = await self.manager.run(self.store.add_seat, table_id, 1, friend)
        except IntegrityError:
            raise TableError(409, "seat_taken",
                             "your friend's seat at this table is taken already") from None
        await self.manager.seat_joined(table_id, 1, friend)
        return {"table": table_id, "seat": 1, "token": token}

    async def mine(self, seats: object) -> dict[str, Any]:
        """This browser's tables: for each ``{"table", "token"}`` it keeps, what the lobby
        shows (or ``{"table", "gone": true}`` if the token opens nothing there)."""
        if not isinstance(seats, list) or len(seats) > MAX_LISTED:
            raise TableError(400, "bad_json", f"seats must be a list of at most {MAX_LISTED} "
                             "{table, token} objects")
        out: list[dict[str, Any]] = []
        for item in seats:
            if not (isinstance(item, dict) and set(item) == {"table", "token"}
                    and isinstance(item["table"], str) and isinstance(item["token"], str)):
                raise TableError(400, "bad_json", "each seat must be {table, token}")
            table_id, token = item["table"], item["token"]
            found = None
            if TABLE_ID_RE.fullmatch(table_id) and TOKEN_RE.fullmatch(token):
                try:
                    found = await self.manager.run(_summary, self.store, table_id, token,
                                                   self.review_method)
                except StoreError:
                    log.exception("listing table %s failed", table_id)
            out.append(found if found is not None else {"table": table_id, "gone": True})
        return {"tables": out}

    async def abandon(self, table_id: str, token: object) -> dict[str, Any]:
        """Abandon an unfinished match for good (the seat's token says who): nothing more
        is played at it, and the other seat is told."""
        if not TABLE_ID_RE.fullmatch(table_id) or not isinstance(token, str) \
                or not TOKEN_RE.fullmatch(token):
            raise TableError(403, "token", "the token does not open a seat at this table")
        seat = await self.manager.run(self.store.seat_of_token, table_id, token)
        if seat is None:
            raise TableError(403, "token", "the token does not open a seat at this table")
        done = await self.manager.abandon(table_id, seat)
        if done == "finished":
            raise TableError(409, "finished", "the match is over already")
        return {"table": table_id, "status": "abandoned", "already": done == "already"}
