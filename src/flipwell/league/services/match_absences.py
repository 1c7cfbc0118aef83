"""A player, or a whole group, absent for the rest of the match (§2.4, R2.4-a).

Words:
- *match absence*: the LO's record that a player has left (or never came) and plays no more
  game of his group's match, from one game on (`MatchAbsence`). Every game of the match from
  there is his forfeit, countable toward the season forfeit (R2.4-h, §2.5); the rules derive
  each of those forfeits from the one fact (`flipwell.rules.match_as_played`), so nothing is
  stored game by game.
- *whole group absent*: every player of a group is absent (without notice, so §3.1 did not
  regroup): nobody plays the rest of the match, so its remaining games are stored at once,
  each with every score empty, its machines drawn by the LO (A66).
- *withdrawn*: an absence recorded by mistake, taken back by the LO with a reason.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Max
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import machine_id_of, machines_played
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.audit import record_event
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.meet_board.next_games import machine_states
from flipwell.league.selectors.meet_board.values import GAMES_PER_MATCH
from flipwell.league.services._edge import (
    group_player_ids,
    hold_machine_choices,
    open_meet,
    require_member,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import official_write
from flipwell.league.services.meet_machines.next_machine import locked_group, seed_or_fresh
from flipwell.league.services.meets.start import SEED_LIMIT
from flipwell.rules import Ruleset
from flipwell.rules.machine_choices import selectable_machines
from flipwell.rules.machine_draws import draw_machine

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class RecordedAbsence:
    """Players recorded absent for the rest of their match (R2.4-a): the stored facts, the
    games of the match that exist now and are their forfeits, and how many forfeits the
    absence makes in all (each absent player's, from the first game absent to game 4)."""

    absences: tuple[m.MatchAbsence, ...]
    games: tuple[m.Game, ...]
    """The group's games the players forfeit that exist now, including those created for a
    whole group; the later games' forfeits follow when they are played."""
    forfeits: int
    from_game: int


def record_match_absence(
    *,
    group: m.Group,
    players: Sequence[m.Player],
    actor: User,
    seed: int | None = None,
    note: str = "",
    from_game: int | None = None,
) -> RecordedAbsence:
    """Record that `players` are absent for the rest of their group's match (R2.4-a).

    One fact per player (`MatchAbsence`): from game `from_game` on, every game of the match
    is his forfeit, countable toward the §2.5 season forfeit (R2.4-h; the LO may designate any
    of them non-countable afterwards, R2.4-g). The rules derive each of those forfeits
    (`MatchFacts.absent_from`); his score is refused on those games' sheets, he neither enters
    nor confirms them, picks no machine and has no place in their play order. `from_game`
    defaults to the first game without confirmed scores (the game in play, or the next one
    when the last is confirmed); it may be a later game (he finished the game in play and
    left), never a confirmed one (a correction changes those, R3-b).

    When `players` are the whole group, nobody plays the rest of the match: see
    `_store_empty_sheets` (the missing games' machines drawn from `seed`, A66).

    Side effects: a MatchAbsence per player; for a whole group the missing Games (chosen_by
    null) and a confirmed all-empty sheet per remaining game (entered as the group's first two
    players, recorded by `actor`, with a note); one audit event ``match.absence_recorded``.
    Raises PermissionDenied unless `actor` is a league official; ValidationError for a meet
    that is not open, no players, a player outside the group, nothing left to forfeit or a
    `from_game` that is confirmed or outside the match; ConflictError (code
    ``absence_already_recorded``) for a player already recorded absent.
    """
    with official_write(
        league=group.meet.season.league, actor=actor, action="record a group's absence"
    ) as write:
        group = locked_group(group)
        meet, league = group.meet, group.meet.season.league
        open_meet(meet, doing="record an absence")
        write.only_meets(meet)  # and the write's season: the meet's
        members = group_player_ids(group)
        chosen = _absent_players(players, members, group)
        whole = _whole_group(group, chosen, members)
        first, games = _first_game_absent(group, from_game, whole=whole)
        remaining, seeds = _games_to_forfeit(group, games, first, whole=whole, seed=seed)
        why = note.strip() or "Absent for the rest of the match."
        absences = _store_absences(group, chosen, first=first, note=why, actor=actor)
        if whole:
            _store_empty_sheets(remaining, members, actor=actor, league=league, note=why)
        players_ids, numbers = [p.pk for p in chosen], [g.number for g in remaining]
        write.event(
            "match.absence_recorded",
            group,
            {"players": players_ids, "from_game": first, "games": numbers, "whole_group": whole}
            | {"seeds": seeds},
        )
    return RecordedAbsence(
        absences=tuple(absences),
        games=tuple(remaining),
        forfeits=len(chosen) * (GAMES_PER_MATCH - first + 1),
        from_game=first,
    )


def _whole_group(group: m.Group, chosen: Sequence[m.Player], members: Sequence[int]) -> bool:
    """These players and those recorded absent before are the whole group (R2.4-a)."""
    before = m.MatchAbsence.objects.filter(group=group).values_list("player_id", flat=True)
    return {p.pk for p in chosen} | set(before) == set(members)


def _store_absences(
    group: m.Group, chosen: Sequence[m.Player], *, first: int, note: str, actor: User
) -> list[m.MatchAbsence]:
    """One `MatchAbsence` per absent player, from game `first` on (R2.4-a)."""
    return m.MatchAbsence.objects.bulk_create(
        m.MatchAbsence(group=group, player=p, from_game=first, note=note, recorded_by=actor)
        for p in chosen
    )


def _absent_players(
    players: Sequence[m.Player], members: list[int], group: m.Group
) -> list[m.Player]:
    """The absent players, each once; refused when none is given, one is not in `group` or
    one is already recorded absent for the rest of this match."""
    chosen = list(dict.fromkeys(players))
    if not chosen:
        raise Refusal({"players": "Choose the players who are absent."}, code="players_required")
    for player in chosen:
        require_member(player, members, field="players", group=group)
    recorded = dict(
        m.MatchAbsence.objects.filter(group=group, player__in=chosen).values_list(
            "player_id", "from_game"
        )
    )
    again = [p for p in chosen if p.pk in recorded]
    if again:
        raise ConflictError(
            {
                "players": f"{again[0]} is already recorded absent for the rest of the match "
                f"(from game {recorded[again[0].pk]})."
            },
            code="absence_already_recorded",
        )
    return chosen


def _first_game_absent(
    group: m.Group, asked: int | None, *, whole: bool
) -> tuple[int, list[m.Game]]:
    """The first game the absence covers (R2.4-a): `asked`, or the group's first game without
    confirmed scores; with the group's games. Refused when every game of the match is
    confirmed, for a confirmed game or one outside the match, and for a whole group from a
    later game than that (its games from there are stored at once, played by nobody)."""
    games = list(group.games.select_related("machine").order_by("number"))
    confirmed = set(
        m.ScoreSubmission.objects.filter(
            game__group=group, confirmed_by__isnull=False, is_correction=False
        ).values_list("game_id", flat=True)
    )
    first = next((g.number for g in games if g.pk not in confirmed), len(games) + 1)
    if first > GAMES_PER_MATCH:
        raise ConflictError(
            {
                "players": f"Every game of group {group.number} has confirmed scores: "
                "nothing is left to forfeit."
            },
            code="match_complete",
        )
    if asked is None or (asked == first and whole):
        return first, games
    if whole:
        raise Refusal(
            {
                "from_game": f"A whole group absent forfeits from game {first}, its first game "
                "without confirmed scores: confirm the game it played first."
            },
            code="whole_group_from_game",
        )
    if isinstance(asked, bool) or not first <= asked <= GAMES_PER_MATCH:
        confirmed_games = (
            f"game {first - 1} has confirmed scores (a correction changes those)"
            if first > 1
            else "a match has four games"
        )
        raise Refusal(
            {"from_game": f"Choose a game from {first} to {GAMES_PER_MATCH}: {confirmed_games}."},
            code="from_game_out_of_range",
        )
    return asked, games


def _games_to_forfeit(
    group: m.Group, games: list[m.Game], first: int, *, whole: bool, seed: int | None
) -> tuple[list[m.Game], list[int]]:
    """The group's games from game `first` on and, for a whole group absent, its missing
    games created with machines drawn by the LO (A66); with the draws' seeds."""
    remaining = [g for g in games if g.number >= first]
    seeds: list[int] = []
    if whole and len(games) < GAMES_PER_MATCH:
        ruleset = season_ruleset(group.meet.season)
        seeds, created = _draw_missing_games(group, games, ruleset=ruleset, seed=seed)
        remaining.extend(created)
    return remaining, seeds


def _draw_missing_games(
    group: m.Group, games: Sequence[m.Game], *, ruleset: Ruleset, seed: int | None
) -> tuple[list[int], list[m.Game]]:
    """The games a whole group absent did not start, each on a machine drawn by the LO (A66,
    as R5-a) from `seed` + the game's number; the seeds and the created Games."""
    hold_machine_choices(group.meet_id)
    states = [s for s, _ in machine_states(group.meet)]
    played = machines_played((g.machine_id, g.machine.title) for g in games)
    base = seed_or_fresh(seed)
    seeds: list[int] = []
    created: list[m.Game] = []
    for number in range(len(games) + 1, GAMES_PER_MATCH + 1):
        draw_seed = (base + number) % SEED_LIMIT
        with rules_edge("players", code="no_machine_left"):
            options = selectable_machines(
                states, group=group.number, played=played, ruleset=ruleset
            )
            drawn = draw_machine(options.machines, seed=draw_seed)
        played.append(drawn)
        seeds.append(draw_seed)
        created.append(
            m.Game.objects.create(group=group, number=number, machine_id=machine_id_of(drawn))
        )
    return seeds, created


def _store_empty_sheets(
    games: Sequence[m.Game], members: Sequence[int], *, actor: User, league: m.League, note: str
) -> None:
    """A confirmed sheet with every score empty for each game a whole group forfeits: nobody
    played it (R2.4-a; a whole group absent without notice, which §3.1 does not regroup), so
    each missing game's machine is drawn by the LO (A66, as R5-a) and the match ends with each
    player's forfeits (§2.5). The sheet names the group's first two players, as a console sheet
    does; the note and `recorded_by` say the official recorded it."""
    latest = dict(
        m.ScoreSubmission.objects.filter(game__in=games)
        .order_by()
        .values("game_id")
        .annotate(top=Max("version"))
        .values_list("game_id", "top")
    )
    now = timezone.now()
    first, second = members[0], members[1]  # a group has at least 2 players (§4.1)
    sheets = m.ScoreSubmission.objects.bulk_create(
        m.ScoreSubmission(
            game=g,
            version=latest.get(g.pk, 0) + 1,
            entered_by_id=first,
            confirmed_by_id=second,
            confirmed_at=now,
            recorded_by=actor,
            idempotency_key=f"absence-{g.pk}-{secrets.token_hex(8)}",
            idempotency_scope=f"{league.pk}:official",
            note=f"Recorded by the official: {note}",
        )
        for g in games
    )
    m.ScoreLine.objects.bulk_create(
        m.ScoreLine(submission=s, player_id=p, machine_score=None) for s in sheets for p in members
    )


def withdraw_match_absence(
    *, group: m.Group, player: m.Player, reason: str, actor: User
) -> m.MatchAbsence:
    """The LO withdraws `player`'s absence for the rest of the match, recorded by mistake
    (he is here after all): the games from then on are his again (R2.4-a).

    Games already confirmed keep their sheets: his empty line there stays a forfeit (a
    correction changes a confirmed sheet, R3-b); the game in play and later ones take his
    score again. A whole group's absence is not withdrawn one player at a time: its games
    were stored as played by nobody (correct those sheets instead). Returns the withdrawn
    row (deleted).

    Side effects: deletes the MatchAbsence, one audit event ``match.absence_withdrawn`` (with
    the first game it covered and the reason). Raises PermissionDenied unless `actor` is a
    league official; ValidationError for a meet that is not open, no reason, a player
    outside the group or not recorded absent, or one of a whole group recorded absent.
    """
    with official_write(
        league=group.meet.season.league, actor=actor, action="withdraw an absence"
    ) as write:
        group = locked_group(group)
        write.season = group.meet.season
        open_meet(group.meet, doing="withdraw an absence")
        write.only_meets(group.meet)
        why = require_reason(reason, field="reason", what="Withdrawing an absence")
        members = group_player_ids(group)
        require_member(player, members, field="player", group=group)
        absences = {a.player_id: a for a in m.MatchAbsence.objects.filter(group=group)}
        absence = absences.get(player.pk)
        if absence is None:
            raise Refusal(
                {"player": f"{player} is not recorded absent for the rest of the match."},
                code="not_absent",
            )
        if set(absences) == set(members):
            raise ConflictError(
                {
                    "player": f"Group {group.number} was recorded absent as a whole: its games "
                    "were stored as played by nobody; correct those sheets instead."
                },
                code="whole_group_absent",
            )
        record_event(  # now: the row is deleted before the write's own events are recorded
            action="match.absence_withdrawn",
            obj=absence,
            league=write.league,
            actor=actor,
            data={"player": player.pk, "from_game": absence.from_game, "reason": why},
        )
        absence.delete()
    return absence
