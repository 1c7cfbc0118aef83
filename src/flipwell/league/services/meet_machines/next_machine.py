"""Choosing a group's next machine (§5): by the picker, or by the LO when nobody may pick.

Words:
- the *picker* is the player who chooses the next game's machine (`machine_picker`: R5-c, A21,
  R5.2-d, A24); when nobody played the previous game, nobody picks and the LO chooses or draws
  it (A66).
- *play order*: the order the group's players play the game (`play_order`, R5.2-b, R5.2-c).
- *fallback*: no free machine was left, so the in-use restriction was lifted (R5-f).
- *repeat*: a machine the group already played tonight (A22, A53).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import absent_at, match_absences
from flipwell.league.adapters.keys import machine_id_of, machine_key, player_key
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.meet_board.board import group_games
from flipwell.league.selectors.meet_board.next_games import (
    late_players_and_open_compensatory,
    machine_states,
    played_games,
)
from flipwell.league.selectors.meet_board.values import GAMES_PER_MATCH
from flipwell.league.services._edge import (
    MeetHold,
    fold,
    group_player_ids,
    hold_machine_choices,
    hold_meet,
    league_changed,
    open_meet,
    rules_edge,
)
from flipwell.league.services._protocol import Actor, league_write, official_write
from flipwell.league.services.meets.start import SEED_LIMIT
from flipwell.rules import Ruleset
from flipwell.rules.compensatory_games import OpenGame, check_next_game_may_start
from flipwell.rules.machine_choices import check_machine_choice, selectable_machines
from flipwell.rules.machine_draws import draw_machine
from flipwell.rules.play_order import play_order
from flipwell.rules.selection import PlayedGame, machine_picker, pick_verdict

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class NextGame:
    """The group's next game and its play order (player ids, first to play first)."""

    game: m.Game
    play_order: tuple[int, ...]
    fallback: bool
    """No free machine was left, so the in-use restriction was lifted (R5-f)."""
    repeat: bool
    """The machine was already played by the group tonight (allowed only when no playable
    unplayed machine is left, A22, A53)."""


def choose_next_machine(
    *, group: m.Group, machine: m.Machine, chosen_by: m.Player, actor: User | None = None
) -> NextGame:
    """The picker chooses the machine of his group's next game (§5).

    Who picks: `machine_picker` (R5-c, A21: last place among those who played the previous
    game; R5.2-d, A24: not a late joiner after his first game). Which machines: R5-d..g, R4-b,
    R7.3-r via `check_machine_choice` (a machine is in use while a game on it has no
    confirmed scores). The previous game must have confirmed scores and no compensatory game
    may be open (R7.3-p). Play order: `play_order` (R5.2-b, R5.2-c, A25). The meet's groups
    check their choices at once; they take turns only to read the machines and take one
    (`hold_machine_choices`).

    Side effects: inserts the Game (chosen_by) and an audit event ``game.machine_chosen``;
    the league's new revision (the season is not folded: the game has no score yet).
    Raises ValidationError (nothing written) when the meet is not open, the match is over,
    the previous game is unconfirmed, the group waits for a compensatory game, `chosen_by`
    is not the picker, or the machine is not allowed (code ``machine_not_allowed``: the
    machine's refusal in `flipwell.rules.machine_choices`, as the selector
    `allowed_machines` lists it, and the allowed ones);
    ConflictError (code ``official_chooses``) when nobody played the previous game (A66).
    """
    season = group.meet.season
    # The picker chooses through the sheet (`actor`: whoever records it for him, if anyone):
    # `_next_game` checks that `chosen_by` may pick.
    with league_write(
        league=season.league, actor=Actor.player(actor), action="choose the next machine"
    ) as write:
        group = locked_group(group)
        chosen, data = _next_game(group=group, machine=machine, chosen_by=chosen_by)
        write.event("game.machine_chosen", chosen.game, data)
    return chosen


def official_chooses_next_machine(
    *, group: m.Group, machine: m.Machine | None, seed: int | None = None, actor: User
) -> NextGame:
    """The LO chooses or draws the machine of a group's next game when nobody may pick (A66).

    Nobody played the previous game (every player forfeited it), so R5-c names no picker and
    `machine_picker` returns the LO (`nobody_may_pick`, A66). `machine` None: the machine is
    drawn at random among those the §5 rules allow (`draw_machine`, as R5-a, A61), from
    `seed` (default: a fresh one), recorded in the audit event. A chosen machine is checked as
    any pick is (R5-d..g, R4-b, R7.3-r).

    Side effects: inserts the Game (chosen_by null) and an audit event
    ``game.machine_chosen`` (by_official, drawn, seed). Raises PermissionDenied unless `actor`
    is a league official; ConflictError (code ``player_picks``) when a player may pick; the
    errors of `choose_next_machine` otherwise.
    """
    with official_write(
        league=group.meet.season.league, actor=actor, action="choose a group's next machine"
    ) as write:
        group = locked_group(group)
        chosen, data = _next_game(group=group, machine=machine, chosen_by=None, seed=seed)
        write.event("game.machine_chosen", chosen.game, data)
    return chosen


def locked_group(group: m.Group) -> m.Group:
    """`group` re-read and locked for the write, with its meet, season and league; its meet
    held first, shared with the meet's other score writes (`MeetHold.SCORES`)."""
    hold_meet(MeetHold.SCORES, group=group.pk)
    return (
        m.Group.objects.select_for_update(of=("self",))
        .select_related("meet__season__league")
        .get(pk=group.pk)
    )


@dataclass(frozen=True)
class _Pick:
    """What the pick of a group's next game is decided from (§5): the game's number, the
    match's finished games, the group's late players (§2.3) and the league's ruleset."""

    number: int
    played: list[PlayedGame]
    late: list[str]
    ruleset: Ruleset
    absent: list[str]
    """The players absent for the rest of the match at the next game (R2.4-a)."""


def _next_game(
    *,
    group: m.Group,
    machine: m.Machine | None,
    chosen_by: m.Player | None,
    seed: int | None = None,
) -> tuple[NextGame, dict[str, object]]:
    """The next game of locked `group`, chosen by the picker (`chosen_by`) or by the LO
    (None), stored; with its audit data (``game.machine_chosen``)."""
    by_official = chosen_by is None
    open_meet(group.meet, doing="choose a machine")
    pick = _pick_facts(group)
    _check_picker(group, pick, chosen_by=chosen_by)
    if machine is not None and machine.league_id != group.meet.season.league_id:
        raise Refusal(
            {"machine": f"{machine} is not a machine of this league."}, code="machine_not_in_league"
        )
    machine, draw_seed, fallback = _machine_to_play(group, pick, machine=machine, seed=seed)
    game = m.Game.objects.create(
        group=group, number=pick.number, machine=machine, chosen_by=chosen_by
    )
    members = [player_key(p) for p in group_player_ids(group)]
    present = [p for p in members if p not in pick.absent]  # R2.4-a: gone, no turn
    with rules_edge(code="play_order_refused"):
        order = play_order(
            members, games=pick.played, present=present, late=pick.late, ruleset=pick.ruleset
        )
    repeat = machine_key(machine.pk, machine.title) in {g.machine for g in pick.played}
    data: dict[str, object] = {
        "group": group.pk,
        "number": pick.number,
        "machine": machine.pk,
        "chosen_by": None if chosen_by is None else chosen_by.pk,
        "fallback": fallback,
        "repeat": repeat,
    }
    if by_official:
        data.update(by_official=True, drawn=draw_seed is not None, seed=draw_seed)
    order_ids = tuple(int(p) for p in order)
    # A game without confirmed scores is no fact of the season's fold (R3-a): the season
    # keeps its fold; the league's new revision (standings part kept) shows the game.
    league_changed(group.meet.season.league_id)
    return NextGame(game=game, play_order=order_ids, fallback=fallback, repeat=repeat), data


def _pick_facts(group: m.Group) -> _Pick:
    """The facts the next pick is decided from; refused when the match is over (R4-b), the
    previous game is unconfirmed (R5-c) or a compensatory game is open (R7.3-p)."""
    games = list(group.games.order_by("number"))
    if len(games) >= GAMES_PER_MATCH:
        raise ConflictError(
            f"Group {group.number} has played its {GAMES_PER_MATCH} games (R4-b).",
            code="match_complete",
        )
    result, ruleset = fold(group.meet.season)
    board_games = group_games(group, result)
    if board_games and not board_games[-1].confirmed:
        raise ConflictError(
            f"Game {board_games[-1].number} of group {group.number} has no confirmed "
            "scores yet: the next machine is chosen after it (R5-c).",
            code="game_not_confirmed",
        )
    late_by_group, compensatory = late_players_and_open_compensatory(group.meet)
    waiting = compensatory.get(group.pk, [])
    with rules_edge(code="compensatory_game_waiting", conflict=True):
        check_next_game_may_start([OpenGame(player_key(p), "compensatory") for p in waiting])
    late = [player_key(p) for p in late_by_group.get(group.pk, frozenset())]
    number = len(games) + 1
    gone = absent_at(match_absences([group.pk]).get(group.pk, {}), number)
    absent = [player_key(p) for p in sorted(gone)]
    return _Pick(number, played_games(board_games), late, ruleset, absent)


def _check_picker(group: m.Group, pick: _Pick, *, chosen_by: m.Player | None) -> None:
    """Refuse a pick by anyone but the picker (R5-c, A21, A24), an official's pick while a
    player may pick, and a player's when nobody may (A66): `pick_verdict`."""
    by_official, number = chosen_by is None, pick.number
    with rules_edge("machine" if by_official else "chosen_by", code="not_the_picker"):
        picker = machine_picker(
            pick.played, late=pick.late, absent=pick.absent, ruleset=pick.ruleset
        )
    chooser = None if chosen_by is None else player_key(chosen_by.pk)
    verdict = pick_verdict(picker, by_official=by_official, chosen_by=chooser)
    if verdict == "official_chooses":
        raise Refusal(
            f"Nobody played game {number - 1} of group {group.number}, so no player picks "
            f"the machine for game {number}: the official chooses or draws it (R5-c, A66).",
            code="official_chooses",
        )
    if verdict == "picks":
        return
    name = m.Player.objects.get(pk=int(str(picker)))
    if verdict == "player_picks":
        raise Refusal(
            f"{name} picks the machine for game {number} of group {group.number} "
            f"(last place among those who played game {number - 1}, R5-c, A21): the "
            "official chooses only when nobody played the previous game (A66).",
            code="player_picks",
        )
    raise Refusal(
        {
            "chosen_by": f"{name} picks the machine for game {number} of group "
            f"{group.number} (last place among those who played game {number - 1}, "
            f"R5-c, A21, A24), not {chosen_by}."
        },
        code="not_the_picker",
    )


def _machine_to_play(
    group: m.Group, pick: _Pick, *, machine: m.Machine | None, seed: int | None
) -> tuple[m.Machine, int | None, bool]:
    """The next game's machine (drawn from `seed` when `machine` is None, A66), the draw's
    seed (None when chosen) and whether the in-use restriction was lifted (R5-f); refused
    when the §5 rules do not allow it. The meet's machines are read one write at a time."""
    hold_machine_choices(group.meet_id)
    states = [s for s, _ in machine_states(group.meet)]
    played = [g.machine for g in pick.played]
    draw_seed: int | None = None
    if machine is None:
        draw_seed = seed_or_fresh(seed)
        with rules_edge("machine", code="no_machine_left"):
            options = selectable_machines(
                states, group=group.number, played=played, ruleset=pick.ruleset
            )
            drawn = draw_machine(options.machines, seed=draw_seed)
        machine = m.Machine.objects.get(pk=machine_id_of(drawn))
    # The refusal is the machine's in `machine_choices`, the list allowed_machines shows.
    with rules_edge("machine", code="machine_not_allowed"):
        selection = check_machine_choice(
            machine_key(machine.pk, machine.title),
            states,
            group=group.number,
            played=played,
            ruleset=pick.ruleset,
        )
    return machine, draw_seed, selection.fallback


def seed_or_fresh(seed: int | None) -> int:
    """`seed`, or a fresh random one, for a draw (A66, as R5-a, A61)."""
    chosen = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    if not 0 <= chosen < SEED_LIMIT:
        raise Refusal(
            {"seed": f"A seed is a whole number from 0 to {SEED_LIMIT - 1}."}, code="invalid_seed"
        )
    return chosen
