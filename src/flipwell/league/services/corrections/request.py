"""A player asks for a correction of a confirmed game's scores (§3, R3-b, A45).

Words:
- *correction request*: a claim that machine scores in a confirmed game were recorded wrongly
  (see `flipwell.rules.corrections`); its *proposed sheet* is the confirmed sheet with the
  claimed scores, stored as an unconfirmed correction version.
- *quorum*: the players the LO asks (by default those who played the game, A45.1).
- *late correction*: a request after the meet is closed: it needs a league official's override
  with a reason (A45.2), recorded as a Ruling.

The requester, when asked, agrees by asking (`flipwell.league.services.corrections.answer`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.db import IntegrityError

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.scoresheet import latest_version
from flipwell.league.services._edge import (
    PlayerRef,
    group_player_ids,
    locked_game,
    ref_id,
    require_member,
    require_reason,
)
from flipwell.league.services._protocol import Actor, Write, league_write, official_write, savepoint
from flipwell.league.services.corrections.answer import record_answer
from flipwell.league.services.corrections.proposal import Asked, Proposal, propose
from flipwell.league.services.scores.sheet_points import store_sheet
from flipwell.rules import LoOverride

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
        asked = Asked(game, requested_by, why, sheet_changes, ties, members)
        meet = game.group.meet
        if meet.status != m.Meet.Status.CLOSED:
            write.season = meet.season  # the proposed sheet must score with the rest
            write.only_meets(meet)
            return _correction(write, asked, actor=actor)
        if actor is None:
            raise Refusal(
                {"override_reason": _closed_message(meet)}, code="override_reason_required"
            )
        return _late_correction(asked, actor=actor, override_reason=override_reason)


def _check_requester(game: m.Game, requested_by: m.Player) -> list[int]:
    """The group's players; refused for a meet not started or a requester outside the group."""
    meet = game.group.meet
    if meet.status == m.Meet.Status.PLANNED:
        raise ConflictError(f"Meet {meet.number} has not started.", code="meet_not_started")
    members = group_player_ids(game.group)
    require_member(requested_by, members, field="requested_by", group=game.group)
    return members


def _late_correction(
    asked: Asked, *, actor: User, override_reason: str | None
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
    write: Write, asked: Asked, *, actor: User | None, override: str = ""
) -> m.CorrectionRequest:
    """Store the request and its proposed sheet, its event ``correction.requested`` and the
    requester's agreement when they are asked."""
    lo = LoOverride(str(actor), override) if override else None
    proposal = propose(asked, lo=lo)
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
        record_answer(write, request, asked.requested_by, agrees=True, actor=actor)
    return request


def _save_request(
    asked: Asked, proposal: Proposal, *, actor: User | None, override: str
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


def _closed_message(meet: m.Meet) -> str:
    return (
        f"Meet {meet.number} is closed: a correction now needs a league official's override "
        "with a reason (A45.2)"
    )
