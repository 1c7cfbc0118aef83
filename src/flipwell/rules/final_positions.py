"""A season's final positions: the playoffs decide the top, the standings the rest (§6).

Words:
- *final position*: a player's place in the whole season, as a league reports it (to the IFPA,
  for instance). Qualifiers are placed by the playoffs: division A's places first, then
  division B's after them, and so on; players eliminated in the same round share a place
  (flipwell.rules.playoff_bracket). Everyone else follows in standings order.
- *attendance threshold*: (flipwell) the meets a player must have attended (played at least
  one game, R2-b) for a results report such as the IFPA's to count him as a full participant;
  by default half the season's meets, rounded up; a league may set its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.season_values import Night
from flipwell.rules.values import PlayerId


def season_final_positions(
    standings: Sequence[PlayerId],
    divisions: Sequence[Sequence[tuple[int, PlayerId]]] = (),
) -> list[tuple[int, PlayerId]]:
    """(position, player) for every player, best first (§6.1, §6.3, R6.3-e).

    standings: every player in standings order. divisions: each division's final places
    (place, player), best division first; empty before the playoffs are complete, when the
    standings alone decide. A division's positions start after the previous divisions' players.
    """
    order = check_unique(standings, what="the standings")
    placed: list[tuple[int, PlayerId]] = []
    offset = 0
    for division in divisions:
        players = check_unique((p for _, p in division), what="a division's places")
        for place, player in sorted(division):
            check_count(place, what="{player}'s playoff place", player=player, minimum=1)
            if place > len(players):
                raise about_player(
                    "{player}'s place {place} is beyond their division's size",
                    player,
                    place=str(place),
                )
            if player not in order:
                raise about_player(
                    "{player} has a playoff place but is not in the standings", player
                )
            placed.append((offset + place, player))
        offset += len(players)
    seen = {p for _, p in placed}
    if len(seen) != len(placed):
        raise RuleError("a player is placed in two divisions")
    rest = [p for p in order if p not in seen]
    return placed + [(offset + i, p) for i, p in enumerate(rest, start=1)]


def attendance_threshold(number_of_meets: int, *, override: int | None = None) -> int:
    """The attendance threshold of a season of `number_of_meets` meets (R2-b, flipwell).

    Half the meets, rounded up, unless the league gives its own (`override`, 0 or more).
    """
    meets = check_count(number_of_meets, what="number of meets")
    if override is not None:
        return check_count(override, what="attendance threshold")
    return (meets + 1) // 2


def attendance(nights: Iterable[Night], *, threshold: int) -> tuple[int, bool]:
    """(meets attended, whether that is below `threshold`) for a player's season (R2-b).

    A meet counts as attended when he played at least one game of it.
    """
    limit = check_count(threshold, what="attendance threshold")
    attended = sum(1 for night in nights if night.games_played > 0)
    return attended, attended < limit
