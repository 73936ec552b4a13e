"""The player's language: every word a player reads goes through here (gettext).

Wrap player-facing text in ``_("...")`` with named placeholders filled by ``.format``
after translation (``_("Discard {card}?").format(card=...)``), plurals in
``ngettext``, and text defined at import time in ``N_`` (translated where shown).
Record formats, JSON output, protocol codes and operator logs are not translated.
"""

from __future__ import annotations

import gettext

__all__ = ["N_", "_", "ngettext", "set_translations"]

_current: gettext.NullTranslations = gettext.NullTranslations()


def set_translations(translations: gettext.NullTranslations) -> None:
    """Make ``translations`` the catalogue every later ``_`` call reads."""
    global _current
    _current = translations


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it yet (module-level tables)."""
    return message
