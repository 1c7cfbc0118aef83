"""Who an IFPA league submission lists (the IFPA's league rules).

The FWPL rulebook says nothing about the IFPA; the IFPA's own rules for leagues do: a player
who attended fewer than half of the league's meets is left out of the results unless he
reached the finals (the playoffs, §6). Attendance is R2-b's: a meet counts as attended when
he played at least one game of it.

Words:
- *meets played*: the meets of the season that have been played so far (open or closed).
- *attendance threshold*: the meets a player must have attended to be listed: half the meets
  played, rounded up (`attendance_threshold`), unless the league sets its own number.
- *finalist*: a player who reached the finals: seeded into a playoff division (R6.2-a).
- *included* / *left out*: listed in the submission or not, each with the reason why.
- *results*: which positions a submission reports, never both in one file: *regular season*
  (the standings alone, R6.1-d) or *post-finals* (the playoff places first, R6.3-e).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import about_player
from flipwell.rules.final_positions import attendance_threshold
from flipwell.rules.values import PlayerId


class IfpaResults(StrEnum):
    """Which positions a submission reports (one kind per file)."""

    REGULAR_SEASON = "regular_season"
    POST_FINALS = "post_finals"


class IfpaReason(StrEnum):
    """Why a player is included or left out."""

    ATTENDED = "attended"
    """Included: attended at least the threshold."""
    FINALIST = "finalist"
    """Included although below the threshold: he reached the finals."""
    BELOW_ATTENDANCE = "below_attendance"
    """Left out: below the threshold and not a finalist."""


@dataclass(frozen=True)
class IfpaDecision:
    """One player's place in (or out of) the submission, and why."""

    player: PlayerId
    meets_attended: int
    reason: IfpaReason

    def explain(self, *, meets_played: int, threshold: int) -> str:
        """The reason in words (no name: the caller puts the player's name before it)."""
        attended = f"attended {self.meets_attended} of {meets_played} meets"
        if self.reason is IfpaReason.ATTENDED:
            return attended
        needed = f"{threshold} needed (half the meets played)"
        if self.reason is IfpaReason.FINALIST:
            return f"{attended}, fewer than the {needed}, but reached the finals"
        return f"{attended}, fewer than the {needed}, and did not reach the finals"


@dataclass(frozen=True)
class IfpaSelection:
    """Who an IFPA submission lists, in the order the players were given."""

    meets_played: int
    threshold: int
    included: tuple[IfpaDecision, ...]
    left_out: tuple[IfpaDecision, ...]

    def explain(self, decision: IfpaDecision) -> str:
        """`decision`'s reason in words, with this selection's numbers."""
        return decision.explain(meets_played=self.meets_played, threshold=self.threshold)


def ifpa_selection(
    attended: Mapping[PlayerId, int],
    *,
    meets_played: int,
    finalists: Collection[PlayerId] = (),
    threshold: int | None = None,
) -> IfpaSelection:
    """Split the players into included and left out (IFPA league rules; R2-b).

    attended: every player -> the meets he attended (at most `meets_played`), in the order
    the submission lists them. finalists: the players who reached the finals (R6.2-a); each
    must be one of `attended`. threshold: the league's own number of meets, replacing half the
    meets played (rounded up). A finalist is always included; nobody is both.
    """
    played = check_count(meets_played, what="meets played")
    limit = attendance_threshold(played, override=threshold)
    reached = set(check_unique(finalists, what="the finalists"))
    for player in reached - attended.keys():
        raise about_player("{player} reached the finals but has no attendance", player)
    included: list[IfpaDecision] = []
    left_out: list[IfpaDecision] = []
    for player, meets in attended.items():
        count = check_count(meets, what="{player}'s meets attended", player=player)
        if count > played:
            raise about_player(
                "{player} attended {count} meets, more than the {played} played",
                player,
                count=str(count),
                played=str(played),
            )
        if count >= limit:
            included.append(IfpaDecision(player, count, IfpaReason.ATTENDED))
        elif player in reached:
            included.append(IfpaDecision(player, count, IfpaReason.FINALIST))
        else:
            left_out.append(IfpaDecision(player, count, IfpaReason.BELOW_ATTENDANCE))
    return IfpaSelection(played, limit, tuple(included), tuple(left_out))


def ifpa_positions(
    positions: Sequence[tuple[int, PlayerId]], included: Collection[PlayerId]
) -> list[tuple[int, PlayerId]]:
    """The final positions of the included players only, closed up.

    positions: (position, player) best first, as `season_final_positions` gives them; shared
    positions stay shared. A player's new position is one more than the included players
    placed strictly before him, so leaving a player out moves everyone behind him up.
    """
    kept = [(position, player) for position, player in positions if player in included]
    result: list[tuple[int, PlayerId]] = []
    for index, (position, player) in enumerate(kept):
        shared = index > 0 and position == kept[index - 1][0]
        result.append((result[-1][0] if shared else index + 1, player))
    return result
