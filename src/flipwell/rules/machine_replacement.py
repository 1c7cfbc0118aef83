"""Replacing a machine that became unplayable during a group's game (§5.1, A23, R7.3-r).

Words:
- *replacement*: who chooses the machine that replaces the unplayable one (the player who
  picked it, or the LO), or the new draw when the machine was drawn.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from flipwell.rules.checks import check_player
from flipwell.rules.errors import RuleError
from flipwell.rules.machine_choices import MachineState, check_states, selectable_machines
from flipwell.rules.machine_draws import _shuffled
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.selection import MachineId, check_machine, check_machines, check_seed
from flipwell.rules.values import PlayerId


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
    broken = check_machine(unplayable_machine)
    listed = check_states(states)
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
            m for m in check_machines(played, what="the machines played tonight") if m != broken
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
    rng = random.Random(check_seed(seed))
    drawn = _shuffled(sorted(options), rng)[0]
    return Replacement(by="random", chooser=None, machine=drawn, options=options, seed=seed)
