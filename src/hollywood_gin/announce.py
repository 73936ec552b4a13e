"""What a server process announces of the changes it commits, and how the others read it:
the same text whichever engine carries it, PostgreSQL's NOTIFY (the default) or Redis
pub/sub (``serve --bus redis://...``; ``hollywood_gin.web.bus``).

A payload is the sender (a process's random id, so that it skips its own) and then one
line per change: ``a MATCH SEQ HAND PLAYER ACTION`` (an action committed), ``m MATCH``
(the match's row changed: meta, status or seats) or ``l MATCH`` (its bot lease was
released).  These are sent once their change has committed.

Two more are about who is at a table, which no database holds, and go straight on the
bus: ``p MATCH SEAT COUNT`` (the sender now holds COUNT WebSockets open at that seat; 0:
none), sent when a socket attaches or detaches there and again at every sweep while it
holds any, so that a process that died stops counting once it has gone quiet; and
``q MATCH`` (the sender has just loaded the table, or its bus has just come back:
every process with sockets there says its ``p`` lines at once).

Only the standard library: the store and the web layer share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .store import PendingAction

__all__ = ["CHANNEL", "PAYLOAD_LIMIT", "Announcement", "Publisher", "action_line",
           "parse_announcement", "presence_line", "split_payloads"]

#: The channel on which a store that announces (``Store.announce``) says what it
#: committed, once committed: PostgreSQL's NOTIFY by default, else its ``publisher``'s
#: (Redis pub/sub); server processes listen on it (``hollywood_gin.web.bus``).
CHANNEL = "hg_tables"
#: PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: longer announcements are
#: split into several.
PAYLOAD_LIMIT = 7800


@dataclass(frozen=True, slots=True)
class Announcement:
    """One line of a NOTIFY payload: ``kind`` is ``a`` (an action committed: its ``seq``,
    ``hand_number``, ``player`` and ``action``), ``m`` (the match's row changed: meta,
    status or seats), ``l`` (its bot lease was released), ``p`` (the sender holds
    ``count`` sockets at seat ``player``) or ``q`` (the sender asks for the others'
    ``p`` lines of the match)."""

    kind: str
    match_id: str
    seq: int = -1
    hand_number: int = 0
    player: int = 0
    action: str = ""
    count: int = 0


class Publisher(Protocol):
    """Where a store's announcements go instead of PostgreSQL's NOTIFY (the web's Redis
    bus): the same payloads (:meth:`Store.payloads`), on :data:`CHANNEL`."""

    def publish_blocking(self, payloads: list[str]) -> None:
        """Announce from a store call (any thread); raise if it cannot."""

    async def publish(self, payloads: list[str]) -> None:
        """Announce from the event loop (the web's group commit); raise if it cannot."""

    def close(self) -> None:
        """Let go of its connections (once nothing more is announced)."""


def action_line(item: PendingAction) -> str:
    """The line announcing one committed action."""
    return f"a {item.match_id} {item.seq} {item.hand_number} {item.player} {item.action}"


def presence_line(match_id: str, seat: int, count: int) -> str:
    """The line saying that the sender holds ``count`` sockets at a match's seat."""
    return f"p {match_id} {seat} {count}"


def parse_announcement(payload: str) -> tuple[str, list[Announcement]]:
    """The sender and the lines of a payload on :data:`CHANNEL` (lines it cannot read are
    skipped: a listener must never fail on a payload)."""
    sender, _, body = payload.partition("\n")
    out = []
    for line in body.split("\n"):
        kind, _, rest = line.partition(" ")
        try:
            if kind == "a":
                match_id, seq, hand, player, action = rest.split(" ", 4)
                out.append(Announcement("a", match_id, int(seq), int(hand), int(player), action))
            elif kind in ("m", "l", "q") and rest:
                out.append(Announcement(kind, rest))
            elif kind == "p":
                match_id, seat, count = rest.split(" ")
                if match_id and int(seat) in (0, 1) and int(count) >= 0:
                    out.append(Announcement("p", match_id, player=int(seat), count=int(count)))
        except ValueError:
            continue
    return sender, out


def split_payloads(sender: str, lines: Sequence[str]) -> list[str]:
    """``lines`` in payloads under PostgreSQL's limit (Redis takes the same), each headed
    by ``sender``."""
    out, current, size = [], [sender], len(sender)
    for line in lines:
        if size + len(line) + 1 > PAYLOAD_LIMIT and len(current) > 1:
            out.append("\n".join(current))
            current, size = [sender], len(sender)
        current.append(line)
        size += len(line) + 1
    out.append("\n".join(current))
    return out
