"""A match (one group's four games at a meet): its facts, its results, and the checks of its facts.

Words:
- *game facts*: one game as recorded: each player's displayed machine score (None for a
  forfeit), tie orders, and what changes a score: a compensatory game (§7.3), the §8.1 25%
  reduction, a machine score of zero (§8.2 opponent's ball, §8.7 deathsave).
- *penalty*: a serious-violation penalty falling on one game of the match (§8.5); its effect
  follows `Ruleset.serious_violation_penalty` (A26).
- *final machine score*: the score that ranks the player: displayed score, plus compensatory
  game, reduced, or zeroed, in that order (A33: the reduction applies after the addition).
- *night total*: the player's league points for the meet: game points plus match bonus (A19).
- *absent for the rest of the match*: a player the LO recorded as gone (R2.4-a) from one game
  of the match on: that game and every later one is his forfeit, whatever a sheet says
  (`MatchFacts.absent_from`, `match_as_played`).

Scoring a match (`score_match`, `score_checked_match`, `match_as_played`) is `match_scoring`'s;
every point comes with a `PointLine` naming its rule, so a player can see why he got it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from flipwell.rules.checks import check_score, check_unique
from flipwell.rules.corrections import AppliedCorrection
from flipwell.rules.errors import RuleError, about_player, about_players, listed
from flipwell.rules.match_bonus import MatchBonusResult
from flipwell.rules.scoring import GameResult
from flipwell.rules.values import PlayerId, PointLine

GAMES_PER_MATCH = 4
"""§4: a match is four games."""

ZERO_SCORE_RULES = {"opponents_ball": "R8.2-a", "deathsave": "R8.7-a", "penalty": "R8.5-c"}
"""Why a present player's machine score can be set to zero, and the rule that says so."""


@dataclass(frozen=True)
class Compensatory:
    """A compensatory game's displayed score and the LO's subtractions (§7.3, R7.3-m..o)."""

    new: int
    leading_subtracted: int = 0
    state_subtracted: int = 0


@dataclass(frozen=True)
class GameFacts:
    """One game of a match as recorded (a score sheet's column)."""

    machine: str
    scores: Mapping[PlayerId, int | None]
    tie_order: tuple[tuple[PlayerId, ...], ...] = ()
    compensatory: Mapping[PlayerId, Compensatory] = field(default_factory=dict)
    reduced: frozenset[PlayerId] = frozenset()
    zeroed: Mapping[PlayerId, str] = field(default_factory=dict)
    non_countable: frozenset[PlayerId] = frozenset()
    """Forfeits the LO designated as not countable (R2.4-g); all others count (R2.4-h)."""
    corrections: tuple[AppliedCorrection, ...] = ()
    """Scores corrected after confirmation, in the order applied (R3-d): `scores` already holds
    the corrected values; these only explain them."""

    @property
    def adjusted(self) -> bool:
        """A score of the game ranks by another value than the one entered: a compensatory
        game's (R7.3-m), a 25% reduction (R8.1-b) or a zero score (R8.2-a, R8.7-a)."""
        return bool(self.compensatory or self.reduced or self.zeroed)


@dataclass(frozen=True)
class MatchFacts:
    """A group's match: its players in ladder order and its games in play order.

    Checked when made (`check_match`), where facts enter the rules: a match the rules cannot
    score is never built, so folding it checks nothing again."""

    players: tuple[PlayerId, ...]
    games: tuple[GameFacts, ...]
    absent_from: Mapping[PlayerId, int] = field(default_factory=dict)
    """Players recorded absent for the rest of the match -> the first game (1-based) they are
    absent for: that game and every later one is their forfeit (R2.4-a), countable unless the
    LO designated it not (R2.4-g, R2.4-h), whatever its sheet says (`match_as_played`)."""

    def __post_init__(self) -> None:
        check_match(self)

    def absent_at(self, number: int) -> frozenset[PlayerId]:
        """The players absent for the rest of the match at game `number` (1-based, R2.4-a)."""
        return frozenset(p for p, first in self.absent_from.items() if first <= number)


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game scored: final machine scores, the game's result and why."""

    number: int
    machine: str
    final_scores: Mapping[PlayerId, int | None]
    result: GameResult
    forfeits: Mapping[PlayerId, bool]
    """Each forfeiting player -> whether the forfeit is countable."""
    lines: tuple[PointLine, ...]


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One player's match: points per game, match bonus, night total and forfeits."""

    player: PlayerId
    game_points: tuple[int, ...]
    match_bonus: int
    games_played: int
    forfeits: int
    countable_forfeits: int
    absent: bool = False
    """He has no recorded score in any game of the match: an all-night forfeit (§2.4). A
    penalty forfeit (§8.5) never makes a night "absent": he played, and was punished."""

    @property
    def night_total(self) -> int:
        """League points earned at this meet (R3.3-a, A19)."""
        return sum(self.game_points) + self.match_bonus


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A scored match: every game, the match bonus, each player's line, and every reason."""

    games: Sequence[GameOutcome]
    """In play order."""
    bonus: MatchBonusResult
    players: Mapping[PlayerId, PlayerMatch]

    def explanation(self, player: PlayerId) -> list[str]:
        """Every point the player got in this match, one readable line each; none when the
        match was scored without its explanation (`fold_season(..., explain=False)`)."""
        lines = [
            f"Game {g.number} ({g.machine}): {line.reason} [{line.rule}]"
            for g in self.games
            for line in g.lines
            if line.player == player
        ]
        lines.extend(
            f"Match bonus: {line.reason} [{line.rule}]"
            for line in self.bonus.lines
            if line.player == player
        )
        return lines


def check_match(match: MatchFacts) -> None:
    """Refuse a match the rules cannot score: players listed twice, more than four games, a
    game whose entries are not the group's players (R2.4-b: a forfeit is an entry), an
    adjusted or tie-ordered player outside the game, or a machine score that is not a
    non-negative integer. Every `MatchFacts` is checked once, when it is made."""
    players = check_unique(match.players, what="the group")
    if len(match.games) > GAMES_PER_MATCH:
        raise RuleError(f"a match has at most {GAMES_PER_MATCH} games, got {len(match.games)}")
    group = set(players)
    _check_absences(match, group)
    for number, game in enumerate(match.games, start=1):
        _check_game_players(game, number, players, group)
        for score in game.scores.values():
            if score is not None and (type(score) is not int or score < 0):
                _check_scores(game, players)  # names the first bad score's player


def _check_absences(match: MatchFacts, group: set[PlayerId]) -> None:
    """R2.4-a: an absence for the rest of the match names a player of the group and a game of
    the match (1 to 4)."""
    strangers = sorted(set(match.absent_from) - group)
    if strangers:
        raise about_players(
            "{players} recorded absent for the rest of the match but not in the group",
            "players",
            strangers,
        )
    for player, first in match.absent_from.items():
        if type(first) is not int or not 1 <= first <= GAMES_PER_MATCH:
            raise about_player(
                "{player} is recorded absent from game {first}: a game is 1 to {games}",
                player,
                first=repr(first),
                games=str(GAMES_PER_MATCH),
            )


def _check_game_players(
    game: GameFacts, number: int, players: Sequence[PlayerId], group: set[PlayerId]
) -> None:
    if game.scores.keys() == group and not (game.adjusted or game.tie_order or game.corrections):
        return  # the common game: one entry per player and nothing else to check
    unknown = sorted(set(game.scores) - set(players))
    if unknown:
        raise _about_game(number, "has a score for {players}, not in this group", unknown)
    missing = sorted(set(players) - set(game.scores))
    if missing:
        raise _about_game(
            number, "has no entry for {players}: record a score or a forfeit", missing
        )
    for player in (*game.compensatory, *game.reduced, *game.zeroed):
        if game.scores.get(player) is None:
            raise _about_game(
                number, ": {players} forfeited, so their score cannot be adjusted", [player]
            )
    strangers = sorted({p for order in game.tie_order for p in order} - set(players))
    if strangers:
        raise _about_game(number, ": the tie order names {players}, not in this group", strangers)
    named = {p for c in game.corrections for p in (c.player, *c.agreed)}
    outsiders = sorted(named - set(players))
    if outsiders:
        raise _about_game(
            number, ": a score correction names {players}, not in this group", outsiders
        )
    for player, why in game.zeroed.items():
        if why not in ZERO_SCORE_RULES:
            allowed = ", ".join(ZERO_SCORE_RULES)
            raise about_player(
                "game {game}: {player}'s zero score reason {why}; use {allowed}",
                player,
                game=str(number),
                why=repr(why),
                allowed=allowed,
            )


def _check_scores(game: GameFacts, players: Sequence[PlayerId]) -> None:
    for player in players:
        score = game.scores[player]
        if score is not None:
            check_score(score, what="{player}'s machine score", player=player)


def _about_game(number: int, template: str, players: list[PlayerId]) -> RuleError:
    """A RuleError "game N ..." whose {players} are the player keys `players`."""
    names, fields = listed("player", players)
    space = "" if template.startswith(":") else " "
    return RuleError.about(
        "game {game}" + space + template.replace("{players}", names),
        players=fields,
        values={"game": str(number)},
    )
