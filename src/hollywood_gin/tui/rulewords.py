"""The rules in force said in words: the help's short rules, the sidebar's rules line and
the new-match form's labels, all derived from a :class:`~hollywood_gin.rules.Rules` value
so that no screen says "three games at once" over a one-game sheet."""

from __future__ import annotations

from ..i18n import N_, _, ngettext
from ..rules import PRESET_LABELS, PRESETS, Option, Rules, preset_label

__all__ = [
    "PRESET_LABELS",
    "PRESET_NOTES",
    "help_rules",
    "option_label",
    "preset_label",
    "rules_name",
    "rules_summary",
    "sheet_caption",
    "sheet_title",
]

#: What each choice of a choice option means, for the form's lists.
CHOICE_LABELS: dict[str, str] = {
    "winner": N_("winner"),
    "alternate": N_("alternate"),
    "loser": N_("loser"),
    "traditional": N_("traditional"),
    "by_count": N_("by count"),
}

PRESET_NOTES: dict[str, str] = {
    "hollywood": N_("three games to 100 at once"),
    "hollywood-20": N_("the same, gin bonus 20"),
    "classic": N_("one game to 100"),
    "eaai": N_("the AI-challenge rules: one game, no bonuses"),
}


def option_label(option: Option) -> str:
    """The option's short label for a form (the rules module's, translated)."""
    return _(option.label or option.name)


def choice_label(choice: str) -> str:
    return _(CHOICE_LABELS.get(choice, choice))


def rules_name(rules: Rules) -> str:
    """The preset's name, or "custom"."""
    return preset_label(rules.preset_name)


def sheet_title(rules: Rules) -> str:
    """"Hollywood scoresheet" only over several games at once (R7.1)."""
    return _("Hollywood scoresheet") if rules.columns > 1 else _("Scoresheet")


def _bonus_words(rules: Rules) -> list[str]:
    parts: list[str] = []
    if rules.game_bonus or rules.shutout_game_bonus:
        parts.append(_("game +{bonus}").format(bonus=rules.game_bonus))
    if rules.box_bonus:
        parts.append(_("box +{bonus}").format(bonus=rules.box_bonus))
    return parts


def sheet_caption(rules: Rules) -> str:
    """The line under an open sheet: the target and only the bonuses that are played."""
    parts = [_("to {target}").format(target=rules.game_target), *_bonus_words(rules)]
    if not (rules.game_bonus or rules.shutout_game_bonus or rules.box_bonus):
        parts.append(_("no bonuses"))
    return " · ".join(parts)


def rules_summary(rules: Rules) -> str:
    """The hand's rules in force in a line or two, for the sidebar (the rule book §9); the
    sheet's caption says the target and the bonuses (:func:`sheet_caption`)."""
    if rules.oklahoma:
        knock = _("knock ≤ the upcard (Oklahoma)")
    else:
        knock = _("knock ≤ {limit}").format(limit=rules.knock_limit)
    parts = [rules_name(rules), knock, _("gin +{bonus}").format(bonus=rules.gin_bonus)]
    if rules.big_gin_bonus is not None:
        parts.append(_("big gin +{bonus}").format(bonus=rules.big_gin_bonus))
    parts.append(_("undercut +{bonus}").format(bonus=rules.undercut_bonus))
    if rules.discard_taken_card:
        parts.append(_("a taken card may be discarded"))
    if rules.dead_hand_stock != 2:
        parts.append(_("dead hand at {n}").format(n=rules.dead_hand_stock))
    if rules.next_dealer != "winner":
        parts.append(_("next dealer: {who}").format(who=choice_label(rules.next_dealer)))
    if rules.entry_rule != "traditional" and rules.columns > 1:
        parts.append(_("entry by count"))
    return " · ".join(parts)


def _dealer_words(rules: Rules) -> str:
    return {
        "winner": _("The winner of a hand deals the next; after a dead hand the same dealer "
                    "deals again (R3.1)."),
        "alternate": _("The deal alternates from hand to hand (R3.1)."),
        "loser": _("The loser of a hand deals the next; after a dead hand the same dealer "
                   "deals again (R3.1)."),
    }[rules.next_dealer]


def _entry_words(rules: Rules) -> str:
    n = rules.columns
    if n == 2:
        order = _("Your first won hand goes in game 1, later ones in games 1 and 2")
    elif n == 3:
        order = _("Your first won hand goes in game 1, your second in games 1 and 2, later "
                  "ones in all three")
    else:
        order = _("Your first won hand goes in game 1, your second in games 1 and 2, and so "
                  "on up to all {n}").format(n=n)
    if rules.entry_rule == "by_count":
        return _("{order}, counting your wins: only games still open take them, so once game "
                 "1 has closed your first win enters no game (R7.2, by count).").format(
            order=order)
    return _("{order}: a win enters every open game where you already have an entry and the "
             "first open game where you have none (R7.2).").format(order=order)


def _closing_words(rules: Rules) -> str:
    parts: list[str] = []
    if rules.game_bonus or rules.shutout_game_bonus:
        parts.append(_("its winner gets +{bonus} (+{shutout} for a shutout)").format(
            bonus=rules.game_bonus, shutout=rules.shutout_game_bonus))
    if rules.box_bonus:
        parts.append(_("each player +{box} a box, a won hand in it").format(box=rules.box_bonus))
    if not parts:
        return _("no bonuses are added (R7.4)")
    return _("{bonuses} (R7.4)").format(bonuses=_(" and ").join(parts))


def help_rules(rules: Rules) -> str:
    """The rules in short, as Markdown, with the numbers of the rules in force."""
    taken = (_("A card just taken from the pile may be discarded at once under these rules "
               "(R4.3).") if rules.discard_taken_card else
             _("A card just taken from the pile may not be discarded that turn (R4.2, R4.3)."))
    if rules.oklahoma:
        limit = _("**Knock** when your deadwood after the discard is at most the upcard's "
                  "value (Oklahoma; an ace upcard: gin only)")
    else:
        limit = _("**Knock** with {limit} deadwood or less after your discard").format(
            limit=rules.knock_limit)
    lines = [
        _("## The rules in force: {name}").format(name=rules_name(rules)),
        "",
        _("**Deal** ten cards each; the 21st is turned up to start the pile (R3.2, R3.3). "
          "{dealer}").format(dealer=_dealer_words(rules)),
        _("**Opening:** the non-dealer may take the upcard or pass, then the dealer; if both "
          "pass, the non-dealer draws from the stock (R4.1)."),
        _("**A turn:** take the top of the stock or of the pile, then discard. {taken}").format(
            taken=taken),
        "",
        _("**Melds:** a *set* is 3 or 4 of a rank; a *run* 3 or more in sequence in one suit, "
          "ace low (R2.1, R2.2). Other cards are *deadwood*: ace 1, pictures 10 (R1.3, R2.4)."),
        "",
        _("{limit}: lay out your melds; the defender lays off on them (R5.1, R5.3). Lower "
          "deadwood wins the difference (R5.5); if the defender has as little or less, his "
          "*undercut* wins {undercut} + the difference (R5.6).").format(
            limit=limit, undercut=rules.undercut_bonus),
        _("**Gin** (no deadwood) wins {gin} + the defender's deadwood and cannot be undercut "
          "(R5.7).").format(gin=rules.gin_bonus),
    ]
    if rules.big_gin_bonus is not None:
        lines.append(_("**Big gin**: all eleven cards melded, knock without a discard (g); it "
                       "wins {bonus} + the defender's deadwood (R5.7).").format(
            bonus=rules.big_gin_bonus))
    lines.append(ngettext(
        "With {n} card left in the stock after a discard the hand is dead (R6.1).",
        "With {n} cards left in the stock after a discard the hand is dead (R6.1).",
        rules.dead_hand_stock).format(n=rules.dead_hand_stock))
    lines.append("")
    if rules.columns == 1:
        lines.append(_("**One game to {target}:** each won hand's points go to its winner; the "
                       "first to {target} wins the game and the match (R7.3, R7.5); "
                       "{closing}.").format(target=rules.game_target,
                                            closing=_closing_words(rules)))
    else:
        lines.append(_("**Hollywood:** {n} games at once. {entry} A game closes at {target} "
                       "(R7.3): {closing}. Whoever wins more of the {n} games wins the match "
                       "(R7.5).").format(n=rules.columns, entry=_entry_words(rules),
                                         target=rules.game_target,
                                         closing=_closing_words(rules)))
    return "\n".join(lines) + "\n"


def preset_notes() -> str:
    """One line on each preset, for the new-match form."""
    # Translators: one preset on the new-match form's line of presets: {name} (Hollywood,
    # classic...) and what it plays.
    return " · ".join(_("{name}: {note}").format(name=preset_label(name),
                                                 note=_(PRESET_NOTES.get(name, "")))
                      for name in PRESETS)
