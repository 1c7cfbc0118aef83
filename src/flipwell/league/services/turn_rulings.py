"""An official's ruling about one player's turn in one game (a slow-play warning, ...).

Words: a *turn ruling* is a `Ruling` naming a player and a game; its kinds and their rules
are `flipwell.league.turn_rulings.KINDS` (their words: `flipwell.web.words.turn_rulings`). No
kind changes a number (a slow-play warning plunges a ball, R7.5-a; a distraction ruling makes
no allowance, R7.7-a, R7.8-a): the write names no season and folds nothing; the league gets a
new revision, because the player's pages show the ruling (read from the rulings, not the fold).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import forfeited_in
from flipwell.league.adapters.keys import player_key
from flipwell.league.notices import TurnRulingFacts
from flipwell.league.refusals import Refusal
from flipwell.league.services._edge import PlayerRef, league_changed, ref_id, require_reason
from flipwell.league.services._protocol import official_write
from flipwell.league.turn_rulings import KINDS, TurnRulingKind
from flipwell.rules import Turn

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_turn_ruling(
    *, kind: str, game: m.Game, player: PlayerRef, reason: str, actor: User
) -> m.Ruling:
    """A league official's ruling of `kind` (a key of `KINDS`) about the turn of `player` (a
    row or its id) in `game`, saying why. Refused unless the meet is open and the kind's
    rules function accepts it (the player has a turn in the game: one of its group who has
    not forfeited it).

    Side effects: the Ruling about the player in the game (who, when, why; the official is
    flagged when they play in that group, A55), the audit event ``ruling.<kind>`` and a
    notice to the player. Returns the Ruling.
    """
    entry = _kind(kind)
    meet = game.group.meet
    doing = f"record a {entry.name.lower()}"
    with official_write(
        league=meet.season.league, actor=actor, action=doing, field="player"
    ) as write:
        meet = write.open_meet(meet, doing=doing)
        why = require_reason(reason, field="reason", what=f"A {entry.name.lower()}")
        members = {row.player_id: row.player for row in game.group.members.select_related("player")}
        decided = entry.decide(_turn(game, ref_id(player), members))
        ruled = members[ref_id(player)]
        write.ruling(
            kind=entry.kind,
            subject=entry.subject(game, ruled),
            reason=why,
            affected=list(members),
            player=ruled,
            game=game,
        )
        write.record_rulings()  # the event and the notice name the ruling
        league_changed(meet.season.league_id)  # the player's pages show it
        ruling = write.recorded[-1]
        data = {"game": game.pk, "player": ruled.pk, "reason": why, "rules": list(decided.rules)}
        write.event(f"ruling.{entry.kind}", ruling, data)
        about = TurnRulingFacts(
            kind=entry.kind,
            meet=meet.number,
            group=game.group.number,
            game=game.number,
            machine=game.machine.title,
            reason=why,
        )
        write.notice_of(player=ruled, meet=meet, key=f"{entry.kind}:{ruling.pk}", about=about)
    return ruling


def _kind(kind: str) -> TurnRulingKind:
    if kind not in KINDS:
        known = ", ".join(KINDS)
        raise Refusal(
            {"kind": f"There is no ruling of kind {kind!r}: choose {known}."},
            code="unknown_ruling_kind",
        )
    return KINDS[kind]


def _turn(game: m.Game, player: int, members: dict[int, m.Player]) -> Turn:
    """The player's turn in `game`, as the rules read it: the group, and who forfeited."""
    forfeited = sorted(forfeited_in(game))
    return Turn(
        player=player_key(player),
        group=tuple(player_key(pk) for pk in members),
        forfeited=tuple(player_key(pk) for pk in forfeited),
    )
