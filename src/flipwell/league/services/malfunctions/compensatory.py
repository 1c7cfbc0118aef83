"""Compensatory games (R7.3-k..o, RA-b, A31): granting one, and recording its score.

Words:
- a *request* is the player's ask for a compensatory game at the trigger, before play
  continued; the rules grant it with its number of balls (R7.3-k, R7.3-l).
- the *subtractions* from its displayed score (the leading and state points, R7.3-n, R7.3-o)
  are the LO's decisions, each a Ruling ``compensatory_subtraction``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import serious_malfunctions
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import (
    game_subject,
    group_player_ids,
    locked_game,
    open_meet,
    require_member,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import Write, official_write
from flipwell.rules.compensatory_games import request_compensatory_game as grant_compensatory_game
from flipwell.rules.malfunctions import Malfunction

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def request_compensatory_game(
    *, game: m.Game, player: m.Player, play_continued: bool = False, actor: User
) -> m.CompensatoryRequest:
    """Grant `player` a compensatory game on `game` (R7.3-k, R7.3-l, RA-b, A31).

    He must have two majors or one catastrophic malfunction in the game, and ask at the
    trigger, before play continued (`play_continued` as the LO attests). The group waits for
    the game (R7.3-p) until its score is recorded.

    Side effects: a CompensatoryRequest (with its number of balls), an audit event
    ``compensatory.requested``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError without entitlement, too late, for a repeat or a meet that is not open.
    """
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="grant a compensatory game",
        season=meet.season,
    ) as write:
        game = locked_game(game)
        open_meet(game.group.meet, doing="grant a compensatory game")
        write.only_meets(game.group.meet)
        require_member(player, group_player_ids(game.group), field="player", group=game.group)
        serious = serious_malfunctions(game)
        return record_grant(write, game, player, serious, play_continued=play_continued)


def record_compensatory_game(
    *,
    game: m.Game,
    player: m.Player,
    new_score: int,
    leading_subtracted: int = 0,
    state_subtracted: int = 0,
    reason: str = "",
    actor: User,
) -> m.CompensatoryGame:
    """Record the displayed score of a granted compensatory game (R7.3-m, R7.3-n, R7.3-o).

    His final score is original + new − leading − state, computed by the rules when the
    standings are read. Subtractions are the LO's decisions (R7.3-n, R7.3-o) and need a
    `reason` (a Ruling). Refused without a granted request (R7.3-k, RA-b).

    Side effects: a CompensatoryGame, a Ruling for subtractions, an audit event
    ``compensatory.recorded``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError without a granted request, for a repeat, a negative amount, or a meet
    that is not open (or a score the season's fold refuses: no score to add to).
    """
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="record a compensatory game",
        season=meet.season,
    ) as write:
        game = locked_game(game)
        open_meet(game.group.meet, doing="record a compensatory game")
        write.only_meets(game.group.meet)
        _check_compensatory_owed(game, player)
        amounts = _amounts(
            new_score=new_score,
            leading_subtracted=leading_subtracted,
            state_subtracted=state_subtracted,
        )
        subtracted = bool(leading_subtracted or state_subtracted)
        why = _subtraction_reason(write, game, player, reason, subtracted=subtracted)
        compensatory = m.CompensatoryGame.objects.create(
            game=game, player=player, official=actor, **amounts
        )
        data = {"game": game.pk, "player": player.pk, **amounts, "reason": why}
        write.event("compensatory.recorded", compensatory, data)
    return compensatory


def _subtraction_reason(
    write: Write, game: m.Game, player: m.Player, reason: str, *, subtracted: bool
) -> str:
    """The official's reason; points subtracted are their ruling and need one (R7.3-n,
    R7.3-o), recorded by `write`."""
    if not subtracted:
        return reason.strip()
    why = require_reason(reason, field="reason", what="Subtracting points (R7.3-n, R7.3-o)")
    write.ruling(
        kind="compensatory_subtraction",
        subject=game_subject(game, player),
        reason=why,
        affected=group_player_ids(game.group),
        player=player,
        game=game,
    )
    return why


def _check_compensatory_owed(game: m.Game, player: m.Player) -> None:
    """A compensatory game is recorded once, after it was granted (R7.3-k, RA-b)."""
    if not m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
        raise Refusal(
            {
                "player": f"{player} was not granted a compensatory game in this game: it "
                "needs 2 major or 1 catastrophic malfunction, requested at the trigger "
                "(R7.3-k, RA-b)."
            },
            code="compensatory_not_granted",
        )
    if m.CompensatoryGame.objects.filter(game=game, player=player).exists():
        raise ConflictError(
            {"player": f"{player}'s compensatory game is recorded."},
            code="compensatory_game_already_recorded",
        )


def _amounts(**amounts: int) -> dict[str, int]:
    """The amounts as given, each refused unless a whole number of 0 or more."""
    for field, amount in amounts.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise Refusal(
                {field: f"Must be a whole number of 0 or more, not {amount!r}."},
                code="invalid_amount",
            )
    return amounts


def record_grant(
    write: Write,
    game: m.Game,
    player: m.Player,
    serious: list[Malfunction],
    *,
    play_continued: bool,
) -> m.CompensatoryRequest:
    """Record `player`'s compensatory game request, as the rules grant it (R7.3-k, R7.3-l)."""
    if m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
        raise ConflictError(
            {"player": f"{player}'s compensatory game is already granted."},
            code="compensatory_already_granted",
        )
    with rules_edge("player", code="compensatory_not_owed"):
        granted = grant_compensatory_game(
            serious,
            player=player_key(player.pk),
            play_continued=play_continued,
            ruleset=season_ruleset(game.group.meet.season),
        )
    request = m.CompensatoryRequest.objects.create(
        game=game, player=player, balls=granted.balls, official=write.actor
    )
    data = {"game": game.pk, "player": player.pk, "balls": granted.balls}
    write.event("compensatory.requested", request, data)
    return request
