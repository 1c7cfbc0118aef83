"""Random machine draws at meets: each group's first machine, and the LO's draw (§5, A61, A66).

Words:
- *draw*: a machine chosen at random from a list, reproducibly: `random.Random` seeded with the
  recorded *seed* (A61); the same seed and list give the same machine.
- *first machine*: the machine of a group's game 1, drawn for every group before the match.
- *playable*: not declared unplayable; an unplayable machine is out of every draw (R7.3-r).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.selection import MachineId, check_machines, check_seed, listing


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
    check_seed(seed)
    pool = check_machines(machines, what="the meet's machines")
    down = check_machines(unplayable, what="the unplayable machines")
    unknown = [m for m in down if m not in pool]
    if unknown:
        raise RuleError(
            f"unplayable machine(s) {listing(unknown)} are not among the meet's machines"
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


def draw_machine(options: Collection[MachineId], *, seed: int) -> MachineId:
    """Draw one of `options` at random, reproducibly from `seed` (A66, as R5-a, A61).

    options: the machines the §5 rules allow (`selectable_machines`); their order does not
    matter. The LO draws so when nobody may pick the next machine (A66).
    """
    pool = sorted(check_machines(options, what="the machines to draw from"))
    if not pool:
        raise RuleError("no machine to draw from: every machine is unplayable (R7.3-r)")
    return _shuffled(pool, random.Random(check_seed(seed)))[0]
