"""Who picks a group's next machine at a regular meet (§5, §5.2, A66), and §5's checks.

Words:
- *machine*: one pinball machine of the meet's location, named by a non-empty string.
- *group number*: a group's place in the meet's ladder, 1 = the top group (§4.2).
- *played game*: a finished game of a group's match: its machine, the finishing order of the
  players who played it (forfeiters are not in it) and who picked the machine (None when the
  machine was randomly assigned, as game 1 is).
- *late player*: a player who arrived after his group began play (§2.3); his *first game* is
  the first game of the match he plays.
- *picker*: the player who picks the group's next machine, or `THE_LO` when no player may.
- *seed*: here, the integer that seeds `random.Random` for a draw; recording it makes the draw
  reproducible (A61). Not to be confused with a player's seed (ladder position).

The draws are `machine_draws`', the allowed machines `machine_choices`', a replacement
`machine_replacement`'s and the play order `play_order`'s.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from flipwell.rules.checks import check_count, check_player, check_unique
from flipwell.rules.errors import RuleError
from flipwell.rules.match import GAMES_PER_MATCH
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

MachineId = str


def check_machine(machine: object) -> MachineId:
    """A machine identifier: a non-empty string."""
    if not isinstance(machine, str) or not machine.strip():
        raise RuleError(f"machine must be a non-empty string, got {machine!r}")
    return machine


def check_machines(machines: Collection[MachineId], *, what: str) -> list[MachineId]:
    if isinstance(machines, str):
        raise RuleError(f"{what} must be a list of machines, not the string {machines!r}")
    listed = list(machines)
    for machine in listed:
        check_machine(machine)
    return check_unique(listed, what=what)


def check_players(players: Collection[PlayerId], *, what: str) -> list[PlayerId]:
    if isinstance(players, str):
        raise RuleError(f"{what} must be a list of players, not the string {players!r}")
    return check_unique(list(players), what=what)


def check_seed(seed: object) -> int:
    return check_count(seed, what="random seed")


def listing(machines: Sequence[MachineId]) -> str:
    return ", ".join(machines) if machines else "none"


class Official(enum.Enum):
    """Who chooses the next machine when no player may: the LO (A66)."""

    LO = "the LO"

    def __str__(self) -> str:
        return self.value


THE_LO = Official.LO


@dataclass(frozen=True)
class PlayedGame:
    """A finished game of a group's match.

    order: the players who played it, winner first (forfeiters are absent).
    selector: who picked its machine; None when it was randomly assigned (game 1, R5-a).
    """

    machine: MachineId
    order: tuple[PlayerId, ...]
    selector: PlayerId | None = None


def check_games(games: Sequence[PlayedGame]) -> list[PlayedGame]:
    checked = []
    for number, game in enumerate(games, start=1):
        if not isinstance(game, PlayedGame):
            raise RuleError(f"game {number} must be a PlayedGame, got {game!r}")
        check_machine(game.machine)
        if isinstance(game.order, str):
            raise RuleError(f"game {number}'s finishing order must be a list of players")
        check_unique(game.order, what=f"game {number}'s finishing order")
        if game.selector is not None:
            check_player(game.selector)
        checked.append(game)
    return checked


def first_game_played(player: PlayerId, games: Sequence[PlayedGame]) -> int | None:
    """0-based index of the first game the player played, None if he has played none."""
    return next((i for i, g in enumerate(games) if player in g.order), None)


def machine_picker(
    games: Sequence[PlayedGame],
    *,
    late: Collection[PlayerId] = (),
    absent: Collection[PlayerId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> PlayerId | Official:
    """Who picks the machine for the group's next game (§5, §5.2): a player, or `THE_LO`.

    games: the match's finished games so far, game 1 first; the pick follows the last one.
    late: the group's players who arrived after the group began play (§2.3).
    R5-c, A21: the last-placed player among those who played the previous game (4th of 4, 3rd
    of 3, 2nd of 2); forfeiters never pick. R5.2-d, A24: a late player does not pick after the
    first game he plays (`late_joiner_no_pick_scope` "whole_night": not at all that night);
    the pick passes to the next-lowest finisher. If every finisher is so barred, the
    last-placed finisher picks anyway, since someone must.
    A66: when nobody played the previous game (every player forfeited it), no player may pick;
    `nobody_may_pick` "lo_chooses_or_draws": `THE_LO` chooses the machine or draws it at
    random (`draw_machine`), as game 1's is drawn.
    absent: players recorded absent for the rest of the match (R2.4-a): gone, so they forfeit
    the next game and never pick; the pick passes to the next-lowest finisher who is still
    there (`absent_player_pick` "next_lowest_present", A67; as A21 leaves out forfeiters),
    and to `THE_LO` when none is (A66).
    """
    played = check_games(games)
    late_players = set(check_players(late, what="the late players"))
    gone = set(check_players(absent, what="the absent players"))
    if not played:
        raise RuleError("game 1 has no picker: its machine is randomly assigned (R5-a)")
    if ruleset.machine_selector != "last_place_present":  # pragma: no cover - one option
        raise RuleError(f"unknown machine_selector setting {ruleset.machine_selector!r}")
    previous = played[-1]
    if ruleset.absent_player_pick != "next_lowest_present":  # pragma: no cover - one option
        raise RuleError(f"unknown absent_player_pick setting {ruleset.absent_player_pick!r}")
    finishers = tuple(p for p in previous.order if p not in gone)
    if not finishers:
        if ruleset.nobody_may_pick != "lo_chooses_or_draws":  # pragma: no cover - one option
            raise RuleError(f"unknown nobody_may_pick setting {ruleset.nobody_may_pick!r}")
        return THE_LO  # A66: nobody played the previous game (R5-c names no player)
    last = len(played) - 1

    def barred(player: PlayerId) -> bool:
        if player not in late_players:
            return False
        if ruleset.late_joiner_no_pick_scope == "whole_night":
            return True
        return first_game_played(player, played) == last

    for player in reversed(finishers):
        if not barred(player):
            return player
    return finishers[-1]


PickVerdict = Literal["picks", "official_chooses", "player_picks", "not_the_picker"]
"""Whether a pick of the next machine may go ahead (`pick_verdict`)."""


def pick_verdict(
    picker: PlayerId | Official, *, by_official: bool, chosen_by: PlayerId | None = None
) -> PickVerdict:
    """Whether the machine of a group's next game may be chosen as asked (§5, A66).

    picker: `machine_picker`'s answer. by_official: the LO chooses (or draws) it; otherwise
    player `chosen_by` says they pick it. R5-c, A21, A24: only the picker picks
    ("not_the_picker" otherwise). A66: when nobody played the previous game the LO chooses
    ("official_chooses" for a player's pick), and only then ("player_picks" for the LO's).
    """
    if picker is THE_LO:
        return "picks" if by_official else "official_chooses"
    if by_official:
        return "player_picks"
    return "picks" if chosen_by == picker else "not_the_picker"


NoPickCode = Literal[
    "meet_not_open",
    "first_game_drawn",
    "match_complete",
    "game_not_confirmed",
    "waiting_for_compensatory",
]
"""Why nobody may pick a group's next machine now (`NextPick.reason`): stable names a client may
rely on."""

_NO_PICK: dict[NoPickCode, tuple[str, tuple[str, ...]]] = {
    "meet_not_open": ("the meet is not under way: machines are picked only during it", ()),
    "first_game_drawn": ("game 1's machine is drawn at random when the meet starts", ("R5-a",)),
    "match_complete": (f"the group has played its {GAMES_PER_MATCH} games", ("R4-b",)),
    "game_not_confirmed": (
        "the game in play has no confirmed scores yet: the next machine is picked after it",
        ("R5-c",),
    ),
    "waiting_for_compensatory": (
        "the group waits for a compensatory game before its next game",
        ("R7.3-p",),
    ),
}


@dataclass(frozen=True)
class NextPick:
    """Who may pick a group's next machine now (§5, A66): a player, `THE_LO`, or nobody
    (`picker` None, with the `reason` code); `text` says why in plain words (no rule id, no
    name: "last place among those who played game 2"), `rules` the rules behind it."""

    picker: PlayerId | Official | None
    reason: NoPickCode | None
    text: str
    rules: tuple[str, ...]


def next_pick(
    games: Sequence[PlayedGame],
    *,
    meet_open: bool,
    stored: int,
    in_play: bool,
    waiting: bool = False,
    late: Collection[PlayerId] = (),
    absent: Collection[PlayerId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> NextPick:
    """Who may pick the group's next machine now, in the order a pick is checked (§5).

    games: the match's confirmed games (`machine_picker`'s); stored: how many games the match
    has, confirmed or not; in_play: its last game has no confirmed scores yet; waiting: a
    compensatory game of the group is granted and not yet played. Nobody picks while the meet
    is not open, before game 1 (drawn, R5-a), once the match has its games (R4-b), while a
    game is in play (R5-c) or a compensatory game is awaited (R7.3-p). Otherwise
    `machine_picker` (R5-c, A21, A24, A67; A66: `THE_LO`).
    """
    reason: NoPickCode | None = None
    if not meet_open:
        reason = "meet_not_open"
    elif stored == 0:
        reason = "first_game_drawn"
    elif stored >= GAMES_PER_MATCH:
        reason = "match_complete"
    elif in_play:
        reason = "game_not_confirmed"
    elif waiting:
        reason = "waiting_for_compensatory"
    if reason is not None:
        text, rules = _NO_PICK[reason]
        return NextPick(None, reason, text, rules)
    picker = machine_picker(games, late=late, absent=absent, ruleset=ruleset)
    previous = len(games)
    if picker is THE_LO:
        return NextPick(
            picker,
            None,
            f"nobody played game {previous}, so the league official chooses or draws it",
            ("R5-c", "A66"),
        )
    return NextPick(
        picker, None, f"last place among those who played game {previous}", ("R5-c", "A21")
    )
