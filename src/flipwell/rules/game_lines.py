"""Game lines: each player's line of a scored game, as every reader shows it (§3.2, §7.3, §8).

Words:
- *game line*: one player's line of a game the season fold scored: the machine score that
  counts (what the game ranks him by, R3.2-a), the score entered on the counted sheet, each
  adjustment between the two, his place and his game points (bonus point included, R3.2).
- *adjustment*: a change the rules make to an entered score, in the order the fold applies
  them (`flipwell.rules.match`): *compensatory* (R7.3-m: the compensatory game's score is
  added), *subtracted* (R7.3-n, R7.3-o: the leading balls' and state-setting points the LO
  subtracted from it), *reduced* (R8.1-b: by 25%), *zeroed* (R8.2-a, R8.7-a), *penalty*
  (R8.5-c: a serious violation's penalty fell on this game) and *forfeited* (R2.4-b: no score
  counts; R2.5-b: his season ended before this game). `amount` is the signed change to the
  score where it has one.
- *pending game lines*: the lines a score sheet waiting for confirmation will get once
  confirmed: the season folded with that sheet taken as confirmed (what the confirmer checks).
  Folded on the stored prefix of the season's closed meets when the caller has it
  (`flipwell.rules.season_prefix`), so a sheet at meet 40 costs what one at meet 2 does.

A game line is read from the fold's own result (its final scores, order and points); the
adjustments are recomputed from the game's facts with the fold's functions and checked against
the fold's final score, so a reader never shows a number the fold did not decide.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from flipwell.rules.checks import fmt
from flipwell.rules.compensatory_games import compensatory_score
from flipwell.rules.match import (
    ZERO_SCORE_RULES,
    Compensatory,
    GameFacts,
    GameOutcome,
    MatchFacts,
    MatchResult,
)
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.season import fold_season
from flipwell.rules.season_prefix import SeasonPrefix, fold_from
from flipwell.rules.season_values import SeasonFacts, SeasonResult
from flipwell.rules.values import PlayerId
from flipwell.rules.violations import reduced_score

ScoreChangeKind = Literal["compensatory", "subtracted", "reduced", "zeroed", "penalty", "forfeited"]
"""The kinds of adjustment a game line names (see the module's words)."""

ZERO_WORDS = {
    "opponents_ball": "played an opponent's ball",
    "deathsave": "a deathsave",
    "penalty": "a penalty",
}
"""Why a score is zero, in plain words (the keys of `ZERO_SCORE_RULES`)."""


@dataclass(frozen=True, slots=True)
class ScoreAdjustment:
    """One change the rules made to a player's entered score (see the module's words).

    `template` names the player as ``{player}`` and takes `values`; `render` writes it."""

    kind: ScoreChangeKind
    amount: int | None
    rule: str
    template: str
    values: Mapping[str, str] = field(default_factory=dict)

    def render(self, name: str) -> str:
        """The adjustment in plain words, the player named `name` (no rule id)."""
        return self.template.format_map({**self.values, "player": name})


@dataclass(frozen=True, slots=True)
class GameLine:
    """One player's line of a scored game (see the module's words)."""

    player: PlayerId
    score: int | None
    """The machine score that counts; None: no score counts (a forfeit)."""
    entered: int | None
    """The score as entered on the counted sheet; None: none was entered."""
    adjustments: tuple[ScoreAdjustment, ...]
    place: int | None
    """His place in the game (1 = first); None when he is not ranked (a forfeit)."""
    points: int
    """His game points, bonus point included (R3.2; 0 for a forfeit, R2.4-b)."""

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The rules behind the adjustments, each once, in order (the "why")."""
        return tuple(dict.fromkeys(a.rule for a in self.adjustments))


def game_lines(
    game: GameFacts,
    outcome: GameOutcome,
    *,
    players: Sequence[PlayerId],
    penalized: frozenset[PlayerId] = frozenset(),
    absent: frozenset[PlayerId] = frozenset(),
    ruleset: Ruleset = FWPL_V1,
) -> tuple[GameLine, ...]:
    """Each of `players`' lines of `game` as the fold scored it (`outcome`), in their order
    (§3.2, R7.3-m..o, R8.1-b, R8.2-a, R8.7-a, R8.5-c, R2.4-b). `penalized`: the players whose
    §8.5 penalty falls on this game; `absent`: those absent for the rest of the match at it
    (R2.4-a). Fails loudly if the facts do not give the fold's score."""
    order = outcome.result.order
    return tuple(
        GameLine(
            player=p,
            score=_counted(outcome, p, penalized, ruleset),
            entered=game.scores.get(p),
            adjustments=_adjustments(game, outcome, p, penalized, ruleset, absent),
            place=order.index(p) + 1 if p in order else None,
            points=outcome.result.points.get(p, 0),
        )
        for p in players
    )


def match_game_lines(
    match: MatchFacts,
    result: MatchResult,
    *,
    penalties: Mapping[PlayerId, tuple[int, ...]],
    ruleset: Ruleset = FWPL_V1,
) -> tuple[tuple[GameLine, ...], ...]:
    """Every scored game's lines of a match, game 1 first, players in ladder order;
    `penalties`: player -> the games of the match his §8.5 penalties fell on."""
    return tuple(
        game_lines(
            facts,
            outcome,
            players=match.players,
            penalized=frozenset(p for p, games in penalties.items() if number in games),
            absent=match.absent_at(number),
            ruleset=ruleset,
        )
        for number, (facts, outcome) in enumerate(
            zip(match.games, result.games, strict=True), start=1
        )
    )


def meet_game_lines(
    facts: SeasonFacts, result: SeasonResult, meet: int, *, ruleset: Ruleset = FWPL_V1
) -> dict[frozenset[PlayerId], tuple[tuple[GameLine, ...], ...]]:
    """Every match of meet `meet` (keyed by its players) -> its games' lines (`match_game_lines`),
    from the season's facts and their fold `result`; empty for a meet not folded yet."""
    if not 1 <= meet <= min(len(facts.meets), len(result.meets)):
        return {}
    folded = result.meets[meet - 1]
    scored = {frozenset(m.players): m for m in folded.matches}
    found = {}
    for match in facts.meets[meet - 1].groups:
        key = frozenset(match.players)
        if key in scored:
            found[key] = match_game_lines(
                match, scored[key], penalties=folded.penalties, ruleset=ruleset
            )
    return found


def pending_game_lines(
    facts: SeasonFacts,
    *,
    meet: int,
    players: Sequence[PlayerId],
    game: GameFacts,
    ruleset: Ruleset = FWPL_V1,
    prefix: SeasonPrefix | None = None,
) -> tuple[GameLine, ...]:
    """The lines `game`, the next game of the match of `players` at meet `meet`, will have
    once its sheet is confirmed (R3-a): the season folded with it as a fact, so a
    compensatory game, a zero score or a penalty already recorded counts (R7.3-m, §8).
    `prefix`: the season's stored prefix (its closed meets, the first ones of `facts`): the
    meets after it are folded on it, not the season whole (§2's "a write costs tonight"),
    unless `meet` is one of its meets. Raises RuleError when the sheet is not one the rules
    can score."""
    confirmed = with_game_confirmed(facts, meet=meet, players=players, game=game)
    result = _folded(confirmed, meet, prefix, ruleset)
    lines = meet_game_lines(confirmed, result, meet, ruleset=ruleset).get(frozenset(players))
    if not lines:  # pragma: no cover - the match was just given a game
        return ()
    return lines[-1]


def _folded(
    facts: SeasonFacts, meet: int, prefix: SeasonPrefix | None, ruleset: Ruleset
) -> SeasonResult:
    """The season's fold (numbers), on `prefix` when it covers meets before `meet` only."""
    if prefix is None or meet <= prefix.through:
        return fold_season(facts, ruleset=ruleset)
    return fold_from(prefix, facts.meets[prefix.through :], ruleset=ruleset).result


def with_game_confirmed(
    facts: SeasonFacts, *, meet: int, players: Sequence[PlayerId], game: GameFacts
) -> SeasonFacts:
    """`facts` with `game` added as the next game of the match of `players` at meet `meet`."""
    key = frozenset(players)
    meets = list(facts.meets)
    found = meets[meet - 1]
    groups = tuple(
        replace(m, games=(*m.games, game)) if frozenset(m.players) == key else m
        for m in found.groups
    )
    meets[meet - 1] = replace(found, groups=groups)
    return replace(facts, meets=tuple(meets))


def _counted(
    outcome: GameOutcome, player: PlayerId, penalized: frozenset[PlayerId], ruleset: Ruleset
) -> int | None:
    final = outcome.final_scores.get(player)
    if final is None or player not in penalized:
        return final
    return None if ruleset.serious_violation_penalty == "forfeit" else 0


def _adjustments(
    game: GameFacts,
    outcome: GameOutcome,
    player: PlayerId,
    penalized: frozenset[PlayerId],
    ruleset: Ruleset,
    absent: frozenset[PlayerId] = frozenset(),
) -> tuple[ScoreAdjustment, ...]:
    entered = game.scores.get(player)
    final = outcome.final_scores.get(player)
    if entered is None:
        return (ScoreAdjustment("forfeited", None, "R2.4-b", "{player} forfeited this game"),)
    if player in absent:  # a score a sheet holds anyway is not his: he had left (R2.4-a)
        return (
            ScoreAdjustment(
                "forfeited",
                -entered,
                "R2.4-a",
                "{player}'s score does not count: they are absent for the rest of the match",
            ),
        )
    found, score = _score_steps(game, player, entered, ruleset)
    if final is None:  # the fold dropped his score: his season ended first (R2.5-b, A36)
        return (
            ScoreAdjustment(
                "forfeited",
                -entered,
                "R2.5-b",
                "{player}'s score does not count: their season ended before this game",
            ),
        )
    if score != final:  # pragma: no cover - an impossible state
        raise AssertionError(f"game line of {player}: {score} is not the fold's {final}")
    if player in penalized:
        counted = _counted(outcome, player, penalized, ruleset)
        found.append(
            ScoreAdjustment(
                "penalty",
                None if counted is None else counted - score,
                "R8.5-c",
                "{player} forfeits this game: serious-violation penalty"
                if counted is None
                else "{player}'s score counts as zero: serious-violation penalty",
            )
        )
    return tuple(found)


def _score_steps(
    game: GameFacts, player: PlayerId, entered: int, ruleset: Ruleset
) -> tuple[list[ScoreAdjustment], int]:
    """The adjustments from the entered score to the final machine score, in the fold's order
    (R7.3-m..o, then R8.1-b, then R8.2-a/R8.7-a; A33), and that score."""
    found: list[ScoreAdjustment] = []
    score = entered
    comp = game.compensatory.get(player)
    if comp is not None:
        score = _compensatory_steps(comp, score, found, ruleset)
    if player in game.reduced:
        reduced = reduced_score(score, ruleset=ruleset)
        found.append(
            ScoreAdjustment(
                "reduced",
                reduced - score,
                "R8.1-b",
                "{player} played their own one-handed extra ball after their last allowable "
                "ball: score reduced by 25%",
            )
        )
        score = reduced
    why = game.zeroed.get(player)
    if why is not None:
        found.append(
            ScoreAdjustment(
                "zeroed",
                -score,
                ZERO_SCORE_RULES[why],
                "{player}'s score counts as zero: {why}",
                {"why": ZERO_WORDS.get(why, why)},
            )
        )
        score = 0
    return found, score


def _compensatory_steps(
    comp: Compensatory, score: int, found: list[ScoreAdjustment], ruleset: Ruleset
) -> int:
    """Add to `found` a compensatory game's addition (R7.3-m) and the LO's subtractions
    (R7.3-n, R7.3-o); the score once they apply."""
    total = compensatory_score(
        score,
        comp.new,
        leading_subtracted=comp.leading_subtracted,
        state_subtracted=comp.state_subtracted,
        ruleset=ruleset,
    )
    found.append(
        ScoreAdjustment(
            "compensatory",
            comp.new,
            "R7.3-m",
            "{player}'s compensatory game: {new} added",
            {"new": fmt(comp.new)},
        )
    )
    taken = score + comp.new - total
    if taken:
        found.append(
            ScoreAdjustment(
                "subtracted",
                -taken,
                "R7.3-n" if comp.leading_subtracted else "R7.3-o",
                "{taken} subtracted from {player}'s compensatory game "
                "(points of plunged balls or of setting up the machine)",
                {"taken": fmt(taken)},
            )
        )
    return total
