"""The score keeper's arithmetic and its saved sheets, with no widgets in it.

People playing with real cards enter each hand either as "who won, how many
points" or as the two deadwood counts and how the hand ended; the points then
follow the rule book's §5 from the rule options: a knock scores the difference
(R5.5), an undercut the undercut bonus plus the difference (R5.6), gin the gin
bonus plus the defender's deadwood (R5.7).  Nothing is taken on trust: points
no hand can score under the rules in force, and counts no hand can show, are
refused with the reason.  A sheet is stored as a match of kind ``keeper``
whose actions are ``"PLAYER POINTS"`` strings, and is rebuilt by replaying
them into a :class:`~hollywood_gin.sheet.ScoreSheet`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..errors import HollywoodGinError, shortened
from ..i18n import N_, _
from ..rules import WHOLE_NUMBER, Rules
from ..scoring import MAX_DEADWOOD, MAX_KNOCK_POINTS

__all__ = [
    "KINDS",
    "MAX_DEADWOOD",
    "EntryError",
    "EntryQuestion",
    "HandEntry",
    "Range",
    "entry_examples",
    "entry_how",
    "example_lines",
    "hand_points",
    "max_knock_limit",
    "parse_entry",
    "point_ranges",
    "read_number",
]

Kind = Literal["points", "knock", "undercut", "gin", "big_gin"]
KINDS: tuple[Kind, ...] = ("points", "knock", "undercut", "gin", "big_gin")


class EntryError(HollywoodGinError):
    """A hand entered in the score keeper does not make sense under the rules."""


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A hand as it goes on the sheet: the winner and the points, and the counts they came
    from (None for an entry of points alone)."""

    player: int  # who won the hand: the knocker, or the defender who undercut him
    points: int
    kind: Kind = "points"
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None  # after lay-offs (R5.4), none after gin (R5.7)

    def to_dict(self) -> dict[str, Any]:
        """What the saved sheet keeps of the hand, to say it again in any language."""
        return {"player": self.player, "points": self.points, "kind": self.kind,
                "knocker": self.knocker_deadwood, "defender": self.defender_deadwood}

    @classmethod
    def from_dict(cls, data: object) -> HandEntry | None:
        """The hand saved by :meth:`to_dict`, or None if it is not one (an older sheet)."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            return None

        def count(key: str) -> int | None:  # a deadwood count, or None; else not one
            value = data.get(key)
            if value is None:
                return None
            if type(value) is not int or not 0 <= value <= MAX_DEADWOOD:
                raise ValueError(key)
            return value

        try:
            player, points, kind = data["player"], data["points"], data["kind"]
            knocker, defender = count("knocker"), count("defender")
        except (KeyError, ValueError):
            return None
        # A damaged note (a knock without its counts, a player 5) is no note: the hand is
        # said from its points alone, never a crash (a QA pass found an assert failing).
        if player not in (0, 1) or type(player) is not int or type(points) is not int \
                or points < 0:
            return None
        if (kind in ("knock", "undercut") and (knocker is None or defender is None)) or \
                (kind in ("gin", "big_gin") and defender is None):
            return None
        return cls(player, points, kind, knocker, defender)


class EntryQuestion(EntryError):
    """A line that can be read two ways (or that says one thing and means another): the
    keeper asks ``question``; ``yes`` is recorded on a yes, ``no`` (if any) on a no."""

    def __init__(self, question: str, yes: HandEntry, no: HandEntry | None = None,
                 *, yes_label: str, no_label: str) -> None:
        super().__init__(question)
        self.question, self.yes, self.no = question, yes, no
        self.yes_label, self.no_label = yes_label, no_label


@dataclass(frozen=True, slots=True)
class Range:
    """The points one kind of win can score under some rules, both ends included."""

    kind: Kind
    low: int
    high: int


def max_knock_limit(rules: Rules) -> int:
    """The most deadwood a knock may hold in some hand: the knock limit, or under Oklahoma
    the upcard's value, at most 10 (R5.1)."""
    return 10 if rules.oklahoma else rules.knock_limit


def point_ranges(rules: Rules) -> tuple[Range, ...]:
    """What each kind of win can score under ``rules`` (R5.5–R5.7), from 0 to
    :data:`MAX_DEADWOOD` deadwood; no hand scores anything outside them."""
    limit = max_knock_limit(rules)
    ranges = []
    if limit >= 1:
        # R5.5: d − k with 1 ≤ k ≤ limit and k < d ≤ 98; R5.6: bonus + (k − d), 0 ≤ d ≤ k.
        ranges.append(Range("knock", 1, MAX_KNOCK_POINTS))
        ranges.append(Range("undercut", rules.undercut_bonus, rules.undercut_bonus + limit))
    ranges.append(Range("gin", rules.gin_bonus, rules.gin_bonus + MAX_DEADWOOD))  # R5.7
    if rules.big_gin_bonus is not None:
        ranges.append(Range("big_gin", rules.big_gin_bonus,
                            rules.big_gin_bonus + MAX_DEADWOOD))
    return tuple(ranges)


def _ranges_words(rules: Rules) -> str:
    names = {"knock": _("a knock"), "undercut": _("an undercut"), "gin": _("gin"),
             "big_gin": _("big gin")}
    return "; ".join(_("{kind} scores {low} to {high}").format(
        kind=names[r.kind], low=r.low, high=r.high) for r in point_ranges(rules))


def _check_points(points: int, name: str, rules: Rules) -> None:
    if points < 1:
        raise EntryError(_("{name} {points}: a won hand scores at least 1 point (R5.8)")
                         .format(name=name, points=points))
    if not any(r.low <= points <= r.high for r in point_ranges(rules)):
        raise EntryError(_("{name} {points}: no hand scores {points} under these rules "
                           "({ranges})").format(name=name, points=points,
                                                ranges=_ranges_words(rules)))


def _check_count(value: int, whose: str) -> None:
    if not 0 <= value <= MAX_DEADWOOD:
        raise EntryError(_("{whose} deadwood must be 0 to {most}, not {value}: no ten cards "
                           "hold more than {most} after the best melds (R2.4)").format(
            whose=whose, most=MAX_DEADWOOD, value=value))


def _check_knock(k: int, knocker: str, rules: Rules) -> None:
    limit = max_knock_limit(rules)
    if limit == 0:
        raise EntryError(_("{name} cannot knock: the knock limit is 0 under these rules, "
                           "so only gin ends a hand (R5.1)").format(name=knocker))
    if k > limit:
        if rules.oklahoma:
            raise EntryError(_("{name} cannot knock with {count}: under Oklahoma the knock "
                               "limit is the upcard's value, at most 10 (R5.1)").format(
                name=knocker, count=k))
        raise EntryError(_("{name} cannot knock with {count}: the knock limit is {limit} "
                           "(R5.1)").format(name=knocker, count=k, limit=limit))


def hand_points(
    rules: Rules,
    *,
    winner: int,
    kind: Kind,
    knocker_deadwood: int = 0,
    defender_deadwood: int,
    names: tuple[str, str] = ("Player 1", "Player 2"),
) -> HandEntry:
    """The entry of a hand won by ``winner`` (R5.5–R5.7), from the two counts.

    ``winner`` knocked for "knock", went gin for "gin" and "big_gin", and for
    "undercut" was the defender who undercut the other's knock.  Counts that no
    such hand can show are refused with :class:`EntryError` saying why.
    """
    if winner not in (0, 1):
        raise EntryError(_("the winner must be {first} or {second}").format(
            first=names[0], second=names[1]))
    who, other = names[winner], names[1 - winner]
    k, d = knocker_deadwood, defender_deadwood
    if kind in ("gin", "big_gin"):
        _check_count(d, _("{name}'s").format(name=other))
        if kind == "big_gin":
            if rules.big_gin_bonus is None:
                raise EntryError(_("big gin is not played under these rules (R5.7)"))
            bonus = rules.big_gin_bonus
        else:
            bonus = rules.gin_bonus
        return HandEntry(winner, bonus + d, kind, 0, d)
    if kind in ("knock", "undercut"):  # the counts first: a count no hand shows says so
        knocker, defender = (who, other) if kind == "knock" else (other, who)
        _check_count(k, _("{name}'s").format(name=knocker))
        _check_count(d, _("{name}'s").format(name=defender))
    if kind == "knock":
        _check_knock(k, who, rules)
        if k == 0:
            raise EntryError(_("{name} knocked with 0: that is gin (R2.5); enter it as "
                               "gin").format(name=who))
        if k >= d:
            raise EntryError(_("{name} knocked with {knocker} against {other}'s {defender}: "
                               "that is not a win but an undercut by {other} (R5.6)").format(
                name=who, knocker=k, other=other, defender=d))
        return HandEntry(winner, d - k, "knock", k, d)
    if kind == "undercut":
        _check_knock(k, other, rules)
        if k == 0:
            raise EntryError(_("{name} had no deadwood: that is gin, which cannot be "
                               "undercut (R5.7)").format(name=other))
        if d > k:
            raise EntryError(_("no undercut: {knocker}'s {count} is less than {name}'s "
                               "{defender}, so {knocker} won the knock (R5.5)").format(
                knocker=other, count=k, name=who, defender=d))
        return HandEntry(winner, rules.undercut_bonus + k - d, "undercut", k, d)
    raise EntryError(_("unknown kind of win {kind!r}: knock, undercut, gin or points")
                     .format(kind=kind))


def entry_how(entry: HandEntry, names: tuple[str, str]) -> str:
    """How a hand's points came, in words naming both players ("Bob knocked with 3 against
    Alice's 10: 10 − 3 = 7 (R5.5)")."""
    who, other = names[entry.player], names[1 - entry.player]
    k, d, points = entry.knocker_deadwood, entry.defender_deadwood, entry.points
    if entry.kind == "points" or d is None:
        return _("{name} won {points}").format(name=who, points=points)
    if entry.kind in ("gin", "big_gin"):
        text = (_("{name} went gin against {other}'s {count}: {bonus} + {count} = {points} "
                  "(R5.7)") if entry.kind == "gin" else
                _("{name} went big gin against {other}'s {count}: {bonus} + {count} = "
                  "{points} (R5.7)"))
        return text.format(name=who, other=other, count=d, bonus=points - d, points=points)
    assert k is not None
    if entry.kind == "knock":
        return _("{name} knocked with {knocker} against {other}'s {defender}: {defender} − "
                 "{knocker} = {points} (R5.5)").format(name=who, knocker=k, other=other,
                                                       defender=d, points=points)
    return _("{name} undercut {other}'s knock of {knocker} with {defender}: {bonus} + "
             "({knocker} − {defender}) = {points} (R5.6)").format(
        name=who, other=other, knocker=k, defender=d, bonus=points - (k - d), points=points)


def _player(token: str, names: tuple[str, str]) -> int:
    t = token.strip().lower()
    if t in ("1", "2") and t not in (names[0].lower(), names[1].lower()):
        return int(t) - 1
    exact = [i for i, name in enumerate(names) if name.lower() == t]
    hits = exact or [i for i, name in enumerate(names)
                     if t and any(word.startswith(t) for word in [name.lower(),
                                                                  *name.lower().split()])]
    if len(hits) == 1:
        return hits[0]
    raise EntryError(_("who is {token!r}? Start the line with a name ({first} or {second}), "
                       "or 1 or 2").format(token=token, first=names[0], second=names[1]))


def read_number(token: str, what: str) -> int:
    """A whole number typed for ``what`` (ASCII digits, at most 30 of them), or an
    :class:`EntryError` saying what is wrong: the entry line's and the form's one reading."""
    if not WHOLE_NUMBER.fullmatch(token):
        raise EntryError(_("{what} must be a whole number, not {token!r}").format(
            what=what, token=token))
    if len(token.lstrip("+-")) > 30:  # int() refuses 4,301 digits, and no one reads 31
        raise EntryError(_("{what} {token}: that number is far too large").format(
            what=what, token=shortened(token, 12)))
    return int(token.lstrip("+"))


def _count(token: str, what: str, whose: str) -> int:
    """A deadwood count typed on the entry line: 0 to the most ten cards can hold."""
    value = read_number(token, what)
    _check_count(value, whose)
    return value


# The words the entry line reads, in English and in the language in force.
# Translators: the words a player may type in the score keeper's entry line after a name
# ("bob knocks 3 10"): lower case, separated by spaces, each one word; the first is the one
# the examples and the help show. English is always understood too.
_KNOCK = N_("knocks knock knocked")
# Translators: entry-line words (as above) for "undercut the knock" ("bob undercuts 8 5").
_UNDERCUT = N_("undercuts undercutting")
# Translators: entry-line words (as above) for "went gin" ("bob gin 12").
_GIN = N_("gin gins ginned")
# Translators: entry-line words (as above) for "went big gin", each one word; "big" and a
# gin word typed as two words ("bob big gin 12") are read too.
_BIG_GIN = N_("big-gin biggin big_gin")
# Translators: the word typed before a gin word for big gin ("bob big gin 12"): one word.
_BIG = N_("big")
# Translators: entry-line words (as above) that are skipped, so that a line may read as a
# sentence ("bob went gin with 12"): any number of small words.
_FILLER = N_("with against vs went goes go and had by wins won scores scored gets got")
# English only: "undercut" reads two ways (did undercut, was undercut), so the line is asked.
_UNDERCUT_ASKED = "undercut"


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The entry line's words now: each kind's words (the shown one first), English too."""

    knock: tuple[str, ...]
    undercut: tuple[str, ...]
    gin: tuple[str, ...]
    big_gin: tuple[str, ...]
    big: tuple[str, ...]
    filler: frozenset[str]


def vocabulary() -> Vocabulary:
    """The words of the entry line in the language in force (and English)."""

    def words(message: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(_(message).lower().split() + message.split()))

    return Vocabulary(knock=words(_KNOCK), undercut=words(_UNDERCUT), gin=words(_GIN),
                      big_gin=words(_BIG_GIN), big=words(_BIG), filler=frozenset(words(_FILLER)))


def _example_counts(rules: Rules) -> tuple[int, int, int] | None:
    """The counts of the examples: a knock's, and an undercut knock's and its defender's,
    within the knock limit; None where only gin ends a hand."""
    limit = max_knock_limit(rules)
    if limit < 1:
        return None
    high = min(8, limit)
    return min(3, limit), high, max(0, high - 3)


def _example_points(rules: Rules) -> int:
    """25, if some hand scores it under these rules (gin alone with a bonus of 30 does not:
    "bob 25" was offered as an example and refused), else the least a hand scores."""
    ranges = point_ranges(rules)
    return 25 if any(r.low <= 25 <= r.high for r in ranges) else min(r.low for r in ranges)


def entry_examples(rules: Rules, name: str, *, undercut: bool = False) -> list[str]:
    """Entry lines for ``name`` that these rules take (a knock within the knock limit, none
    where only gin ends a hand), for the entry line's placeholder and its errors."""
    said = vocabulary()
    lines = [f"{name} {_example_points(rules)}"]
    counts = _example_counts(rules)
    if counts:
        k, high, low = counts
        lines.append(f"{name} {said.knock[0]} {k} 10")
        if undercut:
            lines.append(f"{name} {said.undercut[0]} {high} {low}")
    return [*lines, f"{name} {said.gin[0]} 12"]


def example_lines(names: tuple[str, str], rules: Rules) -> list[tuple[str, str]]:
    """The quick-entry lines the help shows, with what each means, for these players and
    rules (a knock example within the knock limit, big gin only where it is played)."""
    a, b = names[0].split()[0].lower(), names[1].split()[0].lower()
    A, B = names
    said = vocabulary()
    points = _example_points(rules)
    lines = [(f"{a} {points}", _("{a} won the hand for {points} points").format(a=A,
                                                                             points=points))]
    counts = _example_counts(rules)
    if counts:
        k, high, low = counts
        lines.append((f"{a} {said.knock[0]} {k} 10", _(
            "{a} knocked with {k} deadwood, {b} had 10 after laying off: {a} wins {points}")
            .format(a=A, b=B, k=k, points=10 - k)))
        lines.append((f"{b} {said.undercut[0]} {high} {low}", _(
            "{a} knocked with {high}, {b} had {low} and undercut: {b} wins {points}").format(
            a=A, b=B, high=high, low=low, points=rules.undercut_bonus + high - low)))
    lines.append((f"{a} {said.gin[0]} 12", _("{a} went gin, {b} held 12 deadwood: {a} wins "
                                             "{points}")
                  .format(a=A, b=B, points=rules.gin_bonus + 12)))
    if rules.big_gin_bonus is not None:
        lines.append((f"{a} {said.big[0]} {said.gin[0]} 12", _(
            "{a} went big gin, {b} held 12 deadwood: {a} wins {points}").format(
            a=A, b=B, points=rules.big_gin_bonus + 12)))
    return lines


def parse_entry(text: str, names: tuple[str, str], rules: Rules) -> HandEntry:
    """Read one quick-entry line; the name that starts it is the player who won the hand.

    ``bob 25`` (Bob won 25 points), ``bob knocks 3 10`` (Bob knocked with 3, the
    other held 10), ``bob undercuts 8 5`` (the other knocked with 8, Bob undercut
    him with 5; the counts in either order), ``bob gin 12`` (the other held 12),
    ``bob big gin 12``.  The player is a name, its start, or 1 / 2.  Raises
    :class:`EntryError` saying what is wrong, or :class:`EntryQuestion` when the
    line reads two ways ("bob undercut 8 5") or says a knock won that lost.
    """
    said = vocabulary()
    raw = text.lower().replace(",", " ").split()
    # The filler words ("with", "and", "go"...) are dropped after the name, never from it:
    # Andrew typed "and 25", Gordon "go 25", a player named Won "won 25".
    words = raw[:1] + [w for w in raw[1:] if w not in said.filler]
    if not words:
        # Translators: {examples} are entry lines like 'bob 25', 'bob knocks 3 10'.
        raise EntryError(_("type a hand, like {examples}").format(examples=", ".join(
            f"'{line}'" for line in entry_examples(rules, "bob"))))
    if len(words) == 1:
        # Translators: {example} is an entry line like 'bob 25', {words} the words for how
        # the hand ended (knocks, undercuts, gin).
        raise EntryError(_("{text!r}: after the name, type the points (like {example}) or how "
                           "the hand ended ({words})").format(
            text=text.strip(), example="'bob 25'",
            words=", ".join((said.knock[0], said.undercut[0], said.gin[0]))))
    # A name of several words may be typed in full ("mary ann 25" beside Mary Lou).
    full = [(len(name.split()), i) for i, name in enumerate(names)
            if len(name.split()) > 1 and raw[:len(name.split())] == name.lower().split()]
    if full and len(raw) > max(full)[0]:
        length, player = max(full)
        words = [raw[0], *(w for w in raw[length:] if w not in said.filler)]
    else:
        player = _player(words[0], names)
    if len(words) >= 3 and words[1] in said.big and words[2] in said.gin:
        words[1:3] = [said.big_gin[0]]
    who, other = names[player], names[1 - player]
    verb = words[1]
    numbers = words[2:]
    if len(words) == 2 and WHOLE_NUMBER.fullmatch(verb):
        points = read_number(verb, who)
        _check_points(points, who, rules)
        return HandEntry(player, points)
    if verb in said.gin or verb in said.big_gin:
        kind: Kind = "gin" if verb in said.gin else "big_gin"
        if len(numbers) != 1:
            raise EntryError(_("after '{verb}' type {other}'s deadwood: '{line}'").format(
                verb=verb, other=other, line=f"{words[0]} {verb} 12"))
        count = _count(numbers[0], _("{name}'s deadwood").format(name=other),
                       _("{name}'s").format(name=other))
        return hand_points(rules, winner=player, kind=kind, defender_deadwood=count,
                           names=names)
    if verb in said.knock or verb in said.undercut or verb == _UNDERCUT_ASKED:
        if len(numbers) != 2:
            raise EntryError(_("after '{verb}' type both deadwood counts, the knocker's "
                               "first: '{line}'").format(
                verb=verb, line=f"{words[0]} {verb} 3 10" if verb in said.knock else
                f"{words[0]} {verb} 8 5"))
        # Translators: "the knocker's" and "the other player's" start the sentence
        # "... deadwood must be 0 to 98".
        first = _count(numbers[0], _("the knocker's deadwood"), _("the knocker's"))
        second = _count(numbers[1], _("the other deadwood"), _("the other player's"))
        if verb in said.knock:
            try:
                return hand_points(rules, winner=player, kind="knock", knocker_deadwood=first,
                                   defender_deadwood=second, names=names)
            except EntryError:
                if not (first >= 1 and 0 <= second <= first):
                    raise
                undercut = _undercut(rules, 1 - player, first, second, names)
                question = _("{name} knocked with {knocker} and {other} had {defender}: a "
                             "knock wins only with less, so {other} undercut {name} and "
                             "wins {points} (R5.6). Record {other} +{points}?").format(
                    name=who, other=other, knocker=first, defender=second,
                    points=undercut.points)
                if first != second:
                    question += " " + _("(If {name} knocked with {defender} against "
                                        "{knocker}, say no and type '{line}'.)").format(
                        name=who, knocker=first, defender=second,
                        line=f"{words[0]} {verb} {second} {first}")
                raise EntryQuestion(question, undercut, yes_label=_("Yes, {name} +{points}")
                                    .format(name=other, points=undercut.points),
                                    no_label=_("No, let me fix it")) from None
        # An undercut: the knocker's count is the larger (R5.6), so either order reads.
        high, low = max(first, second), min(first, second)
        entry = _undercut(rules, player, high, low, names)
        if verb in said.undercut:
            return entry
        # "alice undercut 8 5": did Alice undercut, or was she undercut?  Ask.
        reverse = _undercut(rules, 1 - player, high, low, names)
        raise EntryQuestion(
            _("{line}: did {name} undercut {other}'s knock? Yes: {other} knocked with "
              "{knocker}, {name} had {defender}, {name} wins {points}. No: {name} knocked "
              "and {other} undercut, {other} wins {points}. (Type '{word}' to skip this "
              "question.)").format(line=text.strip(), name=who, other=other, knocker=high,
                                   defender=low, points=entry.points, word=said.undercut[0]),
            entry, reverse,
            yes_label=_("Yes, {name} +{points}").format(name=who, points=entry.points),
            no_label=_("No, {name} +{points}").format(name=other, points=reverse.points))
    if verb.lstrip("+-").isdigit():
        raise EntryError(_("cannot read {text!r}: the points come alone after the name, like "
                           "'{name} 25'").format(text=text.strip(), name=words[0]))
    # Translators: {examples} are entry lines like 'bob 25', 'bob knocks 3 10'.
    raise EntryError(_("cannot read {text!r}: say how the hand ended, like {examples}").format(
        text=text.strip(), examples=", ".join(
            f"'{line}'" for line in entry_examples(rules, words[0], undercut=True))))


def _undercut(rules: Rules, winner: int, knocker: int, defender: int,
              names: tuple[str, str]) -> HandEntry:
    return hand_points(rules, winner=winner, kind="undercut", knocker_deadwood=knocker,
                       defender_deadwood=defender, names=names)
