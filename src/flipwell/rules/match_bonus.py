"""Match bonus points (§3.3): a group's fifth game, with an explanation of every point.

Words:
- *fifth game*: the match bonus calculation, treating each included player's match total as a
  machine score (§3.3).
- *match total*: a player's game points over the match's games.
- *included*: a player who forfeited fewer than three of the match's games (R3.3-g).
- *tiebreak*: the order of equal match totals: most 1sts, 2nds, 3rds, then ladder position
  (R3.3-f, A12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from flipwell.rules.checks import check_player, check_score, check_unique, points_phrase
from flipwell.rules.errors import RuleError, about_player, about_players
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.scoring import (
    ORDINALS,
    PLACE_POINTS,
    versus_sum,
    versus_triple,
)
from flipwell.rules.values import Finish, PlayerId, PointLine

MATCH_FORFEIT_EXCLUSION = 3
"""R3.3-g: a player who forfeits this many games of a match or more gets no match bonus."""


@dataclass(frozen=True, slots=True)
class MatchBonusResult:
    """A group's fifth game: totals, the order of included players, bonus points, explanation."""

    totals: Mapping[PlayerId, int]
    order: tuple[PlayerId, ...]
    points: Mapping[PlayerId, int]
    lines: tuple[PointLine, ...]


def match_bonus_points(
    results: Mapping[PlayerId, Sequence[Finish | None]],
    *,
    ladder_order: Sequence[PlayerId],
    ruleset: Ruleset = FWPL_V1,
) -> dict[PlayerId, int]:
    """Every player's match bonus points for one group's match (§3.3).

    results: each player's `Finish` per game of the match, None where he forfeited it.
    ladder_order: the group's players in ladder order at the start of the meet (A12).
    R3.3-b..g, A07, A08, A11, A12.
    """
    _check_results(results, ladder_order)
    totals, places = _totals_and_places(results)
    bonus = fifth_game(totals, places, ladder_order=ladder_order, ruleset=ruleset, explain=False)
    return dict(bonus.points)


def score_match_bonus(
    results: Mapping[PlayerId, Sequence[Finish | None]],
    *,
    ladder_order: Sequence[PlayerId],
    ruleset: Ruleset = FWPL_V1,
) -> MatchBonusResult:
    """The fifth game of a match, explained: see `match_bonus_points`."""
    _check_results(results, ladder_order)
    totals, places = _totals_and_places(results)
    return fifth_game(totals, places, ladder_order=ladder_order, ruleset=ruleset, explain=True)


def fifth_game(
    totals: Mapping[PlayerId, int],
    places: Mapping[PlayerId, Sequence[int | None]],
    *,
    ladder_order: Sequence[PlayerId],
    ruleset: Ruleset,
    explain: bool,
) -> MatchBonusResult:
    """`score_match_bonus` from checked results (§3.3, R3.3-a..g): each player's match total
    and his place in each game (None where he forfeited it). explain=False gives the same
    order and points with no lines."""
    included = [p for p, games in places.items() if games.count(None) < MATCH_FORFEIT_EXCLUSION]
    lines: list[PointLine] | None = None
    if explain:
        lines = [
            PointLine(
                p,
                0,
                "R3.3-g",
                "{player} forfeited {forfeits} games: no match bonus",
                {"player": p},
                {"forfeits": str(places[p].count(None))},
            )
            for p in places
            if p not in included
        ]
    order = _fifth_game_order(included, totals, places, ladder_order, ruleset)
    points = dict.fromkeys(places, 0)
    _fifth_game_awards(order, totals, len(places), points, ruleset, lines)
    return MatchBonusResult(totals, tuple(order), points, tuple(lines) if lines else ())


def _totals_and_places(
    results: Mapping[PlayerId, Sequence[Finish | None]],
) -> tuple[dict[PlayerId, int], dict[PlayerId, list[int | None]]]:
    totals = {p: sum(f.points for f in games if f is not None) for p, games in results.items()}
    places = {p: [None if f is None else f.place for f in games] for p, games in results.items()}
    return totals, places


def _check_results(
    results: Mapping[PlayerId, Sequence[Finish | None]], ladder_order: Sequence[PlayerId]
) -> None:
    check_unique(ladder_order, what="the ladder order")
    missing = sorted(set(results) - set(ladder_order))
    if missing:
        raise about_players("ladder_order is missing {players}", "players", missing)
    lengths = {len(games) for games in results.values()}
    if len(lengths) > 1:
        raise RuleError(f"every player needs one entry per game; got lengths {sorted(lengths)}")
    for player, games in results.items():
        check_player(player)
        for number, finish in enumerate(games, start=1):
            if finish is None:
                continue
            if not isinstance(finish, Finish):
                raise about_player(
                    "{player}'s game {number} must be a Finish or None", player, number=str(number)
                )
            check_score(finish.points, what=f"{{player}}'s points in game {number}", player=player)
            place = finish.place
            if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= 4:
                raise about_player(
                    "{player}'s place in game {number} must be 1 to 4", player, number=str(number)
                )


def _fifth_game_order(
    included: Sequence[PlayerId],
    totals: Mapping[PlayerId, int],
    places: Mapping[PlayerId, Sequence[int | None]],
    ladder_order: Sequence[PlayerId],
    ruleset: Ruleset,
) -> list[PlayerId]:
    """Included players by match total; ties by the ruleset's tiebreakers (R3.3-f, A12)."""
    if len({totals[p] for p in included}) == len(included):
        # No equal totals: the tiebreakers cannot change the order, so skip building them.
        return sorted(included, key=totals.__getitem__, reverse=True)
    position = {p: i for i, p in enumerate(ladder_order)}
    sort_keys = {p: _tiebreak_key(p, totals[p], places[p], position, ruleset) for p in included}
    order = sorted(included, key=sort_keys.__getitem__)
    for a, b in pairwise(order):
        if sort_keys[a] == sort_keys[b]:
            raise about_players(
                "unresolved match-bonus tie between {tied}: the ruleset's "
                "match_bonus_tiebreak does not separate them",
                "tied",
                (a, b),
            )
    return order


def _tiebreak_key(
    player: PlayerId,
    total: int,
    places: Sequence[int | None],
    position: Mapping[PlayerId, int],
    ruleset: Ruleset,
) -> tuple[int, ...]:
    """Sort key: higher total first, then most 1sts, 2nds, 3rds, then ladder position (A12)."""
    values = {
        "most_firsts": -places.count(1),
        "most_seconds": -places.count(2),
        "most_thirds": -places.count(3),
        "ladder_position": position[player],
    }
    return (-total, *(values[name] for name in ruleset.match_bonus_tiebreak))


def _fifth_game_awards(
    order: Sequence[PlayerId],
    totals: Mapping[PlayerId, int],
    scheduled: int,
    points: dict[PlayerId, int],
    ruleset: Ruleset,
    lines: list[PointLine] | None,
) -> None:
    """Add the match bonus points of the fifth game's order (R3.3-c, R3.3-d, R3.3-e, A07,
    A08); explain into `lines` when given."""
    n = len(order)
    if ruleset.match_bonus_awards == "full_fifth_game" and n >= 2:
        for p, pts in zip(order, PLACE_POINTS[n], strict=True):
            points[p] += pts
        if lines is not None:
            lines.extend(
                PointLine(
                    p,
                    pts,
                    "A08",
                    "{player} placed {place} in the fifth game: {points}",
                    {"player": p},
                    {"place": ORDINALS[i + 1], "points": points_phrase(pts)},
                )
                for i, (p, pts) in enumerate(zip(order, PLACE_POINTS[n], strict=True))
            )
    if n == 1:
        amount = ruleset.single_player_match_bonus
        if amount:
            points[order[0]] += amount
            if lines is not None:
                lines.append(
                    PointLine(
                        order[0],
                        amount,
                        "A11",
                        "{player} was the only one included",
                        {"player": order[0]},
                    )
                )
        return
    s = [totals[p] for p in order]
    strict = not _match_bonus_uses_ge(n, scheduled, ruleset)
    if n == 2:
        points[versus_triple(order, s, "R3.3-c", lines, match=True)] += 1
    elif n == 3:  # (order, s, top, loser, rule, strict, lines, match): 1st against 2nd + 3rd
        points[versus_sum(order, s, 0, 2, "R3.3-c", strict, lines, True)] += 1
    elif n == 4:  # 1st against 2nd + 3rd, 2nd against 3rd + 4th
        points[versus_sum(order, s, 0, 2, "R3.3-d", strict, lines, True)] += 1
        points[versus_sum(order, s, 1, 3, "R3.3-e", strict, lines, True)] += 1


def _match_bonus_uses_ge(included: int, scheduled: int, ruleset: Ruleset) -> bool:
    """A07: whether the fifth game's sum test is "equals or exceeds" rather than "exceeds"."""
    scope = ruleset.match_bonus_ge_applies_to
    if scope == "all_groups":
        return included >= 3
    if scope == "scheduled_four_player_groups":
        return scheduled == 4 and included >= 3
    return included == 4
