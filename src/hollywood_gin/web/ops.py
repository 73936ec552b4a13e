"""What an operator needs of a running server: ``/healthz``, ``/readyz``, ``/metrics`` and
structured logs.

- ``/healthz``: liveness, answered by the event loop alone (restart the process if not).
- ``/readyz``: the database answers a real query (the schema revision) within
  :data:`READY_TIMEOUT` seconds, is at this release's schema, and (PostgreSQL) the
  process is listening for the other processes' changes (with ``--bus redis://``, Redis
  answers a PING too: ``{"redis": "unreachable ..."}``); 503 otherwise (take the process
  out of the proxy's rotation, do not restart it).
- ``/metrics``: Prometheus text (``prometheus_client``, a registry per app): tables open,
  seats connected, actions (a counter: ``rate()`` gives actions per second), the action
  latency histogram, database errors, tables created, hands ended, WebSockets, following
  the other processes, the event loop's lag.  Under ``serve --workers N``
  (``$PROMETHEUS_MULTIPROC_DIR`` set) every worker writes its values to files there and
  a scrape sums them over the workers (gauges over the live ones), whichever worker
  answers.
- Logs: one line per table event (created, joined, seat connected and gone, hand and
  match ended, each action at debug level) and per error, as JSON lines with
  ``serve --log-format json``.  No card ever reaches a log: events carry an action's
  kind (``discard``), never its card, database errors their class and SQLSTATE, never a
  statement or its parameters, and every handler redacts anything card-like from free
  text (a message from elsewhere that names a card) as a last line of defence.

:class:`Ops` holds the hooks the table code calls (:meth:`Ops.action_committed`,
:meth:`Ops.event`, :meth:`Ops.db_error`); :func:`log_config` is the logging set-up
``serve`` hands to uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import logging
import os
import re
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from sqlalchemy import event, text
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import IntegrityError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..schema import SCHEMA_REVISION, schema_revision
from ..store import PendingAction, Store
from .bus import NOT_LISTENING

if TYPE_CHECKING:
    from .tables import Table, TableManager

__all__ = [
    "LOG_FORMATS",
    "READY_TIMEOUT",
    "JsonFormatter",
    "Metrics",
    "Ops",
    "OpsMiddleware",
    "RedactCards",
    "log_config",
    "redact",
]

log = logging.getLogger("hollywood_gin.web.events")

READY_TIMEOUT = 2.0
LOG_FORMATS = ("text", "json")
#: Seconds; actions are committed in a group, so most take one disk flush or a few.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

#: Seconds between two looks at the event loop's lag, and the lag's buckets: a loop that
#: runs late delays every seat of the process at once (a long synchronous call, or a
#: process starved of CPU), which is what a p99 above the commits' says.
LAG_EVERY = 0.25
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: A card in any of its spellings: ``Th``, ``10h``, ``10♥``, or a suit symbol at all.
_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[cdhs]\b|(?:10|[2-9TJQKA])?[♣♦♥♠]")
_TABLE_PATH = re.compile(r"^/ws/([0-9a-f]{32})$")


def redact(message: str) -> str:
    """``message`` with every card-like word replaced by ``**``."""
    return _CARD.sub("**", message)


class RedactCards(logging.Filter):
    """A handler filter: a record's message, traceback and event fields lose anything
    card-like."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            record.fields = {key: redact(value) if isinstance(value, str) else value
                             for key, value in fields.items()}
        return True


class QuietClientErrors(logging.Filter):
    """A client's broken frame is the client's fault, not the server's: uvicorn logs a text
    frame that is not UTF-8 as an ERROR with a traceback (once a socket, so anyone who may
    open one can fill the log with them); here it is one WARNING line."""

    NOT_UTF8 = "Invalid UTF-8 sequence received from client."

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name.startswith("uvicorn") and record.msg == self.NOT_UTF8:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg = "a client sent a text frame that is not UTF-8: its socket is closed (1007)"
            record.exc_info = record.exc_text = None
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``ts``, ``level``, ``logger``, ``pid`` (which process, as
    ``serve --workers`` runs several), ``event``, ``msg`` and the event's fields;
    uvicorn's access lines become ``event: http`` with their parts."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,
            "event": getattr(record, "event", None) or "log",
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, version, status = args
            out.update(event="http", client=client, method=method, path=path,
                       http=version, status=status)
        elif not hasattr(record, "event"):  # an event's fields say it all
            out["msg"] = record.getMessage()
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            # a field never takes the place of the line's own keys: a table's "level" (the
            # computer's) once stood where collectors read the log level (a QA pass)
            out.update({(f"{key}_field" if key in out else key): value
                        for key, value in fields.items()})
        if record.exc_info:
            out["error"] = record.exc_info[0].__name__ if record.exc_info[0] else None
            if not record.exc_text:
                record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["traceback"] = record.exc_text
        return json.dumps(out, default=str, ensure_ascii=False)


def log_config(fmt: str = "text", level: str = "info", access_log: bool = True
               ) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` for ``serve``: uvicorn's loggers and ours on
    stderr, in uvicorn's text format or as JSON lines, every line through
    :class:`RedactCards`.  ``debug`` adds our per-action events; uvicorn stays at info
    (its debug lines are whole WebSocket frames)."""
    if fmt not in LOG_FORMATS:
        raise ValueError(f"the log format must be one of {', '.join(LOG_FORMATS)}, not {fmt!r}")
    json_lines = {"()": "hollywood_gin.web.ops.JsonFormatter"}
    formatters = {
        "main": json_lines if fmt == "json" else {
            "()": "uvicorn.logging.DefaultFormatter",
            "fmt": "%(levelprefix)s %(name)s: %(message)s", "use_colors": None},
        "access": json_lines if fmt == "json" else {
            "()": "uvicorn.logging.AccessFormatter",
            "fmt": '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'},
    }
    handler = {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
               "filters": ["client", "redact"]}
    upper = level.upper()
    # uvicorn's own debug lines dump WebSocket frames (cards and all): never below info.
    server = "INFO" if upper == "DEBUG" else upper
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"client": {"()": "hollywood_gin.web.ops.QuietClientErrors"},
                    "redact": {"()": "hollywood_gin.web.ops.RedactCards"}},
        "formatters": formatters,
        "handlers": {"main": {**handler, "formatter": "main"},
                     "access": {**handler, "formatter": "access"}},
        "loggers": {
            "uvicorn": {"handlers": ["main"], "level": server, "propagate": False},
            "uvicorn.error": {"level": server},
            "uvicorn.access": {"handlers": ["access"] if access_log else [], "level": "INFO",
                               "propagate": False},
            "hollywood_gin": {"handlers": ["main"], "level": upper, "propagate": False},
        },
    }


#: Set by ``serve --workers N`` for its workers (prometheus_client's multiprocess mode).
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
GAUGE_EVERY = 1.0  # seconds between a worker's updates of its gauges' files


class Metrics:
    """The server's Prometheus metrics, in a registry of their own (one per app).

    With ``multiprocess``, the values live in files of ``$PROMETHEUS_MULTIPROC_DIR``
    (prometheus_client chose so when it was imported) and :meth:`render` sums every
    worker's: the gauges are then set every :data:`GAUGE_EVERY` seconds by
    :meth:`Ops.start`'s task instead of read when scraped.
    """

    def __init__(self, registry: CollectorRegistry | None = None, *,
                 multiprocess: bool = False) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        self.multiprocess = multiprocess
        r = self.registry
        self.tables_open = Gauge("hollywood_gin_tables_open",
                                 "Tables live in the servers' memory (a table served by two "
                                 "processes counts twice)", registry=r,
                                 multiprocess_mode="livesum")
        self.seats_connected = Gauge("hollywood_gin_seats_connected",
                                     "WebSockets attached to a seat", registry=r,
                                     multiprocess_mode="livesum")
        self.processes = Gauge("hollywood_gin_processes",
                               "Server processes answering on this port (serve --workers)",
                               registry=r, multiprocess_mode="livesum")
        self.actions = Counter("hollywood_gin_actions",
                               "Actions committed (rate() is actions a second)", ["by"],
                               registry=r)
        self.action_seconds = Histogram(
            "hollywood_gin_action_seconds",
            "From an action's check at its table to its commit in the database",
            ["by"], buckets=LATENCY_BUCKETS, registry=r)
        self.db_errors = Counter("hollywood_gin_db_errors",
                                 "Database errors (a lost connection, a timeout; not the "
                                 "expected conflicts between writers)", registry=r)
        self.tables_created = Counter("hollywood_gin_tables_created", "Tables created",
                                      ["opponent"], registry=r)
        self.hands_ended = Counter("hollywood_gin_hands_ended", "Hands ended, by how",
                                   ["kind"], registry=r)
        self.websockets = Counter("hollywood_gin_websockets",
                                  "WebSockets opened to a table", registry=r)
        self.following = Counter(
            "hollywood_gin_following",
            "Following the other processes: 'followed' (an action another process committed, "
            "applied from its announcement), 'reloaded' (a table caught up from the log), "
            "'stale' (an action refused at its commit: another writer saved that step first), "
            "'swept' (a table found behind its log: an announcement that never came)",
            ["what"], registry=r)
        self.loop_lag = Histogram(
            "hollywood_gin_event_loop_lag_seconds",
            f"How late the event loop woke from a {LAG_EVERY:g} s sleep: a process's "
            "own delay added to every message it handles", buckets=LAG_BUCKETS, registry=r)
        self.listening = Gauge("hollywood_gin_listening",
                               "1 while the process hears the others' changes (LISTEN on "
                               "PostgreSQL; always 1 on SQLite, where it is alone); the "
                               "least over the workers", registry=r, multiprocess_mode="livemin")

    def render(self) -> bytes:
        if not self.multiprocess:
            return generate_latest(self.registry)
        folder = os.environ[MULTIPROC_ENV]
        _forget_dead_workers(folder)
        summed = CollectorRegistry()
        multiprocess.MultiProcessCollector(summed, path=folder)  # type: ignore[no-untyped-call]
        return generate_latest(summed)


def _forget_dead_workers(folder: str) -> None:
    """Drop the live gauges of workers that died (uvicorn restarted them): their counters
    stay in the sums, their gauges must not."""
    pids = {int(match.group(1)) for path in glob.glob(os.path.join(folder, "gauge_live*.db"))
            if (match := re.search(r"_(\d+)\.db$", path))}
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]
        except PermissionError:  # alive, another user's
            pass


class Ops:
    """The operator's view of one app: metrics, events and the readiness probe.

    The table code reports through :meth:`action_committed` (every committed action),
    :meth:`event` (anything else worth a log line) and :meth:`db_error`; the gauges read
    the table manager when scraped.
    """

    def __init__(self, store: Store, manager: TableManager | None = None,
                 metrics: Metrics | None = None) -> None:
        self.store = store
        self.manager = manager
        self.metrics = metrics if metrics is not None else Metrics(
            multiprocess=MULTIPROC_ENV in os.environ)
        self._probe: asyncio.Future[str | None] | None = None
        self._gauges: asyncio.Task[None] | None = None
        self._lag: asyncio.Task[None] | None = None
        event.listen(store.engine, "handle_error", self._on_db_error)
        if manager is not None:
            self.watch(manager)

    def watch(self, manager: TableManager) -> None:
        """Read the gauges from ``manager`` and have it report its commits here."""
        self.manager = manager
        if not self.metrics.multiprocess:
            for gauge, read in self._gauge_readers():
                gauge.set_function(read)
        manager.on_commit = self.action_committed
        manager.count = lambda what: self.metrics.following.labels(what).inc()
        manager.db_error = self.db_error

    def _gauge_readers(self) -> list[tuple[Gauge, Any]]:
        manager = self.manager

        def tables() -> list[Table]:
            return [] if manager is None else list(manager._tables.values())

        m = self.metrics
        return [
            (m.tables_open, lambda: float(len(tables()))),
            (m.seats_connected, lambda: float(sum(len(boxes) for table in tables()
                                                  for boxes in table.outboxes))),
            (m.listening, lambda: float(self.listening())),
            (m.processes, lambda: 1.0),
        ]

    async def start(self) -> None:
        """Watch the event loop's lag; in multiprocess mode, keep this worker's gauges in
        their files."""
        loop = asyncio.get_running_loop()
        if self._lag is None:
            self._lag = loop.create_task(self._watch_lag())
        if self.metrics.multiprocess and self._gauges is None:
            self._gauges = loop.create_task(self._keep_gauges())

    async def stop(self) -> None:
        for task in (self._gauges, self._lag):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._gauges = self._lag = None
        if self.metrics.multiprocess:  # a worker that stops is not live any more
            with contextlib.suppress(OSError, KeyError):
                multiprocess.mark_process_dead(  # type: ignore[no-untyped-call]
                    os.getpid(), os.environ[MULTIPROC_ENV])

    async def _keep_gauges(self) -> None:
        readers = self._gauge_readers()
        while True:
            for gauge, read in readers:
                gauge.set(read())
            await asyncio.sleep(GAUGE_EVERY)

    async def _watch_lag(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(LAG_EVERY)
            self.metrics.loop_lag.observe(max(0.0, time.perf_counter() - asked - LAG_EVERY))

    def listening(self) -> bool:
        """Whether this process hears the others' changes (it is alone on SQLite)."""
        manager = self.manager
        if manager is None or not manager.shared:
            return True
        return manager.bus is not None and manager.bus.connected

    # -- hooks -------------------------------------------------------------------------

    def event(self, name: str, severity: int = logging.INFO, **fields: Any) -> None:
        """One log line for a table event; ``fields`` must hold no card and no secret."""
        if log.isEnabledFor(severity):
            described = " ".join(f"{key}={value}" for key, value in fields.items())
            log.log(severity, "%s %s", name, described,
                    extra={"event": name, "fields": fields})

    def action_committed(self, table: Table, pending: PendingAction, seconds: float) -> None:
        """An action was committed (and applied): count it, time it, and log it and what
        it ended."""
        by = "computer" if pending.player == table.computer_seat else "player"
        self.metrics.actions.labels(by).inc()
        self.metrics.action_seconds.labels(by).observe(seconds)
        kind = pending.action.split(" ", 1)[0]  # 'discard Th' -> 'discard': never the card
        self.event("action", logging.DEBUG, table=pending.match_id, seq=pending.seq,
                   hand=pending.hand_number, seat=pending.player, by=by, action=kind,
                   ms=round(seconds * 1000, 2))
        result = pending.hand_result
        if result is not None:
            self.metrics.hands_ended.labels(result.kind).inc()
            self.event("hand_ended", table=pending.match_id, hand=pending.hand_number,
                       how=result.kind, winner=result.winner, points=result.points)
        if pending.finished is not None:
            winner, totals = pending.finished
            self.event("match_ended", table=pending.match_id, winner=winner,
                       totals=list(totals))

    def table_created(self, table: str, opponent: object, level: int | None, preset: str
                      ) -> None:
        """Logs the level and preset the table was made with, defaults included."""
        name = opponent if opponent in ("computer", "friend") else "other"
        self.metrics.tables_created.labels(str(name)).inc()
        self.event("table_created", table=table, opponent=name, computer_level=level,
                   preset=preset)

    def db_error(self, operation: str, exc: BaseException) -> None:
        self.metrics.db_errors.inc()
        self.event("db_error", logging.ERROR, operation=operation, error=type(exc).__name__,
                   sqlstate=getattr(getattr(exc, "orig", exc), "sqlstate", None))

    def _on_db_error(self, context: ExceptionContext) -> None:
        if isinstance(context.sqlalchemy_exception, IntegrityError):
            return  # two writers raced: the store turns it into a conflict, as designed
        statement = (context.statement or "").split(None, 1)[:1]
        self.db_error(statement[0].lower() if statement else "connect",
                      context.original_exception)

    # -- endpoints ---------------------------------------------------------------------

    def routes(self) -> list[Route]:
        return [Route("/healthz", self.healthz), Route("/readyz", self.readyz),
                Route("/metrics", self.render_metrics)]

    async def healthz(self, request: Request) -> Response:
        return JSONResponse({"ok": True})

    def _check_database(self) -> str | None:
        with self.store.engine.connect() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text(f"SET LOCAL statement_timeout = {int(READY_TIMEOUT * 1000)}"))
            return schema_revision(conn)

    async def readyz(self, request: Request) -> Response:
        # One probe at a time: a hung database must not pile up threads.
        if self._probe is None or self._probe.done():
            self._probe = asyncio.ensure_future(asyncio.to_thread(self._check_database))
            self._probe.add_done_callback(_retrieved)
        try:
            revision = await asyncio.wait_for(asyncio.shield(self._probe), READY_TIMEOUT)
        except TimeoutError:
            return JSONResponse({"ready": False, "database": "timeout"}, status_code=503)
        except Exception as exc:
            return JSONResponse({"ready": False, "database": "unreachable",
                                 "error": type(exc).__name__}, status_code=503)
        if revision != SCHEMA_REVISION:
            return JSONResponse({"ready": False, "database": f"schema {revision}, this "
                                 f"release needs {SCHEMA_REVISION}"}, status_code=503)
        problem = await self._bus_problem()
        if problem is not None:  # its players would not see the other processes' moves
            return JSONResponse({"ready": False, **problem}, status_code=503)
        return JSONResponse({"ready": True, "schema": revision})

    async def _bus_problem(self) -> dict[str, str] | None:
        """What keeps this process from hearing the others, under the name of what is
        wrong (``database``, ``redis``), or None (and always None alone on SQLite)."""
        manager = self.manager
        if manager is None or not manager.shared:
            return None
        if manager.bus is None:
            return {"database": NOT_LISTENING}
        problem = await manager.bus.problem(READY_TIMEOUT)
        return None if problem is None else {manager.bus.ready_key: problem}

    async def render_metrics(self, request: Request) -> Response:
        # On the event loop, like the tables the gauges read.
        return Response(self.metrics.render(), media_type=CONTENT_TYPE_LATEST)


def _retrieved(future: asyncio.Future[str | None]) -> None:
    """A probe that outlived its request has its outcome read (and so not reported)."""
    if not future.cancelled():
        future.exception()


class OpsMiddleware:
    """Pure ASGI middleware: a table's WebSockets opening and closing, as events."""

    def __init__(self, app: ASGIApp, ops: Ops) -> None:
        self.app = app
        self.ops = ops

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _TABLE_PATH.match(scope.get("path", "")) if scope["type"] == "websocket" \
            else None
        if found is None:
            await self.app(scope, receive, send)
            return
        table = found.group(1)
        opened = time.monotonic()
        state: dict[str, Any] = {"open": False, "code": None}

        async def watch_send(message: Message) -> None:
            if message["type"] == "websocket.accept":
                state["open"] = True
                self.ops.metrics.websockets.inc()
                self.ops.event("ws_open", table=table)
            elif message["type"] == "websocket.close":
                state["code"] = message.get("code", 1000)
            await send(message)

        async def watch_receive() -> Message:
            message = await receive()
            if message["type"] == "websocket.disconnect" and state["code"] is None:
                state["code"] = message.get("code", 1005)
            return message

        try:
            await self.app(scope, watch_receive, watch_send)
        finally:
            if state["open"]:
                self.ops.event("ws_closed", table=table, code=state["code"],
                               seconds=round(time.monotonic() - opened, 1))
