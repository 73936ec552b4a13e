"""Layers point inward: the pure core imports only the standard library and itself."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "hollywood_gin"
CORE = ["_speedups", "actions", "arrange", "atomic", "cards", "errors", "frozen", "hand", "i18n",
        "match", "melds", "po", "record", "refusals", "replay", "rulebook", "rules", "scoring",
        "sheet", "shuffle", "solve", "view"]


def sources_of(module: str) -> list[Path]:
    """The files of a core module: ``name.py``, or every file of the package ``name/`` (a
    compiled module's Python files: none; its C sources, in ``name_c/``, are checked below)."""
    if (PACKAGE / f"{module}_c").is_dir():
        return []
    package = PACKAGE / module
    return sorted(package.rglob("*.py")) if package.is_dir() else [PACKAGE / f"{module}.py"]


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(level, module) of every import in a file; level > 0 for relative imports."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


@pytest.mark.parametrize("module", CORE)
def test_core_module_imports_only_stdlib_and_core(module: str) -> None:
    for path in sources_of(module):
        depth = len(path.relative_to(PACKAGE).parts) - 1  # 0 for a module, 1 in a package
        for level, name in imports_of(path):
            if level:
                inner = level == 1 and depth == 1 and name == ""
                assert inner or (level == 1 + depth and name.split(".")[0] in CORE), (
                    f"core module {module} imports the layer .{name}")
            else:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"core module {module} imports {name}"


C_SOURCES = sorted((PACKAGE / "_speedups_c").glob("*.[ch]"))


def test_the_compiled_core_is_its_c_files_and_their_header() -> None:
    names = {path.name for path in C_SOURCES}
    assert {"module.c", "speedups.h"} <= names and len(names) > 2, names


def test_setup_compiles_every_c_file_of_the_compiled_core() -> None:
    # setup.py names the extension's sources one by one: a C file left out would leave its
    # functions undefined when the module loads (the optional build then falls back).
    text = (PACKAGE.parent.parent / "setup.py").read_text()
    listed = re.search(r'for name in \(([^)]*)\)\]', text)
    assert listed is not None
    stems = set(re.findall(r'"(\w+)"', listed.group(1)))
    assert stems == {path.stem for path in C_SOURCES if path.suffix == ".c"}, stems


def test_each_c_file_is_under_600_lines() -> None:
    for path in C_SOURCES:
        assert len(path.read_text().splitlines()) < 600, path.name


@pytest.mark.parametrize("path", C_SOURCES, ids=lambda path: path.name)
def test_the_compiled_core_includes_only_python_the_c_library_and_its_header(
        path: Path) -> None:
    includes = re.findall(r"^\s*#\s*include\s*(\S+)", path.read_text(), re.M)
    allowed = {"<Python.h>", "<structmember.h>", "<stdint.h>", "<string.h>"}
    if path.suffix == ".c":
        assert includes == ['"speedups.h"'], includes  # the header includes the rest
    else:
        assert includes and set(includes) <= allowed, includes


def test_package_declares_no_required_dependencies() -> None:
    import tomllib

    project = tomllib.loads((PACKAGE.parent.parent / "pyproject.toml").read_text())["project"]
    assert project["dependencies"] == []
