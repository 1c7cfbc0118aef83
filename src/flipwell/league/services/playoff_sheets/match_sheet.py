"""What every write through a playoff match's sheet shares: the write, the match's facts,
who is present, the game in play, the sheet's versions and lines.

Words (see `flipwell.league.models.playoffs.PlayoffSheet` and `flipwell.rules.playoff_sheet`):
- *sheet*: one version of a playoff game's machine scores (or the match's tiebreaker game's,
  `PlayoffSheet.TIEBREAKER`). A present player of the match enters it, another confirms it
  (R3-a); the confirmed sheet becomes the game's results (`PlayoffResult`) or the match's
  `Tiebreaker`, exactly as the official's console records them.
- *stale*: an entry or confirmation made on a page that no longer shows the match as it is
  (the game was confirmed meanwhile, another version was entered): refused with the codes of
  the league night's sheet (``game_already_confirmed``, ``stale_version``), nothing written.
- *present player*: a player of the match who is not absent from it (R6.6-c); only they
  enter, confirm and answer.
- *rules game*: a sheet's scores and tie orders as the rules read a playoff game (A54).

The sheet's signed link is the key, as for a group's sheet: no actor is needed. Every write is
checked by the rules against the whole division's bracket first (`check_record`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import playoff_game
from flipwell.league.adapters.keys import player_key
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import DivisionFacts, PlayoffFacts, match_id
from flipwell.league.services._edge import league_changed
from flipwell.league.services._playoff_night import drawn_machine
from flipwell.league.services._protocol import Actor, Write, league_write
from flipwell.league.services.playoff_matches.match_facts import match_facts
from flipwell.rules import PlayoffGame, PlayoffMatchRecord, PlayoffMatchState

if TYPE_CHECKING:
    from django.contrib.auth.models import User


TIEBREAKER = m.PlayoffSheet.TIEBREAKER


Change = Callable[[PlayoffMatchRecord], PlayoffMatchRecord]


Sheet = Mapping[int, int]
"""Player id -> machine score."""


def sheet_write(
    league: m.League | None, actor: User | None, *, action: str
) -> AbstractContextManager[Write]:
    """A player's write through the match's sheet (`Actor.player`; `actor`: an account
    recording for them): the service checks the player is present in the match. Playoff
    results are no season's facts: nothing is refolded; the league gets a new revision."""
    return league_write(league=league, actor=Actor.player(actor), action=action)


def locked_match(
    sheet: m.PlayoffSheet,
) -> tuple[
    m.Season,
    str,
    str,
    tuple[m.PlayoffNight, PlayoffFacts, DivisionFacts, PlayoffMatchState],
]:
    """The sheet's season, division and match id, and the match's facts (`match_facts`);
    the league gets a new revision."""
    row = m.PlayoffMatch.objects.select_related("playoff_night__season__league").get(
        pk=sheet.match_id
    )
    season = row.playoff_night.season
    league_changed(season.league_id)
    match = match_id(row.round, row.number)
    return season, row.division, match, match_facts(season, row.division, match)


def present_keys(state: PlayoffMatchState) -> list[str]:
    """The keys of the match's present players (R6.6-c)."""
    return [p for p in state.players if p not in state.absent]


def require_present(
    state: PlayoffMatchState, facts: PlayoffFacts, player: m.Player, *, field: str
) -> None:
    """Refuse a player who is not a present player of the match (R6.6-c)."""
    if player_key(player.pk) not in present_keys(state):
        names = ", ".join(facts.names[p].name for p in present_keys(state))
        raise Refusal(
            {field: f"{player} does not play in this match; its players: {names}."},
            code="not_in_match",
        )


def machine_in_play(
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


def check_seen(row: m.PlayoffMatch, number: int, seen_version: int | None) -> int:
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


def rules_game(machine: str, sheet: Sheet, ties: Sequence[Sequence[int]]) -> PlayoffGame:
    """The sheet's scores and tie orders as the rules read a game on `machine` (A54)."""
    return playoff_game(machine, scores=sheet, tie_orders=ties)


def added(number: int, game: PlayoffGame) -> Change:
    """The match's record with `game` added as game `number` (or its tiebreaker)."""
    if number == TIEBREAKER:
        return lambda r: replace(r, tiebreakers=(*r.tiebreakers, game))
    return lambda r: replace(r, games=(*r.games, game))


def store_lines(sheet: m.PlayoffSheet, scores: Sheet, ties: Sequence[Sequence[int]]) -> None:
    places = {p: i for order in ties for i, p in enumerate(order, 1)}
    m.PlayoffSheetLine.objects.bulk_create(
        m.PlayoffSheetLine(sheet=sheet, player_id=p, machine_score=s, tie_place=places.get(p))
        for p, s in scores.items()
    )


def sheet_lines(sheet: m.PlayoffSheet) -> tuple[dict[int, int], list[list[int]]]:
    """A stored sheet's scores and its tie orders (players on equal scores by tie place)."""
    rows = list(sheet.lines.values_list("player_id", "machine_score", "tie_place"))
    scores = {p: s for p, s, _ in rows}
    tied: dict[int, list[tuple[int, int]]] = {}
    for player, score, place in rows:
        if place is not None:
            tied.setdefault(score, []).append((place, player))
    return scores, [[p for _, p in sorted(group)] for group in tied.values()]
