"""A game voided and restarted for a wrong number of games started on its machine (§8.6).

Words:
- *games started*: the games the machine counts for the players present; a count that can be
  fixed on the machine is no restart (R8.6-a, R8.6-b).
- the *responsible* player pays one game per player present (R8.6-d, A60), a ledger entry
  ``restart_charge``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import forfeited_in
from flipwell.league.notices import RestartFacts
from flipwell.league.refusals import ConflictError
from flipwell.league.services._edge import (
    group_player_ids,
    locked_game,
    open_meet,
    require_member,
    rules_edge,
)
from flipwell.league.services._protocol import Write, official_write
from flipwell.league.services.ledger import record_ledger_entry
from flipwell.rules.game_counts import check_restart_needed, restart_charge

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class RecordedRestart:
    """A voided and restarted game (R8.6-c) and the responsible player's charge (R8.6-d)."""

    restart: m.GameRestart
    charge: m.LedgerEntry | None


def record_game_restart(
    *,
    game: m.Game,
    responsible: m.Player,
    games_started: int,
    game_price_cents: int,
    actor: User,
    more_games_possible: bool = False,
    note: str = "",
) -> RecordedRestart:
    """A machine has the wrong number of games started and it cannot be fixed: the game is
    voided and restarted on the same machine, the responsible player paying one game per
    player present (R8.6-c, R8.6-d, A60), as a ``restart_charge``. A count that can be fixed
    on the machine is refused (`check_restart_needed`: R8.6-a, R8.6-b), and so is a game with
    confirmed scores. Audited ``game.restarted``; the responsible player is sent a notice.
    """
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="record a game restart",
        season=meet.season,
        field="games_started",
    ) as write:
        game = locked_game(game)
        group, meet = game.group, game.group.meet
        open_meet(meet, doing="record a game restart")
        write.only_meets(meet)
        members = group_player_ids(group)
        require_member(responsible, members, field="responsible", group=group)
        players = _players_present(game, members)
        check_restart_needed(
            games_started=games_started, players=players, more_games_possible=more_games_possible
        )
        with rules_edge("game_price_cents", code="invalid_price"):
            amount = restart_charge(players=players, game_price=game_price_cents)
        charge = _charge_restart(game, responsible, players, amount, actor) if amount else None
        restart = m.GameRestart.objects.create(
            game=game,
            responsible=responsible,
            games_started=games_started,
            players=players,
            charge=charge,
            note=note.strip(),
            official=actor,
        )
        write.event("game.restarted", restart, _restart_data(restart, amount))
        _notify_responsible(write, restart, amount)
    return RecordedRestart(restart=restart, charge=charge)


def _charge_restart(
    game: m.Game, responsible: m.Player, players: int, amount: int, actor: User
) -> m.LedgerEntry:
    """The responsible player's ``restart_charge``: every player's game (R8.6-d)."""
    group = game.group
    meet = group.meet
    return record_ledger_entry(
        league=meet.season.league,
        kind="restart_charge",
        account="kitty",
        amount_cents=amount,
        season=meet.season,
        player=responsible,
        note=f"restart of meet {meet.number} group {group.number} game {game.number} "
        f"for {players} players (R8.6-d)",
        actor=actor,
    )


def _notify_responsible(write: Write, restart: m.GameRestart, amount: int) -> None:
    """The responsible player's notice of the restart and its charge (R8.6-c, R8.6-d), as
    facts (`flipwell.web.words.violations` words them)."""
    game = restart.game
    meet = game.group.meet
    about = RestartFacts(
        meet=meet.number,
        group=game.group.number,
        game=game.number,
        games_started=restart.games_started,
        players=restart.players,
        charge_cents=amount,
        reason=restart.note,
    )
    key = f"restart:{restart.pk}"
    write.notice_of(player=restart.responsible, meet=meet, key=key, about=about)


def _players_present(game: m.Game, members: list[int]) -> int:
    """How many of the group play the game (A60: less its forfeits); refused once the game's
    scores are confirmed (R8.6-c: a wrong count is fixed while the game is played)."""
    if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
        raise ConflictError(
            {
                "game": f"Game {game.number} has confirmed scores: a wrong game count is "
                "fixed while the game is played (R8.6-c)."
            },
            code="game_already_confirmed",
        )
    forfeited = forfeited_in(game)
    return len([p for p in members if p not in forfeited])


def _restart_data(restart: m.GameRestart, amount: int) -> dict[str, object]:
    return {
        "game": restart.game_id,
        "responsible": restart.responsible_id,
        "games_started": restart.games_started,
        "players": restart.players,
        "charge_cents": amount,
    }
