"""Serious-violation penalties and their consequences in a season's fold (§8.5, §8.8, §2.5).

Words:
- *penalty decision*: what one violation's §8.5 penalty does, and the game it falls on (A26, A27).
- *offense*: a serious violation counted towards the third offense (R8.5-b); a third offense
  suspends the player and forfeits his season (his scores wiped).
- *suspended*: out from the meet of his third offense on (§8.5, §8.8).
- *season-forfeited*: out once a forfeit is his last allowed countable one (R2.5-b, A65).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.forfeits import (
    match_forfeits,
)
from flipwell.rules.match import GAMES_PER_MATCH, GameFacts, MatchFacts
from flipwell.rules.match_scoring import score_checked_match
from flipwell.rules.ruleset import Ruleset
from flipwell.rules.season_nights import Tally, wipe
from flipwell.rules.season_values import (
    MeetFacts,
    SeasonFacts,
    ViolationFacts,
)
from flipwell.rules.values import PlayerId
from flipwell.rules.violation_penalties import PenaltyDecision, penalty_decision


def penalty_decisions(
    meet: MeetFacts,
    matches: Sequence[MatchFacts],
    tallies: Mapping[PlayerId, Tally],
    ruleset: Ruleset,
) -> tuple[list[PenaltyDecision], dict[PlayerId, tuple[int, ...]]]:
    """Each violation's §8.5 decision in order, and player -> the games his penalties fall on.

    Offenses are counted as the meet goes (R8.5-b); a penalty's target game is chosen from the
    match as scored with the earlier penalties (R8.5-c, R8.5-d, A27).
    """
    decisions: list[PenaltyDecision] = []
    penalties: dict[PlayerId, tuple[int, ...]] = {}
    if not meet.violations:
        return decisions, penalties
    offenses = {p: t.offenses for p, t in tallies.items()}
    for facts in meet.violations:
        player = facts.player
        if player not in tallies:
            raise RuleError.about(
                "a violation names {player}, who is not an entrant", players={"player": player}
            )
        match = next((m for m in matches if player in m.players), None)
        decision = penalty_decision(
            facts.violation,
            prior_offenses=offenses[player],
            points_by_game=_completed_points(facts, match, penalties, ruleset),
            current_game=_current_game(facts, match, closed=meet.closed),
            ruleset=ruleset,
        )
        decisions.append(decision)
        offenses[player] = decision.offense or offenses[player]
        if decision.effect == "game_forfeit" and match is not None:
            game = decision.game or _untargeted_game(facts, match, decision)
            # While the meet is open, the game in progress may have no confirmed scores yet:
            # its penalty applies once the game is recorded.
            if game is not None and game <= len(match.games):
                penalties[player] = (*penalties.get(player, ()), game)
                decisions[-1] = replace(decision, game=game)
    return decisions, penalties


def _current_game(facts: ViolationFacts, match: MatchFacts | None, *, closed: bool) -> int | None:
    """The game in progress; an open meet's may be beyond the games recorded so far."""
    if facts.current_game is None or match is None:
        return None
    return _game_number(facts.current_game, len(match.games) if closed else GAMES_PER_MATCH)


def _completed_points(
    facts: ViolationFacts,
    match: MatchFacts | None,
    earlier: Mapping[PlayerId, tuple[int, ...]],
    ruleset: Ruleset,
) -> list[int | None]:
    """His league points in the games his group had completed (None where he forfeited)."""
    completed = check_count(facts.games_completed, what="games completed")
    if match is None or facts.current_game is not None or completed == 0:
        return []
    if completed > len(match.games):
        raise RuleError.about(
            "{player}'s group completed at most {games} games",
            players={"player": facts.player},
            values={"games": str(len(match.games))},
        )
    scored = score_checked_match(
        match, penalties=penalties_for(match, earlier), ruleset=ruleset, explain=False
    )
    line = scored.players[facts.player]
    return [
        None if facts.player in scored.games[i].forfeits else line.game_points[i]
        for i in range(completed)
    ]


def _untargeted_game(
    facts: ViolationFacts, match: MatchFacts, decision: PenaltyDecision
) -> int | None:
    """A27.2 and A27.4: before his first game, his next game, or the LO's choice."""
    if facts.target_game is not None:
        return _game_number(facts.target_game, len(match.games))
    if decision.target == "lo_decision":
        raise RuleError.about(
            "{player}'s violation came before their first game: the LO must choose the game the "
            "penalty falls on (A27)",
            players={"player": facts.player},
        )
    return next(
        (i for i, g in enumerate(match.games, 1) if g.scores.get(facts.player) is not None),
        None,
    )


def _game_number(number: int, games: int) -> int:
    check_count(number, what="game number", minimum=1)
    if number > games:
        raise RuleError(f"game {number} is not in a match of {games} games")
    return number


def penalties_for(
    match: MatchFacts, penalties: Mapping[PlayerId, tuple[int, ...]]
) -> dict[int, frozenset[PlayerId]]:
    if not penalties:
        return {}
    by_game: dict[int, set[PlayerId]] = {}
    for player, games in penalties.items():
        if player in match.players:
            for game in games:
                by_game.setdefault(game, set()).add(player)
    return {g: frozenset(ps) for g, ps in by_game.items()}


def apply_offenses(
    meet: MeetFacts, decisions: Sequence[PenaltyDecision], tallies: dict[PlayerId, Tally]
) -> None:
    """Count serious violations; a third offense forfeits the season and wipes his scores."""
    for decision in decisions:
        tally = tallies[decision.violator]
        if decision.offense is not None:
            tally.offenses = decision.offense
        if decision.suspended and tally.suspended_at is None:
            tally.suspended_at = meet.number
            wipe(tally)  # R8.5-e: "the player's scores are wiped"


def suspensions(facts: SeasonFacts, ruleset: Ruleset) -> dict[PlayerId, int]:
    """Player -> meet of his third offense. Offense counts depend on no points (R8.5-b), so
    they can be found before the fold, as `third_offense_rescore_others` needs (A36)."""
    counts: dict[PlayerId, int] = {}
    suspended: dict[PlayerId, int] = {}
    for meet in facts.meets:
        for facts_ in meet.violations:
            decision = penalty_decision(
                facts_.violation, prior_offenses=counts.get(facts_.player, 0), ruleset=ruleset
            )
            counts[facts_.player] = decision.offense or counts.get(facts_.player, 0)
            if decision.suspended:
                suspended.setdefault(facts_.player, meet.number)
    return suspended


def without_suspended(
    match: MatchFacts, suspended: Mapping[PlayerId, int], meet: int
) -> MatchFacts:
    """With `third_offense_rescore_others`, a suspended player's games count as his forfeits
    up to his suspension, so the others are re-scored without him (A36 alternative)."""
    if not suspended:
        return match
    wiped = {p for p, at in suspended.items() if at >= meet and p in match.players}
    if not wiped:
        return match
    games = tuple(
        replace(
            g,
            scores={p: (None if p in wiped else s) for p, s in g.scores.items()},
            tie_order=tuple(tuple(p for p in o if p not in wiped) for o in g.tie_order),
            compensatory={p: c for p, c in g.compensatory.items() if p not in wiped},
            reduced=g.reduced - wiped,
            zeroed={p: z for p, z in g.zeroed.items() if p not in wiped},
            non_countable=g.non_countable | wiped,
            corrections=tuple(c for c in g.corrections if c.player not in wiped),
        )
        for g in match.games
    )
    return replace(match, games=games)


def without_season_forfeited(
    match: MatchFacts, tallies: Mapping[PlayerId, Tally], ruleset: Ruleset
) -> MatchFacts:
    """R2.5-b, A65: once a game's forfeit is a player's last allowed countable one (the
    ruleset's `season_forfeit_limit`-th, 12th in the rulebook), his later games of
    the match are not played: his score there (if any was recorded) is dropped, the forfeit is
    not countable, and the game is scored among the players who remain (R2.4-c)."""
    games = match.games
    for player in match.players:
        if tallies[player].countable_forfeits + len(games) < ruleset.season_forfeit_limit:
            continue  # even forfeiting every game of the match cannot reach it (R2.5-a)
        countable = [g.scores.get(player) is None and player not in g.non_countable for g in games]
        counted = match_forfeits(tallies[player].countable_forfeits, countable, ruleset=ruleset)
        at = counted.season_forfeit_game
        if at is None:
            continue
        tallies[player].season_forfeited_game = at
        games = tuple(
            _without_player(g, player) if number > at else g
            for number, g in enumerate(games, start=1)
        )
    return replace(match, games=games) if games != match.games else match


def _without_player(game: GameFacts, player: PlayerId) -> GameFacts:
    """The game with `player` taking no part: no score, a forfeit that is not countable."""
    return replace(
        game,
        scores={**game.scores, player: None},
        tie_order=tuple(tuple(p for p in o if p != player) for o in game.tie_order),
        compensatory={p: c for p, c in game.compensatory.items() if p != player},
        reduced=game.reduced - {player},
        zeroed={p: z for p, z in game.zeroed.items() if p != player},
        non_countable=game.non_countable | {player},
        corrections=tuple(c for c in game.corrections if c.player != player),
    )
