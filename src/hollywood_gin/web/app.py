"""The ASGI app: pages, a small JSON API to create and join tables, and one WebSocket per seat.

Security lives here at the edges: a WebSocket from an Origin that is not
this site's is refused before it opens; the first frame must carry the
seat's token (never in a URL, so never in a log); frames are size-limited
and strictly checked; HTTP answers carry a strict Content-Security-Policy.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import i18n
from ..rules import PRESETS, Rules
from ..store import Store, StoreError
from .follow import SWEEP_SECONDS
from .hints import Hints
from .language import LanguageMiddleware, catalogue_response, index_page, seat_language
from .leases import LEASE_SECONDS
from .limits import (
    TABLE_BURST,
    TABLE_RATE,
    UNGREETED_SOCKETS,
    AddressRate,
    MessageRate,
    Ungreeted,
)
from .lobby import Lobby
from .ops import Ops, OpsMiddleware
from .options import API_ERRORS, TableError, rules_description
from .protocol import (
    MAX_MESSAGE_BYTES,
    MESSAGE_BURST,
    MESSAGE_RATE,
    Hello,
    ProtocolError,
    error_frame,
    parse_client_message,
)
from .reviews import Reviewer
from .rulespage import rules_page
from .tables import (
    TABLE_ID_RE,
    BotFactory,
    Outbox,
    TableManager,
    default_bot_factory,
    error_for,
)

if TYPE_CHECKING:
    from ..review import ReviewSettings

__all__ = ["HELLO_TIMEOUT", "STATIC_DIR", "MessageRate", "create_app"]

log = logging.getLogger("hollywood_gin.web")

STATIC_DIR = Path(__file__).with_name("static")
HELLO_TIMEOUT = 10.0
MAX_BODY = 4096

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """Pure ASGI middleware adding the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _origin_ok(headers: Any, scope: Scope, allowed: frozenset[str] | None) -> bool:
    """A browser always sends Origin on a WebSocket; only this site's own may open one."""
    origin = headers.get("origin")
    if not origin:
        return False
    if allowed is not None:
        return bool(origin in allowed)
    scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
    host = headers.get("host")
    return bool(host) and bool(origin == f"{scheme}://{host}")


def create_app(
    *,
    db_url: str | None = None,
    store: Store | None = None,
    allowed_origins: Iterable[str] | None = None,
    bot_factory: BotFactory = default_bot_factory,
    bot_delay: float = 0.6,
    message_rate: float = MESSAGE_RATE,
    message_burst: int = MESSAGE_BURST,
    table_rate: float = TABLE_RATE,
    table_burst: int = TABLE_BURST,
    pending_sockets: int = UNGREETED_SOCKETS,
    review_settings: ReviewSettings | None = None,
    review_workers: int = 1,
    lease_seconds: float = LEASE_SECONDS,
    bus: str | None = None,
    sweep_seconds: float = SWEEP_SECONDS,
) -> Starlette:
    """The web app over one store.

    ``allowed_origins`` are the exact origins (``http://127.0.0.1:8000``) whose pages may
    open a table's WebSocket or post to the API; None accepts only the origin matching the
    request's Host.  ``bot_delay`` is the pause before each computer action, so a person
    can follow it.  ``message_rate`` and ``message_burst`` bound what one WebSocket may
    send (0: no bound); ``table_rate`` (a minute) and ``table_burst`` the tables one
    client address may create; ``pending_sockets`` the WebSockets one address may hold
    open before they say hello (0: no bound); ``review_settings`` how hard the game
    review looks and ``review_workers`` the processes that make reviews (reviews.py).
    ``lease_seconds``: how long a process's claim to play the computer at a table
    outlives its last renewal (how soon another process takes over from one that died).
    ``bus``: a ``redis://`` URL to hear the other processes through Redis pub/sub (on
    PostgreSQL; None: PostgreSQL's own LISTEN/NOTIFY).  ``sweep_seconds``: how often a
    process reads its live tables' saved rows (to catch up an announcement that was lost)
    and says again who is at them (another process's word lasts three sweeps); the
    tests shorten it.
    """
    the_store = store if store is not None else Store(db_url)
    manager = TableManager(the_store, bot_factory=bot_factory, bot_delay=bot_delay,
                           lease_seconds=lease_seconds, bus_url=bus,
                           sweep_seconds=sweep_seconds)
    ops = Ops(the_store, manager)  # /healthz, /readyz, /metrics, table events (ops.py)
    reviewer = Reviewer(manager, settings=review_settings, workers=review_workers)
    lobby = Lobby(manager, reviewer.method)
    hints = Hints(manager, reviewer)
    origins = None if allowed_origins is None else frozenset(o.rstrip("/") for o in allowed_origins)
    creations = AddressRate(table_rate, table_burst)
    ungreeted = Ungreeted(pending_sockets)

    def page(request: Request) -> Response:
        return index_page(STATIC_DIR, request)

    async def read_json(request: Request, fields: set[str]) -> dict[str, Any]:
        """The body of an API request, from this site's own pages only (a browser always
        sends Origin on a POST; a request without one is not from a page of ours)."""
        if not _origin_ok(request.headers, request.scope, origins):
            raise TableError(403, "origin", "requests from other sites (or naming no Origin) "
                             "are refused")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise TableError(413, "too_large",
                                 f"the request body is larger than {MAX_BODY} bytes")
        try:
            data = json.loads(body or b"{}")
        except (ValueError, RecursionError):  # a body nested too deep is no object either
            raise TableError(400, "bad_json", "the request body must be a JSON object") from None
        if not isinstance(data, dict):
            raise TableError(400, "bad_json", "the request body must be a JSON object")
        unknown = set(data) - fields
        if unknown:
            raise TableError(400, "unknown_field",
                             f"unknown field(s): {', '.join(sorted(map(str, unknown)))[:200]}")
        return data

    def api(fields: set[str], answer: Callable[[Request, dict[str, Any]], Awaitable[Any]],
            status: int = 200) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                data = await read_json(request, fields)
                out = await answer(request, data)
            except TableError as exc:
                headers = None if exc.retry_after is None else {
                    "retry-after": str(exc.retry_after)}
                return JSONResponse(exc.body(), status_code=exc.status, headers=headers)
            return JSONResponse(out, status_code=status)
        return endpoint

    async def create_table(request: Request, data: dict[str, Any]) -> Any:
        address = request.client.host if request.client else "?"
        allowed, wait = creations.allow(address)
        if not allowed:
            seconds = max(1, round(wait + 0.5))
            raise TableError(429, "rate", f"too many tables created from this address: try "
                             f"again in {seconds} s", retry_after=seconds)
        try:
            created = await lobby.create(
                opponent=data.get("opponent"), level=data.get("level"),
                preset=data.get("preset"), rules=data.get("rules"), name=data.get("name"))
        except TableError as exc:
            if exc.status == 400:  # refused for what it asked: no table, no token spent
                creations.refund(address)
            raise
        ops.table_created(created.answer["table"], data.get("opponent"), created.level,
                          created.preset)
        return created.answer

    async def join_table(request: Request, data: dict[str, Any]) -> Any:
        out = await lobby.join(request.path_params["table"], invite=data.get("invite"),
                               name=data.get("name"))
        ops.event("seat_joined", table=out["table"], seat=out["seat"])
        return out

    async def my_tables(request: Request, data: dict[str, Any]) -> Any:
        return await lobby.mine(data.get("seats", []))

    async def abandon_table(request: Request, data: dict[str, Any]) -> Any:
        out = await lobby.abandon(request.path_params["table"], data.get("token"))
        if not out["already"]:  # asked again (another tab, a retry): told once
            ops.event("table_abandoned", table=out["table"])
        return out

    async def hint_table(request: Request, data: dict[str, Any]) -> Any:
        return await hints.answer(request.path_params["table"], data.get("token"))

    async def review_table(request: Request, data: dict[str, Any]) -> Any:
        return await reviewer.answer(request.path_params["table"], data.get("token"),
                                     data.get("hand"))

    async def rules_of(request: Request, table: str | None) -> Rules | None:
        """The rules of a table, of ``?preset=``, or the default preset (None: no such)."""
        if table is not None:
            if not TABLE_ID_RE.fullmatch(table):
                return None
            live = manager.live(table)
            if live is not None:
                return live.pm.match.rules
            try:
                return (await manager.run(the_store.load, table)).rules
            except StoreError:
                return None
        preset = request.query_params.get("preset", "hollywood")
        return PRESETS.get(preset)

    async def rules_api(request: Request) -> Response:
        asked = "table" in request.query_params or "preset" in request.query_params
        rules = await rules_of(request, request.query_params.get("table"))
        if rules is None:
            return JSONResponse({"error": "no such table or preset", "code": "no_table"},
                                status_code=404)
        return JSONResponse(rules_description(rules if asked else None))

    async def rules_html(request: Request) -> Response:
        table = request.path_params.get("table") or request.query_params.get("table")
        rules = await rules_of(request, table)
        if rules is None:
            return HTMLResponse(rules_page(Rules(), lang=i18n.language()), status_code=404)
        return HTMLResponse(rules_page(rules, table=table, lang=i18n.language(),
                                       preset=request.query_params.get("preset")),
                            headers={"vary": "accept-language"})

    def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def table_socket(websocket: WebSocket) -> None:
        if not _origin_ok(websocket.headers, websocket.scope, origins):
            await websocket.close(code=1008)  # before accept: the handshake gets HTTP 403
            return
        address = websocket.client.host if websocket.client else "?"
        if not ungreeted.enter(address):
            log.warning("refused a WebSocket from %s: too many without a hello", address)
            await websocket.close(code=1008)
            return
        waiting = [True]

        def greeted() -> None:
            if waiting[0]:
                waiting[0] = False
                ungreeted.leave(address)

        try:
            await websocket.accept()
            outbox = Outbox()
            writer = asyncio.get_running_loop().create_task(_write(websocket, outbox))
            try:
                await _serve_seat(websocket, manager, outbox,
                                  MessageRate(message_rate, message_burst), greeted)
            finally:
                outbox.close(outbox.close_code)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(writer, 5)
        finally:
            greeted()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await manager.start()  # follow the other processes (PostgreSQL)
        await ops.start()
        yield
        reviewer.close()
        await ops.stop()
        await manager.stop()
        manager.close()
        if store is None:
            the_store.close()

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/t/{table}", page),
            Route("/join/{table}", page),
            Route("/review/{table}", page),
            Route("/rules", rules_html),
            Route("/rules/{table}", rules_html),
            Route("/api/health", health),
            Route("/i18n/{lang}.json", catalogue_response),
            Route("/api/rules", rules_api),
            Route("/api/tables", api({"opponent", "level", "preset", "rules", "name"},
                                     create_table, 201), methods=["POST"]),
            Route("/api/tables/mine", api({"seats"}, my_tables), methods=["POST"]),
            Route("/api/tables/{table}/join", api({"invite", "name"}, join_table),
                  methods=["POST"]),
            Route("/api/tables/{table}/abandon", api({"token"}, abandon_table),
                  methods=["POST"]),
            Route("/api/tables/{table}/review", api({"token", "hand"}, review_table),
                  methods=["POST"]),
            Route("/api/tables/{table}/hint", api({"token"}, hint_table), methods=["POST"]),
            WebSocketRoute("/ws/{table}", table_socket),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
            *ops.routes(),
        ],
        middleware=[],
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error},
    )
    app.add_middleware(LanguageMiddleware)  # each request in its language (language.py)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(OpsMiddleware, ops=ops)
    app.state.manager = manager
    app.state.store = the_store
    app.state.ops = ops
    app.state.reviewer = reviewer
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method it does not take): under /api/ in
    the API's shape, ``{"error", "code"}``, as every other refusal there; elsewhere as
    Starlette says them."""
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    code = {404: "not_found", 405: "method"}.get(exc.status_code)
    if code is None or not request.url.path.startswith("/api/"):
        return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=headers)
    return JSONResponse({"error": API_ERRORS[code], "code": code},
                        status_code=exc.status_code, headers=headers)


async def _write(websocket: WebSocket, outbox: Outbox) -> None:
    """Send the outbox's frames in order; close the socket when it is closed."""
    try:
        while True:
            text = await outbox.queue.get()
            if text is None:
                break
            await websocket.send_text(text)
        await websocket.close(code=outbox.close_code)
    except Exception:  # the peer went away; the reader notices too
        outbox.closed = True


async def _receive(websocket: WebSocket) -> str | bytes | None:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    return bytes(message.get("bytes") or b"")


async def _serve_seat(
    websocket: WebSocket, manager: TableManager, outbox: Outbox, limit: MessageRate,
    greeted: Callable[[], None],
) -> None:
    """Hello first (the token), then one reply per refused message until the peer leaves;
    messages past the connection's rate are dropped unread."""
    table_id = websocket.path_params["table"]
    try:
        raw = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
    except (TimeoutError, WebSocketDisconnect):
        outbox.put(error_frame("auth", "no hello with a seat token in time"))
        outbox.close(4408)
        return
    greeted()
    if raw is None:
        return
    try:
        hello = parse_client_message(raw)
        if not isinstance(hello, Hello):
            raise ProtocolError("auth", "the first message must be a hello with the seat token")
        table, seat = await manager.authenticate(table_id, hello.token)
    except ProtocolError as exc:
        outbox.put(error_for(exc))
        outbox.close(4403)
        return
    outbox.token = hello.token
    await manager.attach(table, seat, outbox)
    # Anything the server words for this seat is in the seat's own language.
    lang = seat_language(hello.lang, websocket.scope)
    try:
        while not outbox.closed:
            try:
                raw = await _receive(websocket)
            except WebSocketDisconnect:
                break
            if raw is None:
                break
            if not limit.allow():
                if limit.should_warn():
                    outbox.put(error_frame(
                        "rate", f"more than {limit.rate:g} messages a second (bursts of "
                        f"{limit.burst}): messages are dropped until you slow down"))
                continue
            try:
                msg = parse_client_message(raw)
                with i18n.using(lang):
                    await manager.handle(table, seat, outbox, msg)
            except ProtocolError as exc:
                outbox.put(error_for(exc, getattr(_maybe(raw), "rid", None)))
    finally:
        await manager.detach(table, seat, outbox)


class _Rid:
    def __init__(self, rid: int | None) -> None:
        self.rid = rid


def _maybe(raw: str | bytes) -> _Rid:
    """The rid of a refused message, when it has a readable one, so the client can match it."""
    if isinstance(raw, bytes) or len(raw) > MAX_MESSAGE_BYTES:
        return _Rid(None)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return _Rid(None)
    rid = data.get("rid") if isinstance(data, dict) else None
    ok = isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid < 2**31
    return _Rid(rid if ok else None)
