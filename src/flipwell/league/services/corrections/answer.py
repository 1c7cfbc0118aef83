"""A player of the quorum answers a correction request, which decides it (R3-c..R3-e).

Words:
- *correction request*: a claim that machine scores in a confirmed game were recorded wrongly
  (see `flipwell.rules.corrections`); its *proposed sheet* is the confirmed sheet with the
  claimed scores, stored as an unconfirmed correction version.
- *quorum*: the players the LO asks (by default those who played the game, A45.1).
- *applied*: every player of the quorum agreed: the proposed version is confirmed and becomes
  the game's result, so every point downstream is recomputed (R3-e);
- *refused*: one of them did not agree: the score sheet stands (R3-d).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import group_player_ids, locked_game, rules_edge
from flipwell.league.services._protocol import Actor, Write, league_write
from flipwell.league.services.corrections.proposal import claims_of, quorum_of
from flipwell.rules import CorrectionOutcome, CorrectionResponse, LoOverride, decide_correction

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
        response, outcome = record_answer(write, request, player, agrees=agrees, actor=actor)
        write.season = request.game.group.meet.season  # an applied sheet must score (R3-e)
        write.only_meets(request.game.group.meet)
    return AnsweredCorrection(response=response, request=request, outcome=outcome)


def record_answer(
    write: Write,
    request: m.CorrectionRequest,
    player: m.Player,
    *,
    agrees: bool,
    actor: User | None,
) -> tuple[m.CorrectionResponse, CorrectionOutcome]:
    """Store `player`'s answer (only the quorum is asked, once each), its event
    ``correction.answered``, and decide the request: applied or refused, with its event."""
    game = request.game
    base_sheet = dict(request.base.lines.values_list("player_id", "machine_score"))
    quorum = quorum_of(group_player_ids(game.group), base_sheet, game.group.meet.season)
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
    for claim in claims_of(game, base_sheet, proposed, request.requested_by):
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
