"""The web app's languages: which one a request speaks, the browser's catalogue, the page.

- A page (``/``, a table, ``/rules``) speaks ``?lang=`` if given, else the best of the
  browser's ``Accept-Language`` (``i18n.best_match``); the page's script then keeps the
  player's choice in ``localStorage`` and sends it as ``Accept-Language`` on its own
  requests, and in the WebSocket hello, so the server words everything for a seat in that
  seat's language (two friends at one table, two languages).
- ``/i18n/{lang}.json`` is the catalogue the page translates with
  (:func:`hollywood_gin.i18n.catalogue_json`, from the same ``.po`` files as Python),
  cached per language and file version, with an ETag: a page load asks again and mostly
  gets a 304.
- :class:`LanguageMiddleware` runs every HTTP request in the language it asks for, so the
  words the server puts in its answers (rule option labels, a refusal of rules) are the
  player's.  Operator logs stay English: they are not words for a player.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import i18n

__all__ = ["LanguageMiddleware", "catalogue_response", "index_page", "request_language",
           "seat_language"]

_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,4}$")
_HTML_LANG = '<html lang="en">'


def _offered(tag: str | None) -> str | None:
    """The language a well-formed tag names, if it is offered (the pseudo-locale too)."""
    if not tag or len(tag) > 35 or not _TAG.match(tag):
        return None
    try:
        return i18n.validate_language(tag)
    except i18n.LanguageError:
        return None


def request_language(scope: Scope, query: str | None = None) -> str:
    """The language of a request: ``?lang=`` (``query``), else its ``Accept-Language``."""
    chosen = _offered(query)
    if chosen is not None:
        return chosen
    accept = ""
    for key, value in scope.get("headers", []):
        if key == b"accept-language":
            accept = value.decode("latin-1")
            break
    if "," not in accept and ";" not in accept:
        # One language alone: the page's own requests name the player's choice so (the
        # pseudo-locale too, which a browser never asks for by itself).
        named = _offered(accept.strip())
        if named is not None:
            return named
    return i18n.best_match(accept)


def seat_language(said: str | None, scope: Scope) -> str:
    """A seat's language: the one its hello says (a page's choice), else the browser's."""
    return _offered(said) or request_language(scope)


class LanguageMiddleware:
    """Each HTTP request handled under ``i18n.using`` its language (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = dict(re.findall(r"(?:^|&)([^=&]+)=([^&]*)",
                                scope.get("query_string", b"").decode("latin-1")))
        with i18n.using(request_language(scope, query.get("lang"))):
            await self.app(scope, receive, send)


_cache: dict[str, tuple[tuple[int, ...], bytes, str]] = {}
_lock = threading.Lock()


def _stamp(lang: str) -> tuple[int, ...]:
    """The versions of the files a catalogue is made from (a new .po makes a new one)."""
    files = [i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot",
             i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"]
    return tuple(p.stat().st_mtime_ns if p.exists() else 0 for p in files)


def catalogue_response(request: Request) -> Response:
    """``/i18n/{lang}.json``: the page's messages in ``lang``, with an ETag (304 when the
    browser holds them already).  An unknown language is a 404 naming the offered ones."""
    raw = request.path_params["lang"]
    lang = _offered(raw)
    if lang is None or lang != raw:
        return JSONResponse({"error": f"no catalogue {raw!r}", "code": "no_language",
                             "languages": list(i18n.LANGUAGES)}, status_code=404)
    stamp = _stamp(lang)
    with _lock:
        found = _cache.get(lang)
    if found is None or found[0] != stamp:
        body = json.dumps(i18n.catalogue_json(lang), ensure_ascii=False,
                          separators=(",", ":"), sort_keys=True).encode("utf-8")
        found = (stamp, body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
        with _lock:
            _cache[lang] = found
    body, etag = found[1], found[2]
    headers = {"etag": etag, "cache-control": "no-cache", "vary": "accept-encoding"}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def index_page(static_dir: Path, request: Request) -> Response:
    """The page's one HTML file with ``<html lang>`` set to the request's language: the
    script starts in it (unless the player chose another one in this browser)."""
    lang = i18n.language()  # the middleware's choice for this request
    html = (static_dir / "index.html").read_text(encoding="utf-8")
    html = html.replace(_HTML_LANG, f'<html lang="{lang}">', 1)
    return HTMLResponse(html, headers={"cache-control": "no-cache",
                                       "vary": "accept-language"})
