"""The ``serve`` subcommand: the web app on uvicorn.

Importing this module needs only the standard library (the CLI imports it to
build its parser); Starlette, uvicorn and SQLAlchemy are imported when
``serve`` runs.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import json
import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from ..cli import database_url, number, whole
from ..errors import HollywoodGinError
from ..i18n import _
from .limits import TABLE_BURST, TABLE_RATE, UNGREETED_SOCKETS
from .protocol import MESSAGE_BURST, MESSAGE_RATE

__all__ = ["register", "serve_origins"]

DB_ENV = "HOLLYWOOD_GIN_DB"
#: Origins allowed to open tables, separated by spaces (what --origin adds to): a
#: deployment's environment file names its public origin once for every process.
ORIGINS_ENV = "HOLLYWOOD_GIN_ORIGINS"
#: The default of --workers: a deployment's environment file sets it for every unit.
WORKERS_ENV = "HOLLYWOOD_GIN_WORKERS"
#: The default of --bus: every unit of a deployment hears the others the same way.
BUS_ENV = "HOLLYWOOD_GIN_BUS"
MAX_WORKERS = 64
#: Uvicorn closes a frame past this with code 1009; the app answers smaller oversized
#: frames (over its own 4 KiB limit) with a ``too_large`` error frame.
WS_MAX_SIZE = 1 << 20
#: No permessage-deflate: a state frame is a few KiB, and compressing each one cost the
#: server about a tenth of its CPU under load (benchmarks/bench_web.py), more than the
#: bytes are worth.
WS_DEFLATE = False


def serve_origins(host: str, port: int, extra: list[str]) -> list[str] | None:
    """The origins allowed to open a WebSocket.

    On a loopback address only ``http://127.0.0.1:PORT``, ``http://localhost:PORT`` and
    ``http://[::1]:PORT`` (so a DNS-rebinding page cannot pass), plus ``--origin`` values.
    On another address the page's Origin must match the Host it asked for, unless
    ``--origin`` names the public origins exactly.
    """
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if extra:
        base = [f"http://127.0.0.1:{port}", f"http://localhost:{port}"] if loopback else []
        return base + [o.rstrip("/") for o in extra]
    if loopback:
        return [f"http://127.0.0.1:{port}", f"http://localhost:{port}", f"http://[::1]:{port}"]
    return None


def _origin(text: str) -> str:
    """An --origin value: scheme and host (and port) only, as browsers send it."""
    parsed = urlsplit(text.rstrip("/"))
    if parsed.scheme not in ("http", "https") or not parsed.hostname or parsed.path:
        raise argparse.ArgumentTypeError(_(
            "an origin is http:// or https:// and a host, like https://gin.example.com, "
            "not '{text}'").format(text=text))
    return text


def _env_origins() -> list[str]:
    """The origins of ``$HOLLYWOOD_GIN_ORIGINS``, checked like --origin values."""
    out = []
    for text in os.environ.get(ORIGINS_ENV, "").split():
        try:
            out.append(_origin(text))
        except argparse.ArgumentTypeError as exc:
            raise HollywoodGinError(f"${ORIGINS_ENV}: {exc}") from None
    return out


def _workers(given: int | None) -> int:
    """--workers, else ``$HOLLYWOOD_GIN_WORKERS`` (checked like --workers), else 1."""
    if given is not None:
        return given
    text = os.environ.get(WORKERS_ENV, "").strip()
    if not text:
        return 1
    try:
        return whole(1, MAX_WORKERS)(text)
    except argparse.ArgumentTypeError as exc:
        raise HollywoodGinError(f"${WORKERS_ENV}: {exc}") from None


def _bus(text: str) -> str:
    """A --bus value: ``postgresql`` (PostgreSQL's LISTEN/NOTIFY, the default) or a Redis
    URL (checked here for its form; whether Redis answers, when serve starts)."""
    if text == "postgresql":
        return text
    problem = _redis_url_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(_(
            "it must be postgresql or a Redis URL like redis://127.0.0.1:6379/0, not "
            "'{text}': {problem}").format(text=_safe(text), problem=problem))
    return text


def _redis_url_problem(url: str) -> str | None:
    """What is wrong with the form of a Redis URL (for the operator), or None."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return _("it is not a URL ({reason})").format(reason=exc)
    if parts.scheme not in ("redis", "rediss"):
        return _("it must be a redis:// (or rediss://) URL")
    if not parts.hostname:
        return _("it names no host")
    if port == 0:
        return _("its port must be 1 to 65535")
    path = parts.path.strip("/")
    if path and not path.isdigit():
        return _("its database must be a number, not '{text}'").format(text=path)
    return None


def _bus_url(given: str | None) -> str | None:
    """The Redis URL of --bus, else of ``$HOLLYWOOD_GIN_BUS`` (checked like --bus); None
    for PostgreSQL's own LISTEN/NOTIFY."""
    text = given
    if text is None:
        text = os.environ.get(BUS_ENV, "").strip() or None
        if text is not None:
            try:
                _bus(text)
            except argparse.ArgumentTypeError as exc:
                raise HollywoodGinError(f"${BUS_ENV}: {exc}") from None
    return None if text in (None, "postgresql") else text


def _check_address(host: str, port: int) -> None:
    """Refuse, in one line and before anything starts, an address the server could not
    listen on (uvicorn would log its failure over several lines after starting up)."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise HollywoodGinError(_("cannot listen on {host}: {reason}").format(
            host=host, reason=getattr(exc, "strerror", None) or exc)) from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            raise HollywoodGinError(_("cannot listen on {host}:{port}: {reason}").format(
                host=host, port=port, reason=exc.strerror or exc)) from None


def _cmd_serve(args: argparse.Namespace) -> int:
    # A missing extra raises ModuleNotFoundError: the CLI names the extra to install.
    import uvicorn

    from ..store import Store
    from .ops import log_config
    from .solo import SqliteLock, sqlite_path
    from .worker import SERVE_ENV

    bus = _bus_url(args.bus)
    if bus is not None:
        import redis  # noqa: F401  # the redis extra, named before anything starts
    if not args.host.strip():
        raise HollywoodGinError(_("--host must not be empty"))
    _check_address(args.host, args.port)
    origins = serve_origins(args.host, args.port, _env_origins() + args.origin)
    config = log_config(args.log_format, args.log_level, args.access_log)
    url = args.db or os.environ.get(DB_ENV) or None
    workers = _workers(args.workers)
    options: dict[str, Any] = {
        "allowed_origins": origins, "bot_delay": args.bot_delay,
        "message_rate": args.message_rate, "message_burst": args.message_burst,
        "table_rate": args.table_rate, "table_burst": args.table_burst,
        "pending_sockets": args.pending_sockets, "review_workers": args.review_workers,
        "bus": bus}
    run: dict[str, Any] = {"host": args.host, "port": args.port, "ws_max_size": WS_MAX_SIZE,
                           "ws_per_message_deflate": WS_DEFLATE, "log_config": config,
                           "access_log": args.access_log, "lifespan": "on"}
    with contextlib.ExitStack() as stack:
        # SQLite serves one process: a second server on the same file is refused here,
        # before it opens the database (the lock dies with its holder, even by SIGKILL).
        database = sqlite_path(url or _default_url())
        if database is not None:
            if workers > 1:
                raise HollywoodGinError(_(
                    "--workers {n} needs PostgreSQL: SQLite serves one process "
                    "(--db postgresql+psycopg://USER:PASS@HOST/DB)").format(n=workers))
            if bus is not None:
                raise HollywoodGinError(_(
                    "--bus {url} needs PostgreSQL: SQLite serves one process, which hears "
                    "its own changes (--db postgresql+psycopg://USER:PASS@HOST/DB)").format(
                        url=_safe(bus)))
            stack.enter_context(SqliteLock(database))
        if bus is not None:  # refused now, in one line, rather than retried forever
            from .redisbus import check_redis

            problem = check_redis(bus)
            if problem is not None:
                raise HollywoodGinError(_("cannot reach Redis at {url} (--bus): {reason}")
                                        .format(url=_safe(bus), reason=problem))
        store = Store(url)  # checks the database and its schema, once, before any worker
        stack.callback(store.close)
        where = f"http://{args.host}:{args.port}/"
        if workers == 1:
            from .app import create_app
            from .pauses import tune_collector

            app = create_app(store=store, **options)
            tune_collector()
            print(f"hollywood-gin: serving on {where} (store {_safe(store.url)})", flush=True)
            uvicorn.run(app, workers=1, **run)
            return 0
        store.close()
        metrics = stack.enter_context(_metrics_dir())
        os.environ[SERVE_ENV] = json.dumps({"db_url": store.url, **options})
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics
        print(f"hollywood-gin: serving on {where} with {workers} processes (store "
              f"{_safe(store.url)})", flush=True)
        uvicorn.run("hollywood_gin.web.worker:create_worker_app", factory=True,
                    workers=workers, **run)
    return 0


def _default_url() -> str:
    from ..store import default_url

    return default_url()


@contextlib.contextmanager
def _metrics_dir() -> Iterator[str]:
    """A fresh directory for the workers' metric files (summed at each scrape)."""
    folder = tempfile.mkdtemp(prefix="hollywood-gin-metrics-")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _safe(url: str) -> str:
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the ``hollywood-gin`` command."""
    serve = subparsers.add_parser(
        # Translators: the serve command's line in `hollywood-gin --help` (its own --help
        # is for whoever runs the server and stays English).
        "serve", help=_("play in the browser: the web app"),
        description="Serve the web game: against the computer or a friend, saved as it goes. "
        "SQLite by default; PostgreSQL with --db postgresql+psycopg://USER:PASS@HOST/DB.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=whole(1, 65535), default=8000,
                       help="port to listen on, 1 to 65535 (8000)")
    serve.add_argument("--db", type=database_url, default=None,
                       help=f"database URL (default: ${DB_ENV}, else a SQLite file in the "
                       "user's data directory)")
    serve.add_argument("--origin", action="append", default=[], metavar="ORIGIN", type=_origin,
                       help="an origin allowed to open tables, like https://gin.example.com "
                       "(repeatable; needed behind a proxy or on a public name; also read, "
                       f"space-separated, from ${ORIGINS_ENV})")
    serve.add_argument("--workers", type=whole(1, MAX_WORKERS), default=None, metavar="N",
                       help=f"server processes on this machine, sharing the port (default: "
                       f"${WORKERS_ENV}, else 1); more than one needs PostgreSQL. Several "
                       "machines may serve the same --db too")
    serve.add_argument("--bus", type=_bus, default=None, metavar="URL",
                       help=f"how the processes hear each other's moves: postgresql "
                       f"(LISTEN/NOTIFY, the default) or redis://HOST:PORT/DB (Redis pub/sub: "
                       f"many processes; needs the redis extra and PostgreSQL) (default: "
                       f"${BUS_ENV}, else postgresql)")
    serve.add_argument("--bot-delay", type=number(0, 10), default=0.6, metavar="SECONDS",
                       help="pause before each computer action, 0 to 10 (0.6)")
    serve.add_argument("--message-rate", type=number(0), default=MESSAGE_RATE,
                       metavar="PER_SECOND",
                       help=f"messages one connection may send a second on average "
                       f"({MESSAGE_RATE:g}; 0: no limit)")
    serve.add_argument("--message-burst", type=whole(1), default=MESSAGE_BURST, metavar="N",
                       help=f"messages one connection may send at once ({MESSAGE_BURST})")
    serve.add_argument("--table-rate", type=number(0), default=TABLE_RATE,
                       metavar="PER_MINUTE",
                       help=f"tables one client address may create a minute on average "
                       f"({TABLE_RATE:g}; 0: no limit)")
    serve.add_argument("--table-burst", type=whole(1), default=TABLE_BURST, metavar="N",
                       help=f"tables one client address may create at once ({TABLE_BURST})")
    serve.add_argument("--pending-sockets", type=whole(0), default=UNGREETED_SOCKETS,
                       metavar="N",
                       help=f"WebSockets one client address may hold open before they say "
                       f"hello ({UNGREETED_SOCKETS}; 0: no limit)")
    serve.add_argument("--review-workers", type=whole(1, 64), default=1, metavar="N",
                       help="processes that make game reviews, about a second of CPU a hand "
                       "(1); each review is kept, so it is made once")
    serve.add_argument("--log-level", default="info",
                       choices=["critical", "error", "warning", "info", "debug"])
    serve.add_argument("--no-access-log", dest="access_log", action="store_false",
                       help="do not log every HTTP request")
    serve.add_argument("--log-format", choices=["text", "json"], default="text",
                       help="'json': one JSON object a line, one per table event and error "
                       "(never a card), for a log collector (text)")
    serve.set_defaults(func=_cmd_serve)
