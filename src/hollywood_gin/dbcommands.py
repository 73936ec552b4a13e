"""The ``db`` subcommand: the saved-games database's schema (``upgrade``, ``current``,
``history``), ``check`` (every saved match replays: a restore check), and ``revision``
for developers.

Importing this module needs only the standard library; SQLAlchemy and Alembic are
imported when a ``db`` command runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from .cli import database_url
from .i18n import _

if TYPE_CHECKING:
    from .match import Match
    from .migrate import SchemaState
    from .store import StoredMatch

__all__ = ["register", "summary_differences"]

DB_ENV = "HOLLYWOOD_GIN_DB"


def _url(args: argparse.Namespace) -> str:
    from .store import default_url

    return str(args.db or os.environ.get(DB_ENV) or default_url())


def _cmd_upgrade(args: argparse.Namespace) -> int:
    from . import migrate
    from .store.records import _safe_url

    url = _url(args)
    if args.sql:
        print(migrate.upgrade_sql(url, args.revision), end="")
        return 0
    result = migrate.upgrade(url, args.revision)
    print(f"hollywood-gin: database {_safe_url(url)}: {result.describe()}")
    return 0


def _missing_file(url: str) -> str | None:
    """The path of a SQLite file that is not there, which a command that only reads (``db
    current``, ``db check``) must not create: a mistyped path used to leave an empty file,
    and ``db check`` built a fresh database in it and passed ("0 of 0 saved matches
    replay"), which a restore check must never do."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    path = parsed.database
    if (parsed.get_backend_name() == "sqlite" and path and path != ":memory:"
            and not path.startswith("file:") and not Path(path).exists()
            and Path(path).parent.is_dir()):  # no folder either: the engine's error says so
        return path
    return None


def _schema_state(url: str) -> SchemaState:
    """The database's schema state, read without changing anything; an unreadable
    database is one line of error."""
    from sqlalchemy import create_engine

    from . import migrate
    from .errors import HollywoodGinError
    from .store.records import _safe_url

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return migrate.read_state(conn)
    except (HollywoodGinError, ModuleNotFoundError):
        raise
    except Exception as exc:
        # the driver's own words, not SQLAlchemy's with the query it ran (a QA pass)
        reason = getattr(exc, "orig", None) or exc
        raise HollywoodGinError(f"cannot read the database {_safe_url(url)}: {reason}"
                                ) from None
    finally:
        engine.dispose()


def _with_tables(url: str) -> None:
    """Refuse a database without hollywood-gin's tables: there is nothing to check, and
    opening the store there would create them."""
    from .errors import HollywoodGinError
    from .store.records import _safe_url

    if _schema_state(url).empty:
        raise HollywoodGinError(f"the database {_safe_url(url)} has no hollywood-gin tables: "
                                f"nothing to check (is it the right one?)")


def _cmd_current(args: argparse.Namespace) -> int:
    from .store.records import _safe_url

    url = _url(args)
    if _missing_file(url):  # as empty as can be, and left so
        print(f"{_safe_url(url)}: empty (no file yet)")
        return 1 if args.check else 0
    state = _schema_state(url)
    print(f"{_safe_url(url)}: {state.describe()}")
    return 0 if state.current or not args.check else 1


def _cmd_history(args: argparse.Namespace) -> int:
    from . import migrate

    for revision, doc in migrate.history():
        print(f"{revision}  {doc}")
    return 0


#: ``db check`` says how far it has got every this many matches, on stderr (3,250 matches
#: took 11 s without a word).
CHECK_PROGRESS_EVERY = 500


def _cmd_check(args: argparse.Namespace) -> int:
    from .errors import HollywoodGinError
    from .store import Store
    from .store.records import _safe_url

    url = _url(args)
    missing = _missing_file(url)
    if missing:
        raise HollywoodGinError(f"there is no database at {_safe_url(url)}: no file {missing}")
    _with_tables(url)
    store = Store(url)
    try:
        broken: list[str] = []
        matches = store.matches(damaged=broken)  # a damaged row is reported, not fatal
        total = len(matches) + len(broken)
        actions = 0
        for done, stored in enumerate(matches):
            if done and done % CHECK_PROGRESS_EVERY == 0:  # a big database takes a while
                print(f"hollywood-gin: {done} of {total} saved matches checked",
                      file=sys.stderr, flush=True)
            try:
                if stored.kind == "keeper":  # a score keeper's sheet: hands, not actions
                    from .tui.kept_sheet import KeptSheet

                    actions += len(KeptSheet(store, store.load(stored.id)).hands)
                else:
                    pm = store.open_match(stored.id)
                    differ = summary_differences(stored, pm.match, store.hands(stored.id))
                    if differ:
                        broken.append(f"{stored.id}: its saved summary differs from its "
                                      f"replay: {'; '.join(differ)}")
                    else:
                        actions += pm.action_count
            except HollywoodGinError as exc:
                broken.append(f"{stored.id}: {exc}")
    finally:
        store.close()
    for line in broken:
        print(f"hollywood-gin: does not replay: {line}")
    print(f"hollywood-gin: database {_safe_url(url)}: {total - len(broken)} of "
          f"{total} saved matches replay ({actions} actions)")
    return 1 if broken else 0


def summary_differences(stored: StoredMatch, match: Match, hands: list[dict[str, Any]]
                        ) -> list[str]:
    """Where a match's saved summary (what the statistics read: its status, winner and
    totals, and each hand's result) differs from the replay of its log, which is the
    truth; empty if nowhere."""
    out: list[str] = []
    if match.finished:
        expected: tuple[object, ...] = ("finished", match.sheet.winner, match.sheet.totals)
    else:
        expected = (stored.status if stored.status != "finished" else "playing", None, None)
    for name, saved, true in zip(("status", "winner", "totals"),
                                 (stored.status, stored.winner, stored.totals), expected,
                                 strict=True):
        if saved != true:
            out.append(f"{name} {saved!r}, replayed {true!r}")
    results = {n: h.result for n, h in enumerate(match.hands, 1) if h.result is not None}
    rows = {row["hand_number"]: row for row in hands}
    for n in sorted(results.keys() | rows.keys()):
        result, row = results.get(n), rows.get(n)
        saved_result = None if row is None else (row["kind"], row["winner"], row["knocker"],
                                                 row["points"])
        true_result = None if result is None else (result.kind, result.winner,
                                                   result.knocker, result.points)
        if saved_result != true_result:
            out.append(f"hand {n} {saved_result!r}, replayed {true_result!r}")
    return out


def _cmd_revision(args: argparse.Namespace) -> int:
    from . import migrate

    path = migrate.new_revision(args.message, autogenerate=not args.empty)
    print(f"hollywood-gin: wrote {path}: review it, then test it (docs/deploy.md)")
    return 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``db`` to the ``hollywood-gin`` command."""
    db = subparsers.add_parser(
        # Translators: the db command's line in `hollywood-gin --help` (its own --help is
        # for operators and stays English); upgrade, current... are its subcommands' names.
        "db", help=_("the saved-games database: upgrade, current, history, check"),
        description="Schema migrations of the saved-games database (Alembic, shipped in the "
        "package). Run `db upgrade` once after installing a new release, before starting the "
        "servers: PostgreSQL databases are not upgraded by the servers themselves.",
    )
    sub = db.add_subparsers(dest="db_command", metavar="DB_COMMAND", required=True)
    db_help = f"database URL (default: ${DB_ENV}, else the SQLite file in the user's data " \
        "directory)"

    upgrade = sub.add_parser("upgrade", help="bring the database to this release's schema",
                             description="Upgrade the database to the newest schema in one "
                             "transaction (a database made before migrations is stamped "
                             "first; an empty one is created). Safe to run again.")
    upgrade.add_argument("--db", type=database_url, default=None, help=db_help)
    upgrade.add_argument("--revision", default="head", help="the revision to reach (head)")
    upgrade.add_argument("--sql", action="store_true",
                         help="print the SQL of an upgrade from empty instead (nothing runs)")
    upgrade.set_defaults(func=_cmd_upgrade)

    current = sub.add_parser("current", help="the database's schema revision")
    current.add_argument("--db", type=database_url, default=None, help=db_help)
    current.add_argument("--check", action="store_true",
                         help="exit 1 unless the database is at this release's schema")
    current.set_defaults(func=_cmd_current)

    history = sub.add_parser("history", help="the migrations this release ships")
    history.set_defaults(func=_cmd_history)

    check = sub.add_parser("check", help="replay every saved match (a restore check)",
                           description="Load every saved match and replay its actions "
                           "through the engine; exit 1 if any does not replay.")
    check.add_argument("--db", type=database_url, default=None, help=db_help)
    check.set_defaults(func=_cmd_check)

    revision = sub.add_parser("revision", help="for developers: write the next migration",
                              description="Write the next migration file in the package, "
                              "autogenerated from the difference between the migrations and "
                              "hollywood_gin/schema.py (docs/deploy.md, 'Adding a migration').")
    revision.add_argument("-m", "--message", required=True, help="what the migration does")
    revision.add_argument("--empty", action="store_true",
                          help="an empty migration to fill in by hand (data moves)")
    revision.set_defaults(func=_cmd_revision)
