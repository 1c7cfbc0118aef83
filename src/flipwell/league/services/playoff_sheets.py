"""A playoff match's score sheet, written by its players from their phones (§6.3-§6.5, §3).

Words (see `flipwell.league.models.playoffs.PlayoffSheet` and `flipwell.rules.playoff_sheet`):
- *sheet*: one version of a playoff game's machine scores (or the match's tiebreaker game's,
  `PlayoffSheet.TIEBREAKER`). A present player of the match enters it, another confirms it
  (R3-a); the confirmed sheet becomes the game's results (`PlayoffResult`) or the match's
  `Tiebreaker`, exactly as the official's console records them.
- *stale*: an entry or confirmation made on a page that no longer shows the match as it is
  (the game was confirmed meanwhile, another version was entered): refused with the codes of
  the league night's sheet (``game_already_confirmed``, ``stale_version``), nothing written.
- *correction*: after confirmation a player claims other machine scores; every present
  player of the match must agree (R3-c, R3-d, `flipwell.rules.corrections`).

The sheet's signed link is the key, as for a group's sheet: no actor is needed. A correction
sent through the API names the official whose token sent it (`actor`), for the audit log.
Every write is checked by the rules against the whole division's bracket first.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING

from django.db import IntegrityError

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import playoff_game
from flipwell.league.adapters.keys import player_key
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import DivisionFacts, PlayoffFacts, match_id
from flipwell.league.services._edge import (
    PlayerRef,
    league_changed,
    ref_id,
    rules_edge,
)
from flipwell.league.services._playoff_night import drawn_machine
from flipwell.league.services._protocol import Actor, Write, league_write, savepoint
from flipwell.league.services.playoff_matches.games import start_game
from flipwell.league.services.playoff_matches.match_facts import (
    check_record,
    match_facts,
    match_row,
)
from flipwell.rules import (
    CorrectionRequest,
    CorrectionResponse,
    PlayoffGame,
    PlayoffMatchRecord,
    PlayoffMatchState,
    check_machine_picker,
    check_sheet_confirmer,
    decide_correction,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

TIEBREAKER = m.PlayoffSheet.TIEBREAKER
_Change = Callable[[PlayoffMatchRecord], PlayoffMatchRecord]
Sheet = Mapping[int, int]
"""Player id -> machine score."""


def start_playoff_game_on_sheet(
    *,
    season: m.Season,
    division: str,
    match: str,
    started_by: m.Player,
    machine: m.Machine | None = None,
) -> m.PlayoffGame:
    """A player of the match starts its next game from the sheet (§6.4).

    Game 1's machine is drawn at random (R6.4-b): any present player starts it, `machine`
    None. Games 2 and 3: only the loser of the previous game picks (R6.4-c), among the
    machines the §5 constraints allow (R6.4-a, A44); anyone else is refused
    (``not_the_picker``). Side effects as `start_playoff_game` (no actor: the sheet's link).
    """
    with _sheet_write(season.league, None, action="start a playoff game"):
        league_changed(season.league_id)
        _, facts, _, state = match_facts(season, division, match)
        _present(state, facts, started_by, field="chosen_by")
        with rules_edge("chosen_by", code="not_the_picker"):
            check_machine_picker(state, player_key(started_by.pk))
        return start_game(season, division, match, machine=machine, actor=None)


def submit_playoff_scores(
    *,
    season: m.Season,
    division: str,
    match: str,
    number: int,
    scores: Mapping[PlayerRef, int],
    entered_by: m.Player,
    idempotency_key: str,
    tie_order: Sequence[Sequence[PlayerRef]] = (),
    seen_version: int | None = None,
    submitter: str = "",
) -> m.PlayoffSheet:
    """Enter the machine scores of game `number` (or `TIEBREAKER`) as a new unconfirmed
    version (R3-a, R6.3-a; A54: `tie_order` for equal scores, winner first).

    A retry with the same key and sheet returns the stored version; the same key with another
    sheet is a ConflictError. Side effects: a PlayoffSheet with its lines (tie places), an
    audit event ``playoffs.sheet_entered``. Raises ConflictError when the game is no longer
    in play or another version was entered since `seen_version`; ValidationError when
    `entered_by` is not a present player or the rules refuse the scores.
    """
    key = _required_key(idempotency_key)
    sheet = {ref_id(p): s for p, s in scores.items()}
    ties = [[ref_id(p) for p in order] for order in tie_order]
    with _sheet_write(season.league, None, action="enter playoff scores") as write:
        league_changed(season.league_id)
        night, facts, div, state = match_facts(season, division, match)
        scope = f"{season.league_id}:{submitter}"
        replayed = _replay(scope, key, number, sheet, entered_by)
        if replayed is not None:
            return replayed
        machine_key = _in_play(facts, div, state, night, division, number)
        _present(state, facts, entered_by, field="entered_by")
        row = match_row(night, division, match)
        latest = _check_seen(row, number, seen_version)
        game = _rules_game(machine_key, sheet, ties)
        check_record(season, div, match, _added(number, game))
        created = m.PlayoffSheet.objects.create(
            match=row,
            number=number,
            version=latest + 1,
            entered_by=entered_by,
            machine_id=int(machine_key) if number == TIEBREAKER else None,
            idempotency_key=key,
            idempotency_scope=scope,
        )
        _store_lines(created, sheet, ties)
        write.event(
            "playoffs.sheet_entered",
            created,
            {"match": match, "number": number, "version": created.version,
                  "entered_by": entered_by.pk, "scores": {str(p): s for p, s in sheet.items()}},
        )  # fmt: skip
    return created


def confirm_playoff_scores(*, sheet: m.PlayoffSheet, confirmed_by: m.Player) -> m.PlayoffSheet:
    """Another present player of the match confirms the entered version (R3-a): it becomes
    the game's results (or the match's tiebreaker, R6.5-a) and counts at once.

    Side effects: PlayoffResult rows (or a Tiebreaker with its places), the sheet confirmed,
    an audit event ``playoffs.sheet_confirmed``. Raises ConflictError for a version replaced
    or a game recorded meanwhile (stale); ValidationError when `confirmed_by` entered it or is
    not a present player of the match (``own_entry``).
    """
    with _sheet_write(None, None, action="confirm playoff scores") as write:
        season, division, match, (night, facts, div, state) = _locked(sheet)
        write.league = season.league
        sheet = m.PlayoffSheet.objects.select_related("match").get(pk=sheet.pk)
        _check_latest_entry(sheet)
        machine_key = _in_play(facts, div, state, night, division, sheet.number)
        _present(state, facts, confirmed_by, field="confirmed_by")
        with rules_edge("confirmed_by", code="own_entry"):
            check_sheet_confirmer(
                players=_present_keys(state),
                entered_by=player_key(sheet.entered_by_id),
                confirmed_by=player_key(confirmed_by.pk),
            )
        lines = _lines(sheet)
        game = _rules_game(machine_key, *lines)
        check_record(season, div, match, _added(sheet.number, game))
        _store_result(sheet, div, match, lines, game)
        sheet.status, sheet.confirmed_by = m.PlayoffSheet.Status.CONFIRMED, confirmed_by
        try:
            with savepoint():
                sheet.save(update_fields=["status", "confirmed_by"])
        except IntegrityError as error:
            raise ConflictError(
                f"Game {sheet.number} of {match} is already confirmed.",
                code="game_already_confirmed",
            ) from error
        write.event(
            "playoffs.sheet_confirmed",
            sheet,
            {"match": match, "number": sheet.number, "version": sheet.version,
                  "confirmed_by": confirmed_by.pk},
        )  # fmt: skip
    return sheet


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
    with _sheet_write(season.league, actor, action="request a playoff correction") as write:
        league_changed(season.league_id)
        night, facts, div, state = match_facts(season, division, match)
        _present(state, facts, requested_by, field="requested_by")
        row = match_row(night, division, match)
        base, machine = _confirmed_scores(row, number, match)
        proposed = {**base, **{ref_id(p): s for p, s in scores.items()}}
        ties = [[ref_id(p) for p in o] for o in tie_order] or _carried_ties(row, number, proposed)
        _claims(base, proposed, match, number, requested_by, _present_keys(state))
        game = _rules_game(machine, proposed, ties)
        check_record(season, div, match, _replaced(number, game))
        created = _pending_correction(row, number, match, requested_by, why, season.league_id)
        _store_lines(created, proposed, ties)
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
                match=row, number=number, version=_check_seen(row, number, None) + 1,
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
    with _sheet_write(None, actor, action="answer a playoff correction") as write:
        season, division, match, (_night, facts, div, state) = _locked(sheet)
        write.league = season.league
        sheet = m.PlayoffSheet.objects.select_related("match").get(pk=sheet.pk)
        if sheet.status != m.PlayoffSheet.Status.PENDING:
            raise ConflictError(
                f"This correction was {sheet.get_status_display().lower()} already.",
                code="correction_already_decided",
            )
        _present(state, facts, player, field="player")
        facts_now = (season, division, match, div, state)
        _answer(write, sheet, player, agrees=agrees, facts=facts_now)
    return sheet


# --- helpers ---------------------------------------------------------------------------------


def _sheet_write(
    league: m.League | None, actor: User | None, *, action: str
) -> AbstractContextManager[Write]:
    """A player's write through the match's sheet (`Actor.player`; `actor`: an account
    recording for them): the service checks the player is present in the match. Playoff
    results are no season's facts: nothing is refolded; the league gets a new revision."""
    return league_write(league=league, actor=Actor.player(actor), action=action)


def _locked(
    sheet: m.PlayoffSheet,
) -> tuple[
    m.Season,
    str,
    str,
    tuple[m.PlayoffNight, PlayoffFacts, DivisionFacts, PlayoffMatchState],
]:
    row = m.PlayoffMatch.objects.select_related("playoff_night__season__league").get(
        pk=sheet.match_id
    )
    season = row.playoff_night.season
    league_changed(season.league_id)
    match = match_id(row.round, row.number)
    return season, row.division, match, match_facts(season, row.division, match)


def _required_key(idempotency_key: str) -> str:
    key = idempotency_key.strip()
    if not key:
        raise Refusal(
            {"idempotency_key": "Give the request an idempotency key."},
            code="idempotency_key_required",
        )
    return key


def _present_keys(state: PlayoffMatchState) -> list[str]:
    return [p for p in state.players if p not in state.absent]


def _present(
    state: PlayoffMatchState, facts: PlayoffFacts, player: m.Player, *, field: str
) -> None:
    """Refuse a player who is not a present player of the match (R6.6-c)."""
    if player_key(player.pk) not in _present_keys(state):
        names = ", ".join(facts.names[p].name for p in _present_keys(state))
        raise Refusal(
            {field: f"{player} does not play in this match; its players: {names}."},
            code="not_in_match",
        )


def _in_play(
    facts: PlayoffFacts,
    div: DivisionFacts,
    state: PlayoffMatchState,
    night: m.PlayoffNight,
    division: str,
    number: int,
) -> str:
    """The machine key of game `number` while it is in play (the tiebreaker's drawn machine,
    R6.5-b); a stale ConflictError otherwise."""
    if number == TIEBREAKER:
        if state.status != "tiebreaker_needed":
            raise ConflictError(
                f"{state.match} needs no tiebreaker game now.", code="no_tiebreaker_needed"
            )
        what = f"{division}:{state.match}:tiebreaker"
        return str(drawn_machine(night, what, True, facts).pk)
    game = div.in_progress.get(state.match)
    if game is None or game.number != number:
        raise ConflictError(
            f"Game {number} of {state.match} is not in play any more.", code="game_not_in_play"
        )
    return str(game.machine_id)


def _check_seen(row: m.PlayoffMatch, number: int, seen_version: int | None) -> int:
    """The latest version of the game's sheets; a stale ConflictError when the sender saw
    another one (None: not checked)."""
    latest = max(row.sheets.filter(number=number).values_list("version", flat=True), default=0)
    if seen_version is not None and seen_version != latest:
        raise ConflictError(
            "Other scores were entered for this game meanwhile: check them, then confirm or "
            "fix them.",
            code="stale_version",
        )
    return latest


def _check_latest_entry(sheet: m.PlayoffSheet) -> None:
    if sheet.status != m.PlayoffSheet.Status.ENTERED:
        raise ConflictError(
            f"Version {sheet.version} of these scores is not waiting to be confirmed.",
            code="stale_version",
        )
    latest = _check_seen(sheet.match, sheet.number, None)
    if latest != sheet.version:
        raise ConflictError(
            "These scores were replaced by newer ones: confirm those.", code="stale_version"
        )


def _rules_game(machine: str, sheet: Sheet, ties: Sequence[Sequence[int]]) -> PlayoffGame:
    return playoff_game(machine, scores=sheet, tie_orders=ties)


def _added(number: int, game: PlayoffGame) -> _Change:
    if number == TIEBREAKER:
        return lambda r: replace(r, tiebreakers=(*r.tiebreakers, game))
    return lambda r: replace(r, games=(*r.games, game))


def _replaced(number: int, game: PlayoffGame) -> _Change:
    def change(record: PlayoffMatchRecord) -> PlayoffMatchRecord:
        games = list(record.games)
        games[number - 1] = game
        return replace(record, games=tuple(games))

    return change


def _store_lines(sheet: m.PlayoffSheet, scores: Sheet, ties: Sequence[Sequence[int]]) -> None:
    places = {p: i for order in ties for i, p in enumerate(order, 1)}
    m.PlayoffSheetLine.objects.bulk_create(
        m.PlayoffSheetLine(sheet=sheet, player_id=p, machine_score=s, tie_place=places.get(p))
        for p, s in scores.items()
    )


def _lines(sheet: m.PlayoffSheet) -> tuple[dict[int, int], list[list[int]]]:
    """A stored sheet's scores and its tie orders (players on equal scores by tie place)."""
    rows = list(sheet.lines.values_list("player_id", "machine_score", "tie_place"))
    scores = {p: s for p, s, _ in rows}
    tied: dict[int, list[tuple[int, int]]] = {}
    for player, score, place in rows:
        if place is not None:
            tied.setdefault(score, []).append((place, player))
    return scores, [[p for _, p in sorted(group)] for group in tied.values()]


def _store_result(
    sheet: m.PlayoffSheet,
    div: DivisionFacts,
    match: str,
    lines: tuple[dict[int, int], list[list[int]]],
    game: PlayoffGame,
) -> None:
    """The confirmed sheet as the game's PlayoffResult rows, or the match's Tiebreaker."""
    scores, ties = lines
    if sheet.number == TIEBREAKER:
        tiebreaker = m.Tiebreaker.objects.create(
            playoff_night_id=sheet.match.playoff_night_id,
            purpose=m.Tiebreaker.Purpose.MATCH,
            match=sheet.match,
            machine_id=sheet.machine_id,
        )
        m.TiebreakerPlace.objects.bulk_create(
            m.TiebreakerPlace(tiebreaker=tiebreaker, player_id=int(p), place=i)
            for i, p in enumerate(game.finishing_order(), 1)
        )
        return
    places = {p: i for order in ties for i, p in enumerate(order, 1)}
    m.PlayoffResult.objects.bulk_create(
        m.PlayoffResult(
            game_id=div.in_progress[match].game_id,
            player_id=p,
            machine_score=s,
            tie_place=places.get(p),
        )
        for p, s in scores.items()
    )


def _replay(
    scope: str, key: str, number: int, sheet: Sheet, entered_by: m.Player
) -> m.PlayoffSheet | None:
    """The stored version of a retried entry, None for a new key; a ConflictError for the
    same key with another sheet."""
    stored = m.PlayoffSheet.objects.filter(idempotency_scope=scope, idempotency_key=key).first()
    if stored is None:
        return None
    same = (
        stored.number == number
        and stored.entered_by_id == entered_by.pk
        and _lines(stored)[0] == dict(sheet)
    )
    if not same:
        raise ConflictError(
            {"idempotency_key": "This key was already used for other scores; send a new key."},
            code="idempotency_key_reused",
        )
    return stored


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
    proposed, ties = _lines(sheet)
    quorum = _present_keys(state)
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
        corrected = _rules_game(machine, proposed, ties)
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
