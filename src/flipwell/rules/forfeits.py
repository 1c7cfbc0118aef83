"""Forfeits: the all-night 50% credit (§2.4) and forfeiting the season (§2.5).

Words:
- *forfeit*: a game a player was not present and eligible for; 0 points (R2.4-a, R2.4-b).
- *countable forfeit*: one that counts toward forfeiting the season; all are, unless the LO
  says otherwise (R2.4-g, R2.4-h).
- *season-forfeiting game*: the game of a match whose countable forfeit is the player's
  `Ruleset.season_forfeit_limit`-th (12th in the rulebook); the player is out from that
  moment, even mid-night (A65).
- *all-night forfeit*: every game of a meet forfeited; the first one of a season earns
  `Ruleset.forfeit_credit_percent` (50% in the rulebook) of the player's average nightly league
  points so far (R2.4-d, R2.4-e, A14).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from flipwell.rules.checks import check_count, check_points
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import LeaguePoints


def night_forfeit_credit(
    prior_nights: Sequence[LeaguePoints],
    *,
    credit_used: bool,
    ruleset: Ruleset = FWPL_V1,
) -> Fraction:
    """League points credited for a night on which the player forfeited every game (§2.4).

    prior_nights: his league-point totals on earlier nights of the season on which he played
    at least one game (basis per `ruleset.forfeit_credit_basis`, A14.1).
    credit_used: whether an earlier all-night forfeit this season already earned the credit.
    R2.4-d, R2.4-e, A14: no earlier nights gives 0; only the first all-night forfeit earns it
    by default; the exact value is kept unless the ruleset rounds it.
    """
    if not isinstance(credit_used, bool):
        raise RuleError(f"credit_used must be True or False, got {credit_used!r}")
    nights = [check_points(v, what="a prior night's league points") for v in prior_nights]
    if credit_used and ruleset.forfeit_credit_scope == "first_full_night_only":
        return Fraction(0)
    if not nights:
        return Fraction(0)
    share = Fraction(ruleset.forfeit_credit_percent, 100)  # R2.4-d
    credit = share * sum(nights, Fraction(0)) / len(nights)
    if ruleset.forfeit_credit_rounding == "half_up":
        return Fraction(math.floor(credit + Fraction(1, 2)))
    if ruleset.forfeit_credit_rounding == "down":
        return Fraction(math.floor(credit))
    return credit


def season_forfeited(countable_forfeits: int, *, ruleset: Ruleset = FWPL_V1) -> bool:
    """Whether this many countable forfeits forfeit the season (R2.5-a: the ruleset's
    `season_forfeit_limit` or more, 12 in the rulebook)."""
    check_count(countable_forfeits, what="countable forfeits")
    return countable_forfeits >= ruleset.season_forfeit_limit


def season_forfeit_game(
    prior_countable: int, countable_by_game: Sequence[bool], *, ruleset: Ruleset = FWPL_V1
) -> int | None:
    """The game (1-based) of a match whose countable forfeit is the player's last allowed one
    (the ruleset's `season_forfeit_limit`-th, 12th in the rulebook), or None.

    §2.5, R2.5-a, A65: prior_countable: his countable forfeits before the match;
    countable_by_game: for each game of the match in play order, whether he forfeited it
    countably. The season forfeit takes effect at that game, even mid-night: his later games
    are not played. 0: he was out before the match began.
    """
    return match_forfeits(prior_countable, countable_by_game, ruleset=ruleset).season_forfeit_game


@dataclass(frozen=True)
class MatchForfeits:
    """What a night's forfeits add to a player's §2.5 count (A65).

    countable: his countable forfeits of the night that count, up to and including the 12th of
    the season. season_forfeit_game: the game (1-based) of that 12th forfeit, None when the
    night does not reach it, 0 when he was out before it began.
    """

    countable: int
    season_forfeit_game: int | None


def match_forfeits(
    prior_countable: int, countable_by_game: Sequence[bool], *, ruleset: Ruleset = FWPL_V1
) -> MatchForfeits:
    """The countable forfeits a night adds to a player's count, stopping at the ruleset's
    `season_forfeit_limit` (the 12th in the rulebook, §2.5).

    R2.5-a, A65: the season forfeit takes effect at the moment of the 12th countable forfeit,
    even mid-night; his later games that night are not played and are no further forfeits for
    his own count. One rule for every way a night's forfeits come: game by game in a group
    (his later games then are scored among the players who remain), or all four at once for a
    player absent all night (announced, R3.1-d, or not yet joined, R2.4-f).

    prior_countable: his countable forfeits before the night; countable_by_game: for each game
    in play order, whether he forfeited it countably.
    """
    count = check_count(prior_countable, what="countable forfeits")
    if season_forfeited(count, ruleset=ruleset):
        return MatchForfeits(countable=0, season_forfeit_game=0)
    for number, countable in enumerate(countable_by_game, start=1):
        if not isinstance(countable, bool):
            raise RuleError(
                f"each game's countable forfeit must be True or False, got {countable!r}"
            )
        count += countable
        if season_forfeited(count, ruleset=ruleset):
            return MatchForfeits(countable=count - prior_countable, season_forfeit_game=number)
    return MatchForfeits(countable=count - prior_countable, season_forfeit_game=None)


RECORDED_FORFEIT_REASONS = ("absent", "late", "other")
"""Why an official or scorekeeper records a forfeit (R2.4-a); a penalty forfeit is not among
them: it follows from a recorded serious violation (§8.5)."""


def check_recorded_forfeit_reason(reason: str) -> None:
    """R2.4-a, §8.5: a forfeit is recorded by hand for an absence, a lateness (R2.3-a) or
    another reason; a penalty forfeit follows from a recorded serious violation, never by
    hand. Raises RuleError for any other reason."""
    if reason not in RECORDED_FORFEIT_REASONS:
        raise RuleError(
            "a forfeit's reason is absent, late or other; a penalty forfeit follows from a "
            "recorded serious violation (§8.5)"
        )


def check_late_join_designation(countable: bool, *, ruleset: Ruleset = FWPL_V1) -> None:
    """R2.4-g, R2.4-h, A46: the LO designates whether one late entrant's forfeits before they
    joined count; they may be made countable only where the league's reading lets late-join
    forfeits count at all (`late_join_forfeits_countable`). Raises RuleError otherwise."""
    if countable and not ruleset.late_join_forfeits_countable:
        raise RuleError(
            "this league's ruleset makes every late-join forfeit non-countable "
            "(late_join_forfeits_countable = false): one player's cannot be made countable"
        )
