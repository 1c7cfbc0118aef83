"""Scoring a whole match: its games from final machine scores to points, then night totals.

Words:
- *final machine score*: the score that ranks the player: displayed score, plus compensatory
  game, reduced, or zeroed, in that order (A33: the reduction applies after the addition).
- *penalty*: a serious-violation penalty falling on one game of the match (§8.5); its effect
  follows `Ruleset.serious_violation_penalty` (A26).
- *night total*: the player's league points for the meet: game points plus match bonus (A19).
- *night place*: a player's place in his group's night, by the league points he earned.
- *as played*: the match with every absence for the rest of the match applied (R2.4-a): that
  game and every later one is the absent player's forfeit, whatever a sheet says.

The facts scored (`MatchFacts`, `GameFacts`) and the results (`MatchResult`, ...) are `match`'s.
Every point comes with a `PointLine` naming its rule, so a player can see why he got it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from flipwell.rules.checks import fmt
from flipwell.rules.compensatory_games import compensatory_score
from flipwell.rules.corrections import correction_line
from flipwell.rules.errors import RuleError
from flipwell.rules.match import (
    ZERO_SCORE_RULES,
    Compensatory,
    GameFacts,
    GameOutcome,
    MatchFacts,
    MatchResult,
    PlayerMatch,
)
from flipwell.rules.match_bonus import MatchBonusResult, fifth_game
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.scoring import GameResult, scored_game
from flipwell.rules.values import PlayerId, PointLine
from flipwell.rules.violations import Violation, reduced_score, violation_effect


def night_places(match: MatchResult) -> dict[PlayerId, int]:
    """Each player's place in his group's night: by the league points he earned at the meet
    (`PlayerMatch.night_total`: game points plus match bonus, R3.3-a, A19), most first.

    Equal night totals share the better place (7, 5, 5, 1 points: 1st, 2nd, 2nd, 4th): the
    rulebook ranks a night by its points only (the fifth game's tiebreakers, R3.3-f, decide
    a match bonus, not a place; the next ladder orders by season points, R4.3-c).
    """
    totals = {p: line.night_total for p, line in match.players.items()}
    ranked = sorted(totals.values(), reverse=True)
    return {p: ranked.index(total) + 1 for p, total in totals.items()}


def violation_score_changes(
    violations: Iterable[Violation], *, ruleset: Ruleset = FWPL_V1
) -> tuple[frozenset[PlayerId], dict[PlayerId, str]]:
    """A game's violations as `GameFacts.reduced` and `GameFacts.zeroed` (§8.1, §8.2, §8.7).

    `violation_effect` decides each: R8.1-b, A35: a 25% reduced final score; R8.2-a, R8.7-a:
    a machine score of zero, with the reason (a key of `ZERO_SCORE_RULES`) its rule gives.
    """
    reduced: set[PlayerId] = set()
    zeroed: dict[PlayerId, str] = {}
    reasons = {rule: why for why, rule in ZERO_SCORE_RULES.items()}
    for violation in violations:
        effect = violation_effect(violation, ruleset=ruleset)
        if effect.machine_score_zero:
            zeroed[violation.violator] = reasons[effect.rules[0]]
        elif effect.reduce_final_score:
            reduced.add(violation.violator)
    return frozenset(reduced), zeroed


def score_match(
    match: MatchFacts,
    *,
    penalties: Mapping[int, frozenset[PlayerId]] | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> MatchResult:
    """Score a whole match from its recorded facts (§3.2, §3.3, §2.4, §7.3, §8).

    penalties: game number (1-based) -> players whose serious-violation penalty falls on it
    (§8.5, R8.5-c, A26). Game points follow R3.2-a..i and R2.4-b/c; the match bonus R3.3-a..g;
    a compensatory game R7.3-m; the 25% reduction R8.1-b; zero scores R8.2-a and R8.7-a.
    """
    return score_checked_match(match, penalties=penalties or {}, ruleset=ruleset, explain=True)


def match_as_played(match: MatchFacts) -> MatchFacts:
    """The match with every absence for the rest of the match applied (R2.4-a, R2.4-b).

    A player recorded absent from game n forfeits game n and every later game of the match:
    his score there is none (a score a sheet holds anyway is not his: he was not there), he
    leaves its tie orders and adjustments, and the game is scored among the players who
    remain (R2.4-c). Each such forfeit counts toward the season forfeit (R2.4-h, §2.5) unless
    the LO designated it not (R2.4-g, `GameFacts.non_countable`). Games not yet recorded are
    not facts yet: their forfeits follow once they are. Applying it twice changes nothing.
    """
    if not match.absent_from:
        return match
    games = tuple(
        _without_absent(game, match.absent_at(number))
        for number, game in enumerate(match.games, start=1)
    )
    if games == match.games:
        return match
    return MatchFacts(players=match.players, games=games, absent_from=match.absent_from)


def _without_absent(game: GameFacts, absent: frozenset[PlayerId]) -> GameFacts:
    """`game` with the `absent` players forfeiting it (no score, no tie order, no adjustment)."""
    if not absent or all(game.scores.get(p) is None for p in absent):
        return game
    return GameFacts(
        machine=game.machine,
        scores={p: (None if p in absent else s) for p, s in game.scores.items()},
        tie_order=tuple(
            kept
            for kept in (tuple(p for p in o if p not in absent) for o in game.tie_order)
            if len(kept) > 1
        ),
        compensatory={p: c for p, c in game.compensatory.items() if p not in absent},
        reduced=game.reduced - absent,
        zeroed={p: z for p, z in game.zeroed.items() if p not in absent},
        non_countable=game.non_countable,
        corrections=tuple(c for c in game.corrections if c.player not in absent),
    )


def score_checked_match(
    match: MatchFacts,
    *,
    penalties: Mapping[int, frozenset[PlayerId]],
    ruleset: Ruleset,
    explain: bool,
) -> MatchResult:
    """`score_match` with its penalties and explanation chosen (every `MatchFacts` was
    checked when made). explain=False gives the same numbers with no explanation lines
    (`MatchResult.explanation` is then empty). Absences for the rest of the match are
    applied first (`match_as_played`, R2.4-a)."""
    match = match_as_played(match)
    players = match.players
    for number in penalties:
        if not 1 <= number <= len(match.games):
            raise RuleError(f"a penalty falls on game {number}, but the match has no such game")
    games = tuple(
        [
            _score_match_game(
                game,
                number=number,
                players=players,
                absent=match.absent_at(number),
                penalized=penalties.get(number, _NOBODY),
                ruleset=ruleset,
                explain=explain,
            )
            for number, game in enumerate(match.games, start=1)
        ]
    )
    sheets = {p: _score_sheet(p, games) for p in players}
    # No game yet (a meet just started): no fifth game to play either.
    bonus = (
        fifth_game(
            {p: sum(sheet[0]) for p, sheet in sheets.items()},  # a forfeit's points are 0
            {p: sheet[1] for p, sheet in sheets.items()},
            ladder_order=players,
            ruleset=ruleset,
            explain=explain,
        )
        if games
        else MatchBonusResult(
            totals=dict.fromkeys(players, 0), order=(), points=dict.fromkeys(players, 0), lines=()
        )
    )
    lines = {
        p: PlayerMatch(
            player=p,
            game_points=tuple(points),
            match_bonus=bonus.points[p],
            games_played=len(games) - len(forfeits),
            forfeits=len(forfeits),
            countable_forfeits=sum(forfeits),
            absent=absent,
        )
        for p, (points, _, forfeits, absent) in sheets.items()
    }
    return MatchResult(games=games, bonus=bonus, players=lines)


_NOBODY: frozenset[PlayerId] = frozenset()


def _score_sheet(
    player: PlayerId, games: Sequence[GameOutcome]
) -> tuple[list[int], list[int | None], list[bool], bool]:
    """His row of the match: points and place per game (place None where he forfeited), each
    forfeit's countability, and whether he has no recorded score in any game (§2.4)."""
    points: list[int] = []
    places: list[int | None] = []
    forfeits: list[bool] = []
    absent = bool(games)
    for game in games:
        result = game.result
        points.append(result.points[player])
        places.append(result.order.index(player) + 1 if player in result.order else None)
        if player in game.forfeits:
            forfeits.append(game.forfeits[player])
        if game.final_scores[player] is not None:
            absent = False
    return points, places, forfeits, absent


def _score_match_game(
    game: GameFacts,
    *,
    number: int,
    players: Sequence[PlayerId],
    absent: frozenset[PlayerId],
    penalized: frozenset[PlayerId],
    ruleset: Ruleset,
    explain: bool,
) -> GameOutcome:
    """Score one checked game of a match from its facts: final machine scores, then points.

    Order of adjustments: compensatory addition (R7.3-m, R7.3-n, R7.3-o), 25% reduction
    (R8.1-b, A33), zero score (R8.2-a, R8.7-a), then a §8.5 penalty (R8.5-c, A26).
    """
    lines = _opening_lines(game, players, absent) if explain else None
    final: dict[PlayerId, int | None] = {}
    present: dict[PlayerId, int] = {}
    forfeits: dict[PlayerId, bool] = {}
    adjusted = game.adjusted
    for player in players:
        score = game.scores[player]
        if score is None:
            forfeits[player] = player not in game.non_countable  # R2.4-g, R2.4-h
        else:
            if adjusted:
                score = _final_machine_score(game, player, score, lines, ruleset)
            present[player] = score
        final[player] = score
    scored_as: Mapping[PlayerId, int | None] = final
    hidden = _NOBODY
    if penalized:
        scored_as, hidden = _apply_penalties(final, penalized, ruleset, lines, forfeits)
        present = {p: s for p, s in scored_as.items() if s is not None}
    result = scored_game(
        scored_as,
        present,
        tie_order=_tie_order_for(game, scored_as) if game.tie_order else (),
        ruleset=ruleset,
        explain=explain,
    )
    if hidden:  # "zero_points_others_unchanged": he was ranked, but earns nothing (A26 (c))
        result = _without_points(result, hidden)
    if lines is not None:
        lines.extend(result.lines)
    return GameOutcome(
        number=number,
        machine=game.machine,
        final_scores=final,
        result=result,
        forfeits=forfeits,
        lines=tuple(lines) if lines else (),
    )


def _opening_lines(
    game: GameFacts, players: Sequence[PlayerId], absent: frozenset[PlayerId]
) -> list[PointLine]:
    """A game's explanation before its scores: the corrections that led to its counted sheet
    (R3-d), and the players absent for the rest of the match (R2.4-a)."""
    lines = [correction_line(c) for c in game.corrections]
    lines.extend(
        PointLine(
            p,
            0,
            "R2.4-a",
            "{player} is absent for the rest of the match: forfeits this game",
            {"player": p},
        )
        for p in players
        if p in absent
    )
    return lines


def _final_machine_score(
    game: GameFacts, player: PlayerId, shown: int, lines: list[PointLine] | None, ruleset: Ruleset
) -> int:
    """His displayed score with the game's adjustments; each explained into `lines` if given."""
    score = shown
    comp = game.compensatory.get(player)
    if comp is not None:
        score = _with_compensatory(player, score, comp, lines, ruleset)
    if player in game.reduced:
        reduced = reduced_score(score, ruleset=ruleset)
        if lines is not None:
            lines.append(
                PointLine(
                    player,
                    0,
                    "R8.1-b",
                    "{player} played their own one-handed extra ball after their last "
                    "allowable ball: {score} reduced by 25% to {reduced}",
                    {"player": player},
                    {"score": fmt(score), "reduced": fmt(reduced)},
                )
            )
        score = reduced
    why = game.zeroed.get(player)
    if why is not None:
        if lines is not None:
            lines.append(
                PointLine(
                    player,
                    0,
                    ZERO_SCORE_RULES[why],
                    "{player}'s machine score is zero ({why})",
                    {"player": player},
                    {"why": why},
                )
            )
        score = 0
    return score


def _with_compensatory(
    player: PlayerId,
    score: int,
    comp: Compensatory,
    lines: list[PointLine] | None,
    ruleset: Ruleset,
) -> int:
    """His score plus his compensatory game's, less the LO's subtractions (R7.3-m..o, A33);
    explained into `lines` if given."""
    total = compensatory_score(
        score,
        comp.new,
        leading_subtracted=comp.leading_subtracted,
        state_subtracted=comp.state_subtracted,
        ruleset=ruleset,
    )
    if lines is not None:
        lines.append(
            PointLine(
                player,
                0,
                "R7.3-m",
                "{player}'s compensatory game: {score} + {new}{subtractions} = {total}",
                {"player": player},
                {
                    "score": fmt(score),
                    "new": fmt(comp.new),
                    "subtractions": _subtractions(comp),
                    "total": fmt(total),
                },
            )
        )
    return total


def _subtractions(comp: Compensatory) -> str:
    parts = []
    if comp.leading_subtracted:
        parts.append(f" − {fmt(comp.leading_subtracted)} (plunged leading balls)")
    if comp.state_subtracted:
        parts.append(f" − {fmt(comp.state_subtracted)} (state-setting points)")
    return "".join(parts)


def _apply_penalties(
    final: Mapping[PlayerId, int | None],
    penalized: frozenset[PlayerId],
    ruleset: Ruleset,
    lines: list[PointLine] | None,
    forfeits: dict[PlayerId, bool],
) -> tuple[dict[PlayerId, int | None], frozenset[PlayerId]]:
    """The scores the game is ranked on once §8.5 penalties apply, and who earns nothing."""
    scored_as = dict(final)
    hidden: set[PlayerId] = set()
    for player in sorted(penalized):
        if player not in final:
            raise RuleError.about(
                "a penalty names {player}, who is not in this group", players={"player": player}
            )
        if final[player] is None:
            continue  # he had already forfeited this game: nothing more to take
        mode = ruleset.serious_violation_penalty
        if mode == "forfeit":
            scored_as[player] = None
            forfeits[player] = ruleset.penalty_forfeit_is_countable
            text = "forfeits this game: serious-violation penalty, game re-scored without them"
        else:
            scored_as[player] = 0
            if mode == "zero_points_others_unchanged":
                hidden.add(player)
            text = "machine score set to zero: serious-violation penalty"
        if lines is not None:
            lines.append(PointLine(player, 0, "R8.5-c", "{player} " + text, {"player": player}))
    return scored_as, frozenset(hidden)


def _tie_order_for(
    game: GameFacts, scored_as: Mapping[PlayerId, int | None]
) -> tuple[tuple[PlayerId, ...], ...]:
    """The recorded tie orders, minus players a penalty removed from the game."""
    orders = []
    for order in game.tie_order:
        kept = tuple(p for p in order if scored_as.get(p) is not None)
        if len(kept) > 1 and len({scored_as[p] for p in kept}) == 1:
            orders.append(kept)
    return tuple(orders)


def _without_points(result: GameResult, hidden: frozenset[PlayerId]) -> GameResult:
    points = {p: (0 if p in hidden else pts) for p, pts in result.points.items()}
    lines = tuple(
        PointLine(
            line.player, 0, "R8.5-c", "{player} earns nothing: penalty", {"player": line.player}
        )
        if line.player in hidden
        else line
        for line in result.lines
    )
    return GameResult(order=result.order, points=points, lines=lines)
