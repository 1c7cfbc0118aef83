"""Machines at a meet (§5, §5.1, §7.3): choosing each group's next machine, declaring a machine
unplayable or repaired, announcing a machine problem before play, and replacing a game's
machine that became unplayable.

The picker and the play order come from `flipwell.rules.selection`; these services only load
facts, call the rules, store the new facts and write the audit log.

A declaration holds for the rest of the meet until the next one (R7.3-q, R7.3-r); the meet board
reads the latest declaration of each machine.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction

from flipwell.league import models as m
from flipwell.league.adapters import player_key, ruleset_for
from flipwell.league.audit import record_event
from flipwell.league.selectors.meet_board import (
    GAMES_PER_MATCH,
    group_games,
    late_players_and_open_compensatory,
    machine_id_of,
    machine_key,
    machine_states,
    played_games,
)
from flipwell.league.services._edge import (
    ConflictError,
    MeetHold,
    fold,
    group_player_ids,
    hold_machine_choices,
    hold_meet,
    locked_game,
    open_meet,
    record_ruling,
    require_official,
    require_reason,
    rules_edge,
    season_changed,
)
from flipwell.league.services.meets import SEED_LIMIT
from flipwell.rules.malfunctions import OpenGame, check_next_game_may_start
from flipwell.rules.selection import (
    check_machine_choice,
    machine_picker,
    play_order,
    replacement_machine,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# --- The next machine (§5) -------------------------------------------------------------------


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

    Side effects: inserts the Game (chosen_by) and an audit event ``game.machine_chosen``.
    Raises ValidationError (nothing written) when the meet is not open, the match is over,
    the previous game is unconfirmed, the group waits for a compensatory game, `chosen_by`
    is not the picker, or the machine is not allowed (the message lists the allowed ones).
    """
    with transaction.atomic():
        hold_meet(MeetHold.SCORES, group=group.pk)
        group = (
            m.Group.objects.select_for_update(of=("self",))
            .select_related("meet__season__league")
            .get(pk=group.pk)
        )
        meet = group.meet
        open_meet(meet, doing="choose a machine")
        games = list(group.games.order_by("number"))
        if len(games) >= GAMES_PER_MATCH:
            raise ConflictError(
                f"Group {group.number} has played its {GAMES_PER_MATCH} games (R4-b).",
                code="match_complete",
            )
        result, ruleset = fold(meet.season)
        board_games = group_games(group, result)
        if board_games and not board_games[-1].confirmed:
            raise ConflictError(
                f"Game {board_games[-1].number} of group {group.number} has no confirmed "
                "scores yet: the next machine is chosen after it (R5-c).",
                code="game_not_confirmed",
            )
        late_by_group, compensatory = late_players_and_open_compensatory(meet)
        waiting = compensatory.get(group.pk, [])
        with rules_edge():
            check_next_game_may_start([OpenGame(player_key(p), "compensatory") for p in waiting])
        played = played_games(board_games)
        late = [player_key(p) for p in late_by_group.get(group.pk, frozenset())]
        with rules_edge("chosen_by"):
            picker = int(machine_picker(played, late=late, ruleset=ruleset))
        number = len(games) + 1
        if chosen_by.pk != picker:
            name = m.Player.objects.get(pk=picker)
            raise ValidationError(
                {
                    "chosen_by": f"{name} picks the machine for game {number} of group "
                    f"{group.number} (last place among those who played game {number - 1}, "
                    f"R5-c, A21, A24), not {chosen_by}."
                },
                code="not_the_picker",
            )
        if machine.league_id != meet.season.league_id:
            raise ValidationError({"machine": f"{machine} is not a machine of this league."})
        hold_machine_choices(meet.pk)  # the machines are read and one is taken one at a time
        states = [s for s, _ in machine_states(meet)]
        with rules_edge("machine"):
            selection = check_machine_choice(
                machine_key(machine.pk, machine.title),
                states,
                group=group.number,
                played=[g.machine for g in played],
                ruleset=ruleset,
            )
        game = m.Game.objects.create(
            group=group, number=number, machine=machine, chosen_by=chosen_by
        )
        members = [player_key(p) for p in group_player_ids(group)]
        with rules_edge():
            order = play_order(members, games=played, late=late, ruleset=ruleset)
        repeat = machine_key(machine.pk, machine.title) in {g.machine for g in played}
        record_event(
            action="game.machine_chosen",
            obj=game,
            league=meet.season.league,
            actor=actor,
            data={
                "group": group.pk,
                "number": number,
                "machine": machine.pk,
                "chosen_by": chosen_by.pk,
                "fallback": selection.fallback,
                "repeat": repeat,
            },
        )
        season_changed(meet.season)
    return NextGame(
        game=game,
        play_order=tuple(int(p) for p in order),
        fallback=selection.fallback,
        repeat=repeat,
    )


# --- Declarations and announced problems (§7.3) ----------------------------------------------


def declare_machine_unplayable(
    *, meet: m.Meet, machine: m.Machine, reason: str, actor: User
) -> m.MachineDeclaration:
    """The LO declares a machine unplayable for the meet, until repaired (R7.3-q, R7.3-r).

    Side effects: a MachineDeclaration, an audit event ``machine.declared_unplayable``.
    Raises PermissionDenied unless `actor` is a league official; ValidationError without a
    reason, for a closed meet, or a machine already unplayable.
    """
    return _declaration(meet, machine, m.MachineDeclaration.Kind.UNPLAYABLE, reason, actor)


def declare_machine_repaired(
    *, meet: m.Meet, machine: m.Machine, reason: str, actor: User
) -> m.MachineDeclaration:
    """The LO declares an unplayable machine repaired: it is playable again (R7.3-r).

    Side effects and errors as `declare_machine_unplayable` (refused for a playable machine).
    """
    return _declaration(meet, machine, m.MachineDeclaration.Kind.REPAIRED, reason, actor)


def announce_machine_problem(
    *, meet: m.Meet, machine: m.Machine, problem: str, actor: User
) -> m.AnnouncedProblem:
    """The LO announces a machine problem before play; it is never a major malfunction (R7.3-g).

    Side effects: an AnnouncedProblem, an audit event ``machine.problem_announced``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a closed meet or
    an empty problem.
    """
    with transaction.atomic():
        league = meet.season.league
        require_official(actor=actor, league=league, action="announce a machine problem")
        _check_machine_at(meet, machine)
        text = problem.strip()
        if not text:
            raise ValidationError({"problem": "Say what the problem is."})
        row = m.AnnouncedProblem.objects.create(
            meet=meet, machine=machine, problem=text, official=actor
        )
        record_event(
            action="machine.problem_announced",
            obj=row,
            league=league,
            actor=actor,
            data={"meet": meet.pk, "machine": machine.pk, "problem": text},
        )
        season_changed(meet.season)
    return row


# --- Replacing a machine that became unplayable (§5.1, §7.3) ---------------------------------


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
    with transaction.atomic():
        game = locked_game(game)
        group = game.group
        meet = group.meet
        league = meet.season.league
        require_official(actor=actor, league=league, action="replace a game's machine")
        open_meet(meet, doing="replace a machine")
        why = require_reason(reason, field="reason", what="Replacing an unplayable machine")
        if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
            raise ValidationError(
                {
                    "game": f"Game {game.number} of group {group.number} has confirmed scores: "
                    "it was played to its end, so its machine is no longer replaced (R5.1-a)."
                }
            )
        if machine is not None and machine.league_id != league.pk:
            raise ValidationError({"machine": f"{machine} is not a machine of this league."})
        old = game.machine
        states_titles = machine_states(meet)
        states = [s for s, _ in states_titles]
        titles = {machine_id_of(s.machine): t for s, t in states_titles}
        played = [
            machine_key(pk, title)
            for pk, title in group.games.exclude(pk=game.pk).values_list(
                "machine_id", "machine__title"
            )
        ]
        selector = game.chosen_by_id
        drawn = selector is None
        draw_seed = seed if seed is not None else (secrets.randbelow(SEED_LIMIT) if drawn else None)
        ruleset = ruleset_for(league)
        with rules_edge("seed"):
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
        new_id, by, chooser, stored_seed = _replacement_choice(
            game, replacement.by, replacement.machine, machine, chosen_by, options, allowed
        )
        if by == m.MachineReplacement.By.RANDOM:
            stored_seed = draw_seed
        if by == m.MachineReplacement.By.LO:
            state = next(s for s in states if machine_id_of(s.machine) == new_id)
            if new_id == old.pk or state.unplayable:
                raise ValidationError(
                    {"machine": f"{titles[new_id]} is unplayable at this meet; allowed: {allowed}."}
                )
        game.machine_id = new_id
        game.save(update_fields=["machine"])
        row = m.MachineReplacement.objects.create(
            game=game,
            old_machine=old,
            new_machine_id=new_id,
            by=by,
            chosen_by=chooser,
            seed=stored_seed,
            reason=why,
            official=actor,
        )
        declare_machine_state(meet, old, m.MachineDeclaration.Kind.UNPLAYABLE, actor, why)
        if by == m.MachineReplacement.By.LO:
            record_ruling(
                league=league,
                official=actor,
                kind="replacement_machine_designated",
                subject=f"meet {meet.number} group {group.number} game {game.number}: "
                f"{old.title} -> {titles[new_id]}",
                reason=why,
                affected=group_player_ids(group),
            )
        record_event(
            action="game.machine_replaced",
            obj=row,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "old_machine": old.pk,
                "new_machine": new_id,
                "by": by,
                "chosen_by": None if chooser is None else chooser.pk,
                "seed": stored_seed,
                "options": list(options),
                "within_options": new_id in options,
                "reason": why,
            },
        )
        season_changed(meet.season)
    game.refresh_from_db()
    return ReplacedMachine(replacement=row, game=game, options=options)


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
            raise ValidationError(
                {"chosen_by": f"{who}; the league official may designate one instead."}
            )
        if machine is None:
            raise ValidationError({"machine": f"Say which machine {chosen_by} chose: {allowed}."})
        if machine.pk not in options:
            raise ValidationError(
                {
                    "machine": f"{machine.title} cannot replace {game.machine.title} under the §5 "
                    f"rules (R5-d, R5-e, R7.3-r); allowed: {allowed}."
                }
            )
        return machine.pk, m.MachineReplacement.By.SELECTOR, chosen_by, None
    if machine is None:
        if rules_by == "random" and drawn is not None:
            return machine_id_of(drawn), m.MachineReplacement.By.RANDOM, None, None
        if rules_by == "selector":
            raise ValidationError(
                {
                    "machine": f"{selector} chooses the replacement (give chosen_by and machine, "
                    "R5.1-a), or the league official designates one (give machine)."
                }
            )
        raise ValidationError(
            {"machine": "The league official designates the replacement (R7.3-s): give it."}
        )
    return machine.pk, m.MachineReplacement.By.LO, None, None


# --- helpers ---------------------------------------------------------------------------------


def _check_machine_at(meet: m.Meet, machine: m.Machine) -> None:
    if machine.league_id != meet.season.league_id:
        raise ValidationError({"machine": f"{machine} is not a machine of this league."})
    if meet.status == m.Meet.Status.CLOSED:
        raise ConflictError({"meet": f"Meet {meet.number} is closed."}, code="meet_already_closed")


def _unplayable_now(meet: m.Meet, machine: m.Machine) -> bool:
    latest = (
        m.MachineDeclaration.objects.filter(meet=meet, machine=machine)
        .order_by("-created_at", "-id")
        .values_list("kind", flat=True)
        .first()
    )
    return latest == m.MachineDeclaration.Kind.UNPLAYABLE


def declare_machine_state(
    meet: m.Meet, machine: m.Machine, kind: str, actor: User, reason: str
) -> bool:
    """Insert a declaration unless the machine is already in that state; True if inserted."""
    if _unplayable_now(meet, machine) == (kind == m.MachineDeclaration.Kind.UNPLAYABLE):
        return False
    row = m.MachineDeclaration.objects.create(
        meet=meet, machine=machine, kind=kind, official=actor, reason=reason
    )
    record_event(
        action=f"machine.declared_{kind}",
        obj=row,
        league=meet.season.league,
        actor=actor,
        data={"meet": meet.pk, "machine": machine.pk, "reason": reason},
    )
    return True


def _declaration(
    meet: m.Meet, machine: m.Machine, kind: str, reason: str, actor: User
) -> m.MachineDeclaration:
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        league = meet.season.league
        require_official(actor=actor, league=league, action="declare a machine's state")
        _check_machine_at(meet, machine)
        why = require_reason(reason, field="reason", what="A machine declaration (R7.3-q)")
        if not declare_machine_state(meet, machine, kind, actor, why):
            state = "unplayable" if kind == m.MachineDeclaration.Kind.UNPLAYABLE else "playable"
            raise ConflictError(
                {"machine": f"{machine} is already {state} at this meet."},
                code="machine_already_declared",
            )
        season_changed(meet.season)
    return m.MachineDeclaration.objects.filter(meet=meet, machine=machine).latest(
        "created_at", "id"
    )
