"""The README's examples run (doctest), and its quick start is exactly two commands."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_examples_run() -> None:
    text = README.read_text()
    blocks = re.findall(r"```pycon\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    test = parser.get_doctest("\n".join(blocks), {}, "README", str(README), 0)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README example(s) failed"


def test_quick_start_is_two_commands() -> None:
    text = README.read_text()
    section = re.search(r"^## Quick start\n(.*?)^## ", text, re.S | re.M)
    assert section is not None
    block = re.search(r"```[^\n]*\n(.*?)```", section.group(1), re.S)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["make play", "make test"]
