"""Who may pick a group's next machine now, which machines the §5 rules allow, and why each
other machine of the league may not be chosen: the one answer the API's allowed-machines read,
the official's choose-machine form in the console and the score sheet's next-machine step show,
and the one the machine-choice services refuse a choice from (`flipwell.rules.machine_choices`).

Words:
- *picker*: who may pick now: a player (last place of the previous game, R5-c, A21, A24, A67),
  the official (nobody played the previous game, A66), or nobody, with the reason's code
  (`flipwell.rules.NoPickCode`: the meet is not open, game 1 is drawn, the match has its four
  games, the game in play has no confirmed scores, a compensatory game is awaited).
- *allowed*: the machines the picker may choose (R5-d..g, R4-b, R7.3-r); empty when nobody
  may pick. *refused*: every other machine of the league with its reason's code
  (`flipwell.rules.RefusalCode`), the reason in plain words and the rules behind it; empty
  when nobody may pick (the picker's reason says why nothing can be chosen).

`allowed_machines` runs a fixed number of queries; `meet_allowed_machines` answers every group
of a board with as many.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import absent_at, match_absences
from flipwell.league.adapters.keys import machine_id_of, player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.next_games import machine_states, played_games
from flipwell.league.selectors.meet_board.values import GAMES_PER_MATCH, BoardGroup, MeetBoard
from flipwell.rules import (
    THE_LO,
    MachineState,
    NoPickCode,
    RefusalCode,
    Ruleset,
    machine_choices,
    next_pick,
)

PickerKind = Literal["player", "official", "nobody"]


@dataclass(frozen=True)
class Picker:
    """Who may pick the next machine now: `kind`, the player when it is one, the reason when
    nobody may (`NoPickCode`), why in plain words (`text`, no rule id) and the rules."""

    kind: PickerKind
    player_id: int | None
    player_name: str
    reason: NoPickCode | None
    text: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class MachineOption:
    """A machine the picker may choose."""

    id: int
    title: str


@dataclass(frozen=True)
class RefusedOption:
    """A machine the picker may not choose: the reason's code (`RefusalCode`), the reason in
    plain words (no rule id) and the rules behind it."""

    id: int
    title: str
    code: RefusalCode
    reason: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class AllowedMachines:
    """A group's next machine: who picks, what is allowed, what is refused and why."""

    group_id: int
    group_number: int
    meet_id: int
    game_number: int | None
    """The number of the game the machine is for; None once the match has its four games."""
    picker: Picker
    allowed: tuple[MachineOption, ...]
    refused: tuple[RefusedOption, ...]
    fallback: bool
    """Nothing free was left, so machines in use are allowed (R5-f)."""
    repeats: bool
    """An allowed machine was already played by the group tonight (A22, A53)."""


def allowed_machines(group: m.Group) -> AllowedMachines:
    """`group`'s next machine (see the module's words; a fixed number of queries)."""
    meet = group.meet
    return meet_allowed_machines(meet, meet_board(meet))[group.pk]


def meet_allowed_machines(meet: m.Meet, board: MeetBoard) -> dict[int, AllowedMachines]:
    """Group id -> its next machine, for every group of `board` (`meet`'s board; 4 queries)."""
    loaded = machine_states(meet)
    absences = match_absences([g.id for g in board.groups])
    ruleset = season_ruleset(meet.season)
    open_meet = board.status == m.Meet.Status.OPEN
    return {
        g.id: _group_choices(meet.pk, g, loaded, absences.get(g.id, {}), ruleset, open_meet)
        for g in board.groups
    }


def _group_choices(
    meet_id: int,
    group: BoardGroup,
    loaded: list[tuple[MachineState, str]],
    absent: Mapping[int, int],
    ruleset: Ruleset,
    open_meet: bool,
) -> AllowedMachines:
    """One group's next machine: `next_pick`, then `machine_choices` when someone picks."""
    games = group.games
    played = played_games(games)
    number = len(games) + 1
    pick = next_pick(
        played,
        meet_open=open_meet,
        stored=len(games),
        in_play=bool(games) and not games[-1].confirmed,
        waiting=bool(group.waiting_for),
        late=[player_key(p) for p in group.late],
        absent=[player_key(p) for p in sorted(absent_at(absent, number))],
        ruleset=ruleset,
    )
    answer = AllowedMachines(
        group_id=group.id,
        group_number=group.number,
        meet_id=meet_id,
        game_number=number if number <= GAMES_PER_MATCH else None,
        picker=Picker("nobody", None, "", pick.reason, pick.text, pick.rules),
        allowed=(),
        refused=(),
        fallback=False,
        repeats=False,
    )
    if pick.picker is None:
        return answer
    if pick.picker is THE_LO:
        picker = Picker("official", None, "", None, pick.text, pick.rules)
    else:
        pid = int(str(pick.picker))
        picker = Picker("player", pid, group.names[pid], None, pick.text, pick.rules)
    choices = machine_choices(
        [s for s, _ in loaded],
        group=group.number,
        played=[g.machine for g in played],
        ruleset=ruleset,
    )
    titles = {s.machine: t for s, t in loaded}
    allowed = [MachineOption(machine_id_of(k), titles[k]) for k in choices.allowed.machines]
    refused = [
        RefusedOption(machine_id_of(r.machine), titles[r.machine], r.code, r.text, r.rules)
        for r in choices.refused
    ]
    return replace(
        answer,
        picker=picker,
        allowed=tuple(sorted(allowed, key=_by_title)),
        refused=tuple(sorted(refused, key=_by_title)),
        fallback=choices.allowed.fallback,
        repeats=choices.allowed.repeats,
    )


def _by_title(option: MachineOption | RefusedOption) -> tuple[str, int]:
    return (option.title.casefold(), option.id)
