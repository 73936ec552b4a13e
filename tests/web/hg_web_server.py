"""Run the web app like ``hollywood-gin serve`` but with the tests' bot factory (a subprocess)."""

from __future__ import annotations

import argparse

import uvicorn
from hg_web_support import bot_factory

from hollywood_gin.store import Store
from hollywood_gin.web.app import create_app
from hollywood_gin.web.commands import WS_MAX_SIZE, serve_origins


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--bot-delay", type=float, default=0.0)
    parser.add_argument("--message-rate", type=float, default=0.0)  # 0: the fuzz floods
    parser.add_argument("--message-burst", type=int, default=40)
    args = parser.parse_args()
    origins = serve_origins("127.0.0.1", args.port, [])
    app = create_app(store=Store(args.db), allowed_origins=origins, bot_factory=bot_factory,
                     bot_delay=args.bot_delay, message_rate=args.message_rate,
                     message_burst=args.message_burst)
    uvicorn.run(app, host="127.0.0.1", port=args.port, ws_max_size=WS_MAX_SIZE,
                log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
