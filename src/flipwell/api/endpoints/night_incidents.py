"""Incidents of a league night, with a token of the meet's league and scope *manage*: late
arrivals, malfunctions, compensatory games, rulings about a player's turn, machine problems
and declarations, replacement machines, violations and their remedies, restarts, and
positive-malfunction replays. Each endpoint looks up what the request names and hands it to
`flipwell.api.writing.write`: the token checked, one service called, its answer rendered.

These endpoints were once in `flipwell.api.endpoints.meet_writes` and keep its operationIds
(`OPERATION_MODULE`): a client generated from the document keeps its method names.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.arguments import GAME, PLAYER, PLAYERS, by_player, machine_of
from flipwell.api.endpoints.params import GameId, MachineId, MeetId, ViolationId
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.schemas.incidents import (
    CompensatoryGameIn,
    CompensatoryGameOut,
    CompensatoryRequestIn,
    CompensatoryRequestOut,
    DiscardedOut,
    DiscardIn,
    JoinDecisionOut,
    LateJoinIn,
    MalfunctionIn,
    MalfunctionOut,
    ReplayScoresIn,
    TurnRulingIn,
    TurnRulingOut,
)
from flipwell.api.schemas.machines import (
    DeclarationIn,
    DeclarationOut,
    MachineProblemIn,
    MachineProblemOut,
    ReplacedOut,
    ReplaceMachineIn,
)
from flipwell.api.schemas.sheets import SubmittedOut
from flipwell.api.schemas.violations import (
    PenaltyOut,
    RemedyIn,
    RemedyOut,
    RestartIn,
    RestartOut,
    ViolationIn,
)
from flipwell.api.writing import after_check, game_league, meet_league, official, write
from flipwell.league import services
from flipwell.league.turn_rulings import KINDS, TurnRulingKind

OPERATION_MODULE = "flipwell.api.endpoints.meet_writes"
"""The module these endpoints' operationIds name (`flipwell.api.api.FlipwellApi`)."""


@router.post(
    "/games/{game_id}/late-joins", response={201: JoinDecisionOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_late_join(request: HttpRequest, game_id: GameId, payload: LateJoinIn) -> Any:
    """A late player arrives during the game: he joins it or forfeits it (§2.3, A60; scope:
    manage)."""
    game = queries.game(game_id)
    return write(
        request,
        services.record_late_join,
        payload,
        by=official(game_league(game), "manage"),
        lookups={"player": PLAYER},
        answer=lambda arrival: arrival.decision,
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


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
    return write(
        request,
        services.report_malfunction,
        payload,
        by=official(game_league(game), "manage"),
        lookups={
            "player": PLAYER,
            "slammer": PLAYER,
            "next_balls": by_player("ball"),
            "extra_balls": by_player("collected"),
        },
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


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
    return write(
        request,
        services.request_compensatory_game,
        payload,
        by=official(game_league(game), "manage"),
        lookups={"player": PLAYER},
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


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
    return write(
        request,
        services.record_compensatory_game,
        payload,
        by=official(game_league(game), "manage"),
        lookups={"player": PLAYER},
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


def _turn_ruling_endpoint(entry: TurnRulingKind) -> None:
    """``POST /games/{game_id}/<entry.path>``: the official's ruling of this kind about a
    player's turn (`record_turn_ruling`), one endpoint per kind of `KINDS`."""

    def record(request: HttpRequest, game_id: GameId, payload: TurnRulingIn) -> Any:
        game = queries.game(game_id)
        return write(
            request,
            services.record_turn_ruling,
            payload,
            by=official(game_league(game), "manage"),
            lookups={"player": PLAYER},
            location=f"/api/v1/games/{game.pk}",
            kind=entry.kind,
            game=game,
        )

    router.post(
        f"/games/{{game_id}}/{entry.path}",
        response={201: TurnRulingOut, **ERROR_RESPONSES},
        operation_id=f"record_{entry.kind}",
        summary=f"Record a {entry.name.lower()}",
        description=_turn_ruling_description(entry),
        **WRITE,
    )(key_required(record))


def _turn_ruling_description(entry: TurnRulingKind) -> str:
    """The operation's description, for a client's developer (the console's help to the
    official is the web's, `flipwell.web.words.turn_rulings`): written here from the kind's
    facts, so a new kind needs no words in the API."""
    return (
        f"Record the official's {entry.name.lower()} about the turn of one player of the "
        f"game's group (rules {', '.join(entry.rules)}; kind `{entry.kind}`). It changes no "
        "score. The official says why (scope: manage)."
    )


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
    league = meet_league(meet)
    return write(
        request,
        services.announce_machine_problem,
        payload,
        by=official(league, "manage"),
        lookups={"machine": machine_of(league)},
        location=f"/api/v1/meets/{meet.pk}",
        meet=meet,
    )


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
    league = meet_league(meet)
    return write(
        request,
        services.declare_machine_unplayable,
        payload,
        by=official(league, "manage"),
        location=f"/api/v1/meets/{meet.pk}",
        meet=meet,
        machine=after_check(queries.machine, league, machine_id),
    )


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
    league = meet_league(meet)
    return write(
        request,
        services.declare_machine_repaired,
        payload,
        by=official(league, "manage"),
        location=f"/api/v1/meets/{meet.pk}",
        meet=meet,
        machine=after_check(queries.machine, league, machine_id),
    )


@router.post(
    "/games/{game_id}/replace-machine", response={200: ReplacedOut, **ERROR_RESPONSES}, **WRITE
)
def replace_machine(request: HttpRequest, game_id: GameId, payload: ReplaceMachineIn) -> Any:
    """Move a game whose machine became unplayable to a replacement (R5.1-a, R7.3-r, R7.3-s,
    A23; scope: manage): the original selector's choice, a redraw, or the LO's designation."""
    game = queries.game(game_id)
    league = game_league(game)
    return write(
        request,
        services.replace_machine,
        payload,
        by=official(league, "manage"),
        lookups={"machine": machine_of(league), "chosen_by": PLAYER},
        game=game,
    )


@router.post("/meets/{meet_id}/violations", response={201: PenaltyOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_violation(request: HttpRequest, meet_id: MeetId, payload: ViolationIn) -> Any:
    """Record a violation and learn its §8.5 penalty (§8, A26..A28; scope: manage)."""
    meet = queries.meet(meet_id)
    return write(
        request,
        services.record_violation,
        payload,
        by=official(meet_league(meet), "manage"),
        lookups={"player": PLAYER, "game": GAME},
        location=f"/api/v1/meets/{meet.pk}",
        meet=meet,
    )


@router.post(
    "/violations/{violation_id}/remedies", response={201: RemedyOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_victim_remedy(request: HttpRequest, violation_id: ViolationId, payload: RemedyIn) -> Any:
    """Record a victim's compensation (§8.2, §8.3, A29) and charge the violator (R8.3-d;
    scope: manage)."""
    violation = queries.violation(violation_id)
    return write(
        request,
        services.record_victim_remedy,
        payload,
        by=official(meet_league(violation.meet), "manage"),
        lookups={"victim": PLAYER},
        location=f"/api/v1/meets/{violation.meet_id}",
        violation=violation,
    )


@router.post("/games/{game_id}/restarts", response={201: RestartOut, **ERROR_RESPONSES}, **WRITE)
@key_required
def record_game_restart(request: HttpRequest, game_id: GameId, payload: RestartIn) -> Any:
    """Void and restart a game with the wrong number of games started; the responsible
    player pays (R8.6-c, R8.6-d; scope: manage)."""
    game = queries.game(game_id)
    return write(
        request,
        services.record_game_restart,
        payload,
        by=official(game_league(game), "manage"),
        lookups={"responsible": PLAYER},
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


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
    return write(
        request,
        services.record_positive_malfunction_replay,
        payload,
        by=official(game_league(game), "manage"),
        lookups={"discard_scores_of": PLAYERS},
        answer=lambda discarded: {"game_id": game.pk, "players": [d.player_id for d in discarded]},
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )


@router.post(
    "/games/{game_id}/replay-scores", response={201: SubmittedOut, **ERROR_RESPONSES}, **WRITE
)
@key_required
def record_replay_scores(request: HttpRequest, game_id: GameId, payload: ReplayScoresIn) -> Any:
    """Record the replay of discarded scores: a new confirmed version of the sheet (R7.4-c,
    A58; scope: manage)."""
    game = queries.game(game_id)
    return write(
        request,
        services.record_replay_scores,
        payload,
        by=official(game_league(game), "manage"),
        lookups={
            "scores": by_player("machine_score"),
            "entered_by": PLAYER,
            "confirmed_by": PLAYER,
        },
        location=f"/api/v1/games/{game.pk}",
        game=game,
    )
