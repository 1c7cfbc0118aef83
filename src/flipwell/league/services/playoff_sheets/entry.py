"""A present player of a playoff match enters a game's machine scores on its sheet (R3-a).

Words (see `flipwell.league.models.playoffs.PlayoffSheet` and `flipwell.rules.playoff_sheet`):
- *sheet*: one version of a playoff game's machine scores (or the match's tiebreaker game's,
  `PlayoffSheet.TIEBREAKER`). A present player of the match enters it, another confirms it
  (R3-a); the confirmed sheet becomes the game's results (`PlayoffResult`) or the match's
  `Tiebreaker`, exactly as the official's console records them.
- *stale*: an entry or confirmation made on a page that no longer shows the match as it is
  (the game was confirmed meanwhile, another version was entered): refused with the codes of
  the league night's sheet (``game_already_confirmed``, ``stale_version``), nothing written.
- *idempotency key*: as for a group's sheet (`flipwell.league.services.scores.entry`): a retry
  with the same key and sheet returns the stored version.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import PlayerRef, league_changed, ref_id
from flipwell.league.services.playoff_matches.match_facts import (
    check_record,
    match_facts,
    match_row,
)
from flipwell.league.services.playoff_sheets.match_sheet import (
    TIEBREAKER,
    Sheet,
    added,
    check_seen,
    machine_in_play,
    require_present,
    rules_game,
    sheet_lines,
    sheet_write,
    store_lines,
)


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
    with sheet_write(season.league, None, action="enter playoff scores") as write:
        league_changed(season.league_id)
        night, facts, div, state = match_facts(season, division, match)
        scope = f"{season.league_id}:{submitter}"
        replayed = _replay(scope, key, number, sheet, entered_by)
        if replayed is not None:
            return replayed
        machine_key = machine_in_play(facts, div, state, night, division, number)
        require_present(state, facts, entered_by, field="entered_by")
        row = match_row(night, division, match)
        latest = check_seen(row, number, seen_version)
        game = rules_game(machine_key, sheet, ties)
        check_record(season, div, match, added(number, game))
        created = m.PlayoffSheet.objects.create(
            match=row,
            number=number,
            version=latest + 1,
            entered_by=entered_by,
            machine_id=int(machine_key) if number == TIEBREAKER else None,
            idempotency_key=key,
            idempotency_scope=scope,
        )
        store_lines(created, sheet, ties)
        write.event(
            "playoffs.sheet_entered",
            created,
            {"match": match, "number": number, "version": created.version,
                  "entered_by": entered_by.pk, "scores": {str(p): s for p, s in sheet.items()}},
        )  # fmt: skip
    return created


def _required_key(idempotency_key: str) -> str:
    key = idempotency_key.strip()
    if not key:
        raise Refusal(
            {"idempotency_key": "Give the request an idempotency key."},
            code="idempotency_key_required",
        )
    return key


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
        and sheet_lines(stored)[0] == dict(sheet)
    )
    if not same:
        raise ConflictError(
            {"idempotency_key": "This key was already used for other scores; send a new key."},
            code="idempotency_key_reused",
        )
    return stored
