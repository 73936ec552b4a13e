"""Run the web app like ``hollywood-gin serve`` but with the tests' bot factory (a subprocess)."""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn
from hg_web_support import bot_factory

from hollywood_gin.hand import HandView
from hollywood_gin.sheet import ScoreSheet
from hollywood_gin.store import Store
from hollywood_gin.web.app import create_app
from hollywood_gin.web.commands import WS_MAX_SIZE, serve_origins


class Flaky:
    """A bot whose first choice is not an action at all (the server must survive it)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.calls = 0

    def choose(self, view: HandView, sheet: ScoreSheet | None = None) -> Any:
        self.calls += 1
        if self.calls == 1:
            return "not an action"
        return self.bot.choose(view, sheet)


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
    parser.add_argument("--flaky-bot", action="store_true")
    args = parser.parse_args()
    origins = serve_origins("127.0.0.1", args.port, [])
    factory = bot_factory
    if args.flaky_bot:
        def factory(level: str, seed: int) -> Any:
            return Flaky(bot_factory(level, seed))
    app = create_app(store=Store(args.db), allowed_origins=origins, bot_factory=factory,
                     bot_delay=args.bot_delay, message_rate=args.message_rate,
                     message_burst=args.message_burst, table_rate=args.table_rate,
                     table_burst=args.table_burst, pending_sockets=args.pending_sockets)
    uvicorn.run(app, host="127.0.0.1", port=args.port, ws_max_size=WS_MAX_SIZE,
                log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
