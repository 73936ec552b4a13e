"""A live table in a server's memory: the match replayed from the store, the outboxes of
the seats connected to it here, and the computer player if it has one."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..actions import Action
from ..hand import HandView
from ..sheet import ScoreSheet
from ..store import Announcement, PersistentMatch
from .protocol import SharedParts, TableInfo

try:  # several times faster than json.dumps at the frames a server sends most
    import orjson

    def encode(frame: dict[str, Any]) -> str:
        """A frame as compact JSON text."""
        return orjson.dumps(frame).decode()
except ImportError:  # pragma: no cover - the web extra installs it
    def encode(frame: dict[str, Any]) -> str:
        """A frame as compact JSON text."""
        return json.dumps(frame, separators=(",", ":"))

__all__ = [
    "OUTBOX_LIMIT",
    "TABLE_ID_RE",
    "BotFactory",
    "Chooser",
    "Outbox",
    "Table",
    "deal_if_decided",
    "default_bot_factory",
    "encode",
    "table_meta",
]

TABLE_ID_RE = re.compile(r"^[0-9a-f]{32}$")
OUTBOX_LIMIT = 512


class Chooser(Protocol):
    """What the web needs of a bot: the fixed API of ``hollywood_gin.bots``."""

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Action: ...


BotFactory = Callable[[str, int], Chooser]


def default_bot_factory(level: str, seed: int) -> Chooser:
    """The project's bots, imported only when a computer table first needs one."""
    from ..bots import make_bot

    bot: Chooser = make_bot(level, seed=seed)
    return bot


class Outbox:
    """Frames waiting to go to one connection, in order; a writer task drains it."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        self.token: str | None = None  # the seat token its hello opened the seat with

    def put(self, frame: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= OUTBOX_LIMIT:  # a reader this slow is gone: let it reconnect
            self.close(1013)
            return
        self.queue.put_nowait(encode(frame))

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


@dataclass(eq=False)
class Table:
    """One live match and who is at it."""

    pm: PersistentMatch
    info: TableInfo
    computer_seat: int | None
    bot: Chooser | None
    joined: set[int]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    outboxes: tuple[set[Outbox], set[Outbox]] = field(default_factory=lambda: (set(), set()))
    bot_task: asyncio.Task[None] | None = None
    observed: int = 0  # hands the computer has been shown at their end
    # Following other processes: actions announced but not applied yet (by seq), whether
    # the saved row changed (meta, seats), the task applying them, and a wake-up for a
    # computer waiting on another process's lease.
    incoming: dict[int, Announcement] = field(default_factory=dict)
    row_changed: bool = False
    catching: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    shared: SharedParts = field(default_factory=SharedParts)  # what both seats' frames share
    # Who is at this table on the other processes (heard on the bus, ``p`` lines): by
    # (sender, seat), when that word expires (the event loop's clock) unless said again;
    # and whether a frame showing a change of it is on its way.
    elsewhere: dict[tuple[str, int], float] = field(default_factory=dict)
    showing: bool = False

    @property
    def id(self) -> str:
        return self.pm.id

    @property
    def ready(self) -> set[int]:
        """Seats that asked for the next deal of this hand (kept in the saved meta)."""
        saved = self.pm.meta.get("ready")
        match = self.pm.match
        if not (isinstance(saved, dict) and saved.get("hand") == len(match.hands)
                and match.hand.is_over and not match.finished):
            return set()
        return {s for s in saved.get("seats", ()) if s in (0, 1)}

    @property
    def rematch(self) -> tuple[set[int], str | None]:
        """Seats that asked for a rematch, and its table once both have (saved meta)."""
        saved = self.pm.meta.get("rematch")
        if not isinstance(saved, dict):
            return set(), None
        new = saved.get("table")
        return ({s for s in saved.get("seats", ()) if s in (0, 1)},
                new if isinstance(new, str) else None)

    @property
    def abandoned(self) -> int | None:
        """The seat that abandoned the match, if one did (saved meta)."""
        seat = self.pm.meta.get("abandoned_by")
        return seat if seat in (0, 1) else None

    def connected(self) -> tuple[bool, bool]:
        """Whether someone is at each seat: a socket of this process, one of another
        process that said so lately (:attr:`elsewhere`), or the computer."""
        there = {seat for _sender, seat in self.elsewhere}
        return (bool(self.outboxes[0]) or 0 in there or self.computer_seat == 0,
                bool(self.outboxes[1]) or 1 in there or self.computer_seat == 1)


def table_meta(opponent: str, preset: str | None, level: int | None) -> dict[str, Any]:
    """The saved meta of a new web table (``dealt``: hands dealt so far)."""
    meta: dict[str, Any] = {"web": 1, "opponent": opponent, "preset": preset, "dealt": 1}
    if opponent == "computer":
        meta.update(level=level, computer_seat=1, bot_seed=secrets.randbits(62))
    return meta


def deal_if_decided(pm: PersistentMatch) -> None:
    """Deal the next hand if the saved meta says it was decided (both seats were ready)
    and this copy of the match has not dealt it yet."""
    match = pm.match
    dealt = pm.meta.get("dealt", 1)
    if isinstance(dealt, int) and dealt > len(match.hands) and match.hand.is_over \
            and not match.finished:
        match.next_hand()
