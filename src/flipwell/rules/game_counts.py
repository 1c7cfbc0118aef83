"""A machine with the wrong number of games started for a group (§8.6).

Words:
- *game count*: the games a machine has started for a group, against one per player.
- *outcome*: what fixes a wrong count: plunge the extra games, start more, or void the game and
  restart it when the count cannot be fixed on the machine (R8.6-c).
- *restart charge*: what the player responsible for a wrong count pays for a restart
  (R8.6-c, R8.6-d).
"""

from __future__ import annotations

from typing import Literal

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.violations import check_flag

GameCountOutcome = Literal["correct", "plunge_extra_games", "start_more_games", "void_and_restart"]


def game_count_outcome(
    *, games_started: int, players: int, more_games_possible: bool = True
) -> GameCountOutcome:
    """What to do when a machine has the wrong number of games started for the group (§8.6).

    players: the players present for the game (A60). R8.6-a: too many: plunge the extra
    games' balls unplayed. R8.6-b: too few: start more games if the machine allows it.
    R8.6-c: otherwise end the game, void every score and restart on the same machine.
    """
    check_count(games_started, what="games started", minimum=1)
    check_count(players, what="players", minimum=1)
    check_flag(more_games_possible, "more_games_possible")
    if games_started == players:
        return "correct"
    if games_started > players:
        return "plunge_extra_games"
    return "start_more_games" if more_games_possible else "void_and_restart"


_NO_RESTART = {
    "correct": "that is the right number: nothing to restart",
    "plunge_extra_games": "plunge the extra games' balls unplayed; nothing more is done (R8.6-a)",
    "start_more_games": "start more games on the machine; nothing more is done (R8.6-b)",
}


def check_restart_needed(*, games_started: int, players: int, more_games_possible: bool) -> None:
    """R8.6-c: a game is voided and restarted only when the count cannot be fixed on the
    machine (`game_count_outcome`); otherwise RuleError saying what to do instead (R8.6-a,
    R8.6-b)."""
    outcome = game_count_outcome(
        games_started=games_started, players=players, more_games_possible=more_games_possible
    )
    if outcome != "void_and_restart":
        raise RuleError(f"{games_started} games for {players} players: {_NO_RESTART[outcome]}")


def restart_charge(*, players: int, game_price: int) -> int:
    """What the player responsible for a wrong game count pays for a restart (R8.6-c, R8.6-d).

    The cost of restarting the game for all players: one game price per player.
    """
    check_count(players, what="players", minimum=1)
    check_count(game_price, what="game price")
    return players * game_price
