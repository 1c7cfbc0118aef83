"""The §2.5 season forfeit at the edge of the score and forfeit services (R2.5-b, A65).

Words: a player *forfeits the season* at the moment of the countable forfeit that reaches the
league's limit (`Ruleset.season_forfeit_limit`, 12 in the rulebook, R2.5-a), even in the middle
of a night (A65); from then on he plays no game of the season, so a score or a forfeit
entered for him in a later game is refused. The rules decide it (`may_play_game`, from the
season's fold); this module only names the player and says why.
"""

from __future__ import annotations

from collections.abc import Iterable

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.refusals import Refusal
from flipwell.league.services._edge import fold
from flipwell.rules.season import may_play_game
from flipwell.rules.season_values import SeasonResult


def refuse_if_season_forfeited(
    *,
    game: m.Game,
    players: Iterable[int],
    field: str,
    refused: str,
    result: SeasonResult | None = None,
) -> None:
    """ValidationError on `field` when one of `players` forfeited the season before `game`.

    refused: what is not accepted, e.g. "his score" (R2.5-b, A65). result: the season's fold
    when the caller has it (`season_changed` returns it, so a service checks at its end, inside
    its transaction, without folding twice); otherwise the season is folded here.
    """
    ids = list(dict.fromkeys(players))
    if not ids:
        return
    meet = game.group.meet
    if result is None:
        result, _ = fold(meet.season)
    out = [
        (pid, standing)
        for pid in ids
        if (standing := result.players.get(player_key(pid))) is not None
        and not may_play_game(standing, meet=meet.number, game=game.number)
    ]
    if not out:
        return
    pid, standing = out[0]
    player = m.Player.objects.get(pk=pid)
    limit = season_ruleset(meet.season).season_forfeit_limit
    at = f"meet {standing.season_forfeited_at}"
    if standing.season_forfeited_game is not None:
        at = f"game {standing.season_forfeited_game} of {at}"
    raise Refusal(
        {
            field: f"{player} forfeited the season on reaching {limit} countable "
            f"forfeit{'' if limit == 1 else 's'} ({at}) "
            f"and may not play game {game.number} of meet {meet.number}: {refused} is refused; "
            "the game is scored among the players who remain (R2.5-b, A65)."
        },
        code="season_forfeited",
    )
