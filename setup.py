"""Build hooks: compile the translations (``locale/*/LC_MESSAGES/*.po``) to ``.mo`` files,
and the optional C path of the card API (``hollywood_gin._speedups``).

Everything else about the package is in pyproject.toml. The ``.mo`` files are built, never
committed: into the wheel for ``pip install .``, and beside the ``.po`` files in the source
tree for ``pip install -e .`` (an editable install imports the package from there).
A checkout used without installing reads the ``.po`` files directly (hollywood_gin.i18n).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

LOCALE = Path("src", "hollywood_gin", "locale")


def drop_partial_plurals(catalog: Any) -> None:
    """Leave out a plural message with an empty form: Babel's ``write_mo`` would fill the
    form with an English one by its index ("21 decision" in Lithuanian), where gettext's
    fallback for a missing message picks the English by English rules."""
    for message in list(catalog):
        if message.id and message.pluralizable and not all(message.string):
            catalog.delete(message.id, message.context)


class build_py_with_catalogues(build_py):  # noqa: N801 (a setuptools command's name)
    """``build_py`` that also compiles each language's ``.po`` with Babel."""

    def run(self) -> None:
        super().run()
        target = LOCALE if self.editable_mode else Path(self.build_lib, "hollywood_gin", "locale")
        for mo in self._compile(target):
            self.announce(f"compiled {mo}", level=2)

    def _compile(self, target: Path) -> list[str]:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        written = []
        for po_file in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
            with po_file.open("rb") as fp:
                catalog = read_po(fp)
            drop_partial_plurals(catalog)
            mo_file = target / po_file.relative_to(LOCALE).with_suffix(".mo")
            mo_file.parent.mkdir(parents=True, exist_ok=True)
            with mo_file.open("wb") as fp:
                write_mo(fp, catalog)  # untranslated and fuzzy entries are left out
            written.append(str(mo_file))
        return written

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        base = Path(self.build_lib, "hollywood_gin", "locale")
        mos = [str(base / p.relative_to(LOCALE).with_suffix(".mo"))
               for p in sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))]
        return [*super().get_outputs(include_bytecode), *mos]


# Optional, as MarkupSafe's ``_speedups``: without a compiler the install still succeeds and
# the package runs on its pure-Python functions (the source of truth).  ``make test``
# compiles it, and tests/test_speedups.py fails there if it is missing.  Its C files, one
# per concern, share a private header (an sdist carries the sources and the header).
SPEEDUPS_C = Path("src", "hollywood_gin", "_speedups_c")
SPEEDUPS = Extension("hollywood_gin._speedups",
                     [str(SPEEDUPS_C / f"{name}.c")
                      for name in ("module", "solve", "cards", "fields", "arrange", "score")],
                     depends=[str(SPEEDUPS_C / "speedups.h")], optional=True)

setup(cmdclass={"build_py": build_py_with_catalogues}, ext_modules=[SPEEDUPS])
