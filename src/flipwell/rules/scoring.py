"""Game points (§3.2), with an explanation of every point.

Words:
- *game*: one machine game of a group; each present player has a machine score, a forfeiting
  player has `None` (§2.4).
- *tie order*: for each set of equal machine scores, the players in the order their one-ball
  playoff put them, winner first (§3.2, A15). Bonus comparisons still use the equal scores.
- *bonus point*: the extra game point of §3.2, won by a strict comparison of machine scores
  (`versus_sum`, `versus_triple`; the match bonus of §3.3 uses them too, in `match_bonus`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flipwell.rules.checks import check_player, check_score, fmt, points_phrase
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.ties import tie_positions
from flipwell.rules.values import Finish, PlayerId, PointLine

PLACE_POINTS: Mapping[int, tuple[int, ...]] = {
    4: (7, 5, 3, 1),  # R3.2-e
    3: (7, 4, 1),  # R3.2-c
    2: (7, 1),  # R3.2-a
}
PLACE_RULES = {4: "R3.2-e", 3: "R3.2-c", 2: "R3.2-a", 1: "A11"}


ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game scored: the finishing order of the present players, points and explanation."""

    order: tuple[PlayerId, ...]
    points: Mapping[PlayerId, int]
    lines: tuple[PointLine, ...]

    def place(self, player: PlayerId) -> int | None:
        """1-based place of a present player, None for a forfeit."""
        return self.order.index(player) + 1 if player in self.order else None

    def finish(self, player: PlayerId) -> Finish | None:
        """The player's `Finish` for match bonus purposes, None if he forfeited."""
        place = self.place(player)
        return None if place is None else Finish(points=self.points[player], place=place)


def game_points(
    scores: Mapping[PlayerId, int | None],
    *,
    tie_order: Sequence[Sequence[PlayerId]] = (),
    ruleset: Ruleset = FWPL_V1,
) -> dict[PlayerId, int]:
    """Every player's game points for one game, bonus points included; forfeits get 0.

    §3.2 (R3.2-a..h), §2.4 (R2.4-b, R2.4-c): the scale follows the number of non-forfeiting
    scores. Ties need a recorded playoff order (R3.2-i, A15); a lone player gets
    `ruleset.single_player_game_points` (A11).
    """
    present = _present_scores(scores)
    result = scored_game(scores, present, tie_order=tie_order, ruleset=ruleset, explain=False)
    return dict(result.points)


def score_game(
    scores: Mapping[PlayerId, int | None],
    *,
    tie_order: Sequence[Sequence[PlayerId]] = (),
    ruleset: Ruleset = FWPL_V1,
) -> GameResult:
    """Score one game (§3.2) and explain every point: see `game_points`."""
    return scored_game(
        scores, _present_scores(scores), tie_order=tie_order, ruleset=ruleset, explain=True
    )


def scored_game(
    scores: Mapping[PlayerId, int | None],
    present: Mapping[PlayerId, int],
    *,
    tie_order: Sequence[Sequence[PlayerId]],
    ruleset: Ruleset,
    explain: bool,
) -> GameResult:
    """`score_game` for scores already checked (§3.2, R2.4-b): `present` is `scores` without
    the forfeits. explain=False gives the same order and points with no lines, from
    `points_in_order`; explained, the awards below give each point with its reason."""
    order = finishing_order(present, tie_order=tie_order)
    points = dict.fromkeys(scores, 0)
    if not explain:
        awarded = points_in_order([present[p] for p in order], ruleset)
        points.update(zip(order, awarded, strict=False))  # both have one item per finisher
        return GameResult(order=tuple(order), points=points, lines=())
    lines = [
        PointLine(p, 0, "R2.4-b", "{player} forfeited this game: 0 points", {"player": p})
        for p, s in scores.items()
        if s is None
    ]
    if tie_order:
        _tie_notes(order, present, lines)
    _place_awards(order, points, ruleset, lines)
    _game_bonuses(order, present, points, lines)
    return GameResult(order=tuple(order), points=points, lines=tuple(lines))


def points_in_order(scores: Sequence[int], ruleset: Ruleset) -> list[int]:
    """Each finisher's game points, place and bonus, from the machine scores in finishing
    order: the numbers `_place_awards` and `_game_bonuses` give, from the same tables
    (`PLACE_POINTS`, `_GAME_BONUS_TESTS`), without their explanation (§3.2). Two players: the
    bonus to the winner only if he beat three times the loser's score (R3.2-b, A09); one
    player: `single_player_game_points` (A11)."""
    s = scores
    n = len(s)
    if n < 2:
        return [ruleset.single_player_game_points] if n else []
    if n not in PLACE_POINTS:
        raise RuleError(f"a game has 1 to 4 players, got {n}")
    points = list(PLACE_POINTS[n])
    if n == 2:
        points[0 if s[0] > 3 * s[1] else 1] += 1
    else:  # strict comparisons: the top player against the sum of the next two
        for top, loser, _ in _GAME_BONUS_TESTS[n]:
            points[top if s[top] > s[top + 1] + s[top + 2] else loser] += 1
    return points


def finishing_order(
    present: Mapping[PlayerId, int], *, tie_order: Sequence[Sequence[PlayerId]] = ()
) -> list[PlayerId]:
    """Players by machine score, best first; equal scores ordered by their recorded playoff.

    R3.2-i, A15: a tie with no recorded order is refused, naming the tied players.
    """
    if (
        not tie_order
        and not isinstance(tie_order, str)
        and len(set(present.values())) == len(present)
    ):
        return sorted(present, key=present.__getitem__, reverse=True)  # no tie to resolve
    resolved = tie_positions(
        present,
        tie_order,
        what="tie order",
        unknown="who has no machine score in this game",
        quantity="machine scores",
    )
    by_score: dict[int, list[PlayerId]] = {}
    for player, score in present.items():
        by_score.setdefault(score, []).append(player)
    order: list[PlayerId] = []
    for score in sorted(by_score, reverse=True):
        tied = by_score[score]
        if len(tied) > 1:
            if not all(p in resolved for p in tied):
                raise _unresolved_tie(tied, score)
            tied = sorted(tied, key=resolved.__getitem__)
        order.extend(tied)
    return order


def _unresolved_tie(tied: Sequence[PlayerId], score: int) -> RuleError:
    """R3.2-i, A15: the refusal of a tie with no recorded order, naming the tied players."""
    fields = {f"tied{i}": p for i, p in enumerate(sorted(tied))}
    between = _names(["{" + f + "}" for f in fields])
    return RuleError.about(
        "unresolved tie between " + between + " at {score}: record the order of their "
        "one-ball playoff (§3.2)",
        players=fields,
        values={"score": fmt(score)},
    )


def _present_scores(scores: Mapping[PlayerId, int | None]) -> dict[PlayerId, int]:
    present = {}
    for player, score in scores.items():
        check_player(player)
        if score is not None:
            present[player] = check_score(score, what="{player}'s machine score", player=player)
    return present


def _names(players: Sequence[str]) -> str:
    """'A and B', 'A, B and C'."""
    if len(players) < 2:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def _tie_notes(
    order: Sequence[PlayerId], present: Mapping[PlayerId, int], lines: list[PointLine]
) -> None:
    """Explain each place a one-ball playoff decided (R3.2-i, A15): for every player tied on
    a machine score, a line of no points naming the tied players, the score, and where the
    playoff put him ("Ann and Ben tied at 1,000,000: Ann won the one-ball playoff, so
    finished 1st"). `order` is the finishing order, so tied players are already in playoff
    order."""
    by_score: dict[int, list[PlayerId]] = {}
    for player in order:
        by_score.setdefault(present[player], []).append(player)
    for score, tied in by_score.items():
        if len(tied) < 2:
            continue
        fields = {f"tied{i}": p for i, p in enumerate(tied)}
        between = _names(["{" + f + "}" for f in fields])
        for rank, player in enumerate(tied, start=1):
            if rank == 1:
                outcome = "won the one-ball playoff"
            elif rank == len(tied):
                outcome = "lost the one-ball playoff"
            else:
                outcome = "came {rank} in the one-ball playoff"
            lines.append(
                PointLine(
                    player,
                    0,
                    "R3.2-i",
                    between + " tied at {score}: {player} " + outcome + ", so finished {place}",
                    {"player": player, **fields},
                    {
                        "score": fmt(score),
                        "rank": ORDINALS[rank],
                        "place": ORDINALS[order.index(player) + 1],
                    },
                )
            )


def _place_awards(
    order: Sequence[PlayerId],
    points: dict[PlayerId, int],
    ruleset: Ruleset,
    lines: list[PointLine],
) -> None:
    """Add each finisher's place points (R3.2-a, R3.2-c, R3.2-e, A11), each explained into
    `lines` (a fold without explanations takes its numbers from `points_in_order`)."""
    n = len(order)
    if n == 0:
        return
    if n == 1:
        amount = ruleset.single_player_game_points
        points[order[0]] += amount
        lines.append(
            PointLine(
                order[0],
                amount,
                "A11",
                "{player} was the only player: {points}",
                {"player": order[0]},
                {"points": points_phrase(amount)},
            )
        )
        return
    if n not in PLACE_POINTS:
        raise RuleError(f"a game has 1 to 4 players, got {n}")
    for i, (player, place_points) in enumerate(zip(order, PLACE_POINTS[n], strict=True)):
        points[player] += place_points
        lines.append(
            PointLine(
                player,
                place_points,
                PLACE_RULES[n],
                "{player} finished {place} of {of}: {points}",
                {"player": player},
                {"place": ORDINALS[i + 1], "of": str(n), "points": points_phrase(place_points)},
            )
        )


def _game_bonuses(
    order: Sequence[PlayerId],
    present: Mapping[PlayerId, int],
    points: dict[PlayerId, int],
    lines: list[PointLine],
) -> None:
    """Add the game's bonus points (§3.2): strict comparisons of the recorded machine scores,
    each explained into `lines`."""
    n = len(order)
    if n < 2:
        return
    s = [present[p] for p in order]
    if n == 2:
        points[versus_triple(order, s, "R3.2-b", lines)] += 1
        return
    for top, loser, rule in _GAME_BONUS_TESTS[n]:
        points[versus_sum(order, s, top, loser, rule, True, lines)] += 1


_GAME_BONUS_TESTS = {
    3: ((0, 2, "R3.2-d"),),  # 1st against 2nd + 3rd
    4: ((0, 2, "R3.2-f"), (1, 3, "R3.2-g")),  # 1st against 2nd + 3rd, 2nd against 3rd + 4th
}
"""A game's bonus comparisons by number of players: (top, loser, rule), strict (§3.2)."""


def versus_sum(
    order: Sequence[PlayerId],
    s: Sequence[int],
    top: int,
    loser: int,
    rule: str,
    strict: bool,
    lines: list[PointLine] | None,
    match: bool = False,
) -> PlayerId:
    """Who gets the bonus point: `top` if his score beats the sum of the next two, otherwise
    `loser`; the comparison is explained into `lines` when given.

    For `top` = 1st the sum is 2nd + 3rd (4th is never in it, A63); for `top` = 2nd it is
    3rd + 4th. `loser` is the last of the two summed players. `match`: the fifth game's
    comparison of match totals (§3.3).
    """
    total = s[top + 1] + s[top + 2]
    wins = s[top] > total or (not strict and s[top] == total)
    to = order[top] if wins else order[loser]
    if lines is not None:
        sign = ">" if s[top] > total else "=" if s[top] == total else "<"
        need = "" if wins else " (must exceed)" if strict else " (must equal or exceed)"
        lines.append(
            PointLine(
                to,
                1,
                rule,
                _bonus_template("{a}'s {score} {sign} {b} + {c}'s {total}{need}: ", match),
                {"a": order[top], "b": order[top + 1], "c": order[top + 2], "to": to},
                {"score": fmt(s[top]), "sign": sign, "total": fmt(total), "need": need},
            )
        )
    return to


def versus_triple(
    order: Sequence[PlayerId],
    s: Sequence[int],
    rule: str,
    lines: list[PointLine] | None,
    match: bool = False,
) -> PlayerId:
    """Two players: the bonus goes to the winner if his score exceeds three times the loser's,
    otherwise to the loser (A09); explained into `lines` when given."""
    a, b = order
    triple = 3 * s[1]
    to = a if s[0] > triple else b
    if lines is not None:
        lines.append(
            PointLine(
                to,
                1,
                rule,
                _bonus_template("{a}'s {score} {sign} 3 × {b}'s {loser_score} = {triple}: ", match),
                {"a": a, "b": b, "to": to},
                {
                    "score": fmt(s[0]),
                    "sign": ">" if s[0] > triple else "≤",
                    "loser_score": fmt(s[1]),
                    "triple": fmt(triple),
                },
            )
        )
    return to


def _bonus_template(comparison: str, match: bool) -> str:
    if match:
        return "match totals: " + comparison + "match bonus to {to}"
    return comparison + "bonus to {to}"
