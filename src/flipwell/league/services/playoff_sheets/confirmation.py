"""Another present player of a playoff match confirms the entered sheet: it counts at once.

Words (see `flipwell.league.models.playoffs.PlayoffSheet` and `flipwell.rules.playoff_sheet`):
- *sheet*: one version of a playoff game's machine scores (or the match's tiebreaker game's,
  `PlayoffSheet.TIEBREAKER`). A present player of the match enters it, another confirms it
  (R3-a); the confirmed sheet becomes the game's results (`PlayoffResult`) or the match's
  `Tiebreaker`, exactly as the official's console records them.
- *stale*: an entry or confirmation made on a page that no longer shows the match as it is
  (the game was confirmed meanwhile, another version was entered): refused with the codes of
  the league night's sheet (``game_already_confirmed``, ``stale_version``), nothing written.
"""

from __future__ import annotations

from django.db import IntegrityError

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.refusals import ConflictError
from flipwell.league.selectors.playoffs.facts import DivisionFacts
from flipwell.league.services._edge import rules_edge
from flipwell.league.services._protocol import savepoint
from flipwell.league.services.playoff_matches.match_facts import check_record
from flipwell.league.services.playoff_sheets.match_sheet import (
    TIEBREAKER,
    added,
    check_seen,
    locked_match,
    machine_in_play,
    present_keys,
    require_present,
    rules_game,
    sheet_lines,
    sheet_write,
)
from flipwell.rules import PlayoffGame, check_sheet_confirmer


def confirm_playoff_scores(*, sheet: m.PlayoffSheet, confirmed_by: m.Player) -> m.PlayoffSheet:
    """Another present player of the match confirms the entered version (R3-a): it becomes
    the game's results (or the match's tiebreaker, R6.5-a) and counts at once.

    Side effects: PlayoffResult rows (or a Tiebreaker with its places), the sheet confirmed,
    an audit event ``playoffs.sheet_confirmed``. Raises ConflictError for a version replaced
    or a game recorded meanwhile (stale); ValidationError when `confirmed_by` entered it or is
    not a present player of the match (``own_entry``).
    """
    with sheet_write(None, None, action="confirm playoff scores") as write:
        season, division, match, (night, facts, div, state) = locked_match(sheet)
        write.league = season.league
        sheet = m.PlayoffSheet.objects.select_related("match").get(pk=sheet.pk)
        _check_latest_entry(sheet)
        machine_key = machine_in_play(facts, div, state, night, division, sheet.number)
        require_present(state, facts, confirmed_by, field="confirmed_by")
        with rules_edge("confirmed_by", code="own_entry"):
            check_sheet_confirmer(
                players=present_keys(state),
                entered_by=player_key(sheet.entered_by_id),
                confirmed_by=player_key(confirmed_by.pk),
            )
        lines = sheet_lines(sheet)
        game = rules_game(machine_key, *lines)
        check_record(season, div, match, added(sheet.number, game))
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


def _check_latest_entry(sheet: m.PlayoffSheet) -> None:
    if sheet.status != m.PlayoffSheet.Status.ENTERED:
        raise ConflictError(
            f"Version {sheet.version} of these scores is not waiting to be confirmed.",
            code="stale_version",
        )
    latest = check_seen(sheet.match, sheet.number, None)
    if latest != sheet.version:
        raise ConflictError(
            "These scores were replaced by newer ones: confirm those.", code="stale_version"
        )


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
