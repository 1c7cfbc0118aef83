"""The single-night playoffs (§6): divisions, brackets and PAPA scoring.

Words:
- *qualifier*: a player whose season total puts him above the playoff cut (§6.1, §6.2).
- *division*: a band of season ranks played as its own 8- or 12-player bracket (§6.1).
- *seed*: a qualifier's rank within his division, 1 = best.
- *PAPA points*: 4-2-1-0 per playoff game, no bonus (§6.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from string import ascii_uppercase

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId, PlayoffDivision

MIN_PLAYERS = 6
"""§1: the format is written for six or more players; fewer needs an LO decision (A03)."""

FIRST_ROUND: dict[int, list[list[int]]] = {
    8: [[1, 4, 5, 8], [2, 3, 6, 7]],  # R6.3-h: semifinals
    12: [[5, 8, 9, 12], [6, 7, 10, 11]],  # R6.3-i: quarterfinals; seeds 1-4 have a bye
}
PAPA_SCALE = (4, 2, 1, 0)
"""R6.3-a: 1st-4th; a 3-player round is 4-2-1 (R6.6-d), a 2-player round 4-2 (A42.3)."""


def playoff_qualifier_count(n: int, *, ruleset: Ruleset = FWPL_V1) -> int:
    """How many players qualify in a league of n (§6.1, §6.2; A01, A02, A03, A04).

    Default: 4·⌈n/8⌉ (the division table, half rounded up to a multiple of four) for n ≥ 9,
    every player for n ≤ 8, and `playoff_16_players_qualify` at exactly 16.
    """
    check_count(n, what="league size")
    if n < MIN_PLAYERS:
        raise RuleError(
            f"{n} players is below the rulebook's minimum of {MIN_PLAYERS} (§1): "
            "the LO must decide the playoff format"
        )
    if n <= 8:
        return n
    if n == 16:
        return ruleset.playoff_16_players_qualify
    if ruleset.playoff_cut_rule == "sentence_round_down":
        return 4 * (n // 8)
    return 4 * -(-n // 8)


def playoff_divisions(n: int, *, ruleset: Ruleset = FWPL_V1) -> list[PlayoffDivision]:
    """The playoff divisions of a league of n players, best first (§6.1, §6.2; R6.1-f..j).

    Divisions are 8 or 12 players; the 12-player ones are the lowest (A04). With 6 or 7
    players the one 8-bracket has vacant seeds (A03).
    """
    qualifiers = playoff_qualifier_count(n, ruleset=ruleset)
    if n > 48 and ruleset.playoff_divisions_over_48 == "lo_decision":
        raise RuleError(f"{n} players is beyond the §6.1 table: the LO must set the divisions")
    if qualifiers <= 8:
        return [PlayoffDivision("A", 1, qualifiers, 8)]
    if qualifiers % 4:
        raise RuleError(f"{qualifiers} qualifiers cannot form brackets of 8 and 12")
    count = -(-qualifiers // 12)
    twelves = (qualifiers - 8 * count) // 4
    if twelves < 0:  # only reachable with sentence_round_down at small n
        raise RuleError(f"{qualifiers} qualifiers cannot form brackets of 8 and 12")
    brackets = [8] * (count - twelves) + [12] * twelves
    divisions, first = [], 1
    for index, bracket in enumerate(brackets):
        divisions.append(
            PlayoffDivision(ascii_uppercase[index], first, first + bracket - 1, bracket)
        )
        first += bracket
    return divisions


def playoff_first_round(bracket: int) -> list[list[int]]:
    """Seeds of each first-round group: semifinals for 8, quarterfinals for 12 (R6.3-h, R6.3-i)."""
    if bracket not in FIRST_ROUND:
        raise RuleError(f"a playoff bracket has 8 or 12 players, got {bracket!r}")
    return [list(group) for group in FIRST_ROUND[bracket]]


def papa_points(finishing_order: Sequence[PlayerId]) -> dict[PlayerId, int]:
    """PAPA points for one playoff game, winner first: 4-2-1-0; 3 players 4-2-1; 2 players 4-2.

    §6.3 (R6.3-a, R6.3-b: no bonus), §6.6 (R6.6-d), A42.3.
    """
    players = check_unique(finishing_order, what="the finishing order")
    if not 2 <= len(players) <= 4:
        raise RuleError(f"a playoff game has 2 to 4 players, got {len(players)}")
    return dict(zip(players, PAPA_SCALE, strict=False))
