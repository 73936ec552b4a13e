"""Every relative link of the README, the docs and the rule books leads somewhere: to a
file that exists and, with a ``#fragment``, to a heading of it (GitHub's anchors).  Text
moves between these pages (the strength history went from the README to
docs/strength.md), and a link left behind would send a reader nowhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
         *sorted((ROOT / "src" / "hollywood_gin" / "rulebook").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"```.*?```", re.S)
HEADING = re.compile(r"^#+\s+(.*)$", re.M)


def anchor_of(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links(page: Path, text: str) -> list[tuple[str, str]]:
    """(link, what is wrong) for each relative link of ``text`` (the page at ``page``)
    that leads nowhere; links with a scheme (https:, mailto:) are not followed."""
    bad = []
    for match in LINK.finditer(FENCE.sub("", text)):
        target = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            bad.append((target, f"no file {path}"))
        elif fragment and file.suffix == ".md":
            anchors = {anchor_of(h) for h in HEADING.findall(file.read_text(encoding="utf-8"))}
            if fragment not in anchors:
                bad.append((target, f"no heading #{fragment} in {file.name}"))
    return bad


def test_every_relative_link_of_the_pages_leads_somewhere() -> None:
    bad = []
    count = 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        count += sum(1 for m in LINK.finditer(FENCE.sub("", text))
                     if not re.match(r"[a-z][a-z0-9+.-]*:", m.group(1)))
        bad += [(str(page.relative_to(ROOT)), *b) for b in broken_links(page, text)]
    assert count > 50, f"only {count} relative links found: is the pattern still right?"
    assert not bad, "\n".join(f"{page}: ({link}) {why}" for page, link, why in bad)


def test_the_checker_finds_a_missing_file_and_a_missing_heading() -> None:
    page = ROOT / "README.md"
    text = ("[ok](docs/bots.md#the-expert) [gone](docs/nowhere.md) "
            "[no such heading](docs/bots.md#no-such-heading) [web](https://example.org/x) "
            "```\n[in code](nowhere.md)\n```")
    found = broken_links(page, text)
    assert [link for link, _ in found] == ["docs/nowhere.md", "docs/bots.md#no-such-heading"]
    assert found[0][1] == "no file docs/nowhere.md"
    assert found[1][1] == "no heading #no-such-heading in bots.md"


def test_heading_anchors_follow_githubs_rule() -> None:
    assert anchor_of("How the expert got there, and what it lacks") == \
        "how-the-expert-got-there-and-what-it-lacks"
    assert anchor_of("The engine in five minutes") == "the-engine-in-five-minutes"
