"""An official's ruling about one player's turn in one game (§7.5, §7.7, §7.8).

Words:
- *turn*: a player's turn to play in one game of their group's league match.
- *turn ruling*: the official's call about a player's turn, recorded with who, when and why
  (R1.1-b). Whether it happened (play was slow, a bump was a distraction) is the official's
  call: the rules only refuse a ruling that cannot be, about a player with no turn in the
  game. A turn ruling changes no score.
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.rules.checks import check_player, check_unique
from flipwell.rules.errors import about_player
from flipwell.rules.values import PlayerId


@dataclass(frozen=True)
class Turn:
    """A player's turn in a game, as the official's ruling names it.

    group: the players of the game's match. forfeited: those of them who forfeited the game
    (they play no ball of it).
    """

    player: PlayerId
    group: tuple[PlayerId, ...]
    forfeited: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class TurnRuling:
    """What a ruling about a player's turn decides: the rules it applies, in words."""

    player: PlayerId
    rules: tuple[str, ...]
    reason: str


def turn_ruling(turn: Turn, *, rules: tuple[str, ...], reason: str) -> TurnRuling:
    """The ruling about `turn` under `rules`, when the player has a turn in the game: one of
    its group who has not forfeited it. Raises RuleError otherwise, naming the rules."""
    player = check_player(turn.player)
    group = check_unique(turn.group, what="the game's group")
    cited = ", ".join(rules)
    if player not in group:
        raise about_player(
            f"{{player}} does not play in this game's group, so has no turn in it ({cited})",
            player,
        )
    if player in check_unique(turn.forfeited, what="the game's forfeits"):
        raise about_player(
            f"{{player}} forfeited this game, so has no turn in it ({cited})", player
        )
    return TurnRuling(player=player, rules=rules, reason=reason)
