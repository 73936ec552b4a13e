"""The player's saved settings: the language chosen in the game, and which language wins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hollywood_gin import i18n, settings
from hollywood_gin.cli import main, start_language


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(settings.ENV, str(tmp_path / "config"))
    return tmp_path / "config"


def test_a_saved_language_is_read_back_and_cleared(config: Path) -> None:
    assert settings.saved_language() is None
    settings.save_language("nb-NO")
    assert settings.saved_language() == "nb"
    assert json.loads((config / "settings.json").read_text()) == {"language": "nb"}
    settings.save_language(None)
    assert settings.saved_language() is None
    assert list(config.iterdir()) == [config / "settings.json"]  # no temporary file left


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"language": 7}',
                                  '{"language": "fr"}', '{"language": "qps"}'])
def test_an_unreadable_or_foreign_file_is_no_setting(config: Path, text: str) -> None:
    config.mkdir()
    (config / "settings.json").write_text(text)
    assert settings.saved_language() is None


@pytest.mark.parametrize(("text", "why"), [
    ('{"language": "af"', "Expecting ',' delimiter"), ("[1, 2]", "it is not a JSON object"),
    ('{"language": 7}', "its language '7' is not one"),
    ('{"language": "fr"}', "its language 'fr' is not one this game speaks")])
def test_a_damaged_file_is_said_not_silently_dropped(config: Path, text: str,
                                                     why: str) -> None:
    assert settings.problem() is None  # no file: nothing to say
    config.mkdir()
    (config / "settings.json").write_text(text)
    said = settings.problem()
    assert said is not None and str(config / "settings.json") in said and why in said, said
    assert said.endswith("the language comes from --lang or the system.")
    settings.save_language("lt")  # choosing a language again mends it
    assert settings.problem() is None


def test_the_game_tells_a_damaged_settings_file_at_the_start(config: Path) -> None:
    import asyncio

    from hollywood_gin.store import Store
    from hollywood_gin.tui.app import GinApp

    config.mkdir()
    (config / "settings.json").write_text('{"language": "af"')

    async def run() -> None:
        app = GinApp(store=Store(f"sqlite:///{config / 'g.db'}"), delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            notices = [n.message for n in app._notifications]
            assert any("settings.json is not used" in n for n in notices), notices

    asyncio.run(run())


def test_saving_keeps_the_other_settings(config: Path) -> None:
    config.mkdir()
    (config / "settings.json").write_text('{"other": 1}')
    settings.save_language("lo")
    assert json.loads((config / "settings.json").read_text()) == {"other": 1, "language": "lo"}


def test_an_unknown_language_is_refused_and_nothing_written(config: Path) -> None:
    with pytest.raises(i18n.LanguageError):
        settings.save_language("fr")
    assert not (config / "settings.json").exists()


def test_an_unwritable_place_is_an_oserror(config: Path) -> None:
    config.parent.mkdir(exist_ok=True)
    config.write_text("a file where the folder should be")
    with pytest.raises(OSError):
        settings.save_language("lt")


def test_lang_beats_the_saved_language_which_beats_the_environment(
        config: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANGUAGE", "lt")
    assert start_language(None) == "lt"
    settings.save_language("ha")
    assert start_language(None) == "ha"
    assert start_language("nb") == "nb"
    main(["melds", "--lang", "qps", "As"])
    assert i18n.language() == "qps"
    main(["melds", "As"])
    assert i18n.language() == "ha"
