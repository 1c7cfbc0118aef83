"""Which machines a group may choose for its next game, and why each other one is refused (§5, §4).

Words:
- *machine state*: what a machine is doing when a group needs its next game: free, in use by a
  group on some ball, unplayable, and the groups already waiting for it.
- *final ball*: the ball at which a group's game on a machine counts as nearly over: its last
  regulation ball by default, ball 3 under the literal reading (`ball3_means`, A22).
- *selectable*: a machine the picker may choose for his group's next game (R5-d..g).
- *refused*: a machine of the meet that is not selectable, with the first rule that refuses it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from flipwell.rules.checks import check_count, check_unique
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.selection import MachineId, check_machine, check_machines, listing


def check_states(states: Sequence[MachineState]) -> list[MachineState]:
    if isinstance(states, MachineState | str):
        raise RuleError("states must be a list of MachineState, one per machine")
    listed = list(states)
    for state in listed:
        if not isinstance(state, MachineState):
            raise RuleError(f"every machine state must be a MachineState, got {state!r}")
    check_unique([s.machine for s in listed], what="the machine states")
    return listed


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
        name = check_machine(self.machine)
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
    states = check_states(states)
    done = set(check_machines(played, what="the machines played tonight"))
    known = {s.machine for s in states}
    unknown = sorted(done - known)
    if unknown:
        raise RuleError(f"played machine(s) {listing(unknown)} are not among the machine states")
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
    chosen = check_machine(machine)
    _select(states, group, played, ruleset)  # no playable machine at all: the LO designates one
    choices = machine_choices(states, group=group, played=played, ruleset=ruleset)
    allowed = choices.allowed.machines
    if chosen in allowed:
        return choices.allowed
    options = f"allowed: {listing(allowed)}"
    refusal = next((r for r in choices.refused if r.machine == chosen), None)
    if refusal is None:
        raise RuleError(f"machine {chosen} is not one of this meet's machines; {options}")
    raise RuleError(f"{refusal.message}; {options}")
