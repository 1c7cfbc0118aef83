"""The single-night playoffs (§6): divisions, bracket layouts and PAPA scoring.

Words:
- *qualifier*: a player whose season total puts him above the playoff cut (§6.1, §6.2).
- *division*: a band of season ranks played as its own 4-, 8- or 12-player bracket (§6.1).
- *bracket*: the number of seeds a division's draw has room for: 8 or 12 (§6.3), or 4 when
  only a final is played (A03 "top_four_final", or a cut of 4 or fewer).
- *seed*: a qualifier's rank within his division, 1 = best.
- *match*: one playoff group's three games, named QF1, QF2 (quarterfinals), SF1, SF2
  (semifinals) or F (the final).
- *PAPA points*: 4-2-1-0 per playoff game, no bonus (§6.3).

Qualification and withdrawals are in `playoff_seeding`, one match in `playoff_matches`, machine
draws and tardiness in `playoff_machines`, a whole division in `playoff_bracket`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from string import ascii_uppercase

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId, PlayoffDivision

MIN_PLAYERS = 6
"""§1: the format is written for six or more players; fewer needs an LO decision (A03)."""

FIRST_ROUND: dict[int, list[list[int]]] = {
    4: [[1, 2, 3, 4]],  # A03 "top_four_final": the final is the only round
    8: [[1, 4, 5, 8], [2, 3, 6, 7]],  # R6.3-h: semifinals
    12: [[5, 8, 9, 12], [6, 7, 10, 11]],  # R6.3-i: quarterfinals; seeds 1-4 have a bye
}
PAPA_SCALE = (4, 2, 1, 0)
"""R6.3-a: 1st-4th; a 3-player round is 4-2-1 (R6.6-d), a 2-player round 4-2 (A42.3)."""

Slot = int | str
"""A place in a match: a seed number, or the id of an earlier match whose top 2 advance."""

BRACKET_MATCHES: Mapping[int, tuple[tuple[str, tuple[Slot, ...]], ...]] = {
    4: (("F", (1, 2, 3, 4)),),
    8: (
        ("SF1", (1, 4, 5, 8)),  # R6.3-h
        ("SF2", (2, 3, 6, 7)),
        ("F", ("SF1", "SF2")),  # R6.3-d
    ),
    12: (
        ("QF1", (5, 8, 9, 12)),  # R6.3-i
        ("QF2", (6, 7, 10, 11)),
        ("SF1", (1, 4, "QF1")),  # R6.3-j
        ("SF2", (2, 3, "QF2")),
        ("F", ("SF1", "SF2")),  # R6.3-g
    ),
}
"""Every match of each bracket size in playing order, with where its players come from."""

ROUND_NAMES = {"QF": "quarterfinal", "SF": "semifinal", "F": "final"}


def playoff_qualifier_count(n: int, *, ruleset: Ruleset = FWPL_V1) -> int:
    """How many players qualify in a league of n (§6.1, §6.2; A01, A02, A03, A04).

    Default: 4·⌈n/8⌉ (the division table, half rounded up to a multiple of four) for n ≥ 9,
    every player for n ≤ 8, and `playoff_16_players_qualify` at exactly 16. Under
    `playoff_small_league = "top_four_final"` leagues of 6 to 8 send their top 4 to a final.
    `playoff_cut_rule = "sentence_round_down"` is R6.1-c read literally (A01 option b) for
    n ≥ 9; below that the sentence would qualify 0 or 4 players, so A03's small-league setting
    decides there whatever the cut rule.
    """
    check_count(n, what="league size")
    if n < MIN_PLAYERS:
        raise RuleError(
            f"{n} players is below the rulebook's minimum of {MIN_PLAYERS} (§1): "
            "the LO must decide the playoff format"
        )
    if n <= 8:
        return 4 if ruleset.playoff_small_league == "top_four_final" else n
    if n == 16:
        return ruleset.playoff_16_players_qualify
    if ruleset.playoff_cut_rule == "sentence_round_down":
        return 4 * (n // 8)
    return 4 * -(-n // 8)


def playoff_divisions(n: int, *, ruleset: Ruleset = FWPL_V1) -> list[PlayoffDivision]:
    """The playoff divisions of a league of n players, best first (§6.1, §6.2; R6.1-f..j).

    Divisions are 8 or 12 players; the 12-player ones are the lowest (A04). With 6 or 7
    players the one 8-bracket has vacant seeds (A03); a cut of 4 is a final only.
    """
    qualifiers = playoff_qualifier_count(n, ruleset=ruleset)
    if n > 48 and ruleset.playoff_divisions_over_48 == "lo_decision":
        raise RuleError(f"{n} players is beyond the §6.1 table: the LO must set the divisions")
    return divisions_for_qualifiers(qualifiers)


def divisions_for_qualifiers(qualifiers: int) -> list[PlayoffDivision]:
    """Divisions for a given number of qualifiers, best first (§6.1, A04).

    Up to 4 qualifiers play a final only (bracket 4); 5 to 8 play one 8-bracket with any
    missing seeds vacant (A03); more must be a multiple of 4, split into ⌈q/12⌉ divisions of 8
    and 12 with the 12s lowest, as the §6.1 table does (33..40: A 8, B 12).
    """
    check_count(qualifiers, what="number of qualifiers", minimum=2)
    if qualifiers <= 4:
        return [PlayoffDivision("A", 1, qualifiers, 4)]
    if qualifiers <= 8:
        return [PlayoffDivision("A", 1, qualifiers, 8)]
    if qualifiers % 4:
        raise RuleError(
            f"{qualifiers} qualifiers cannot form brackets of 8 and 12: "
            "above 8 the cut must be a multiple of 4"
        )
    count = -(-qualifiers // 12)
    twelves = (qualifiers - 8 * count) // 4
    brackets = [8] * (count - twelves) + [12] * twelves
    divisions, first = [], 1
    for index, bracket in enumerate(brackets):
        divisions.append(
            PlayoffDivision(ascii_uppercase[index], first, first + bracket - 1, bracket)
        )
        first += bracket
    return divisions


def playoff_first_round(bracket: int) -> list[list[int]]:
    """Seeds of each first-round group: semifinals for 8, quarterfinals for 12 (R6.3-h, R6.3-i).

    A 4-bracket (A03 "top_four_final") plays its final first.
    """
    if bracket not in FIRST_ROUND:
        raise RuleError(f"a playoff bracket has 4, 8 or 12 players, got {bracket!r}")
    return [list(group) for group in FIRST_ROUND[bracket]]


def papa_points(finishing_order: Sequence[PlayerId]) -> dict[PlayerId, int]:
    """PAPA points for one playoff game, winner first: 4-2-1-0; 3 players 4-2-1; 2 players 4-2.

    §6.3 (R6.3-a, R6.3-b: no bonus), §6.6 (R6.6-d), A42.3.
    """
    players = check_unique(finishing_order, what="the finishing order")
    if not 2 <= len(players) <= 4:
        raise RuleError(f"a playoff game has 2 to 4 players, got {len(players)}")
    return dict(zip(players, PAPA_SCALE, strict=False))


def round_name(match: str) -> str:
    """'quarterfinal', 'semifinal' or 'final' for a match id (QF1, SF2, F)."""
    known = {m for layout in BRACKET_MATCHES.values() for m, _ in layout}
    name = ROUND_NAMES.get(match.rstrip("12")) if isinstance(match, str) else None
    if name is None or match not in known:
        raise RuleError(f"unknown playoff match {match!r}; allowed: QF1, QF2, SF1, SF2, F")
    return name
