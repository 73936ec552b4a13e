"""The scripts the docs send users to answer ``--help`` with their own words and do nothing
else (a docs check found ``pool_bench.py --help`` read '--help' as a file,
``oracle_ceiling.py --help`` print another script's text, and ``make_screenshots.py --help``
rewrite the committed screenshots)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("script", "says"), [
    ("benchmarks/pool_bench.py", "Pool ``bench_bots.py --json`` results"),
    ("benchmarks/oracle_ceiling.py", "How far knowing the opponent's hand would take"),
    ("benchmarks/paired_screen.py", "usage: paired_screen.py"),
    ("docs/make_screenshots.py", "Make the SVG screenshots of the terminal game"),
])
def test_help_is_the_scripts_own_and_writes_nothing(script: str, says: str) -> None:
    shots = ROOT / "docs" / "screenshots"
    before = {p.name: p.stat().st_mtime_ns for p in shots.iterdir()}
    done = subprocess.run([sys.executable, str(ROOT / script), "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ") and says in done.stdout, done.stdout[:300]
    assert {p.name: p.stat().st_mtime_ns for p in shots.iterdir()} == before
