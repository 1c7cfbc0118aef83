"""League officials' checks: the §1 warnings and LO grouping overrides (§1, §1.1, §4, §4.1).

Words:
- *LO*: a league official present who is not directly affected by the decision (§1.1).
- *involved official*: an official who plays in the group a ruling affects; his ruling is
  allowed and flagged (A55).
- *warning*: a sentence naming a rule the league strays from; it never blocks anything.
- *grouping override*: groups the LO sets instead of cutting the ladder by the §4.1 table
  (R4.1-d); it still holds only groups of 3 or 4 (R4-a, R4.1-c) and every present player once.
- *grouping scheme*: the name of the way a meet's groups were made, `TABLE_SCHEME` for the
  §4.1 table or any name the LO gives an override; a change of scheme after the season's
  first meet is a mid-season regrouping (R4.1-e).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import pairwise

from flipwell.rules.checks import check_count, check_player, check_unique
from flipwell.rules.errors import RuleError, about_players
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

MIN_SEASON_PLAYERS = 6
"""R1-a: the rules are designed for leagues of six or more players."""

MIN_SEASON_MACHINES = 4
"""R1-a: ... playing on four or more machines at a single location."""

SCHEDULED_GROUP_SIZES = (3, 4)
"""R4-a, R4.1-c: a scheduled group has 3 or 4 players; 2 arise only from forfeits."""

TABLE_SCHEME = "table"
"""The grouping scheme of the §4.1 table (R4.1-a, R4.1-b)."""


def season_warnings(*, players: int, machines: int) -> list[str]:
    """Warnings for a season below the format's design size (§1, R1-a); never an error.

    players: the season's roster. machines: the location's machine pool.
    """
    roster = check_count(players, what="number of players")
    pool = check_count(machines, what="number of machines")
    warnings = []
    if roster < MIN_SEASON_PLAYERS:
        warnings.append(
            f"the season has {roster} players; the FWPL rules are designed for "
            f"{MIN_SEASON_PLAYERS} or more (R1-a)"
        )
    if pool < MIN_SEASON_MACHINES:
        warnings.append(
            f"the season has {pool} machines; the FWPL rules are designed for "
            f"{MIN_SEASON_MACHINES} or more (R1-a)"
        )
    return warnings


def ruling_warnings(
    *,
    official: PlayerId,
    affected: Collection[PlayerId],
    officials_present: Collection[PlayerId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> list[str]:
    """Warnings about who made a ruling (§1.1, R1.1-a, A55); the ruling itself stands.

    official: the official who ruled. affected: the players of the group the ruling affects.
    officials_present: every official at the meet, to name an uninvolved one who should have
    ruled. A55 (`involved_official` "allow_and_flag"): an involved official's ruling is
    allowed and flagged.
    """
    ruler = check_player(official)
    group = set(check_unique(list(affected), what="the affected group"))
    present = check_unique(list(officials_present), what="the officials present")
    if ruleset.involved_official != "allow_and_flag":  # pragma: no cover - one option
        raise RuleError(f"unknown involved_official setting {ruleset.involved_official!r}")
    if ruler not in group:
        return []
    uninvolved = [o for o in present if o not in group]
    if uninvolved:
        return [
            f"involved official: {ruler} plays in the affected group, and "
            f"{', '.join(uninvolved)} present and uninvolved should rule (R1.1-a)"
        ]
    return [
        f"involved official: {ruler} plays in the affected group and no uninvolved official "
        "is present; the ruling stands, flagged (R1.1-a, A55)"
    ]


def check_grouping_override(
    groups: Sequence[Sequence[PlayerId]],
    *,
    present: Collection[PlayerId],
    reason: str,
) -> list[list[PlayerId]]:
    """Validate an LO grouping override and return its groups, group 1 first (§4, §4.1).

    R4.1-d: the LO may group players otherwise, with a reason. R4-a, R4.1-c: every group has
    3 or 4 players. Every present player is in exactly one group, and nobody else is.
    """
    if not isinstance(reason, str) or not reason.strip():
        raise RuleError("an LO grouping override needs a reason (R4.1-d)")
    listed: list[list[PlayerId]] = []
    for number, group in enumerate(groups, start=1):
        if isinstance(group, str):
            raise RuleError(f"group {number} must be a list of players, not {group!r}")
        players = list(group)
        if len(players) not in SCHEDULED_GROUP_SIZES:
            raise RuleError(
                f"group {number} has {len(players)} players; a scheduled group has 3 or 4 "
                "(R4-a, R4.1-c)"
            )
        listed.append(players)
    everyone = check_unique([p for g in listed for p in g], what="the grouping override")
    here = check_unique(list(present), what="the present players")
    missing = [p for p in here if p not in set(everyone)]
    if missing:
        raise about_players(
            "the grouping override leaves out present player(s) {players} (R4.1-d)",
            "players",
            missing,
        )
    absent = [p for p in everyone if p not in set(here)]
    if absent:
        raise about_players(
            "the grouping override includes {players}, not present at this meet", "players", absent
        )
    return listed


def regrouping_warnings(schemes: Sequence[str]) -> list[str]:
    """Warnings for each mid-season change of grouping scheme (§4.1, R4.1-e).

    schemes: the grouping scheme of each meet of the season so far, meet 1 first
    (`TABLE_SCHEME` or the LO's name for an override). The first meet sets the scheme; each
    later change is warned about, since mid-season regrouping should be avoided.
    """
    if isinstance(schemes, str):
        raise RuleError("schemes must be a list with one scheme name per meet")
    for number, scheme in enumerate(schemes, start=1):
        if not isinstance(scheme, str) or not scheme.strip():
            raise RuleError(f"meet {number}'s grouping scheme must be a non-empty string")
    return [
        f"meet {number} changes the grouping scheme from {before!r} to {after!r}: "
        "mid-season regrouping should be avoided (R4.1-e)"
        for number, (before, after) in enumerate(pairwise(schemes), start=2)
        if before != after
    ]
