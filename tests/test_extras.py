"""The optional parts name the extra they need (found by a QA pass installing the core
alone: ``import hollywood_gin.rl`` said only "No module named 'numpy'"); the command line
words the same error itself, in one line (tests/test_cli_errors.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(("module", "missing", "extra", "code"), [
    ("numpy", "numpy", "rl", "import hollywood_gin.rl"),
    ("numpy", "numpy", "rl", "import hollywood_gin.batch"),
    ("numpy", "numpy", "openspiel", "import hollywood_gin.openspiel"),
    ("sqlalchemy", "sqlalchemy", "store", "import hollywood_gin.store"),
    ("ray", "ray", "cluster", "from hollywood_gin.cluster import ray_map; ray_map(abs, [1])"),
])
def test_a_missing_extra_is_named(module: str, missing: str, extra: str, code: str) -> None:
    hide = f"import sys; sys.modules[{module!r}] = None; "  # as if it were not installed
    done = subprocess.run([sys.executable, "-c", hide + code], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    where = code.split()[1].split(";")[0] if code.startswith("import") else "hollywood_gin.cluster"
    assert last == (f"ModuleNotFoundError: {where} needs the '{extra}' extra ({missing} is "
                    f"not installed): pip install 'hollywood-gin[{extra}]'"), last
