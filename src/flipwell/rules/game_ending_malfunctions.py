"""A malfunction that ends a game for every player on the machine, and where each player resumes
(§7.3, R7.3-h, R7.3-i, R8.4-c).

Words:
- *catastrophic event*: a game-ending failure (slam tilt, total machine failure or reset, loss
  of power, fire) that gives each player of the game a malfunction on his current turn.
- *next turn*: the turn a player plays next when the game stops on another player's turn.
- *last ball*: a player's last turn of a game: its balls and the allowable extra balls collected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flipwell.rules.checks import check_count, check_player, check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.extra_balls import allowable_extra_balls_collected
from flipwell.rules.malfunctions import GAME_ENDING_REASONS, Malfunction
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId


def catastrophic_event(
    *,
    current_player: PlayerId,
    ball_in_play: bool,
    next_turn: Mapping[PlayerId, int],
    balls_per_game: int,
    extra_balls_collected: Mapping[PlayerId, int] | None = None,
    slammer: PlayerId | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> tuple[Malfunction, ...]:
    """The malfunctions a catastrophic event that ends a game gives each of its players.

    next_turn: for every player in the game, the turn he would play next; for the current
    player, the turn he is on. extra_balls_collected: extra balls each collected in the game;
    only the allowable ones are owed (R7.3-l).
    R7.3-h: every playable turn never launched is a catastrophic malfunction.
    R7.3-i: the current player's ball already in play is a major instead; A32: his later balls
    are catastrophic by default (`ruleset.current_player_remaining_balls`).
    R8.4-a, A32: an intentional slammer gets nothing (he takes the §8.5 penalty instead).
    """
    check_player(current_player)
    if not isinstance(ball_in_play, bool):
        raise RuleError(f"ball_in_play must be True or False, got {ball_in_play!r}")
    if current_player not in next_turn:
        raise about_player(
            "the current player {player} is not among the game's players", current_player
        )
    if slammer is not None:
        check_player(slammer)
    collected = dict(extra_balls_collected or {})
    for player in collected:
        if player not in next_turn:
            raise about_player(
                "{player} collected extra balls but is not among the game's players", player
            )
    malfunctions: list[Malfunction] = []
    for player, turn in next_turn.items():
        check_player(player)
        owed = balls_per_game + allowable_extra_balls_collected(
            balls_per_game=balls_per_game, collected=collected.get(player, 0)
        )
        check_count(turn, what="{player}'s next turn", player=player, minimum=1)
        if turn > owed + 1:
            raise about_player(
                "{player}'s next turn {turn} is beyond their {owed} balls",
                player,
                turn=str(turn),
                owed=str(owed),
            )
        if player == slammer:
            continue
        denied = range(turn, owed + 1)
        if player == current_player and ball_in_play and turn <= owed:
            malfunctions.append(Malfunction(player, turn, "major"))
            if ruleset.current_player_remaining_balls == "no_compensation":
                continue
            denied = range(turn + 1, owed + 1)
        malfunctions.extend(Malfunction(player, t, "catastrophic") for t in denied)
    return tuple(malfunctions)


def ends_the_game(reason: str) -> bool:
    """Whether a malfunction of this reason ends the game for every player on the machine:
    total failure or reset, power loss, fire (R7.3-h) or a slam tilt (R8.4-c)."""
    return reason in GAME_ENDING_REASONS


def next_turns(
    play_order: Sequence[PlayerId],
    *,
    current_player: PlayerId,
    turn: int,
    balls_per_game: int | None = None,
    extra_balls_collected: Mapping[PlayerId, int] | None = None,
) -> dict[PlayerId, int]:
    """Each player's next turn when a game stops on `current_player`'s `turn` (R7.3-h, R7.3-i).

    Players before him in the play order have played that turn and are next on turn + 1; he
    and the players after him are on `turn`. With `balls_per_game`, no other player's next
    turn is past their last ball + 1 (`last_ball`: he had played them all), as when the game
    stops on an extra ball. Which ball an extra ball was is not foreseen: the LO adjusts a
    player's turn himself. This is `catastrophic_event`'s `next_turn` by default.
    """
    order = check_unique(play_order, what="the play order")
    check_player(current_player)
    check_count(turn, what="turn", minimum=1)
    if current_player not in order:
        raise about_player(
            "the current player {player} is not in the game's play order", current_player
        )
    at = order.index(current_player)
    turns = {p: turn + 1 if i < at else turn for i, p in enumerate(order)}
    if balls_per_game is None:
        return turns
    collected = extra_balls_collected or {}
    return {
        p: n
        if p == current_player
        else min(n, last_ball(balls_per_game, extra_balls_collected=collected.get(p, 0)) + 1)
        for p, n in turns.items()
    }


def last_ball(balls_per_game: int, *, extra_balls_collected: int = 0) -> int:
    """A player's last turn of a game: its balls and the allowable extra balls they collected
    (R7.1-a, R7.3-l); an unallowable (one-handed) extra ball is not a turn owed."""
    check_count(balls_per_game, what="balls per game", minimum=1)
    return balls_per_game + allowable_extra_balls_collected(
        balls_per_game=balls_per_game, collected=extra_balls_collected
    )
