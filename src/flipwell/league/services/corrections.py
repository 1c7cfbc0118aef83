"""Score corrections after confirmation (§3, R3-b..R3-e, A45).

Words (see `flipwell.rules.corrections`): a *correction request* claims that machine scores in
a confirmed game were recorded wrongly; its *proposed sheet* is the confirmed sheet with the
claimed scores, stored as an unconfirmed correction version. The *quorum* are the players the
LO asks (by default those who played the game, A45.1); the correction is *applied* when all
of them agree (the proposed version is confirmed and becomes the game's result, so every
point downstream is recomputed, R3-e) and *refused* as soon as one does not: the score sheet
stands (R3-d). After the meet is closed a request needs a league official's override with a
reason (A45.2).

The proposed sheet carries its own tie orders (R3.2-i): those given with the request, and the
counted sheet's orders among players still tied on the proposed sheet. The standings use the
orders of the counted version only (`league.adapters.season_facts.counted_tie_orders`), so a
correction that breaks, keeps or creates a tie is scored with the right orders.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.adapters.season_facts import counted_tie_orders
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.scoresheet import latest_version
from flipwell.league.services._edge import (
    PlayerRef,
    group_player_ids,
    locked_game,
    ref_id,
    require_member,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import (
    Actor,
    Write,
    league_write,
    official_write,
    savepoint,
)
from flipwell.league.services.scores import (
    game_points_of,
    store_sheet,
)
from flipwell.rules import (
    CorrectionOutcome,
    CorrectionResponse,
    LoOverride,
    decide_correction,
)
from flipwell.rules import (
    CorrectionRequest as ClaimedError,
)
from flipwell.rules.corrections import (
    correction_quorum,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def request_correction(
    *,
    game: m.Game,
    scores: Mapping[PlayerRef, int],
    requested_by: m.Player,
    reason: str,
    tie_order: Sequence[Sequence[PlayerRef]] = (),
    actor: User | None = None,
    override_reason: str | None = None,
) -> m.CorrectionRequest:
    """Report a scoring error in a confirmed game: `scores` are the claimed machine scores of
    the players whose score is wrong (R3-b).

    The proposed sheet (the counted one with these scores; `tie_order` for any tie it has,
    R3.2-i) must score under the rules. The requester, if they played the game, is taken to
    agree. After the meet is closed the request needs `actor` to be a league official giving
    `override_reason` (A45.2), recorded as a Ruling (`_late_correction`).

    Side effects: an unconfirmed correction ScoreSubmission with its lines, the
    CorrectionRequest, the requester's CorrectionResponse, maybe a Ruling, an audit event
    ``correction.requested``. Raises ValidationError (nothing written) for a game without
    confirmed scores, a requester outside the group, no reason, a change to a forfeit or to
    nothing, a correction already pending, or a closed meet without an override;
    PermissionDenied when a non-official overrides.
    """
    sheet_changes = {ref_id(p): s for p, s in scores.items()}
    ties = [[ref_id(p) for p in order] for order in tie_order]
    with league_write(
        league=None, actor=Actor.player(actor), action="ask for a correction"
    ) as write:
        game = locked_game(game)
        write.league = game.group.meet.season.league
        why = require_reason(reason, field="reason", what="A correction request")
        members = _check_requester(game, requested_by)
        asked = _Asked(game, requested_by, why, sheet_changes, ties, members)
        meet = game.group.meet
        if meet.status != m.Meet.Status.CLOSED:
            write.season = meet.season  # the proposed sheet must score with the rest
            return _correction(write, asked, actor=actor)
        if actor is None:
            raise Refusal(
                {"override_reason": _closed_message(meet)}, code="override_reason_required"
            )
        return _late_correction(asked, actor=actor, override_reason=override_reason)


@dataclass(frozen=True)
class _Asked:
    """A correction as asked: the game, who asks and why, the claimed scores and the new tie
    orders by player id, and the group's players in ladder order."""

    game: m.Game
    requested_by: m.Player
    why: str
    scores: dict[int, int]
    ties: list[list[int]]
    members: list[int]


@dataclass(frozen=True)
class _Proposal:
    """The proposed sheet: the counted version it corrects, its scores, who is asked (the
    quorum, A45.1) and its tie orders (R3.2-i)."""

    base: m.ScoreSubmission
    sheet: dict[int, int | None]
    quorum: tuple[str, ...]
    carried: list[list[int]]


def _check_requester(game: m.Game, requested_by: m.Player) -> list[int]:
    """The group's players; refused for a meet not started or a requester outside the group."""
    meet = game.group.meet
    if meet.status == m.Meet.Status.PLANNED:
        raise ConflictError(f"Meet {meet.number} has not started.", code="meet_not_started")
    members = group_player_ids(game.group)
    require_member(requested_by, members, field="requested_by", group=game.group)
    return members


def _late_correction(
    asked: _Asked, *, actor: User, override_reason: str | None
) -> m.CorrectionRequest:
    """A correction after the meet is closed: an official's override with a reason (A45.2),
    recorded as a Ruling, through the official's write protocol."""
    game = asked.game
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="correct a closed meet's scores",
        season=meet.season,
    ) as write:
        override = require_reason(
            override_reason, field="override_reason", what=_closed_message(meet)
        )
        request = _correction(write, asked, actor=actor, override=override)
        write.ruling(
            kind="late_correction",
            subject=f"meet {meet.number} group {game.group.number} game {game.number}",
            reason=override,
            affected=group_player_ids(game.group),
            game=game,
        )
    return request


def _correction(
    write: Write, asked: _Asked, *, actor: User | None, override: str = ""
) -> m.CorrectionRequest:
    """Store the request and its proposed sheet, its event ``correction.requested`` and the
    requester's agreement when they are asked."""
    lo = LoOverride(str(actor), override) if override else None
    proposal = _propose(asked, lo=lo)
    request = _save_request(asked, proposal, actor=actor, override=override)
    data = {
        "game": asked.game.pk,
        "base_version": proposal.base.version,
        "proposed_version": request.proposed.version,
        "scores": {str(p): s for p, s in asked.scores.items()},
        "requested_by": asked.requested_by.pk,
        "override_reason": override,
    }
    write.event("correction.requested", request, data)
    if player_key(asked.requested_by.pk) in proposal.quorum:
        _answer(write, request, asked.requested_by, agrees=True, actor=actor)
    return request


def _propose(asked: _Asked, *, lo: LoOverride | None) -> _Proposal:
    """The proposed sheet: the counted one with the claimed scores, each claim as the rules
    take it before anyone answers (R3-b, A45.2), scoring with its tie orders (R3.2-i)."""
    game = asked.game
    _check_no_discarded_score(game)
    base = _counted(game)
    base_sheet = dict(base.lines.values_list("player_id", "machine_score"))
    proposed_sheet = _proposed(base_sheet, asked.scores)
    claims = _claims(game, base_sheet, proposed_sheet, asked.requested_by)
    quorum = _quorum(asked.members, base_sheet, game.group.meet.season)
    for claim in claims:
        with rules_edge("scores", code="correction_refused"):
            decide_correction(
                claim,
                (),
                quorum=quorum,
                meet_closed=lo is not None,
                override=lo,
                ruleset=season_ruleset(game.group.meet.season),
            )
    carried = _proposed_tie_orders(game, proposed_sheet, asked.ties)
    return _Proposal(base=base, sheet=proposed_sheet, quorum=quorum, carried=carried)


def _proposed_tie_orders(
    game: m.Game, sheet: Mapping[int, int | None], ties: list[list[int]]
) -> list[list[int]]:
    """The proposed sheet's tie orders: those given, and the counted sheet's among players
    still tied (R3.2-i). The sheet must score with them; a recorded one-ball playoff keeps
    its order (a correction changes machine scores only)."""
    stored_ties = [list(o) for o in counted_tie_orders([game.pk]).get(game.pk, ())]
    carried = [*ties, *carried_tie_orders(stored_ties, sheet, given=ties)]
    game_points_of(game, sheet, carried)  # the proposed sheet must score (R3.2-i)
    for order in ties:
        if order not in stored_ties and any(set(order) == set(s) for s in stored_ties):
            raise Refusal(
                {
                    "tie_order": "The one-ball playoff between these players is already "
                    "recorded in another order; a correction changes machine scores only."
                },
                code="tie_order_recorded",
            )
    return carried


def _save_request(
    asked: _Asked, proposal: _Proposal, *, actor: User | None, override: str
) -> m.CorrectionRequest:
    """The proposed sheet as an unconfirmed correction version, and the request; one pending
    request per game (a ConflictError)."""
    game = asked.game
    proposed = m.ScoreSubmission.objects.create(
        game=game,
        version=latest_version(game) + 1,
        entered_by=asked.requested_by,
        recorded_by=actor,
        idempotency_key=f"correction:{uuid.uuid4().hex}",
        is_correction=True,
        note=asked.why,
    )
    store_sheet(proposed, proposal.sheet, proposal.carried, actor=actor)
    request = m.CorrectionRequest(
        game=game,
        base=proposal.base,
        proposed=proposed,
        requested_by=asked.requested_by,
        reason=asked.why,
        override_by=actor if override else None,
        override_reason=override,
        recorded_by=actor,
    )
    try:
        with savepoint():
            request.save()
    except IntegrityError as error:
        raise ConflictError(
            f"Game {game.number} of group {game.group.number} already has a correction waiting "
            "for the players' answers: settle it first.",
            code="correction_pending",
        ) from error
    return request


@dataclass(frozen=True)
class AnsweredCorrection:
    """One player's answer to a correction request: the stored response, the request as
    decided by it (its status updated when decided) and the rules' outcome (R3-c, R3-d)."""

    response: m.CorrectionResponse
    request: m.CorrectionRequest
    outcome: CorrectionOutcome


def respond_to_correction(
    *,
    request: m.CorrectionRequest,
    player: m.Player,
    agrees: bool,
    actor: User | None = None,
) -> AnsweredCorrection:
    """Record one player's answer to a correction request and decide it (R3-c, R3-d).

    Only the quorum is asked (A45.1). When every one of them has agreed the correction is
    applied: its proposed version is confirmed and counts from now on (R3-e). One
    disagreement refuses it: the score sheet stands. Returns the response, the request and
    the rules' outcome (`AnsweredCorrection`).

    Side effects: a CorrectionResponse; when decided, the request's status (and for an applied
    one the proposed submission's confirmation); audit events ``correction.answered`` and
    ``correction.applied`` or ``correction.refused``. Raises ValidationError (nothing
    written) for a decided request, a player outside the quorum, or a second answer.
    """
    answering = Actor.player(actor)
    with league_write(league=None, actor=answering, action="answer a correction") as write:
        request = m.CorrectionRequest.objects.select_for_update().get(pk=request.pk)
        locked_game(request.game)
        write.league = request.game.group.meet.season.league
        if request.status != m.CorrectionRequest.Status.PENDING:
            raise ConflictError(
                f"This correction is already decided: {request.get_status_display().lower()}.",
                code="correction_already_decided",
            )
        response, outcome = _answer(write, request, player, agrees=agrees, actor=actor)
        write.season = request.game.group.meet.season  # an applied sheet must score (R3-e)
    return AnsweredCorrection(response=response, request=request, outcome=outcome)


# --- helpers ---------------------------------------------------------------------------------


def _answer(
    write: Write,
    request: m.CorrectionRequest,
    player: m.Player,
    *,
    agrees: bool,
    actor: User | None,
) -> tuple[m.CorrectionResponse, CorrectionOutcome]:
    game = request.game
    base_sheet = dict(request.base.lines.values_list("player_id", "machine_score"))
    quorum = _quorum(group_player_ids(game.group), base_sheet, game.group.meet.season)
    if player_key(player.pk) not in quorum:
        raise Refusal(
            {
                "player": f"{player} did not play this game: only its players are asked about "
                "a correction (R3-c, A45)."
            },
            code="not_asked",
        )
    if request.responses.filter(player=player).exists():
        raise ConflictError(
            {"player": f"{player} has already answered this correction."}, code="already_answered"
        )
    response = m.CorrectionResponse.objects.create(
        request=request, player=player, agrees=agrees, recorded_by=actor
    )
    answered = {"request": request.pk, "player": player.pk, "agrees": agrees}
    write.event("correction.answered", response, answered)
    outcome = _decide(request, base_sheet, quorum)
    if outcome.status == "pending":
        return response, outcome
    request.status = outcome.status
    request.decided_at = timezone.now()
    request.save(update_fields=["status", "decided_at"])
    if outcome.status == "applied":
        _apply(request, quorum)
    decided = {"reason": outcome.reason, "rule": outcome.rule}
    write.event(f"correction.{outcome.status}", request, decided)
    return response, outcome


def _decide(
    request: m.CorrectionRequest, base_sheet: Mapping[int, int | None], quorum: tuple[str, ...]
) -> CorrectionOutcome:
    game = request.game
    proposed = dict(request.proposed.lines.values_list("player_id", "machine_score"))
    responses = [
        CorrectionResponse(player_key(p), agrees)
        for p, agrees in request.responses.order_by("created_at", "id").values_list(
            "player_id", "agrees"
        )
    ]
    lo = (
        LoOverride(str(request.override_by), request.override_reason)
        if request.override_by is not None
        else None
    )
    outcomes = []
    for claim in _claims(game, base_sheet, proposed, request.requested_by):
        with rules_edge(code="correction_refused"):
            outcomes.append(
                decide_correction(
                    claim,
                    responses,
                    quorum=quorum,
                    meet_closed=lo is not None,
                    override=lo,
                    ruleset=season_ruleset(game.group.meet.season),
                )
            )
    # Every claim has the same quorum and answers, so they share one status.
    return outcomes[0]


def _apply(request: m.CorrectionRequest, quorum: tuple[str, ...]) -> None:
    """Confirm the proposed version: another agreeing player confirms what the requester
    entered (the database wants the confirmer to differ from the one who entered it)."""
    proposed = request.proposed
    members = group_player_ids(request.game.group)
    candidates = [int(p) for p in quorum if int(p) != proposed.entered_by_id] + [
        p for p in members if p != proposed.entered_by_id
    ]
    proposed.confirmed_by_id = candidates[0]
    proposed.confirmed_at = timezone.now()
    proposed.save(update_fields=["confirmed_by", "confirmed_at"])


def _closed_message(meet: m.Meet) -> str:
    return (
        f"Meet {meet.number} is closed: a correction now needs a league official's override "
        "with a reason (A45.2)"
    )


def _counted(game: m.Game) -> m.ScoreSubmission:
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .first()
    )
    if counted is None:
        raise ConflictError(
            {
                "game": f"Game {game.number} has no confirmed scores: enter a new sheet instead "
                "(R3-a)."
            },
            code="game_not_confirmed",
        )
    return counted


def _proposed(base: Mapping[int, int | None], changes: Mapping[int, int]) -> dict[int, int | None]:
    names = {p.pk: str(p) for p in m.Player.objects.filter(pk__in=list(changes))}
    proposed = dict(base)
    for player, score in changes.items():
        name = names.get(player, f"player #{player}")
        if player not in base:
            raise Refusal(
                {"scores": f"{name} is not in this game."}, code="not_in_game", players=[player]
            )
        if base[player] is None:
            raise Refusal(
                {
                    "scores": f"{name} did not play this game (a forfeit): a correction changes "
                    "a recorded machine score (R3-b)."
                },
                code="forfeit_not_correctable",
                players=[player],
            )
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise Refusal(
                {"scores": f"{name}'s score must be a whole number of 0 or more, got {score!r}."},
                code="invalid_score",
                players=[player],
                part="machine_score",
            )
        proposed[player] = score
    return proposed


def _claims(
    game: m.Game,
    base: Mapping[int, int | None],
    proposed: Mapping[int, int | None],
    requested_by: m.Player,
) -> list[ClaimedError]:
    claims = []
    for player, old in base.items():
        new = proposed[player]
        if old is not None and new is not None and new != old:
            claims.append(
                ClaimedError(
                    game=str(game.pk),
                    player=player_key(player),
                    recorded=old,
                    corrected=new,
                    requester=player_key(requested_by.pk),
                )
            )
    if not claims:
        raise Refusal(
            {"scores": "These are the scores already recorded: there is nothing to correct."},
            code="no_change",
        )
    return claims


def _quorum(
    members: Sequence[int], sheet: Mapping[int, int | None], season: m.Season
) -> tuple[str, ...]:
    with rules_edge(code="correction_refused"):
        return correction_quorum(
            group=[player_key(p) for p in members],
            played=[player_key(p) for p in members if sheet.get(p) is not None],
            ruleset=season_ruleset(season),
        )


def carried_tie_orders(
    orders: Sequence[Sequence[int]],
    sheet: Mapping[int, int | None],
    *,
    given: Sequence[Sequence[int]],
) -> list[list[int]]:
    """The parts of the counted sheet's tie orders whose players are still tied on `sheet`
    (R3.2-i), leaving out players a new order given with the request names."""
    named = {p for order in given for p in order}
    carried: list[list[int]] = []
    for order in orders:
        by_score: dict[int, list[int]] = {}
        for player in order:
            score = sheet.get(player)
            if score is not None and player not in named:
                by_score.setdefault(score, []).append(player)
        carried.extend(players for players in by_score.values() if len(players) > 1)
    return carried


def _check_no_discarded_score(game: m.Game) -> None:
    """A game with a discarded score waits for its replay, not a correction (R7.4-c, A58)."""
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    if counted is not None and m.DiscardedScore.objects.filter(game=game, version=counted).exists():
        raise ConflictError(
            {
                "game": f"Game {game.number}'s scores were discarded after a positive malfunction "
                "(R7.4-c): record the replay, not a correction."
            },
            code="scores_discarded",
        )
