"""The tests' way to import a script of ``benchmarks/`` (they are scripts, not a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> Any:
    """The module of ``benchmarks/NAME.py``, loaded afresh."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
