"""Machines at a meet (§5, §5.1, §7.3): choosing each group's next machine, declaring a machine
unplayable or repaired, announcing a machine problem before play, and replacing a game's
machine that became unplayable.

The picker and the play order come from `flipwell.rules.selection` and
`flipwell.rules.play_order`; these services only load facts, call the rules, store the new
facts and write the audit log.

A declaration holds for the rest of the meet until the next one (R7.3-q, R7.3-r); the meet board
reads the latest declaration of each machine.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import absent_at, match_absences
from flipwell.league.adapters.keys import machine_id_of, machine_key, machines_played, player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.audit import record_event
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
    locked_game,
    open_meet,
    require_official,
    require_reason,
    rules_edge,
    season_changed,
)
from flipwell.league.services._protocol import official_write
from flipwell.league.services.meets import SEED_LIMIT
from flipwell.rules import Ruleset
from flipwell.rules.compensatory_games import OpenGame, check_next_game_may_start
from flipwell.rules.machine_choices import MachineState, check_machine_choice, selectable_machines
from flipwell.rules.machine_draws import draw_machine
from flipwell.rules.machine_replacement import Replacement, replacement_machine
from flipwell.rules.play_order import play_order
from flipwell.rules.selection import PlayedGame, machine_picker, pick_verdict

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
    is not the picker, or the machine is not allowed (code ``machine_not_allowed``: the
    machine's refusal in `flipwell.rules.machine_choices`, as the selector
    `allowed_machines` lists it, and the allowed ones);
    ConflictError (code ``official_chooses``) when nobody played the previous game (A66).
    """
    with transaction.atomic():
        group = locked_group(group)
        chosen, data = _next_game(group=group, machine=machine, chosen_by=chosen_by)
        record_event(
            action="game.machine_chosen",
            obj=chosen.game,
            league=group.meet.season.league,
            actor=actor,
            data=data,
        )
        season_changed(group.meet.season)
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
        write.season = group.meet.season
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
            raise Refusal({"problem": "Say what the problem is."}, code="problem_required")
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

    Who decides (`flipwell.rules.replacement_machine`): the player who selected the
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
        return machine.pk, m.MachineReplacement.By.SELECTOR, chosen_by, None
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


# --- helpers ---------------------------------------------------------------------------------


def _check_machine_at(meet: m.Meet, machine: m.Machine) -> None:
    if machine.league_id != meet.season.league_id:
        raise Refusal(
            {"machine": f"{machine} is not a machine of this league."}, code="machine_not_in_league"
        )
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
