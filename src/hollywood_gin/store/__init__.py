"""Saved games: every action committed as it happens, shared by the terminal and web games.

The log is the truth: a stored match is its rules, seed and first dealer plus
the ordered list of action texts, and loading it replays them through the
engine.  SQLite by default (in the user's data directory), PostgreSQL or any
SQLAlchemy URL by ``url=`` or the ``HOLLYWOOD_GIN_DB`` environment variable.
Needs the optional extra ``store`` (SQLAlchemy, platformdirs).
"""


from __future__ import annotations

from ..announce import CHANNEL, Announcement, Publisher, parse_announcement
from ..errors import needs_extra

with needs_extra("hollywood_gin.store", "store"):
    from .matches import Store
from .persistent import PersistentMatch
from .records import (
    DB_ENV,
    MatchAbandoned,
    PendingAction,
    ReviewRow,
    StoreConflict,
    StoredAction,
    StoredMatch,
    StoreError,
    default_url,
)

__all__ = [
    "CHANNEL",
    "DB_ENV",
    "Announcement",
    "MatchAbandoned",
    "PendingAction",
    "PersistentMatch",
    "Publisher",
    "ReviewRow",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoredAction",
    "StoredMatch",
    "default_url",
    "parse_announcement",
]

