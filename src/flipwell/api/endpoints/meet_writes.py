"""Writes of a league night, with a token of the meet's league: scheduling and notices, the
next machine, score corrections, and incidents (late arrivals, malfunctions, compensatory
games, rulings about a player's turn, machine problems, violations, restarts, positive-malfunction
replays).

Scope *scores* for the score sheet's own steps (choosing the next machine, corrections and
their answers); *manage* for the official's rulings and records. Each endpoint looks up what
the request names, checks the token, calls one service and renders its answer.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.arguments import GAME, PLAYER, PLAYERS, by_player, machine_of, resolved
from flipwell.api.auth import acting_official
from flipwell.api.contract import created
from flipwell.api.endpoints.params import (
    CorrectionId,
    GameId,
    GroupId,
    MachineId,
    MeetId,
    SeasonId,
    ViolationId,
)
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.schemas import (
    AbsenceIn,
    AbsenceOut,
    CancelledMeetOut,
    CancelMeetIn,
    ChooseMachineIn,
    CompensatoryGameIn,
    CompensatoryGameOut,
    CompensatoryRequestIn,
    CompensatoryRequestOut,
    CorrectionAnswerIn,
    CorrectionIn,
    CorrectionOut,
    CorrectionOutcomeOut,
    DeclarationIn,
    DeclarationOut,
    DiscardedOut,
    DiscardIn,
    JoinDecisionOut,
    LateJoinIn,
    LatenessIn,
    LatenessOut,
    MachineProblemIn,
    MachineProblemOut,
    MalfunctionIn,
    MalfunctionOut,
    MatchAbsenceIn,
    MatchAbsenceOut,
    MeetOut,
    NextGameOut,
    OfficialMachineIn,
    PenaltyOut,
    RemedyIn,
    RemedyOut,
    ReplacedOut,
    ReplaceMachineIn,
    ReplayScoresIn,
    RescheduleMeetIn,
    RestartIn,
    RestartOut,
    ScheduleMeetIn,
    SubmittedOut,
    TurnRulingIn,
    TurnRulingOut,
    ViolationIn,
)
from flipwell.league import services
from flipwell.league.models import Game, League, Meet
from flipwell.league.turn_rulings import KINDS, TurnRulingKind

OVERRIDE = "override a closed meet (override_reason is a league official's decision, A45.2)"


def _meet_league(meet: Meet) -> League:
    return meet.season.league


def _game_league(game: Game) -> League:
    return game.group.meet.season.league


# --- meets ----------------------------------------------------------------------------------


@router.post("/seasons/{season_id}/meets", response={201: MeetOut, **ERROR_RESPONSES}, **WRITE)
def schedule_meet(request: HttpRequest, season_id: SeasonId, payload: ScheduleMeetIn) -> Any:
    """Schedule a meet of the season on a date (planned), so notices can be recorded before
    it (scope: manage)."""
    season = queries.season(season_id)
    actor = acting_official(request, league=season.league, scope="manage")
    meet = services.schedule_meet(**resolved(payload), season=season, actor=actor)
    return created(request, meet, f"/api/v1/meets/{meet.pk}")


@router.post("/meets/{meet_id}/reschedule", response={200: MeetOut, **ERROR_RESPONSES}, **WRITE)
def reschedule_meet(request: HttpRequest, meet_id: MeetId, payload: RescheduleMeetIn) -> Any:
    """Move a meet not yet started to another date, saying why (R2-a; scope: manage)."""
    meet = queries.meet(meet_id)
    actor = acting_official(request, league=_meet_league(meet), scope="manage")
    return services.reschedule_meet(**resolved(payload), meet=meet, actor=actor)


@router.post(
    "/meets/{meet_id}/cancel", response={200: CancelledMeetOut, **ERROR_RESPONSES}, **WRITE
)
def cancel_meet(request: HttpRequest, meet_id: MeetId, payload: CancelMeetIn) -> Any:
    """Cancel a meet not yet started, saying why: it is not played, the later planned meets
    move down one number (scope: manage)."""
    meet = queries.meet(meet_id)
    actor = acting_official(request, league=_meet_league(meet), scope="manage")
    return services.cancel_meet(**resolved(payload), meet=meet, actor=actor)


@router.post("/meets/{meet_id}/absences", response={201: AbsenceOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def announce_absence(request: HttpRequest, meet_id: MeetId, payload: AbsenceIn) -> Any:
    """Record that the LO was told a player will miss the meet (R2-b, R3.1-d); only before it
    starts (scope: manage)."""
    meet = queries.meet(meet_id)
    actor = acting_official(request, league=_meet_league(meet), scope="manage")
    absence = services.announce_absence(**resolved(payload, player=PLAYER), meet=meet, actor=actor)
    return created(request, absence, f"/api/v1/meets/{meet.pk}")


@router.post(
    "/meets/{meet_id}/lateness-notices", response={201: LatenessOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def announce_lateness(request: HttpRequest, meet_id: MeetId, payload: LatenessIn) -> Any:
    """Record that the LO was told a player will be late (R2.2-a); the group waits until
    wait_until (A59). A notice told after the start time is recorded but not announced: the
    group does not wait (R2.3-a). Until the meet closes (scope: manage)."""
    meet = queries.meet(meet_id)
    actor = acting_official(request, league=_meet_league(meet), scope="manage")
    announced = services.announce_lateness(
        **resolved(payload, player=PLAYER), meet=meet, actor=actor
    )
    return created(request, announced.tardiness, f"/api/v1/meets/{meet.pk}")


@router.post(
    "/groups/{group_id}/next-game", response={201: NextGameOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def choose_next_machine(request: HttpRequest, group_id: GroupId, payload: ChooseMachineIn) -> Any:
    """The picker chooses the machine of his group's next game (§5; scope: scores). Exactly
    the machines GET /groups/{id}/allowed-machines lists as allowed are accepted; another is a
    422 on `machine` with its listed refusal and the allowed ones."""
    group = queries.group(group_id)
    league = group.meet.season.league
    actor = acting_official(request, league=league, scope="scores")
    chosen = services.choose_next_machine(
        **resolved(payload, machine=machine_of(league), chosen_by=PLAYER), group=group, actor=actor
    )
    return created(request, chosen, f"/api/v1/games/{chosen.game.pk}")


@router.post(
    "/groups/{group_id}/next-game/by-official",
    response={201: NextGameOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def official_chooses_next_machine(
    request: HttpRequest, group_id: GroupId, payload: OfficialMachineIn
) -> Any:
    """The official chooses or draws the machine of a group's next game when nobody played
    the previous one, so no player may pick (R5-c, A66; scope: manage). While a player may
    pick it is a 409 (``player_picks``)."""
    group = queries.group(group_id)
    league = group.meet.season.league
    actor = acting_official(request, league=league, scope="manage")
    chosen = services.official_chooses_next_machine(
        **resolved(payload, machine=machine_of(league)), group=group, actor=actor
    )
    return created(request, chosen, f"/api/v1/games/{chosen.game.pk}")


@router.post(
    "/groups/{group_id}/absence", response={201: MatchAbsenceOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_match_absence(request: HttpRequest, group_id: GroupId, payload: MatchAbsenceIn) -> Any:
    """Record players absent for the rest of their match (R2.4-a; scope: manage): from
    `from_game` (default: the first game without confirmed scores) every game of the match
    is their forfeit, countable toward the season forfeit (§2.5), and a score for them on
    those games is refused (422). For the whole group, its remaining machines are drawn (A66)
    and the match is complete."""
    group = queries.group(group_id)
    actor = acting_official(request, league=group.meet.season.league, scope="manage")
    recorded = services.record_match_absence(
        **resolved(payload, players=PLAYERS), group=group, actor=actor
    )
    return created(request, recorded, f"/api/v1/meets/{group.meet_id}")


# --- corrections ----------------------------------------------------------------------------


@router.post(
    "/games/{game_id}/corrections", response={201: CorrectionOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def request_correction(request: HttpRequest, game_id: GameId, payload: CorrectionIn) -> Any:
    """Report a scoring error in a confirmed game (R3-b; scope: scores): the players of the
    quorum then answer it. After the meet is closed it needs override_reason (A45.2), an
    official's override: scope manage, from a token of a league official."""
    game = queries.game(game_id)
    if (payload.override_reason or "").strip():
        actor = acting_official(request, league=_game_league(game), scope="manage", doing=OVERRIDE)
    else:
        actor = acting_official(request, league=_game_league(game), scope="scores")
    correction = services.request_correction(
        **resolved(payload, requested_by=PLAYER, scores=by_player("machine_score")),
        game=game,
        actor=actor,
    )
    return created(request, correction, f"/api/v1/games/{game.pk}")


@router.post(
    "/corrections/{correction_id}/answers",
    response={200: CorrectionOutcomeOut, **ERROR_RESPONSES},
    **WRITE,
)
def respond_to_correction(
    request: HttpRequest, correction_id: CorrectionId, payload: CorrectionAnswerIn
) -> Any:
    """One player's answer to a correction request (R3-c, R3-d; scope: scores): when all
    agree it is applied, one disagreement refuses it."""
    correction = queries.correction(correction_id)
    actor = acting_official(request, league=_game_league(correction.game), scope="scores")
    answered = services.respond_to_correction(
        **resolved(payload, player=PLAYER), request=correction, actor=actor
    )
    return answered.outcome


# --- incidents ------------------------------------------------------------------------------


@router.post(
    "/games/{game_id}/late-joins", response={201: JoinDecisionOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_late_join(request: HttpRequest, game_id: GameId, payload: LateJoinIn) -> Any:
    """A late player arrives during the game: he joins it or forfeits it (§2.3, A60; scope:
    manage)."""
    game = queries.game(game_id)
    actor = acting_official(request, league=_game_league(game), scope="manage")
    arrival = services.record_late_join(**resolved(payload, player=PLAYER), game=game, actor=actor)
    return created(request, arrival.decision, f"/api/v1/games/{game.pk}")


@router.post(
    "/games/{game_id}/malfunctions", response={201: MalfunctionOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def report_malfunction(request: HttpRequest, game_id: GameId, payload: MalfunctionIn) -> Any:
    """Record a malfunction on a player's ball and learn the rules' ruling (§7.3, §7.4;
    scope: manage). A reason that ends the game (slam tilt, total failure or reset, power loss,
    fire) records every player's balls at once and answers who is owed what (R7.3-h, R7.3-i,
    A32), counting the extra balls each had collected (R7.3-l) and nothing for a player who
    slam tilted it on purpose (R8.4-a)."""
    game = queries.game(game_id)
    actor = acting_official(request, league=_game_league(game), scope="manage")
    arguments = resolved(
        payload,
        player=PLAYER,
        slammer=PLAYER,
        next_balls=by_player("ball"),
        extra_balls=by_player("collected"),
    )
    reported = services.report_malfunction(**arguments, game=game, actor=actor)
    return created(request, reported, f"/api/v1/games/{game.pk}")


@router.post(
    "/games/{game_id}/compensatory-requests",
    response={201: CompensatoryRequestOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def request_compensatory_game(
    request: HttpRequest, game_id: GameId, payload: CompensatoryRequestIn
) -> Any:
    """Grant a player a compensatory game (R7.3-k, R7.3-l, RA-b, A31; scope: manage)."""
    game = queries.game(game_id)
    actor = acting_official(request, league=_game_league(game), scope="manage")
    granted = services.request_compensatory_game(
        **resolved(payload, player=PLAYER), game=game, actor=actor
    )
    return created(request, granted, f"/api/v1/games/{game.pk}")


@router.post(
    "/games/{game_id}/compensatory-games",
    response={201: CompensatoryGameOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def record_compensatory_game(
    request: HttpRequest, game_id: GameId, payload: CompensatoryGameIn
) -> Any:
    """Record a granted compensatory game's score (R7.3-m..o; scope: manage)."""
    game = queries.game(game_id)
    actor = acting_official(request, league=_game_league(game), scope="manage")
    played = services.record_compensatory_game(
        **resolved(payload, player=PLAYER), game=game, actor=actor
    )
    return created(request, played, f"/api/v1/games/{game.pk}")


def _turn_ruling_endpoint(entry: TurnRulingKind) -> None:
    """``POST /games/{game_id}/<entry.path>``: the official's ruling of this kind about a
    player's turn (`record_turn_ruling`), one endpoint per kind of `KINDS`."""

    def record(request: HttpRequest, game_id: GameId, payload: TurnRulingIn) -> Any:
        game = queries.game(game_id)
        actor = acting_official(request, league=_game_league(game), scope="manage")
        ruling = services.record_turn_ruling(
            **resolved(payload, player=PLAYER), kind=entry.kind, game=game, actor=actor
        )
        return created(request, ruling, f"/api/v1/games/{game.pk}")

    router.post(
        f"/games/{{game_id}}/{entry.path}",
        response={201: TurnRulingOut, **ERROR_RESPONSES},
        operation_id=f"record_{entry.kind}",
        summary=f"Record a {entry.name.lower()}",
        description=f"{entry.when} The official says why (scope: manage).",
        **WRITE,
    )(key_required(record))


for _kind in KINDS.values():
    _turn_ruling_endpoint(_kind)


@router.post(
    "/meets/{meet_id}/machine-problems",
    response={201: MachineProblemOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def announce_machine_problem(
    request: HttpRequest, meet_id: MeetId, payload: MachineProblemIn
) -> Any:
    """Announce a machine problem before play: it is never a major malfunction (R7.3-g;
    scope: manage)."""
    meet = queries.meet(meet_id)
    league = _meet_league(meet)
    actor = acting_official(request, league=league, scope="manage")
    announced = services.announce_machine_problem(
        **resolved(payload, machine=machine_of(league)), meet=meet, actor=actor
    )
    return created(request, announced, f"/api/v1/meets/{meet.pk}")


@router.post(
    "/meets/{meet_id}/machines/{machine_id}/unplayable",
    response={201: DeclarationOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def declare_machine_unplayable(
    request: HttpRequest, meet_id: MeetId, machine_id: MachineId, payload: DeclarationIn
) -> Any:
    """Declare a machine unplayable for the meet, until repaired (R7.3-q, R7.3-r; scope:
    manage)."""
    meet = queries.meet(meet_id)
    league = _meet_league(meet)
    actor = acting_official(request, league=league, scope="manage")
    declared = services.declare_machine_unplayable(
        **resolved(payload), meet=meet, machine=queries.machine(league, machine_id), actor=actor
    )
    return created(request, declared, f"/api/v1/meets/{meet.pk}")


@router.post(
    "/meets/{meet_id}/machines/{machine_id}/repaired",
    response={201: DeclarationOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def declare_machine_repaired(
    request: HttpRequest, meet_id: MeetId, machine_id: MachineId, payload: DeclarationIn
) -> Any:
    """Declare an unplayable machine repaired: playable again (R7.3-r; scope: manage)."""
    meet = queries.meet(meet_id)
    league = _meet_league(meet)
    actor = acting_official(request, league=league, scope="manage")
    declared = services.declare_machine_repaired(
        **resolved(payload), meet=meet, machine=queries.machine(league, machine_id), actor=actor
    )
    return created(request, declared, f"/api/v1/meets/{meet.pk}")


@router.post(
    "/games/{game_id}/replace-machine", response={200: ReplacedOut, **ERROR_RESPONSES}, **WRITE
)
def replace_machine(request: HttpRequest, game_id: GameId, payload: ReplaceMachineIn) -> Any:
    """Move a game whose machine became unplayable to a replacement (R5.1-a, R7.3-r, R7.3-s,
    A23; scope: manage): the original selector's choice, a redraw, or the LO's designation."""
    game = queries.game(game_id)
    league = _game_league(game)
    actor = acting_official(request, league=league, scope="manage")
    return services.replace_machine(
        **resolved(payload, machine=machine_of(league), chosen_by=PLAYER), game=game, actor=actor
    )


@router.post("/meets/{meet_id}/violations", response={201: PenaltyOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_violation(request: HttpRequest, meet_id: MeetId, payload: ViolationIn) -> Any:
    """Record a violation and learn its §8.5 penalty (§8, A26..A28; scope: manage)."""
    meet = queries.meet(meet_id)
    actor = acting_official(request, league=_meet_league(meet), scope="manage")
    recorded = services.record_violation(
        **resolved(payload, player=PLAYER, game=GAME), meet=meet, actor=actor
    )
    return created(request, recorded, f"/api/v1/meets/{meet.pk}")


@router.post(
    "/violations/{violation_id}/remedies", response={201: RemedyOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_victim_remedy(request: HttpRequest, violation_id: ViolationId, payload: RemedyIn) -> Any:
    """Record a victim's compensation (§8.2, §8.3, A29) and charge the violator (R8.3-d;
    scope: manage)."""
    violation = queries.violation(violation_id)
    actor = acting_official(request, league=_meet_league(violation.meet), scope="manage")
    recorded = services.record_victim_remedy(
        **resolved(payload, victim=PLAYER), violation=violation, actor=actor
    )
    return created(request, recorded, f"/api/v1/meets/{violation.meet_id}")


@router.post("/games/{game_id}/restarts", response={201: RestartOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_game_restart(request: HttpRequest, game_id: GameId, payload: RestartIn) -> Any:
    """Void and restart a game with the wrong number of games started; the responsible
    player pays (R8.6-c, R8.6-d; scope: manage)."""
    game = queries.game(game_id)
    actor = acting_official(request, league=_game_league(game), scope="manage")
    restarted = services.record_game_restart(
        **resolved(payload, responsible=PLAYER), game=game, actor=actor
    )
    return created(request, restarted, f"/api/v1/games/{game.pk}")


@router.post(
    "/games/{game_id}/discarded-scores", response={201: DiscardedOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_positive_malfunction_replay(
    request: HttpRequest, game_id: GameId, payload: DiscardIn
) -> Any:
    """Discard players' completed scores after a positive malfunction gave an unfair
    advantage; they replay (R7.4-a, R7.4-c, A58; scope: manage)."""
    game = queries.game(game_id)
    actor = acting_official(request, league=_game_league(game), scope="manage")
    discarded = services.record_positive_malfunction_replay(
        **resolved(payload, discard_scores_of=PLAYERS), game=game, actor=actor
    )
    return created(
        request,
        {"game_id": game.pk, "players": [d.player_id for d in discarded]},
        f"/api/v1/games/{game.pk}",
    )


@router.post(
    "/games/{game_id}/replay-scores", response={201: SubmittedOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_replay_scores(request: HttpRequest, game_id: GameId, payload: ReplayScoresIn) -> Any:
    """Record the replay of discarded scores: a new confirmed version of the sheet (R7.4-c,
    A58; scope: manage)."""
    game = queries.game(game_id)
    actor = acting_official(request, league=_game_league(game), scope="manage")
    result = services.record_replay_scores(
        **resolved(
            payload, scores=by_player("machine_score"), entered_by=PLAYER, confirmed_by=PLAYER
        ),
        game=game,
        actor=actor,
    )
    return created(request, result, f"/api/v1/games/{game.pk}")
