"""Machine selection and play order at regular meets (§5, §5.1, §5.2, §4).

Words:
- *machine*: one pinball machine of the meet's location, named by a non-empty string.
- *playable*: not declared unplayable; an unplayable machine is out of every draw and every
  choice until it is marked repaired (R7.3-r).
- *group number*: a group's place in the meet's ladder, 1 = the top group (§4.2).
- *played game*: a finished game of a group's match: its machine, the finishing order of the
  players who played it (forfeiters are not in it) and who picked the machine (None when the
  machine was randomly assigned, as game 1 is).
- *late player*: a player who arrived after his group began play (§2.3); his *first game* is
  the first game of the match he plays.
- *machine state*: what a machine is doing when a group needs its next game: free, in use by a
  group on some ball, unplayable, and the groups already waiting for it.
- *final ball*: the ball at which a group's game on a machine counts as nearly over: its last
  regulation ball by default, ball 3 under the literal reading (`ball3_means`, A22).
- *selectable*: a machine the picker may choose for his group's next game (R5-d..g).
- *seed*: here, the integer that seeds `random.Random` for a draw; recording it makes the draw
  reproducible (A61). Not to be confused with a player's seed (ladder position).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from flipwell.rules.checks import check_count, check_player, check_unique
from flipwell.rules.errors import RuleError, about_players
from flipwell.rules.match import GAMES_PER_MATCH
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

MachineId = str


def _check_machine(machine: object) -> MachineId:
    """A machine identifier: a non-empty string."""
    if not isinstance(machine, str) or not machine.strip():
        raise RuleError(f"machine must be a non-empty string, got {machine!r}")
    return machine


def _check_machines(machines: Collection[MachineId], *, what: str) -> list[MachineId]:
    if isinstance(machines, str):
        raise RuleError(f"{what} must be a list of machines, not the string {machines!r}")
    listed = list(machines)
    for machine in listed:
        _check_machine(machine)
    return check_unique(listed, what=what)


def _check_players(players: Collection[PlayerId], *, what: str) -> list[PlayerId]:
    if isinstance(players, str):
        raise RuleError(f"{what} must be a list of players, not the string {players!r}")
    return check_unique(list(players), what=what)


def _check_states(states: Sequence[MachineState]) -> list[MachineState]:
    if isinstance(states, MachineState | str):
        raise RuleError("states must be a list of MachineState, one per machine")
    listed = list(states)
    for state in listed:
        if not isinstance(state, MachineState):
            raise RuleError(f"every machine state must be a MachineState, got {state!r}")
    check_unique([s.machine for s in listed], what="the machine states")
    return listed


def _check_seed(seed: object) -> int:
    return check_count(seed, what="random seed")


def _listing(machines: Sequence[MachineId]) -> str:
    return ", ".join(machines) if machines else "none"


def _shuffled(machines: Sequence[MachineId], rng: random.Random) -> list[MachineId]:
    """A Fisher-Yates shuffle driven only by `rng.random()`.

    Python guarantees that `random()` gives the same sequence for the same seed across
    versions, but not `sample` or `shuffle`; a recorded seed must replay the same draw after an
    upgrade.
    """
    items = list(machines)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


# --- Random first machines (§5, R5-a) --------------------------------------------------------


@dataclass(frozen=True)
class FirstMachineDraw:
    """Each group's randomly assigned first machine, group 1 first, and the seed that drew it;
    `left_out`: the meet's unplayable machines, which the draw never considered (R7.3-r)."""

    seed: int
    machines: tuple[MachineId, ...]
    warnings: tuple[str, ...]
    left_out: tuple[MachineId, ...] = ()


def draw_first_machines(
    groups: int,
    machines: Sequence[MachineId],
    *,
    seed: int,
    unplayable: Collection[MachineId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> FirstMachineDraw:
    """Randomly assign each group's first machine before the match (§5, R5-a, A61, R7.3-r).

    machines: the meet's machines; `unplayable` ones are never drawn (R7.3-r).
    seed: recorded with the meet; the same seed and machines always give the same draw (the
    machines' input order does not matter).
    Groups get distinct machines while there are at least as many playable machines as
    groups. With more groups, every machine is drawn once before any is drawn twice, so the
    queues are as short as they can be, and a warning says how many groups will queue (A16).
    """
    check_count(groups, what="number of groups")
    _check_seed(seed)
    pool = _check_machines(machines, what="the meet's machines")
    down = _check_machines(unplayable, what="the unplayable machines")
    unknown = [m for m in down if m not in pool]
    if unknown:
        raise RuleError(
            f"unplayable machine(s) {_listing(unknown)} are not among the meet's machines"
        )
    if ruleset.first_machine_draw != "distinct_while_enough":  # pragma: no cover - one option
        raise RuleError(f"unknown first_machine_draw setting {ruleset.first_machine_draw!r}")
    playable = sorted(m for m in pool if m not in down)
    if groups and not playable:
        raise RuleError(f"no playable machine for {groups} groups: every machine is unplayable")
    rng = random.Random(seed)
    drawn: list[MachineId] = []
    while len(drawn) < groups:
        drawn.extend(_shuffled(playable, rng)[: groups - len(drawn)])
    warnings = []
    if groups > len(playable):
        warnings.append(
            f"{groups} groups but only {len(playable)} playable machines: "
            f"{groups - len(playable)} groups will queue for their first game (A16, A61)"
        )
    return FirstMachineDraw(
        seed=seed, machines=tuple(drawn), warnings=tuple(warnings), left_out=tuple(sorted(down))
    )


# --- Who picks the next machine (§5, §5.2) ---------------------------------------------------


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


def _check_games(games: Sequence[PlayedGame]) -> list[PlayedGame]:
    checked = []
    for number, game in enumerate(games, start=1):
        if not isinstance(game, PlayedGame):
            raise RuleError(f"game {number} must be a PlayedGame, got {game!r}")
        _check_machine(game.machine)
        if isinstance(game.order, str):
            raise RuleError(f"game {number}'s finishing order must be a list of players")
        check_unique(game.order, what=f"game {number}'s finishing order")
        if game.selector is not None:
            check_player(game.selector)
        checked.append(game)
    return checked


def _first_game_played(player: PlayerId, games: Sequence[PlayedGame]) -> int | None:
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
    played = _check_games(games)
    late_players = set(_check_players(late, what="the late players"))
    gone = set(_check_players(absent, what="the absent players"))
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
        return _first_game_played(player, played) == last

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


def draw_machine(options: Collection[MachineId], *, seed: int) -> MachineId:
    """Draw one of `options` at random, reproducibly from `seed` (A66, as R5-a, A61).

    options: the machines the §5 rules allow (`selectable_machines`); their order does not
    matter. The LO draws so when nobody may pick the next machine (A66).
    """
    pool = sorted(_check_machines(options, what="the machines to draw from"))
    if not pool:
        raise RuleError("no machine to draw from: every machine is unplayable (R7.3-r)")
    return _shuffled(pool, random.Random(_check_seed(seed)))[0]


# --- Which machines are selectable (§5, §4) --------------------------------------------------


@dataclass(frozen=True)
class MachineState:
    """One machine when a group needs its next game (§5, R7.3-r).

    in_use_by and current_ball: the group playing it and the ball that group is on, both None
    when the machine is free. claimed_by: groups already waiting for it (R5-g).
    """

    machine: MachineId
    balls_per_game: int = 3
    in_use_by: int | None = None
    current_ball: int | None = None
    unplayable: bool = False
    claimed_by: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        name = _check_machine(self.machine)
        balls = check_count(self.balls_per_game, what=f"{name}'s balls per game", minimum=1)
        if not isinstance(self.unplayable, bool):
            raise RuleError(f"{name}'s unplayable flag must be True or False")
        if (self.in_use_by is None) != (self.current_ball is None):
            raise RuleError(
                f"machine {name} in use needs both the group and its current ball, "
                f"got group {self.in_use_by!r} and ball {self.current_ball!r}"
            )
        if self.in_use_by is not None:
            check_count(self.in_use_by, what=f"the group using {name}", minimum=1)
            ball = check_count(self.current_ball, what=f"{name}'s current ball", minimum=1)
            if ball > balls:
                raise RuleError(
                    f"machine {name} has {balls} balls per game, so its current ball cannot "
                    f"be {ball}"
                )
            if self.unplayable:
                raise RuleError(f"machine {name} cannot be both unplayable and in use")
        if not isinstance(self.claimed_by, tuple):
            raise RuleError(f"{name}'s claimed_by must be a tuple of group numbers")
        for group in self.claimed_by:
            check_count(group, what=f"a group waiting for {name}", minimum=1)


@dataclass(frozen=True)
class SelectableMachines:
    """The machines a group may choose for its next game, in the order given (§5).

    fallback: nothing was free or on its final ball, so the in-use restriction is lifted
    (R5-f). repeats: some listed machines were already played by the group tonight, allowed
    because no playable unplayed machine is left (A22, A53: log such repeats). claimed: every
    listed machine is one another group is already waiting for (R5-g).
    """

    machines: tuple[MachineId, ...]
    fallback: bool
    repeats: bool
    claimed: bool


def on_final_ball(state: MachineState, *, ruleset: Ruleset = FWPL_V1) -> bool:
    """Whether the group on this machine is on its "ball 3" (§5, R5-d, A22).

    Default `ball3_means` "final_ball": its last regulation ball (ball 5 of 5). "literal_ball_3":
    ball 3 or later, and on machines of fewer than 3 balls their last ball. False when free.
    """
    if state.current_ball is None:
        return False
    if ruleset.ball3_means == "literal_ball_3":
        return state.current_ball >= min(3, state.balls_per_game)
    return state.current_ball >= state.balls_per_game


def _claimed_by_other(state: MachineState, group: int) -> bool:
    return any(g != group for g in state.claimed_by)


def _in_use_by_other(state: MachineState, group: int, ruleset: Ruleset) -> bool:
    """In use by another group that is not yet on its final ball (R5-d)."""
    if state.in_use_by is None or state.in_use_by == group:
        return False
    return not on_final_ball(state, ruleset=ruleset)


def _available(state: MachineState, group: int, ruleset: Ruleset) -> bool:
    """Free or on another group's final ball, and nobody else waiting for it (R5-d, R5-g)."""
    return not _in_use_by_other(state, group, ruleset) and not _claimed_by_other(state, group)


@dataclass(frozen=True)
class _Selection:
    result: SelectableMachines
    pool: tuple[MachineId, ...]  # the machines left after the no-repeat rule (R5-e)


def _select(
    states: Sequence[MachineState],
    group: int,
    played: Collection[MachineId],
    ruleset: Ruleset,
    *,
    none_playable_ok: bool = False,
) -> _Selection:
    check_count(group, what="group number", minimum=1)
    states = _check_states(states)
    done = set(_check_machines(played, what="the machines played tonight"))
    known = {s.machine for s in states}
    unknown = sorted(done - known)
    if unknown:
        raise RuleError(f"played machine(s) {_listing(unknown)} are not among the machine states")
    playable = [s for s in states if not s.unplayable]  # R7.3-r
    if not playable and not none_playable_ok:
        raise RuleError("no playable machine is left: the LO must designate one (R7.3-r)")
    unplayed = [s for s in playable if s.machine not in done]
    available_unplayed = [s for s in unplayed if _available(s, group, ruleset)]
    if ruleset.fallback_allows_repeat == "only_if_no_unplayed_machine":
        # R5-e, R4-b: a repeat only when no playable unplayed machine is left (A22, A53).
        pool = unplayed or playable
        chosen = [s for s in pool if _available(s, group, ruleset)]
    else:
        # "always": R5-e holds while an unplayed machine is available; the fallback lifts it.
        pool = unplayed if available_unplayed else playable
        chosen = available_unplayed
    fallback = bool(playable) and not chosen
    claimed = False
    if fallback:
        # R5-f: any game may be chosen, but R5-g still steers away from claimed machines.
        unclaimed = [s for s in pool if not _claimed_by_other(s, group)]
        chosen = unclaimed or list(pool)
        claimed = not unclaimed
    machines = tuple(s.machine for s in chosen)
    result = SelectableMachines(
        machines=machines,
        fallback=fallback,
        repeats=any(m in done for m in machines),
        claimed=claimed,
    )
    return _Selection(result=result, pool=tuple(s.machine for s in pool))


def selectable_machines(
    states: Sequence[MachineState],
    *,
    group: int,
    played: Collection[MachineId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> SelectableMachines:
    """The machines a group's picker may choose for its next game (§5, §4).

    states: every machine of the meet. played: the machines this group has played tonight.
    R7.3-r: unplayable machines are never selectable.
    R5-e, R4-b, A22, A53: no machine the group has played tonight while a playable unplayed
    one exists (`fallback_allows_repeat` "always": the fallback lifts this too).
    R5-d, A22: a machine must be free, or in use by another group on its final ball
    (`ball3_means`).
    R5-f: when no such machine is left, the in-use restriction is lifted.
    R5-g: machines another group is already waiting for are left out unless only such remain.
    """
    return _select(states, group, played, ruleset).result


RefusalCode = Literal["unplayable", "already_played", "claimed", "in_use"]
"""Why the §5 rules do not allow a machine of the meet (`RefusedMachine.code`): stable names a
client may rely on. unplayable: out of service (R7.3-r); already_played: the group played it
tonight and a playable machine it has not played remains (R5-e, R4-b, A22, A53); claimed:
another group is already waiting for it (R5-g); in_use: another group is playing it and is not
on its final ball (R5-d)."""

REFUSAL_RULES: dict[RefusalCode, tuple[str, ...]] = {
    "unplayable": ("R7.3-r",),
    "already_played": ("R5-e", "R4-b"),
    "claimed": ("R5-g",),
    "in_use": ("R5-d",),
}
"""The rules behind each refusal code."""


@dataclass(frozen=True)
class RefusedMachine:
    """A machine of the meet a group may not choose for its next game, and why (§5, R7.3-r).

    code: the stable reason (`RefusalCode`). text: the reason in plain words about the machine,
    no rule id ("group 3 is playing it"). rules: the rules behind it, for a "why". message: the
    refusal of a choice of it, naming the machine and its rules (`check_machine_choice`).
    """

    machine: MachineId
    code: RefusalCode
    text: str
    rules: tuple[str, ...]
    message: str


@dataclass(frozen=True)
class MachineChoices:
    """Every machine of the meet for a group's next game (§5): those allowed
    (`SelectableMachines`, the order given) and each other one with why (`refused`, the order
    given). No playable machine at all: nothing allowed, each refused as unplayable."""

    allowed: SelectableMachines
    refused: tuple[RefusedMachine, ...]


def _refusal(
    state: MachineState, group: int, pool: Collection[MachineId], ruleset: Ruleset
) -> RefusedMachine:
    """Why `state`'s machine, not among the allowed ones, is refused: the first check it
    fails, in the order the rules apply them (R7.3-r, R5-e, R5-g, R5-d)."""
    name = state.machine
    if state.unplayable:
        code: RefusalCode = "unplayable"
        text = "out of service (declared unplayable)"
        message = f"machine {name} is unplayable"
    elif name not in pool:
        code = "already_played"
        text = "already played by this group tonight, and a machine it has not played is left"
        message = f"group {group} has already played {name} tonight and unplayed machines remain"
    elif _claimed_by_other(state, group):
        others = [str(g) for g in state.claimed_by if g != group]
        who = f"group {others[0]} is" if len(others) == 1 else f"groups {', '.join(others)} are"
        code, text = "claimed", f"{who} already waiting for it"
        message = f"{who} already waiting for {name}"
    else:
        final = "ball 3" if ruleset.ball3_means == "literal_ball_3" else "its final ball"
        code = "in_use"
        text = f"group {state.in_use_by} is playing it and is not on {final} yet"
        message = (
            f"machine {name} is in use by group {state.in_use_by} on ball {state.current_ball} "
            f"of {state.balls_per_game}, not {final}"
        )
    rules = REFUSAL_RULES[code]
    return RefusedMachine(name, code, text, rules, f"{message} ({', '.join(rules)})")


def machine_choices(
    states: Sequence[MachineState],
    *,
    group: int,
    played: Collection[MachineId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> MachineChoices:
    """Which machines a group's next game may be on, and why each other one may not (§5, §4).

    The allowed ones are `selectable_machines`'s (R5-d..g, R4-b, A22, A53, R7.3-r); every other
    machine of `states` is refused with the first rule it breaks (`RefusedMachine`): the
    one list a client shows and `check_machine_choice` refuses a choice from.
    """
    selection = _select(states, group, played, ruleset, none_playable_ok=True)
    allowed = set(selection.result.machines)
    refused = tuple(
        _refusal(s, group, selection.pool, ruleset) for s in states if s.machine not in allowed
    )
    return MachineChoices(allowed=selection.result, refused=refused)


def check_machine_choice(
    machine: MachineId,
    states: Sequence[MachineState],
    *,
    group: int,
    played: Collection[MachineId] = (),
    ruleset: Ruleset = FWPL_V1,
) -> SelectableMachines:
    """Refuse a chosen machine the §5 rules do not allow; return what was selectable.

    R5-d, R5-e, R5-f, R5-g, R4-b, R7.3-r: the `RuleError` is the machine's refusal in
    `machine_choices` (it names the rule the choice breaks) and lists the machines that are
    allowed. The returned `SelectableMachines` tells the caller whether the choice was a
    fallback (R5-f) or a repeat to log (A53).
    """
    chosen = _check_machine(machine)
    _select(states, group, played, ruleset)  # no playable machine at all: the LO designates one
    choices = machine_choices(states, group=group, played=played, ruleset=ruleset)
    allowed = choices.allowed.machines
    if chosen in allowed:
        return choices.allowed
    options = f"allowed: {_listing(allowed)}"
    refusal = next((r for r in choices.refused if r.machine == chosen), None)
    if refusal is None:
        raise RuleError(f"machine {chosen} is not one of this meet's machines; {options}")
    raise RuleError(f"{refusal.message}; {options}")


# --- Replacing an unplayable machine (§5.1) --------------------------------------------------


@dataclass(frozen=True)
class Replacement:
    """How a group's unplayable machine is replaced (§5.1, A23).

    by: "selector" (the player who picked the broken machine chooses among `options`),
    "random" (the machine was randomly assigned; `machine` is the new draw from `seed`), or
    "lo" (the LO designates the machine; `options` are those the §5 rules would allow).
    """

    by: Literal["selector", "random", "lo"]
    chooser: PlayerId | None
    machine: MachineId | None
    options: tuple[MachineId, ...]
    seed: int | None


def replacement_machine(
    unplayable_machine: MachineId,
    states: Sequence[MachineState],
    *,
    group: int,
    selector: PlayerId | None,
    played: Collection[MachineId] = (),
    seed: int | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> Replacement:
    """Who replaces a machine that became unplayable during a group's game, or the new draw.

    R5.1-a, A23: the player who selected the machine chooses the replacement under the §5
    constraints (`selectable_machines`). selector None means the machine was randomly assigned
    (game 1, R5-a): the replacement is drawn at random again among the selectable machines,
    from `seed`, which is then required. `replacement_selector` "lo_designates": the LO
    chooses (R7.3-s). The broken machine is treated as unplayable whatever its state says
    (R7.3-r).
    """
    broken = _check_machine(unplayable_machine)
    listed = _check_states(states)
    if broken not in {s.machine for s in listed}:
        raise RuleError(f"machine {broken} is not one of this meet's machines")
    if selector is not None:
        check_player(selector)
    marked = [
        MachineState(machine=s.machine, balls_per_game=s.balls_per_game, unplayable=True)
        if s.machine == broken
        else s
        for s in listed
    ]
    # The broken machine's game is replayed, so it does not count as played.
    options = selectable_machines(
        marked,
        group=group,
        played=[
            m for m in _check_machines(played, what="the machines played tonight") if m != broken
        ],
        ruleset=ruleset,
    ).machines
    if ruleset.replacement_selector == "lo_designates":
        return Replacement(by="lo", chooser=None, machine=None, options=options, seed=None)
    if selector is not None:
        return Replacement(
            by="selector", chooser=selector, machine=None, options=options, seed=None
        )
    if seed is None:
        raise RuleError(
            f"{broken} was randomly assigned, so its replacement is drawn at random: "
            "a random seed is required (R5.1-a, A23)"
        )
    rng = random.Random(_check_seed(seed))
    drawn = _shuffled(sorted(options), rng)[0]
    return Replacement(by="random", chooser=None, machine=drawn, options=options, seed=seed)


# --- Play order (§5, §5.2) -------------------------------------------------------------------


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
    ladder = _check_players(group, what="the group")
    played = _check_games(games)
    here = ladder if present is None else _check_players(present, what="the present players")
    late_players = _check_players(late, what="the late players")
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
    joining = {p for p in late_players if p in at_game and _first_game_played(p, played) is None}
    previous = played[-1].order if played else ()
    finishers = [p for p in previous if p in at_game and p not in joining]
    returning = [p for p in ladder if p in at_game and p not in finishers and p not in joining]
    joiners = [p for p in ladder if p in joining]
    return finishers + returning + joiners
