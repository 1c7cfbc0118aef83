"""Use cases of the playoff matches (§6.4, §6.5, §6.6): start a game, record its result, a
tiebreaker, a no-show or a lateness notice.

Words: see `flipwell.league.selectors.playoffs` (facts, match ids, machine keys) and
`flipwell.rules.playoff_matches` / `playoff_bracket`.

- Every game, tiebreaker and no-show is checked by the rules against the whole division's
  bracket before it is written; a refusal is a ValidationError carrying the rules' message.
- Machine draws (a match's game 1, R6.4-b; a tiebreaker, R6.5-b) use the night's recorded
  random seed (`_playoff_night`), so a draw can be repeated.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import playoff_game
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.audit import record_event
from flipwell.league.models.playoffs import PlayoffNoShow
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import (
    DivisionFacts,
    GameInProgress,
    PlayoffFacts,
    bracket_state,
    load_playoff_facts,
    match_round,
)
from flipwell.league.services._edge import (
    league_changed,
    require_official,
    rules_edge,
)
from flipwell.league.services._playoff_night import (
    begin_night,
    busy_machines,
    draw_seed,
    drawn_machine,
    locked_night,
    unplayable_machines,
)
from flipwell.league.services._protocol import official_write
from flipwell.rules.playoff_machines import (
    check_playoff_machine,
    delayed_match_start,
    draw_playoff_machine,
    tardiness_notice_valid,
)
from flipwell.rules.playoff_matches import PlayoffGame, PlayoffMatchRecord, PlayoffMatchState

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def start_playoff_game(
    *,
    season: m.Season,
    division: str,
    match: str,
    actor: User,
    machine: m.Machine | None = None,
) -> m.PlayoffGame:
    """Start a match's next game on its machine (§6.4, R6.4-a..c, A44).

    Game 1's machine is drawn at random (R6.4-b): leave `machine` None. For games 2 and 3 the
    loser of the previous game chooses (R6.4-c): `machine` is his pick, checked against the
    §5 constraints (not played in this match, not busy with another match, playable).
    Side effects: creates the PlayoffMatch on its first game, inserts the PlayoffGame (its
    chooser recorded), opens the night, and an audit event ``playoffs.game_started``.
    Raises PermissionDenied unless `actor` is a league official, and ValidationError
    (nothing written) when the match cannot start a game (waiting, game in progress,
    tiebreaker needed, complete) or for a machine the rules refuse.
    """
    with transaction.atomic():
        league_changed(season.league_id)
        require_official(actor=actor, league=season.league, action="run the playoffs")
        return start_game(season, division, match, machine=machine, actor=actor)


def start_game(
    season: m.Season, division: str, match: str, *, machine: m.Machine | None, actor: User | None
) -> m.PlayoffGame:
    """`start_playoff_game` inside its transaction, once who starts it was checked (the
    official's console, or the match's players on its sheet: `playoff_sheets`)."""
    night, facts, div, state = _match_facts(season, division, match)
    number = _next_game(match, div, state)
    key = _game_machine(season, night, facts, (division, match), number, state, machine)
    chooser = state.machine_chooser
    game = m.PlayoffGame.objects.create(
        match=_match_row(night, division, match),
        number=number,
        machine_id=int(key),
        chosen_by_id=int(chooser) if chooser else None,
    )
    begin_night(night)
    record_event(
        action="playoffs.game_started",
        obj=game,
        league=season.league,
        actor=actor,
        data={
            "division": division,
            "match": match,
            "number": game.number,
            "machine": int(key),
            "chosen_by": int(chooser) if chooser else None,
        },
    )
    return game


def _next_game(match: str, div: DivisionFacts, state: PlayoffMatchState) -> int:
    """The number of the match's next game; refused while one is being played, or when the
    match waits for its players, needs a tiebreaker or is complete."""
    if match in div.in_progress:
        busy_game = div.in_progress[match]
        raise ConflictError(
            {
                "match": f"{match}: game {busy_game.number} is being played on "
                f"{busy_game.machine}; record its result first."
            },
            code="game_in_progress",
        )
    if state.status != "ready" or state.next_game is None:
        raise ConflictError(
            {"match": f"{match} cannot start a game: {state.needed or 'it is complete'}."},
            code="match_not_ready",
        )
    return state.next_game


def _game_machine(
    season: m.Season,
    night: m.PlayoffNight,
    facts: PlayoffFacts,
    where: tuple[str, str],
    number: int,
    state: PlayoffMatchState,
    machine: m.Machine | None,
) -> str:
    """The machine key of game `number` of the match `where` (division, match): drawn at
    random for game 1 (R6.4-b), else `machine`, the loser's pick (R6.4-c), as §5 allows it
    (not played in this match, not busy in another, playable)."""
    division, match = where
    record = facts.divisions[division].records.get(match, PlayoffMatchRecord())
    played = [g.machine for g in record.games]
    busy = busy_machines(facts, exclude=where)
    unplayable = unplayable_machines(season)
    keys = list(facts.machines)
    chooser = state.machine_chooser
    with rules_edge(
        "machine", code="machine_not_allowed", message=lambda text: _titled(text, facts)
    ):
        if chooser is None:
            if machine is not None:
                raise Refusal(
                    {
                        "machine": f"Game 1 of {match} is played on a machine drawn at random "
                        "(R6.4-b); do not choose one."
                    },
                    code="machine_drawn",
                )
            seed = draw_seed(night, f"{division}:{match}:{number}")
            ruleset = season_ruleset(season)
            return draw_playoff_machine(
                keys, seed=seed, played=played, busy=busy, unplayable=unplayable, ruleset=ruleset
            )
        if machine is None:
            raise Refusal(
                {
                    "machine": f"{facts.names[chooser].name} chooses the machine for game "
                    f"{number} of {match} (R6.4-c)."
                },
                code="machine_required",
            )
        return _checked_pick(str(machine.pk), keys, played, busy, unplayable)


def record_playoff_game(
    *,
    season: m.Season,
    division: str,
    match: str,
    actor: User,
    order: Sequence[m.Player] | None = None,
    scores: Mapping[m.Player, int] | None = None,
    tie_orders: Sequence[Sequence[m.Player]] = (),
) -> m.PlayoffGame:
    """Record the result of a match's game in progress (R6.3-a..c, A54, R3.2-i).

    Either `order` (the finishing order, winner first) or `scores` (every present player's
    machine score) with `tie_orders` (for equal scores, the one-ball playoff's order).
    Side effects: inserts a PlayoffResult per player and an audit event
    ``playoffs.game_recorded``. Raises PermissionDenied unless `actor` is a league official,
    and ValidationError (nothing written) when no game is in progress or when the rules
    refuse the result (missing or extra players, an unordered tie, a no-show listed).
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        _, _, div, state = _match_facts(season, division, match)
        in_progress = _game_in_progress(match, div, state)
        if (order is None) == (scores is None):
            raise Refusal(
                {"order": "Give the finishing order or the machine scores, not both or neither."},
                code="order_or_scores",
            )
        game = playoff_game(
            in_progress.machine_id,
            order=[p.pk for p in order] if order is not None else None,
            scores={p.pk: s for p, s in scores.items()} if scores is not None else None,
            tie_orders=[[p.pk for p in o] for o in tie_orders],
        )
        _check_record(season, div, match, lambda r: replace(r, games=(*r.games, game)))
        results = _results(in_progress.game_id, actor, order, scores, tie_orders)
        m.PlayoffResult.objects.bulk_create(results)
        row = m.PlayoffGame.objects.get(pk=in_progress.game_id)
        write.event(
            "playoffs.game_recorded",
            row,
            {
                "division": division,
                "match": match,
                "number": row.number,
                "order": [p.pk for p in order] if order is not None else None,
                "scores": {str(p.pk): s for p, s in scores.items()} if scores else None,
                "tie_orders": [[p.pk for p in o] for o in tie_orders],
            },
        )
    return row


def _game_in_progress(match: str, div: DivisionFacts, state: PlayoffMatchState) -> GameInProgress:
    """The match's game being played; refused when none is."""
    in_progress = div.in_progress.get(match)
    if in_progress is None:
        raise ConflictError(
            {
                "match": f"{match} has no game in progress: start game "
                f"{state.next_game or '?'} first ({state.needed or 'complete'})."
            },
            code="no_game_in_progress",
        )
    return in_progress


def _results(
    game_id: int,
    actor: User,
    order: Sequence[m.Player] | None,
    scores: Mapping[m.Player, int] | None,
    tie_orders: Sequence[Sequence[m.Player]],
) -> list[m.PlayoffResult]:
    """A game's PlayoffResult rows: each player's place in `order`, or else each player's
    machine score and, on equal scores, place in the one-ball playoff."""
    if order is not None:
        return [
            m.PlayoffResult(game_id=game_id, player=p, place=i, recorded_by=actor)
            for i, p in enumerate(order, 1)
        ]
    tie_place = {p.pk: i for o in tie_orders for i, p in enumerate(o, 1)}
    return [
        m.PlayoffResult(
            game_id=game_id,
            player=p,
            machine_score=s,
            tie_place=tie_place.get(p.pk),
            recorded_by=actor,
        )
        for p, s in (scores or {}).items()
    ]


@dataclass(frozen=True)
class RecordedTiebreaker:
    """A recorded tiebreaker game (R6.5-a): the stored Tiebreaker and its places, winner
    first."""

    tiebreaker: m.Tiebreaker
    places: list[m.TiebreakerPlace]


def record_playoff_tiebreaker(
    *,
    season: m.Season,
    division: str,
    match: str,
    order: Sequence[m.Player],
    actor: User,
    machine: m.Machine | None = None,
) -> RecordedTiebreaker:
    """Record a tiebreaker game's finishing order for tied players of a match (R6.5-a, A40).

    order: the tied players, winner first. machine: where it was played; None draws it at
    random from every playable machine (R6.5-b, A44). Side effects: inserts the Tiebreaker
    (purpose match) with its places and an audit event ``playoffs.tiebreaker_recorded``;
    returns both (`RecordedTiebreaker`).
    Raises PermissionDenied unless `actor` is a league official, and ValidationError
    (nothing written) when the match needs no tiebreaker or the order is not its tie.
    """
    with transaction.atomic():
        league_changed(season.league_id)
        require_official(actor=actor, league=season.league, action="run the playoffs")
        night, facts, div, state = _match_facts(season, division, match)
        if state.status != "tiebreaker_needed":
            raise ConflictError(
                {"match": f"{match} needs no tiebreaker ({state.needed or 'it is complete'})."},
                code="no_tiebreaker_needed",
            )
        drawn = machine or drawn_machine(night, f"{division}:{match}:tiebreaker", True, facts)
        game = PlayoffGame(machine=str(drawn.pk), order=tuple(player_key(p.pk) for p in order))
        _check_record(season, div, match, lambda r: replace(r, tiebreakers=(*r.tiebreakers, game)))
        row = _match_row(night, division, match)
        tiebreaker = m.Tiebreaker.objects.create(
            playoff_night=night,
            purpose=m.Tiebreaker.Purpose.MATCH,
            match=row,
            machine=drawn,
            recorded_by=actor,
        )
        places = m.TiebreakerPlace.objects.bulk_create(
            m.TiebreakerPlace(tiebreaker=tiebreaker, player=p, place=i)
            for i, p in enumerate(order, 1)
        )
        record_event(
            action="playoffs.tiebreaker_recorded",
            obj=tiebreaker,
            league=season.league,
            actor=actor,
            data={"match": match, "order": [p.pk for p in order], "machine": drawn.pk},
        )
    return RecordedTiebreaker(tiebreaker=tiebreaker, places=places)


def record_no_show(
    *,
    season: m.Season,
    division: str,
    match: str,
    player: m.Player,
    actor: User,
    note: str = "",
) -> PlayoffNoShow:
    """A player was not present at his match's start: he is disqualified from it (R6.6-c).

    The match becomes a 3-player round scored 4-2-1 with one player eliminated (R6.6-d;
    further cases A42), as the rules compute. Side effects: creates the PlayoffMatch if
    needed, inserts the PlayoffNoShow (who recorded it, when) and an audit event
    ``playoffs.no_show_recorded``. Raises PermissionDenied unless `actor` is a league
    official, and ValidationError (nothing written) before the match's players are known,
    after its first game started, for a player who is not in the match, or before the
    delayed start his lateness notice gave (R6.6-a, `record_playoff_lateness_notice`).
    """
    with transaction.atomic():
        league_changed(season.league_id)
        require_official(actor=actor, league=season.league, action="run the playoffs")
        night, facts, div, state = _match_with_players(season, division, match)
        if match in div.started:
            raise ConflictError(
                {"match": f"{match} has started; a no-show is recorded at its start (R6.6-c)."},
                code="match_already_started",
            )
        key = _player_key_in_match(player, match, state, facts)
        if key in state.absent:
            raise ConflictError(
                {"player": f"{player} is already a no-show in {match}."},
                code="no_show_already_recorded",
            )
        _check_record(season, div, match, lambda r: replace(r, absent=(*r.absent, key)))
        _check_waited(night, division, match, player)
        row = _match_row(night, division, match)
        no_show = PlayoffNoShow.objects.create(
            match=row, player=player, note=note.strip(), recorded_by=actor
        )
        begin_night(night)
        record_event(
            action="playoffs.no_show_recorded",
            obj=no_show,
            league=season.league,
            actor=actor,
            data={"division": division, "match": match, "player": player.pk, "note": note},
        )
    return no_show


@dataclass(frozen=True)
class PlayoffLateness:
    """A recorded playoff lateness notice, the match start it preceded, and the delayed start:
    the latest time the match waits for him (R6.6-a, A59)."""

    notice: m.PlayoffLatenessNotice
    start: datetime.datetime
    wait_until: datetime.datetime


def record_playoff_lateness_notice(
    *,
    season: m.Season,
    division: str,
    match: str,
    player: m.Player,
    actor: User,
    at: datetime.datetime | None = None,
) -> PlayoffLateness:
    """Record that the LO was told at `at` (default now) that `player` will be late for his
    playoff match; the match waits for him up to 15 minutes (R6.6-a, §2.2, A59).

    Valid only before the match start (`tardiness_notice_valid`): the playoff night's start
    (its date at the season's start time, in the league's time zone), and only while the match
    has not started. The delayed start (`delayed_match_start`) is returned; a no-show of him
    before it is refused (`record_no_show`).

    Side effects: creates the PlayoffMatch if needed, a PlayoffLatenessNotice, an audit event
    ``playoffs.lateness_announced``. Raises PermissionDenied unless `actor` is a league
    official; ValidationError for a notice at or after the start, a match that has started or
    whose players are not known yet, a player not in the match, or a repeat.
    """
    told = at or timezone.now()
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        night, facts, div, state = _match_with_players(season, division, match)
        _check_before_start(match, div, state)
        _player_key_in_match(player, match, state, facts)
        start = playoff_start(night)
        _check_notice_in_time(told, start, player)
        row = _match_row(night, division, match)
        if m.PlayoffLatenessNotice.objects.filter(match=row, player=player).exists():
            raise ConflictError(
                {"player": f"{player}'s lateness notice for {match} is recorded."},
                code="lateness_already_recorded",
            )
        notice = m.PlayoffLatenessNotice.objects.create(
            match=row, player=player, notice_at=told, recorded_by=actor
        )
        ruleset = season_ruleset(season)
        wait_until = delayed_match_start(start=start, notice_at=told, ruleset=ruleset)
        data = {"division": division, "match": match, "player": player.pk}
        times = {"at": told.isoformat(), "wait_until": wait_until.isoformat()}
        write.event("playoffs.lateness_announced", notice, {**data, **times})
    return PlayoffLateness(notice=notice, start=start, wait_until=wait_until)


def _check_before_start(match: str, div: DivisionFacts, state: PlayoffMatchState) -> None:
    """A lateness notice comes before the match starts (R6.6-a): its first game or a no-show."""
    if match in div.started or state.absent:
        raise ConflictError(
            {"match": f"{match} has started: a lateness notice comes before its start (R6.6-a)."},
            code="match_already_started",
        )


def _check_notice_in_time(
    told: datetime.datetime, start: datetime.datetime, player: m.Player
) -> None:
    """Refuse a lateness notice given at `told`, not before the match's `start` (R6.6-a, §2.2:
    `tardiness_notice_valid`)."""
    with rules_edge("at", code="notice_after_start", message=str):
        valid = tardiness_notice_valid(notice_at=told, start=start)
    if not valid:
        raise Refusal(
            {
                "at": f"Too late for a lateness notice: the match starts at "
                f"{start:%Y-%m-%d %H:%M} and the notice must come before (R6.6-a, §2.2). "
                f"{player} is a no-show if not present at the start (R6.6-c)."
            },
            code="notice_after_start",
        )


def playoff_start(night: m.PlayoffNight) -> datetime.datetime:
    """The playoff night's start: its date at the season's start time, in the league's time
    zone (R6.1-a); the start of its matches for tardiness (R6.6-a, A59)."""
    season = night.season
    zone = ZoneInfo(season.league.time_zone)
    return datetime.datetime.combine(night.date, season.start_time, tzinfo=zone)


def _check_waited(night: m.PlayoffNight, division: str, match: str, player: m.Player) -> None:
    """Refuse a no-show before the delayed start his lateness notice gave (R6.6-a, A59)."""
    round_, number = match_round(match)
    notice = m.PlayoffLatenessNotice.objects.filter(
        match__playoff_night=night,
        match__division=division,
        match__round=round_,
        match__number=number,
        player=player,
    ).first()
    if notice is None:
        return
    wait_until = delayed_match_start(
        start=playoff_start(night),
        notice_at=notice.notice_at,
        ruleset=season_ruleset(night.season),
    )
    if timezone.now() < wait_until:
        local = timezone.localtime(wait_until, ZoneInfo(night.season.league.time_zone))
        raise ConflictError(
            {
                "player": f"{player} announced they would be late (R6.6-a): the match waits for "
                f"them until {local:%H:%M}; they are a no-show only if not present by then."
            },
            code="waiting_for_late_player",
        )


def _division(facts: PlayoffFacts, division: str) -> DivisionFacts:
    if division not in facts.divisions:
        known = ", ".join(facts.divisions) or "none (the bracket is not drawn yet)"
        raise Refusal(
            {"division": f"No playoff division {division!r}; divisions: {known}."},
            code="unknown_division",
        )
    return facts.divisions[division]


def _match_facts(
    season: m.Season, division: str, match: str
) -> tuple[m.PlayoffNight, PlayoffFacts, DivisionFacts, PlayoffMatchState]:
    """The season's playoff night (locked for the service), its facts, the division and the
    match's state as the rules compute it."""
    night = locked_night(season)
    facts = load_playoff_facts(night)
    div = _division(facts, division)
    return night, facts, div, _state(season, div, match)


def _match_row(night: m.PlayoffNight, division: str, match: str) -> m.PlayoffMatch:
    """The match's stored row, created on its first stored fact (game, no-show, notice)."""
    round_, number = match_round(match)
    row, _ = m.PlayoffMatch.objects.get_or_create(
        playoff_night=night, division=division, round=round_, number=number
    )
    return row


def _player_key_in_match(
    player: m.Player, match: str, state: PlayoffMatchState, facts: PlayoffFacts
) -> str:
    """The player's key; a ValidationError naming the match's players when he is not one."""
    key = player_key(player.pk)
    if key not in state.players:
        players = ", ".join(facts.names[p].name for p in state.players)
        raise Refusal(
            {"player": f"{player} does not play in {match}; its players: {players}."},
            code="not_in_match",
        )
    return key


def _match_with_players(
    season: m.Season, division: str, match: str
) -> tuple[m.PlayoffNight, PlayoffFacts, DivisionFacts, PlayoffMatchState]:
    """The locked night, its facts, the division and the match, whose players must be known."""
    night, facts, div, state = _match_facts(season, division, match)
    if state.status == "waiting":
        raise ConflictError(
            {"match": f"{match}'s players are not known yet ({state.needed})."},
            code="match_players_unknown",
        )
    return night, facts, div, state


def _state(season: m.Season, div: DivisionFacts, match: str) -> PlayoffMatchState:
    with rules_edge("match", code="unknown_match", message=str):
        return bracket_state(div, season_ruleset(season)).match(match)


def _check_record(
    season: m.Season,
    div: DivisionFacts,
    match: str,
    change: Callable[[PlayoffMatchRecord], PlayoffMatchRecord],
) -> None:
    """Refuse a change to one match's record that the rules refuse for the whole bracket."""
    records = dict(div.records)
    records[match] = change(records.get(match, PlayoffMatchRecord()))
    with rules_edge("order", code="bracket_refused", message=str):
        bracket_state(replace(div, records=records), season_ruleset(season))


def _checked_pick(
    key: str, keys: list[str], played: list[str], busy: list[str], unplayable: list[str]
) -> str:
    return check_playoff_machine(
        key, machines=keys, played=played, busy=busy, unplayable=unplayable
    )


def _titled(message: str, facts: PlayoffFacts) -> str:
    """A rules message naming machine keys, with the machines' titles instead."""
    for key, title in sorted(facts.machines.items(), key=lambda kv: -len(kv[0])):
        message = message.replace(f"machine {key} ", f"machine {title} ")
    return message
