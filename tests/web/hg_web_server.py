"""Run the web app like ``hollywood-gin serve`` but with the tests' bot factory (a subprocess)."""

from __future__ import annotations

import argparse
import inspect
from typing import Any

import uvicorn
from hg_web_support import bot_factory

from hollywood_gin.store import PendingAction, Store
from hollywood_gin.web import commands
from hollywood_gin.web.app import create_app
from hollywood_gin.web.commands import WS_MAX_SIZE, serve_origins


def flaky_commits() -> None:
    """The server's first commit of a person's discard (or pass) is saved but answered with
    an error, as when the connection to the database drops after its COMMIT (at the group
    commit's one way in, whichever the backend)."""
    from hollywood_gin.web.commit import StoreRunner

    real = StoreRunner._commit_batch
    failed = [False]

    async def commit(self: StoreRunner, items: list[PendingAction]) -> set[str]:
        stale = await real(self, items)
        if not failed[0] and any(p.player == 0 and (p.action == "pass" or p.action
                                                    .startswith("discard")) for p in items):
            failed[0] = True
            raise RuntimeError("the connection was lost after the commit")
        return stale

    StoreRunner._commit_batch = commit  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--message-rate", type=float, default=0.0)  # 0: the fuzz floods
    parser.add_argument("--message-burst", type=int, default=40)
    parser.add_argument("--table-rate", type=float, default=0.0)  # 0: the tests make many
    parser.add_argument("--table-burst", type=int, default=10)
    parser.add_argument("--pending-sockets", type=int, default=8)
    parser.add_argument("--flaky-store", action="store_true")
    parser.add_argument("--review-deals", type=int, default=4)  # few: tests stay fast
    parser.add_argument("--lease-seconds", type=float, default=6.0)
    parser.add_argument("--sweep-seconds", type=float, default=5.0)
    parser.add_argument("--bus", default=None)  # a redis:// URL (serve --bus)
    args = parser.parse_args()
    origins = serve_origins("127.0.0.1", args.port, [])
    options: dict[str, Any] = {
        "bot_delay": args.bot_delay, "message_rate": args.message_rate,
        "message_burst": args.message_burst, "table_rate": args.table_rate,
        "table_burst": args.table_burst, "pending_sockets": args.pending_sockets,
        "lease_seconds": args.lease_seconds, "sweep_seconds": args.sweep_seconds,
        "bus": args.bus}
    try:
        from hollywood_gin.review import ReviewSettings

        deals = args.review_deals
        options["review_settings"] = ReviewSettings(min_deals=min(2, deals), max_deals=deals,
                                                    batch=min(2, deals))
    except ImportError:  # a server from before the game review
        pass
    # Only what this server's create_app takes (the tests may be run against an older one).
    takes = inspect.signature(create_app).parameters
    if args.flaky_store:
        flaky_commits()
    store = Store(args.db)
    app = create_app(store=store, allowed_origins=origins, bot_factory=bot_factory,
                     **{k: v for k, v in options.items() if k in takes})
    uvicorn.run(app, host="127.0.0.1", port=args.port, ws_max_size=WS_MAX_SIZE,
                ws_per_message_deflate=getattr(commands, "WS_DEFLATE", True), log_level="warning",
                access_log=False)


if __name__ == "__main__":
    main()
