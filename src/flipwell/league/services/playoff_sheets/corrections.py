"""A playoff game's scores corrected after confirmation, by the match's players (§3, §6.3).

Words (see `flipwell.league.models.playoffs.PlayoffSheet` and `flipwell.rules.playoff_sheet`):
- *correction*: after confirmation a player claims other machine scores; every present
  player of the match must agree (R3-c, R3-d, `flipwell.rules.corrections`): the requester
  agrees by asking; applied when all agreed, refused as soon as one does not.
- *pending*: a correction waiting for answers; the database allows one per game.

A correction sent through the API names the official whose token sent it (`actor`), for the
audit log.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from django.db import IntegrityError

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import DivisionFacts
from flipwell.league.services._edge import PlayerRef, league_changed, ref_id, rules_edge
from flipwell.league.services._protocol import Write, savepoint
from flipwell.league.services.playoff_matches.match_facts import (
    check_record,
    match_facts,
    match_row,
)
from flipwell.league.services.playoff_sheets.match_sheet import (
    Change,
    Sheet,
    check_seen,
    locked_match,
    present_keys,
    require_present,
    rules_game,
    sheet_lines,
    sheet_write,
    store_lines,
)
from flipwell.rules import (
    CorrectionRequest,
    CorrectionResponse,
    PlayoffGame,
    PlayoffMatchRecord,
    PlayoffMatchState,
    decide_correction,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def request_playoff_correction(
    *,
    season: m.Season,
    division: str,
    match: str,
    number: int,
    scores: Mapping[PlayerRef, int],
    requested_by: m.Player,
    reason: str,
    tie_order: Sequence[Sequence[PlayerRef]] = (),
    actor: User | None = None,
) -> m.PlayoffSheet:
    """Claim other machine scores for confirmed game `number` of the match (R3-b): a pending
    correction that every other present player must agree to (R3-c, R3-d); the requester
    agrees by asking. Side effects: a PlayoffSheet (pending) with its lines and the
    requester's answer, audit event ``playoffs.correction_requested``; applied at once when
    nobody else is asked. Raises ValidationError for a game without confirmed machine scores,
    no reason, nothing changed, or scores the rules refuse; ConflictError when a correction of
    the game is already waiting.
    """
    why = (reason or "").strip()
    if not why:
        raise Refusal(
            {"reason": "Say what went wrong, for the other players."}, code="reason_required"
        )
    with sheet_write(season.league, actor, action="request a playoff correction") as write:
        league_changed(season.league_id)
        night, facts, div, state = match_facts(season, division, match)
        require_present(state, facts, requested_by, field="requested_by")
        row = match_row(night, division, match)
        base, machine = _confirmed_scores(row, number, match)
        proposed = {**base, **{ref_id(p): s for p, s in scores.items()}}
        ties = [[ref_id(p) for p in o] for o in tie_order] or _carried_ties(row, number, proposed)
        _claims(base, proposed, match, number, requested_by, present_keys(state))
        game = rules_game(machine, proposed, ties)
        check_record(season, div, match, _replaced(number, game))
        created = _pending_correction(row, number, match, requested_by, why, season.league_id)
        store_lines(created, proposed, ties)
        write.event(
            "playoffs.correction_requested",
            created,
            {"match": match, "number": number, "reason": why,
                  "scores": {str(p): s for p, s in proposed.items()}},
        )  # fmt: skip
        facts_now = (season, division, match, div, state)
        _answer(write, created, requested_by, agrees=True, facts=facts_now)
    return created


def _pending_correction(
    row: m.PlayoffMatch, number: int, match: str, requested_by: m.Player, why: str, league: int
) -> m.PlayoffSheet:
    """The pending correction's sheet; ConflictError when the game already has one waiting
    (the database allows one per game)."""
    try:
        with savepoint():
            return m.PlayoffSheet.objects.create(
                match=row, number=number, version=check_seen(row, number, None) + 1,
                status=m.PlayoffSheet.Status.PENDING, entered_by=requested_by, reason=why,
                idempotency_key=f"correction:{uuid.uuid4().hex}", idempotency_scope=f"{league}:",
            )  # fmt: skip
    except IntegrityError as error:
        raise ConflictError(
            f"Game {number} of {match} already has a correction waiting for answers.",
            code="correction_pending",
        ) from error


def answer_playoff_correction(
    *, sheet: m.PlayoffSheet, player: m.Player, agrees: bool, actor: User | None = None
) -> m.PlayoffSheet:
    """A present player of the match agrees or disagrees with a pending correction (R3-c).

    Applied when every present player agreed: the game's results take the corrected scores
    and everything downstream is computed again (R3-d, R3-e); refused as soon as one
    disagrees: the sheet stands. Side effects: a PlayoffSheetAnswer, maybe the corrected
    PlayoffResult rows, audit event ``playoffs.correction_answered``. Raises ConflictError
    when the correction was decided or the player answered already.
    """
    with sheet_write(None, actor, action="answer a playoff correction") as write:
        season, division, match, (_night, facts, div, state) = locked_match(sheet)
        write.league = season.league
        sheet = m.PlayoffSheet.objects.select_related("match").get(pk=sheet.pk)
        if sheet.status != m.PlayoffSheet.Status.PENDING:
            raise ConflictError(
                f"This correction was {sheet.get_status_display().lower()} already.",
                code="correction_already_decided",
            )
        require_present(state, facts, player, field="player")
        facts_now = (season, division, match, div, state)
        _answer(write, sheet, player, agrees=agrees, facts=facts_now)
    return sheet


def _confirmed_scores(row: m.PlayoffMatch, number: int, match: str) -> tuple[dict[int, int], str]:
    """The confirmed machine scores of game `number` and its machine key."""
    game = m.PlayoffGame.objects.filter(match=row, number=number).first()
    rows = list(game.results.values_list("player_id", "machine_score")) if game else []
    if game is None or not rows:
        raise ConflictError(
            {"game": f"Game {number} of {match} has no confirmed scores."},
            code="game_not_confirmed",
        )
    if any(score is None for _, score in rows):
        raise ConflictError(
            {"game": f"The league official recorded game {number} of {match} as a finishing "
                     "order: ask the official to correct it."},
        code="recorded_as_order")  # fmt: skip
    return {p: s for p, s in rows if s is not None}, str(game.machine_id)


def _carried_ties(row: m.PlayoffMatch, number: int, proposed: Sheet) -> list[list[int]]:
    """The confirmed game's one-ball playoff orders among players still tied (A54)."""
    game = m.PlayoffGame.objects.get(match=row, number=number)
    placed = sorted(
        (place, p)
        for p, place in game.results.values_list("player_id", "tie_place")
        if place is not None
    )
    by_score: dict[int, list[int]] = {}
    for _, player in placed:
        by_score.setdefault(proposed[player], []).append(player)
    return [order for order in by_score.values() if len(order) > 1]


def _claims(
    base: Sheet,
    proposed: Sheet,
    match: str,
    number: int,
    requested_by: m.Player,
    quorum: Sequence[str],
) -> list[CorrectionRequest]:
    """One claimed error per changed score, each checked by the rules (R3-b, R3-c)."""
    claims = [
        CorrectionRequest(f"{match}:{number}", player_key(p), base[p], s, str(requested_by))
        for p, s in proposed.items()
        if p in base and base[p] != s
    ]
    if not claims:
        raise Refusal(
            {"scores": "These are the confirmed scores: nothing to correct."}, code="no_change"
        )
    for claim in claims:
        with rules_edge("scores", code="correction_refused"):
            decide_correction(claim, (), quorum=quorum)
    return claims


def _replaced(number: int, game: PlayoffGame) -> Change:
    def change(record: PlayoffMatchRecord) -> PlayoffMatchRecord:
        games = list(record.games)
        games[number - 1] = game
        return replace(record, games=tuple(games))

    return change


_Facts = tuple[m.Season, str, str, DivisionFacts, PlayoffMatchState]


def _answer(
    write: Write, sheet: m.PlayoffSheet, player: m.Player, *, agrees: bool, facts: _Facts
) -> None:
    """Store one answer, decide the correction (R3-d) and apply it when everyone agreed."""
    season, _division, match, div, state = facts
    try:
        with savepoint():
            m.PlayoffSheetAnswer.objects.create(sheet=sheet, player=player, agrees=agrees)
    except IntegrityError as error:
        raise ConflictError(f"{player} answered already.", code="already_answered") from error
    row = sheet.match
    base, machine = _confirmed_scores(row, sheet.number, match)
    proposed, ties = sheet_lines(sheet)
    quorum = present_keys(state)
    responses = [
        CorrectionResponse(player_key(p), a)
        for p, a in sheet.answers.values_list("player_id", "agrees")
    ]
    claims = _claims(base, proposed, match, sheet.number, sheet.entered_by, quorum)
    with rules_edge("player", code="correction_refused"):
        outcomes = [decide_correction(c, responses, quorum=quorum).status for c in claims]
    if "refused" in outcomes:
        sheet.status = m.PlayoffSheet.Status.REFUSED
    elif all(o == "applied" for o in outcomes):
        corrected = rules_game(machine, proposed, ties)
        check_record(season, div, match, _replaced(sheet.number, corrected))
        places = {p: i for order in ties for i, p in enumerate(order, 1)}
        results = list(m.PlayoffResult.objects.filter(game__match=row, game__number=sheet.number))
        for result in results:
            result.machine_score = proposed[result.player_id]
            result.tie_place = places.get(result.player_id)
        m.PlayoffResult.objects.bulk_update(results, ["machine_score", "tie_place"])
        sheet.status = m.PlayoffSheet.Status.APPLIED
    sheet.save(update_fields=["status"])
    write.event(
        "playoffs.correction_answered",
        sheet,
        {"match": match, "number": sheet.number, "player": player.pk, "agrees": agrees,
              "status": sheet.status},
    )  # fmt: skip
