"""Replacing a game's machine that became unplayable during it (§5.1, §7.3).

Words:
- the *selector* is the player who chose the game's machine: he chooses its replacement under
  the §5 constraints; a machine drawn at random (game 1) is drawn again (R5.1-a, A23).
- *options*: the machines the §5 rules allow as the replacement.
- a *designation*: the LO names the replacement, possibly outside the options (R7.3-s), a
  Ruling ``replacement_machine_designated``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flipwell.league import models as m
from flipwell.league.adapters.keys import machine_id_of, machine_key, machines_played, player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.meet_board.next_games import machine_states
from flipwell.league.services._edge import (
    group_player_ids,
    locked_game,
    open_meet,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import official_write
from flipwell.league.services.meet_machines.declarations import declare_machine_state
from flipwell.league.services.meets.start import SEED_LIMIT
from flipwell.rules.machine_choices import MachineState
from flipwell.rules.machine_replacement import Replacement, replacement_machine

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class ReplacedMachine:
    """A game moved to another machine: the stored replacement and the machine ids the §5
    rules allowed (`options`; an LO designation may go outside them, R7.3-s)."""

    replacement: m.MachineReplacement
    game: m.Game
    options: tuple[int, ...]


def replace_machine(
    *,
    game: m.Game,
    reason: str,
    actor: User,
    machine: m.Machine | None = None,
    chosen_by: m.Player | None = None,
    seed: int | None = None,
) -> ReplacedMachine:
    """A game's machine became unplayable during it: the game moves to a replacement machine
    (R5.1-a, R7.3-r, R7.3-s, A23) and the old machine is unplayable for the rest of the meet.

    Who decides (`flipwell.rules.selection.replacement_machine`): the player who selected the
    machine chooses under the §5 constraints (`chosen_by` him, `machine` his choice); a machine
    that was drawn at random (game 1) is drawn again from `seed` (a fresh random one when None),
    which is recorded: leave `machine` and `chosen_by` None. Instead, the league official may
    designate the machine (`machine` without `chosen_by`, R7.3-s), an override recorded as a
    Ruling with `reason`; under `replacement_selector = "lo_designates"` he always does.
    `reason` says why the machine is unplayable (the declaration's reason).

    Side effects: the Game's machine changes, a MachineReplacement (by, chooser, seed), a
    MachineDeclaration (unplayable) unless the machine already is, a Ruling for a designation,
    audit events ``game.machine_replaced`` and ``machine.declared_unplayable``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError without a reason,
    for a meet that is not open, a game with confirmed scores, a chooser who is not the
    original selector, or a machine the rules (or, for a designation, its state) refuse.
    """
    with official_write(
        league=game.group.meet.season.league, actor=actor, action="replace a game's machine"
    ) as write:
        game = locked_game(game)
        meet, old = game.group.meet, game.machine
        write.season = meet.season
        open_meet(meet, doing="replace a machine")
        why = require_reason(reason, field="reason", what="Replacing an unplayable machine")
        _check_replaceable(game, machine)
        facts = _replacement_facts(game, seed)
        new_id, by, chooser, stored_seed = _decide_replacement(game, facts, machine, chosen_by)
        row = m.MachineReplacement(
            game=game, old_machine=old, new_machine_id=new_id, by=by, chosen_by=chooser
        )
        _store_replacement(row, seed=stored_seed, reason=why, actor=actor)
        if by == m.MachineReplacement.By.LO:
            write.ruling(**_designation_ruling(row, facts, reason=why))
        write.event("game.machine_replaced", row, _replaced_data(row, facts.options))
    game.refresh_from_db()
    return ReplacedMachine(replacement=row, game=game, options=facts.options)


def _decide_replacement(
    game: m.Game, facts: _ReplacementFacts, machine: m.Machine | None, chosen_by: m.Player | None
) -> tuple[int, str, m.Player | None, int | None]:
    """(new machine id, by, chooser, seed) for the replacement the rules or the official
    decide (`_replacement_choice`): the redraw's seed for a drawn machine (A23); an official's
    designation checked against the machines' state (R7.3-s)."""
    new_id, by, chooser, stored_seed = _replacement_choice(
        game, facts.rules.by, facts.rules.machine, machine, chosen_by, facts.options, facts.allowed
    )
    if by == m.MachineReplacement.By.RANDOM:
        stored_seed = facts.seed
    if by == m.MachineReplacement.By.LO:
        _check_designated(facts, new_id, old_id=game.machine_id)
    return new_id, by, chooser, stored_seed


def _designation_ruling(
    row: m.MachineReplacement, facts: _ReplacementFacts, *, reason: str
) -> dict[str, Any]:
    """The Ruling of an official who designates a replacement machine (R7.3-s)."""
    game = row.game
    group = game.group
    return {
        "kind": "replacement_machine_designated",
        "subject": f"meet {group.meet.number} group {group.number} game {game.number}: "
        f"{row.old_machine.title} -> {facts.titles[row.new_machine_id]}",
        "reason": reason,
        "affected": group_player_ids(group),
    }


def _store_replacement(
    row: m.MachineReplacement, *, seed: int | None, reason: str, actor: User
) -> None:
    """Move the game to the replacement's machine, store the replacement and declare the old
    machine unplayable for the rest of the meet (R7.3-r) unless it already is."""
    game = row.game
    game.machine_id = row.new_machine_id
    game.save(update_fields=["machine"])
    row.seed, row.reason, row.official = seed, reason, actor
    row.save(force_insert=True)
    declare_machine_state(
        game.group.meet, row.old_machine, m.MachineDeclaration.Kind.UNPLAYABLE, actor, reason
    )


def _check_replaceable(game: m.Game, machine: m.Machine | None) -> None:
    """Refuse replacing the machine of a game played to its end (R5.1-a), or by a machine of
    another league."""
    if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
        raise ConflictError(
            {
                "game": f"Game {game.number} of group {game.group.number} has confirmed scores: "
                "it was played to its end, so its machine is no longer replaced (R5.1-a)."
            },
            code="game_already_confirmed",
        )
    if machine is not None and machine.league_id != game.group.meet.season.league_id:
        raise Refusal(
            {"machine": f"{machine} is not a machine of this league."}, code="machine_not_in_league"
        )


@dataclass(frozen=True)
class _ReplacementFacts:
    """What the rules said about a game's replacement machine, with the meet's machines."""

    rules: Replacement
    states: list[MachineState]
    titles: dict[int, str]
    seed: int | None
    options: tuple[int, ...]
    allowed: str


def _replacement_facts(game: m.Game, seed: int | None) -> _ReplacementFacts:
    """The rules' replacement for `game`'s machine (`replacement_machine`, R5.1-a, A23): who
    decides, the machines allowed, and a redraw from `seed` (fresh when None) for a machine
    that was drawn."""
    group, old = game.group, game.machine
    states_titles = machine_states(group.meet)
    states = [s for s, _ in states_titles]
    titles = {machine_id_of(s.machine): t for s, t in states_titles}
    others = group.games.exclude(pk=game.pk).values_list("machine_id", "machine__title")
    played = machines_played(others)
    selector = game.chosen_by_id
    drawn = selector is None
    draw_seed = seed if seed is not None else (secrets.randbelow(SEED_LIMIT) if drawn else None)
    ruleset = season_ruleset(group.meet.season)
    with rules_edge("seed", code="no_machine_left"):
        replacement = replacement_machine(
            machine_key(old.pk, old.title),
            states,
            group=group.number,
            selector=None if selector is None else player_key(selector),
            played=played,
            seed=draw_seed,
            ruleset=ruleset,
        )
    options = tuple(machine_id_of(k) for k in replacement.options)
    allowed = ", ".join(titles[pk] for pk in options) or "none"
    return _ReplacementFacts(replacement, states, titles, draw_seed, options, allowed)


def _check_designated(facts: _ReplacementFacts, new_id: int, *, old_id: int) -> None:
    """An official's designation may go outside the §5 options (R7.3-s), never to the broken
    machine or another unplayable one."""
    state = next(s for s in facts.states if machine_id_of(s.machine) == new_id)
    if new_id == old_id or state.unplayable:
        raise Refusal(
            {
                "machine": f"{facts.titles[new_id]} is unplayable at this meet; "
                f"allowed: {facts.allowed}."
            },
            code="machine_not_allowed",
        )


def _replaced_data(row: m.MachineReplacement, options: tuple[int, ...]) -> dict[str, Any]:
    """The audit data of a replacement: old and new machine, who decided, the options."""
    return {
        "game": row.game_id,
        "old_machine": row.old_machine_id,
        "new_machine": row.new_machine_id,
        "by": row.by,
        "chosen_by": row.chosen_by_id,
        "seed": row.seed,
        "options": list(options),
        "within_options": row.new_machine_id in options,
        "reason": row.reason,
    }


def _replacement_choice(
    game: m.Game,
    rules_by: str,
    drawn: str | None,
    machine: m.Machine | None,
    chosen_by: m.Player | None,
    options: tuple[int, ...],
    allowed: str,
) -> tuple[int, str, m.Player | None, int | None]:
    """(new machine id, by, chooser, seed placeholder) for a replacement, or a refusal."""
    selector = game.chosen_by
    if chosen_by is not None:
        chosen = _selectors_choice(game, rules_by, machine, chosen_by, options, allowed)
        return chosen, m.MachineReplacement.By.SELECTOR, chosen_by, None
    if machine is None:
        if rules_by == "random" and drawn is not None:
            return machine_id_of(drawn), m.MachineReplacement.By.RANDOM, None, None
        if rules_by == "selector":
            raise Refusal(
                {
                    "machine": f"{selector} chooses the replacement (give chosen_by and machine, "
                    "R5.1-a), or the league official designates one (give machine)."
                },
                code="chooser_required",
            )
        raise Refusal(
            {"machine": "The league official designates the replacement (R7.3-s): give it."},
            code="machine_required",
        )
    return machine.pk, m.MachineReplacement.By.LO, None, None


def _selectors_choice(
    game: m.Game,
    rules_by: str,
    machine: m.Machine | None,
    chosen_by: m.Player,
    options: tuple[int, ...],
    allowed: str,
) -> int:
    """The id of the machine `chosen_by` chose as the replacement: refused unless he selected
    the broken machine and the rules let him choose (R5.1-a, A23), and his choice is one of
    the `options` (§5)."""
    selector = game.chosen_by
    if rules_by != "selector" or selector is None or chosen_by.pk != selector.pk:
        who = (
            f"{selector} selected {game.machine.title}, so they choose its replacement "
            "(R5.1-a, A23)"
            if rules_by == "selector" and selector is not None
            else f"{game.machine.title} was drawn at random, so its replacement is drawn "
            "again (R5.1-a, A23)"
            if rules_by == "random"
            else "the league official designates the replacement (R7.3-s)"
        )
        raise Refusal(
            {"chosen_by": f"{who}; the league official may designate one instead."},
            code="not_the_picker",
        )
    if machine is None:
        raise Refusal(
            {"machine": f"Say which machine {chosen_by} chose: {allowed}."},
            code="machine_required",
        )
    if machine.pk not in options:
        raise Refusal(
            {
                "machine": f"{machine.title} cannot replace {game.machine.title} under the "
                f"rules of machine choice (§5, R5-d, R5-e, R7.3-r); allowed: {allowed}."
            },
            code="machine_not_allowed",
        )
    return machine.pk
