"""Use cases of the playoff night (§6): qualify, settle seed ties, withdrawals, play the matches.

Words: see `flipwell.league.selectors.playoffs` (facts, match ids, machine keys) and
`flipwell.rules.playoff_seeding` / `playoff_matches` / `playoff_bracket`.

- *qualifying* computes the divisions and seeds from the final standings (R6.1-d, R6.2-a),
  the recorded single-ball playoffs (R6.1-e) and the withdrawals (R6.6-b), and stores them as
  the bracket the night is played with (Qualifier rows). They are rewritten whenever a seed
  playoff or a withdrawal is recorded, and frozen once the first game or no-show of the night
  is recorded: like a meet's groups (A45), the bracket played is not redrawn afterwards.
- Every game, tiebreaker and no-show is checked by the rules against the whole division's
  bracket before it is written; a refusal is a ValidationError carrying the rules' message.
- Machine draws (a match's game 1, R6.4-b; a tiebreaker, R6.5-b; a seed playoff, R6.1-e) use
  the night's recorded random seed, so a draw can be repeated.
"""

from __future__ import annotations

import datetime
import random
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters import player_key, ruleset_for
from flipwell.league.audit import record_event
from flipwell.league.models.playoffs import PlayoffNoShow
from flipwell.league.selectors.playoffs import (
    DivisionFacts,
    PlayoffFacts,
    bracket_state,
    load_playoff_facts,
    match_round,
    playoff_qualification_now,
)
from flipwell.league.services._edge import record_ruling
from flipwell.league.services.permissions import require_role
from flipwell.rules import (
    PlayoffGame,
    PlayoffMatchRecord,
    PlayoffMatchState,
    PlayoffQualification,
    RuleError,
)
from flipwell.rules.playoff_machines import (
    check_playoff_machine,
    delayed_match_start,
    draw_playoff_machine,
    draw_tiebreaker_machine,
    tardiness_notice_valid,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def qualify_for_playoffs(
    *,
    season: m.Season,
    date: datetime.date,
    actor: User,
    cut: int | None = None,
    cut_reason: str = "",
) -> PlayoffQualification:
    """Plan the playoff night and draw its bracket from the final standings (§6.1, §6.2).

    Every regular meet of the season must be closed (R6.1-d: "after the final regular
    week"). cut: an LO override of the number of qualifiers, with its reason (A06, R6.2-b:
    at least half the league). Returns the rules' qualification: when `ties` is not empty,
    no bracket is stored yet and each tie must be settled with `record_seed_playoff`.

    Side effects: creates the PlayoffNight (with a random machine-draw seed) or updates its
    date, stores the cut and, when complete, the Qualifier rows; a Ruling for a cut
    override; an audit event ``playoffs.qualified``. Raises PermissionDenied unless `actor` is
    a league official, and ValidationError (nothing written) while a meet is not closed,
    once the night's play has started, or for a cut the rules refuse or without a reason.
    """
    with transaction.atomic():
        _require_official(actor, season)
        closed = season.meets.filter(status=m.Meet.Status.CLOSED).count()
        if closed < season.number_of_meets:
            raise ValidationError(
                f"{season.name} has closed {closed} of its {season.number_of_meets} meets: "
                "playoff entry is decided after the final regular week (R6.1-d).",
                code="season_not_over",
            )
        if cut is not None and not cut_reason.strip():
            raise ValidationError(
                {"cut_reason": "An override of the playoff cut needs a reason (A06)."},
                code="required",
            )
        night = m.PlayoffNight.objects.select_for_update().filter(season=season).first()
        if night is None:
            night = m.PlayoffNight.objects.create(
                season=season,
                date=date,
                machine_draw_seed=random.SystemRandom().randrange(1, 2**31),
            )
        else:
            _check_not_started(night)
            night.date = date
        night.cut_override = cut
        night.save()
        qualification = _write_qualifiers(night, field="cut")
        if cut is not None:
            record_ruling(
                league=season.league,
                official=actor,
                kind="playoff_cut_override",
                subject=f"{season.name} playoff cut: {cut}",
                reason=cut_reason.strip(),
            )
        record_event(
            action="playoffs.qualified",
            obj=night,
            league=season.league,
            actor=actor,
            data={
                "date": date.isoformat(),
                "cut": qualification.cut,
                "cut_override": cut,
                "ties": [list(t.players) for t in qualification.ties],
            },
        )
    return qualification


def record_seed_playoff(
    *,
    season: m.Season,
    order: Sequence[m.Player],
    actor: User,
    machine: m.Machine | None = None,
) -> PlayoffQualification:
    """Record the order a single-ball playoff gave players tied on season points (R6.1-e, A39).

    order: the tied players, winner first; they must be exactly the players of one open tie.
    machine: the machine it was played on; None draws one at random from the playable ones.
    Side effects: inserts a Tiebreaker (entry or seeding) with its places, rewrites the
    Qualifier rows, and an audit event ``playoffs.seed_playoff_recorded``. Raises
    PermissionDenied unless `actor` is a league official, and ValidationError (nothing
    written) when no such tie is open, once play has started, or when the rules refuse it.
    """
    with transaction.atomic():
        _require_official(actor, season)
        night = _night(season)
        _check_not_started(night)
        keys = [player_key(p.pk) for p in order]
        open_ties = playoff_qualification_now(season, night).ties
        tie = next((t for t in open_ties if sorted(t.players) == sorted(keys)), None)
        if tie is None:
            listed = "; ".join(t.message for t in open_ties) or "none"
            raise ValidationError(
                {"order": f"These players are not one open tie. Open ties: {listed}"},
                code="no_such_tie",
            )
        drawn = machine or _drawn_machine(night, f"seed:{':'.join(keys)}", tiebreaker=True)
        tiebreaker = m.Tiebreaker.objects.create(
            playoff_night=night,
            purpose=m.Tiebreaker.Purpose.SEEDING
            if tie.line == "seeding"
            else m.Tiebreaker.Purpose.ENTRY,
            machine=drawn,
            recorded_by=actor,
        )
        m.TiebreakerPlace.objects.bulk_create(
            m.TiebreakerPlace(tiebreaker=tiebreaker, player=p, place=i)
            for i, p in enumerate(order, 1)
        )
        qualification = _write_qualifiers(night, field="order")
        record_event(
            action="playoffs.seed_playoff_recorded",
            obj=tiebreaker,
            league=season.league,
            actor=actor,
            data={"order": [p.pk for p in order], "line": tie.line, "machine": drawn.pk},
        )
    return qualification


def record_withdrawal(
    *, season: m.Season, player: m.Player, actor: User, note: str = ""
) -> PlayoffQualification:
    """A player announces before the playoffs that he cannot attend (R6.6-b, A41).

    Everyone seeded below him moves up and the best reserve qualifies (the rules'
    `apply_withdrawals`). Side effects: inserts the Withdrawal, rewrites the Qualifier rows,
    and an audit event ``playoffs.withdrawal_recorded``. Raises PermissionDenied unless
    `actor` is a league official, and ValidationError (nothing written) once the night's
    play has started (use `record_no_show` then), or for a player not in the standings.
    """
    with transaction.atomic():
        _require_official(actor, season)
        night = _night(season)
        _check_not_started(night)
        if night.withdrawals.filter(player=player).exists():
            raise ValidationError(
                {"player": f"{player} has already withdrawn."}, code="already_withdrawn"
            )
        withdrawal = m.Withdrawal.objects.create(
            playoff_night=night, player=player, recorded_by=actor
        )
        qualification = _write_qualifiers(night, field="player")
        record_event(
            action="playoffs.withdrawal_recorded",
            obj=withdrawal,
            league=season.league,
            actor=actor,
            data={"player": player.pk, "note": note.strip()},
        )
    return qualification


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
        _require_official(actor, season)
        night = _night(season)
        facts = load_playoff_facts(night)
        div = _division(facts, division)
        state = _state(season, div, match)
        if match in div.in_progress:
            busy_game = div.in_progress[match]
            raise ValidationError(
                {
                    "match": f"{match}: game {busy_game.number} is being played on "
                    f"{busy_game.machine}; record its result first."
                },
                code="game_in_progress",
            )
        if state.status != "ready" or state.next_game is None:
            raise ValidationError(
                {"match": f"{match} cannot start a game: {state.needed or 'it is complete'}."},
                code="not_ready",
            )
        played = [g.machine for g in div.records.get(match, PlayoffMatchRecord()).games]
        busy = _busy(facts, exclude=(division, match))
        unplayable = _unplayable(season)
        keys = list(facts.machines)
        chooser = state.machine_chooser
        try:
            if chooser is None:
                if machine is not None:
                    raise ValidationError(
                        {
                            "machine": f"Game 1 of {match} is played on a machine drawn at random "
                            "(R6.4-b); do not choose one."
                        },
                        code="drawn",
                    )
                key = draw_playoff_machine(
                    keys,
                    seed=_seed(night, f"{division}:{match}:{state.next_game}"),
                    played=played,
                    busy=busy,
                    unplayable=unplayable,
                    ruleset=ruleset_for(season.league),
                )
            else:
                if machine is None:
                    raise ValidationError(
                        {
                            "machine": f"{facts.names[chooser].name} chooses the machine for game "
                            f"{state.next_game} of {match} (R6.4-c)."
                        },
                        code="required",
                    )
                key = _checked_pick(str(machine.pk), keys, played, busy, unplayable)
        except RuleError as error:
            raise ValidationError(
                {"machine": _titled(str(error), facts)}, code="invalid"
            ) from error
        round_, number = match_round(match)
        row, _ = m.PlayoffMatch.objects.get_or_create(
            playoff_night=night, division=division, round=round_, number=number
        )
        game = m.PlayoffGame.objects.create(
            match=row,
            number=state.next_game,
            machine_id=int(key),
            chosen_by_id=int(chooser) if chooser else None,
        )
        if night.status == m.PlayoffNight.Status.PLANNED:
            night.status = m.PlayoffNight.Status.OPEN
            night.save(update_fields=["status"])
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
    with transaction.atomic():
        _require_official(actor, season)
        night = _night(season)
        facts = load_playoff_facts(night)
        div = _division(facts, division)
        state = _state(season, div, match)
        in_progress = div.in_progress.get(match)
        if in_progress is None:
            raise ValidationError(
                {
                    "match": f"{match} has no game in progress: start game "
                    f"{state.next_game or '?'} first ({state.needed or 'complete'})."
                },
                code="no_game",
            )
        if (order is None) == (scores is None):
            raise ValidationError(
                {"order": "Give the finishing order or the machine scores, not both or neither."},
                code="invalid",
            )
        tie_place = {p.pk: i for o in tie_orders for i, p in enumerate(o, 1)}
        if order is not None:
            game = PlayoffGame(
                machine=str(in_progress.machine_id), order=tuple(player_key(p.pk) for p in order)
            )
        else:
            assert scores is not None
            game = PlayoffGame(
                machine=str(in_progress.machine_id),
                scores={player_key(p.pk): s for p, s in scores.items()},
                tie_order=tuple(tuple(player_key(p.pk) for p in o) for o in tie_orders),
            )
        _check_record(season, div, match, lambda r: replace(r, games=(*r.games, game)), facts)
        if order is not None:
            rows = [
                m.PlayoffResult(game_id=in_progress.game_id, player=p, place=i, recorded_by=actor)
                for i, p in enumerate(order, 1)
            ]
        else:
            assert scores is not None
            rows = [
                m.PlayoffResult(
                    game_id=in_progress.game_id,
                    player=p,
                    machine_score=s,
                    tie_place=tie_place.get(p.pk),
                    recorded_by=actor,
                )
                for p, s in scores.items()
            ]
        m.PlayoffResult.objects.bulk_create(rows)
        row = m.PlayoffGame.objects.get(pk=in_progress.game_id)
        record_event(
            action="playoffs.game_recorded",
            obj=row,
            league=season.league,
            actor=actor,
            data={
                "division": division,
                "match": match,
                "number": row.number,
                "order": [p.pk for p in order] if order is not None else None,
                "scores": {str(p.pk): s for p, s in scores.items()} if scores else None,
                "tie_orders": [[p.pk for p in o] for o in tie_orders],
            },
        )
    return row


def record_playoff_tiebreaker(
    *,
    season: m.Season,
    division: str,
    match: str,
    order: Sequence[m.Player],
    actor: User,
    machine: m.Machine | None = None,
) -> m.Tiebreaker:
    """Record a tiebreaker game's finishing order for tied players of a match (R6.5-a, A40).

    order: the tied players, winner first. machine: where it was played; None draws it at
    random from every playable machine (R6.5-b, A44). Side effects: inserts the Tiebreaker
    (purpose match) with its places and an audit event ``playoffs.tiebreaker_recorded``.
    Raises PermissionDenied unless `actor` is a league official, and ValidationError
    (nothing written) when the match needs no tiebreaker or the order is not its tie.
    """
    with transaction.atomic():
        _require_official(actor, season)
        night = _night(season)
        facts = load_playoff_facts(night)
        div = _division(facts, division)
        state = _state(season, div, match)
        if state.status != "tiebreaker_needed":
            raise ValidationError(
                {"match": f"{match} needs no tiebreaker ({state.needed or 'it is complete'})."},
                code="no_tie",
            )
        drawn = machine or _drawn_machine(night, f"{division}:{match}:tiebreaker", True, facts)
        game = PlayoffGame(machine=str(drawn.pk), order=tuple(player_key(p.pk) for p in order))
        _check_record(
            season, div, match, lambda r: replace(r, tiebreakers=(*r.tiebreakers, game)), facts
        )
        round_, number = match_round(match)
        row = m.PlayoffMatch.objects.get(
            playoff_night=night, division=division, round=round_, number=number
        )
        tiebreaker = m.Tiebreaker.objects.create(
            playoff_night=night,
            purpose=m.Tiebreaker.Purpose.MATCH,
            match=row,
            machine=drawn,
            recorded_by=actor,
        )
        m.TiebreakerPlace.objects.bulk_create(
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
    return tiebreaker


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
        _require_official(actor, season)
        night, facts, div, state = _match_with_players(season, division, match)
        if match in div.started:
            raise ValidationError(
                {"match": f"{match} has started; a no-show is recorded at its start (R6.6-c)."},
                code="started",
            )
        key = player_key(player.pk)
        if key not in state.players:
            players = ", ".join(facts.names[p].name for p in state.players)
            raise ValidationError(
                {"player": f"{player} does not play in {match}; its players: {players}."},
                code="not_in_match",
            )
        if key in state.absent:
            raise ValidationError(
                {"player": f"{player} is already a no-show in {match}."}, code="duplicate"
            )
        _check_record(season, div, match, lambda r: replace(r, absent=(*r.absent, key)), facts)
        round_, number = match_round(match)
        _check_waited(night, division, round_, number, player)
        row, _ = m.PlayoffMatch.objects.get_or_create(
            playoff_night=night, division=division, round=round_, number=number
        )
        no_show = PlayoffNoShow.objects.create(
            match=row, player=player, note=note.strip(), recorded_by=actor
        )
        if night.status == m.PlayoffNight.Status.PLANNED:
            night.status = m.PlayoffNight.Status.OPEN
            night.save(update_fields=["status"])
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
    with transaction.atomic():
        _require_official(actor, season)
        night, facts, div, state = _match_with_players(season, division, match)
        if match in div.started or state.absent:
            raise ValidationError(
                {
                    "match": f"{match} has started: a lateness notice comes before its start "
                    "(R6.6-a)."
                },
                code="started",
            )
        key = player_key(player.pk)
        if key not in state.players:
            players = ", ".join(facts.names[p].name for p in state.players)
            raise ValidationError(
                {"player": f"{player} does not play in {match}; its players: {players}."},
                code="not_in_match",
            )
        start = playoff_start(night)
        try:
            valid = tardiness_notice_valid(notice_at=told, start=start)
        except RuleError as error:
            raise ValidationError({"at": str(error)}, code="invalid") from error
        if not valid:
            raise ValidationError(
                {
                    "at": f"Too late for a lateness notice: the match starts at "
                    f"{start:%Y-%m-%d %H:%M} and the notice must come before (R6.6-a, §2.2). "
                    f"{player} is a no-show if not present at the start (R6.6-c)."
                },
                code="too_late",
            )
        round_, number = match_round(match)
        row, _ = m.PlayoffMatch.objects.get_or_create(
            playoff_night=night, division=division, round=round_, number=number
        )
        if m.PlayoffLatenessNotice.objects.filter(match=row, player=player).exists():
            raise ValidationError(
                {"player": f"{player}'s lateness notice for {match} is recorded."},
                code="duplicate",
            )
        notice = m.PlayoffLatenessNotice.objects.create(
            match=row, player=player, notice_at=told, recorded_by=actor
        )
        wait_until = delayed_match_start(
            start=start, notice_at=told, ruleset=ruleset_for(season.league)
        )
        record_event(
            action="playoffs.lateness_announced",
            obj=notice,
            league=season.league,
            actor=actor,
            data={
                "division": division,
                "match": match,
                "player": player.pk,
                "at": told.isoformat(),
                "wait_until": wait_until.isoformat(),
            },
        )
    return PlayoffLateness(notice=notice, start=start, wait_until=wait_until)


def playoff_start(night: m.PlayoffNight) -> datetime.datetime:
    """The playoff night's start: its date at the season's start time, in the league's time
    zone (R6.1-a); the start of its matches for tardiness (R6.6-a, A59)."""
    season = night.season
    zone = ZoneInfo(season.league.time_zone)
    return datetime.datetime.combine(night.date, season.start_time, tzinfo=zone)


def close_playoff_night(*, season: m.Season, actor: User) -> m.PlayoffNight:
    """Close the playoff night once every division's final is complete (R6.1-a).

    Side effects: sets the night's status to closed and an audit event ``playoffs.closed``.
    Raises ValidationError (nothing written) while a division still needs a game.
    """
    with transaction.atomic():
        _require_official(actor, season)
        night = _night(season)
        facts = load_playoff_facts(night)
        ruleset = ruleset_for(season.league)
        needed = [
            f"{name} {line}"
            for name, div in facts.divisions.items()
            for line in bracket_state(div, ruleset).needed
        ]
        if not facts.divisions or needed:
            raise ValidationError(
                "The playoffs are not over: " + ("; ".join(needed) or "no bracket drawn") + ".",
                code="not_over",
            )
        night.status = m.PlayoffNight.Status.CLOSED
        night.save(update_fields=["status"])
        record_event(action="playoffs.closed", obj=night, league=season.league, actor=actor)
    return night


def _check_waited(
    night: m.PlayoffNight, division: str, round_: str, number: int, player: m.Player
) -> None:
    """Refuse a no-show before the delayed start his lateness notice gave (R6.6-a, A59)."""
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
        ruleset=ruleset_for(night.season.league),
    )
    if timezone.now() < wait_until:
        local = timezone.localtime(wait_until, ZoneInfo(night.season.league.time_zone))
        raise ValidationError(
            {
                "player": f"{player} announced he would be late (R6.6-a): the match waits for "
                f"him until {local:%H:%M}; he is a no-show only if not present by then."
            },
            code="waiting_for_late_player",
        )


def _require_official(actor: User, season: m.Season) -> None:
    require_role(
        actor=actor,
        league=season.league,
        roles=(m.LeagueOfficial.Role.LEAGUE_OFFICIAL,),
        action="run the playoffs",
    )


def _night(season: m.Season) -> m.PlayoffNight:
    night = m.PlayoffNight.objects.select_for_update().filter(season=season).first()
    if night is None:
        raise ValidationError(
            f"{season.name} has no playoff night yet: qualify the players first.",
            code="no_playoff_night",
        )
    return night


def _check_not_started(night: m.PlayoffNight) -> None:
    if (
        m.PlayoffGame.objects.filter(match__playoff_night=night).exists()
        or PlayoffNoShow.objects.filter(match__playoff_night=night).exists()
    ):
        raise ValidationError(
            "The playoff night has started: its bracket is fixed (withdrawals are announced "
            "before the playoffs, R6.6-b; a player missing at his match is a no-show, R6.6-c).",
            code="started",
        )


def _write_qualifiers(night: m.PlayoffNight, *, field: str) -> PlayoffQualification:
    """Recompute qualification and store it as the night's bracket (nothing while tied)."""
    try:
        qualification = playoff_qualification_now(night.season, night)
    except RuleError as error:
        raise ValidationError({field: str(error)}, code="invalid") from error
    night.qualifiers.all().delete()
    night.cut = qualification.cut if qualification.complete else None
    night.save(update_fields=["cut"])
    if qualification.complete:
        m.Qualifier.objects.bulk_create(
            m.Qualifier(
                playoff_night=night,
                player_id=int(player),
                division=seeding.division.name,
                seed=seed,
            )
            for seeding in qualification.seedings
            for seed, player in enumerate(seeding.seeds, 1)
            if player is not None
        )
    return qualification


def _division(facts: PlayoffFacts, division: str) -> DivisionFacts:
    if division not in facts.divisions:
        known = ", ".join(facts.divisions) or "none (the bracket is not drawn yet)"
        raise ValidationError(
            {"division": f"No playoff division {division!r}; divisions: {known}."},
            code="invalid",
        )
    return facts.divisions[division]


def _match_with_players(
    season: m.Season, division: str, match: str
) -> tuple[m.PlayoffNight, PlayoffFacts, DivisionFacts, PlayoffMatchState]:
    """The locked night, its facts, the division and the match, whose players must be known."""
    night = _night(season)
    facts = load_playoff_facts(night)
    div = _division(facts, division)
    state = _state(season, div, match)
    if state.status == "waiting":
        raise ValidationError(
            {"match": f"{match}'s players are not known yet ({state.needed})."},
            code="waiting",
        )
    return night, facts, div, state


def _state(season: m.Season, div: DivisionFacts, match: str) -> PlayoffMatchState:
    try:
        return bracket_state(div, ruleset_for(season.league)).match(match)
    except RuleError as error:
        raise ValidationError({"match": str(error)}, code="invalid") from error


def _check_record(
    season: m.Season,
    div: DivisionFacts,
    match: str,
    change: Callable[[PlayoffMatchRecord], PlayoffMatchRecord],
    facts: PlayoffFacts,
) -> None:
    """Refuse a change to one match's record that the rules refuse for the whole bracket."""
    records = dict(div.records)
    records[match] = change(records.get(match, PlayoffMatchRecord()))
    try:
        bracket_state(replace(div, records=records), ruleset_for(season.league))
    except RuleError as error:
        raise ValidationError({"order": _named(str(error), facts)}, code="invalid") from error


def _checked_pick(
    key: str, keys: list[str], played: list[str], busy: list[str], unplayable: list[str]
) -> str:
    return check_playoff_machine(
        key, machines=keys, played=played, busy=busy, unplayable=unplayable
    )


def _busy(facts: PlayoffFacts, *, exclude: tuple[str, str]) -> list[str]:
    """Machines with a game in progress in another match (R5-d)."""
    return sorted(
        {
            str(game.machine_id)
            for name, div in facts.divisions.items()
            for match, game in div.in_progress.items()
            if (name, match) != exclude
        }
    )


def _unplayable(season: m.Season) -> list[str]:
    return [
        str(pk)
        for pk in m.Machine.objects.filter(
            league=season.league, status=m.Machine.Status.UNPLAYABLE
        ).values_list("id", flat=True)
    ]


def _seed(night: m.PlayoffNight, what: str) -> int:
    """A draw's seed: the night's recorded seed and what is drawn, so it can be repeated."""
    return (night.machine_draw_seed or 0) + zlib.crc32(what.encode())


def _drawn_machine(
    night: m.PlayoffNight, what: str, tiebreaker: bool, facts: PlayoffFacts | None = None
) -> m.Machine:
    machines = (
        facts.machines
        if facts is not None
        else {
            str(pk): title
            for pk, title in m.Machine.objects.filter(league_id=night.season.league_id).values_list(
                "id", "title"
            )
        }
    )
    try:
        key = draw_tiebreaker_machine(
            list(machines),
            seed=_seed(night, what),
            busy=_busy(facts, exclude=("", "")) if facts is not None else (),
            unplayable=_unplayable(night.season),
        )
    except RuleError as error:
        raise ValidationError({"machine": str(error)}, code="invalid") from error
    return m.Machine.objects.get(pk=int(key))


def _titled(message: str, facts: PlayoffFacts) -> str:
    """A rules message naming machine keys, with the machines' titles instead."""
    for key, title in sorted(facts.machines.items(), key=lambda kv: -len(kv[0])):
        message = message.replace(f"machine {key} ", f"machine {title} ")
    return message


def _named(message: str, facts: PlayoffFacts) -> str:
    """A rules message naming player keys, with the players' names appended for reading."""
    words = {w.strip(",.;:()") for w in message.split()}
    named = [f"{key} = {ref.name}" for key, ref in facts.names.items() if key in words]
    return message + (f" ({'; '.join(named)})" if named else "")
