"""What every use case of a playoff match reads first: the locked night, its facts, the
division and the match's state, and the checks of a change to a match's record.

Words: see `flipwell.league.selectors.playoffs` (facts, match ids, machine keys) and
`flipwell.rules.playoff_matches` / `playoff_bracket`. A match's *record* is what was played
in it (games, tiebreakers, no-shows); its *state* is what the rules compute from the whole
division's bracket (waiting for its players, ready, a tiebreaker needed, complete). Every
change to a record is checked by the rules against the whole bracket before it is written: a
refusal is a ValidationError carrying the rules' message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.playoffs.facts import (
    DivisionFacts,
    PlayoffFacts,
    bracket_state,
    load_playoff_facts,
    match_round,
)
from flipwell.league.services._edge import rules_edge
from flipwell.league.services._playoff_night import locked_night
from flipwell.rules.playoff_matches import PlayoffMatchRecord, PlayoffMatchState


def division_facts(facts: PlayoffFacts, division: str) -> DivisionFacts:
    if division not in facts.divisions:
        known = ", ".join(facts.divisions) or "none (the bracket is not drawn yet)"
        raise Refusal(
            {"division": f"No playoff division {division!r}; divisions: {known}."},
            code="unknown_division",
        )
    return facts.divisions[division]


def match_facts(
    season: m.Season, division: str, match: str
) -> tuple[m.PlayoffNight, PlayoffFacts, DivisionFacts, PlayoffMatchState]:
    """The season's playoff night (locked for the service), its facts, the division and the
    match's state as the rules compute it."""
    night = locked_night(season)
    facts = load_playoff_facts(night)
    div = division_facts(facts, division)
    return night, facts, div, match_state(season, div, match)


def match_row(night: m.PlayoffNight, division: str, match: str) -> m.PlayoffMatch:
    """The match's stored row, created on its first stored fact (game, no-show, notice)."""
    round_, number = match_round(match)
    row, _ = m.PlayoffMatch.objects.get_or_create(
        playoff_night=night, division=division, round=round_, number=number
    )
    return row


def player_key_in_match(
    player: m.Player, match: str, state: PlayoffMatchState, facts: PlayoffFacts
) -> str:
    """The player's key; a ValidationError naming the match's players when he is not one."""
    key = player_key(player.pk)
    if key not in state.players:
        players = ", ".join(facts.names[p].name for p in state.players)
        raise Refusal(
            {"player": f"{player} does not play in {match}; its players: {players}."},
            code="not_in_match",
        )
    return key


def match_with_players(
    season: m.Season, division: str, match: str
) -> tuple[m.PlayoffNight, PlayoffFacts, DivisionFacts, PlayoffMatchState]:
    """The locked night, its facts, the division and the match, whose players must be known."""
    night, facts, div, state = match_facts(season, division, match)
    if state.status == "waiting":
        raise ConflictError(
            {"match": f"{match}'s players are not known yet ({state.needed})."},
            code="match_players_unknown",
        )
    return night, facts, div, state


def match_state(season: m.Season, div: DivisionFacts, match: str) -> PlayoffMatchState:
    with rules_edge("match", code="unknown_match", message=str):
        return bracket_state(div, season_ruleset(season)).match(match)


def check_record(
    season: m.Season,
    div: DivisionFacts,
    match: str,
    change: Callable[[PlayoffMatchRecord], PlayoffMatchRecord],
) -> None:
    """Refuse a change to one match's record that the rules refuse for the whole bracket."""
    records = dict(div.records)
    records[match] = change(records.get(match, PlayoffMatchRecord()))
    with rules_edge("order", code="bracket_refused", message=str):
        bracket_state(replace(div, records=records), season_ruleset(season))
