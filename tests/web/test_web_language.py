"""The server's side of the web app's languages (issue 12): the catalogue route, the page's
``<html lang>``, each request in its language, and each seat's words in the language its
hello says (two seats at one table, two languages)."""

from __future__ import annotations

import json

import httpx2
import pytest
from hg_web_support import Seat, Server

from hollywood_gin import i18n
from hollywood_gin.web.protocol import Hello, ProtocolError, parse_client_message


def _get(web: Server, path: str, **headers: str) -> httpx2.Response:
    return httpx2.get(web.base + path, headers=headers, trust_env=False)


def test_the_catalogue_is_served_from_the_po_files_with_an_etag(web: Server) -> None:
    got = _get(web, "/i18n/lt.json")
    assert got.status_code == 200 and got.headers["content-type"].startswith("application/json")
    assert got.json() == json.loads(json.dumps(i18n.catalogue_json("lt")))
    etag = got.headers["etag"]
    again = _get(web, "/i18n/lt.json", **{"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert _get(web, "/i18n/qps.json").json()["messages"]["btn.draw"] == i18n.pseudo("Draw")
    for bad in ("xx", "nb-NO", "LT", "en-US"):  # one file per language, by its own code
        refused = _get(web, f"/i18n/{bad}.json")
        assert refused.status_code == 404
        assert refused.json()["code"] == "no_language"
        assert refused.json()["languages"] == list(i18n.LANGUAGES)


def test_the_page_says_its_language_from_the_browser_or_the_address(web: Server) -> None:
    def lang_of(path: str, accept: str = "") -> str:
        page = _get(web, path, **({"accept-language": accept} if accept else {}))
        assert page.status_code == 200 and "vary" in page.headers
        return page.text.split('<html lang="', 1)[1].split('"', 1)[0]

    assert lang_of("/") == "en"
    assert lang_of("/", "lt-LT,lt;q=0.9,en;q=0.5") == "lt"
    assert lang_of("/", "fr-FR,nn;q=0.8") == "nb"  # Nynorsk readers get Bokmål
    assert lang_of("/", "fr, de") == "en"  # not offered: English
    assert lang_of("/?lang=lo", "lt") == "lo"  # the address wins
    assert lang_of("/?lang=xx", "ha") == "ha"  # a language not offered is ignored
    rules = _get(web, "/rules?preset=eaai&lang=nb").text
    assert '<html lang="nb">' in rules and 'aria-current="true">Norsk bokmål</a>' in rules


def test_the_hello_names_a_language_tag() -> None:
    assert parse_client_message('{"type": "hello", "token": "' + "a" * 16 + '", "lang": "nb-NO"}'
                                ) == Hello("a" * 16, "nb-NO")
    assert parse_client_message('{"type": "hello", "token": "' + "a" * 16 + '"}').lang is None
    for bad in ('"x"', '"en_US!"', "5", '"' + "a" * 40 + '"'):
        with pytest.raises(ProtocolError) as err:
            parse_client_message('{"type": "hello", "token": "' + "a" * 16 + f'", "lang": {bad}}}')
        assert err.value.code == "schema"


def test_each_seat_reads_the_servers_words_in_its_own_language(web: Server) -> None:
    """Ann's page speaks the pseudo-locale, Bob's none (English): an action refused for each
    comes back in each one's language, at the same table."""
    created = web.create(opponent="friend", name="Ann")
    joined = web.join(created["table"], created["invite"], name="Bob")
    ann = Seat(web, created["table"], created["token"], hello=False)
    ann.send({"type": "hello", "token": created["token"], "lang": i18n.PSEUDO})
    ann.wait(lambda f: f["type"] == "state")
    bob = Seat(web, created["table"], joined["token"])
    refused: dict[str, str] = {}
    for _turn in range(2):  # whoever is to act asks for something illegal, then passes
        seats = {"ann": ann, "bob": bob}
        for each in seats.values():
            each.request({"type": "sync"})  # the state as it is now (Bob's arrival moved it)
        name, seat = next((n, s) for n, s in seats.items() if s.state and s.state["hand"]["legal"])
        assert seat.state is not None and seat.state["hand"]["phase"] == "offer"
        answer = seat.act("discard 2c")  # no discard before a draw (the core says why)
        assert answer["type"] == "error" and answer["code"] == "illegal", answer
        refused[name] = answer["message"]
        seq = seat.state["seq"]
        assert seat.act("pass")["type"] == "ack"
        for other in seats.values():
            other.wait(lambda f, s=seq: f["type"] == "state" and f["seq"] > s)
    assert "⟦" in refused["ann"], refused
    assert "⟦" not in refused["bob"], refused
    ann.close()
    bob.close()
