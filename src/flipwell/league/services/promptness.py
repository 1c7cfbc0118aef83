"""Gameplay promptness (§7.5): the official's slow-play warning.

Words: a *slow-play warning* is a `Ruling` about one player in one game (kind
``Ruling.SLOW_PLAY_WARNING``): the player did not begin play promptly, so the official plunged
their ball and they may not play it (R7.5-a). It changes no score; the season still gets a
new revision, because the player's pages show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters import player_key
from flipwell.league.incident_words import slow_play_notice, slow_play_subject
from flipwell.league.services._edge import PlayerRef, ref_id, require_reason
from flipwell.league.services._protocol import official_write
from flipwell.rules import Turn, slow_play_warning

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_slow_play_warning(
    *, game: m.Game, player: PlayerRef, reason: str, actor: User
) -> m.Ruling:
    """A league official plunged the ball of `player` (a row or its id), who did not begin
    play promptly in `game`, and says why (R7.5-a). Refused unless the meet is open and the
    player has a turn in the game: one of its group who has not forfeited it
    (`slow_play_warning`).

    Side effects: the Ruling about the player in the game (who, when, why; the official is
    flagged when they play in that group, A55), the audit event ``ruling.slow_play_warning``
    and a notice to the player. Returns the Ruling.
    """
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="record a slow-play warning",
        season=meet.season,
        field="player",
    ) as write:
        meet = write.open_meet(meet, doing="record a slow-play warning")
        why = require_reason(reason, field="reason", what="A slow-play warning")
        members = {row.player_id: row.player for row in game.group.members.select_related("player")}
        forfeited = m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True)
        warning = slow_play_warning(
            Turn(
                player=player_key(ref_id(player)),
                group=tuple(player_key(pk) for pk in members),
                forfeited=tuple(player_key(pk) for pk in forfeited),
            )
        )
        warned = members[ref_id(player)]
        write.ruling(
            kind=m.Ruling.SLOW_PLAY_WARNING,
            subject=slow_play_subject(game, warned),
            reason=why,
            affected=list(members),
            player=warned,
            game=game,
        )
        write.refold()  # records the ruling: the event and the notice name it
        ruling = write.recorded[-1]
        data = {"game": game.pk, "player": warned.pk, "reason": why, "rules": list(warning.rules)}
        write.event("ruling.slow_play_warning", ruling, data)
        what, details = slow_play_notice(game)
        write.notice(
            player=warned,
            meet=meet,
            key=f"slow_play:{ruling.pk}",
            what=what,
            details=details,
            reason=why,
        )
    return ruling
