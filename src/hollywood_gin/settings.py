"""The player's own settings on this computer: for now the language chosen in the game.

A small JSON file, ``settings.json``, in the user's configuration folder
(``platformdirs.user_config_dir("hollywood-gin")``: ``~/.config/hollywood-gin`` on Linux),
or in the folder ``$HOLLYWOOD_GIN_CONFIG`` names.  Not in the saved-games store: the
store may be a database shared by a web server and other players (``--db``), while a
language is one person's choice on one machine, and a file needs no schema migration.

The terminal game and the score keeper save the language chosen on their help screens
here; every command then speaks it unless ``--lang`` says otherwise (it comes before the
environment's ``LANGUAGE``/``LANG``, since the player chose it in so many words).  A
missing, unreadable or foreign file is no setting: reading never fails.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from . import i18n
from .atomic import replace_file
from .i18n import _

__all__ = ["ENV", "config_dir", "load", "problem", "save_language", "saved_language",
           "settings_file"]

#: The environment variable naming another folder for the settings (tests use it).
ENV = "HOLLYWOOD_GIN_CONFIG"
_FILE = "settings.json"


def config_dir() -> Path | None:
    """The folder of the settings file; None when neither ``$HOLLYWOOD_GIN_CONFIG`` nor
    platformdirs (the ``store`` extra) says where it is."""
    given = os.environ.get(ENV)
    if given:
        return Path(given)
    try:
        import platformdirs
    except ImportError:
        return None
    return Path(platformdirs.user_config_dir("hollywood-gin", appauthor=False))


def settings_file() -> Path | None:
    folder = config_dir()
    return None if folder is None else folder / _FILE


def load() -> dict[str, Any]:
    """Every saved setting; an empty dict when there is no file or it cannot be read."""
    path = settings_file()
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def problem() -> str | None:
    """Why the settings file is not used, in the player's words (None: no file, or a good
    one).  Reading never fails, but a player who chose a language and gets another must be
    told why: the screens show this once at the start."""
    path = settings_file()
    if path is None or not path.exists():
        return None
    why = None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        why = str(exc)
    else:
        lang = data.get("language") if isinstance(data, dict) else None
        if not isinstance(data, dict):
            why = _("it is not a JSON object")
        elif "language" in data and saved_language() is None:
            why = _("its language '{lang}' is not one this game speaks").format(lang=lang)
    if why is None:
        return None
    return _("The settings file {path} is not used ({why}): the language comes from "
             "--lang or the system.").format(path=path, why=why)


def saved_language() -> str | None:
    """The language the player chose in the game, if any (one that is still offered)."""
    lang = load().get("language")
    if not isinstance(lang, str):
        return None
    try:
        code = i18n.validate_language(lang)
    except i18n.LanguageError:
        return None
    return code if code in i18n.LANGUAGES else None


def save_language(lang: str | None) -> None:
    """Keep ``lang`` for the next start (None: follow the environment again).  Written to a
    temporary file and renamed, so a crash never leaves half a file; an unwritable folder
    raises :class:`OSError` for the caller to report."""
    path = settings_file()
    if path is None:
        raise OSError(i18n._("there is no configuration folder to save the setting in"))
    data = load()
    if lang is None:
        data.pop("language", None)
    else:
        data["language"] = i18n.validate_language(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, json.dumps(data, indent=1, sort_keys=True) + "\n", prefix=".settings-")
