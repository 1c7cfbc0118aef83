"""Gameplay promptness (§7.5): the slow-play warning.

Words:
- *turn*: a player's turn to play a ball in one game of their group's league match.
- *slow-play warning*: an official's ruling that a player did not begin their turn in a
  reasonable time, so the official plunged that ball for them and they may not play it
  (R7.5-a). Whether play was slow is the official's call (the rulebook sets no time): these
  rules only refuse a warning that cannot be, about a player who has no turn in the game.
  It changes no score: the plunged ball's score is whatever the machine shows.
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.rules.checks import check_player, check_unique
from flipwell.rules.errors import about_player
from flipwell.rules.values import PlayerId


@dataclass(frozen=True)
class Turn:
    """A player's turn in a game, as the official's warning names it.

    group: the players of the game's match. forfeited: those of them who forfeited the game
    (they play no ball of it).
    """

    player: PlayerId
    group: tuple[PlayerId, ...]
    forfeited: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class SlowPlayWarning:
    """What a slow-play warning does (R7.5-a): the ball is plunged, and not played."""

    player: PlayerId
    rules: tuple[str, ...]
    reason: str


def slow_play_warning(turn: Turn) -> SlowPlayWarning:
    """R7.5-a: a player who does not begin play promptly may have their ball plunged by the
    LO, and may not play it. The player must have a turn in the game: one of its group
    (a league match), who has not forfeited it. Raises RuleError otherwise."""
    player = check_player(turn.player)
    group = check_unique(turn.group, what="the game's group")
    if player not in group:
        raise about_player(
            "{player} does not play in this game's group, so has no turn in it (R7.5-a)",
            player,
        )
    if player in check_unique(turn.forfeited, what="the game's forfeits"):
        raise about_player(
            "{player} forfeited this game, so has no turn in it to begin (R7.5-a)", player
        )
    return SlowPlayWarning(
        player=player,
        rules=("R7.5-a",),
        reason="the official plunged the ball for not beginning play promptly; it is not played",
    )
