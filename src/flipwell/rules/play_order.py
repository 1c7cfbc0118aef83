"""The order in which a group's present players play its next game (§5, §5.2).

Words:
- *play order*: the present players of a group in the order they play a game.
- *late player*: a player who arrived after his group began play (§2.3); his *first game* is
  the first game of the match he plays.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from flipwell.rules.errors import RuleError, about_players
from flipwell.rules.match import GAMES_PER_MATCH
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.selection import PlayedGame, check_games, check_players, first_game_played
from flipwell.rules.values import PlayerId


def play_order(
    group: Sequence[PlayerId],
    *,
    games: Sequence[PlayedGame] = (),
    present: Collection[PlayerId] | None = None,
    late: Collection[PlayerId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> list[PlayerId]:
    """The order in which the present players play the group's next game (§5, §5.2).

    group: the group's players in ladder (seeding) order, best first.
    games: the match's finished games so far; empty for game 1.
    present: the players present for this game (default: the whole group).
    late: players who arrived after the group began play (§2.3).
    R5-b, R5.2-a: game 1 in seeding order, highest seed first. R5.2-b: later games in the
    previous game's finishing order. A25: players who did not play the previous game follow,
    in ladder order. R5.2-c: a late player in the first game he plays takes the last position
    (several such players: in ladder order). §4: a match is four games, so once the fourth is
    finished there is no next game and no order: empty (a screen then shows the match's
    result, `night_places`, not the order of a game nobody will play).
    """
    ladder = check_players(group, what="the group")
    played = check_games(games)
    here = ladder if present is None else check_players(present, what="the present players")
    late_players = check_players(late, what="the late players")
    members = set(ladder)
    for who, listed in (("present", here), ("late", late_players)):
        outsiders = [p for p in listed if p not in members]
        if outsiders:
            raise about_players(
                "{players} listed as {who} but not in the group", "players", outsiders, who=who
            )
    for number, game in enumerate(played, start=1):
        outsiders = [p for p in game.order if p not in members]
        if outsiders:
            raise about_players(
                "game {game} lists {players}, who are not in the group",
                "players",
                outsiders,
                game=str(number),
            )
    if (
        ruleset.play_order_returning_players != "after_finishers_in_ladder_order"
    ):  # pragma: no cover
        raise RuleError(
            f"unknown play_order_returning_players {ruleset.play_order_returning_players!r}"
        )
    if len(played) >= GAMES_PER_MATCH:
        return []
    at_game = set(here)
    joining = {p for p in late_players if p in at_game and first_game_played(p, played) is None}
    previous = played[-1].order if played else ()
    finishers = [p for p in previous if p in at_game and p not in joining]
    returning = [p for p in ladder if p in at_game and p not in finishers and p not in joining]
    joiners = [p for p in ladder if p in joining]
    return finishers + returning + joiners
