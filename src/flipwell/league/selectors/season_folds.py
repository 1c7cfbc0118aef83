"""A season folded fresh from its stored facts, never from a stored or remembered fold: for
an export (`flipwell.league.exchange.exports`), a report (`flipwell.league.selectors.ifpa`)
and a restore's check of the seasons it wrote (`flipwell.league.exchange.backup`).

Words: the *fold* is the season's facts folded by `flipwell.rules.season.fold_season`, the only
source of points, ladders and finishing orders; a *folded season* is that fold with what an
export names beside it (the played meets, the players' names, the readings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.derived import results
from flipwell.league.refusals import Refusal
from flipwell.rules import FWPL_V1, RuleError, Ruleset, SeasonFacts, SeasonResult, fold_season


@dataclass(frozen=True)
class FoldedSeason:
    """A season's stored facts and what the rules make of them, loaded once for an export."""

    season: m.Season
    facts: SeasonFacts
    result: SeasonResult
    meets: Mapping[int, m.Meet]
    """Meet number -> the played (open or closed) meet."""
    names: Mapping[str, tuple[str, str]]
    """Player key -> first and last name."""
    ruleset: Ruleset = FWPL_V1
    """The readings the season is folded under."""


def fold(season: m.Season) -> FoldedSeason:
    """Load a season's facts (a fixed number of queries) and fold them with its readings."""
    facts = season_facts(season)
    ruleset = season_ruleset(season)
    result = fold_season(facts, ruleset=ruleset)
    numbers = [meet.number for meet in facts.meets]
    meets = {meet.number: meet for meet in season.meets.filter(number__in=numbers)}
    names = {e.player: (e.first_name, e.last_name) for e in facts.entrants}
    return FoldedSeason(
        season=season, facts=facts, result=result, meets=meets, names=names, ruleset=ruleset
    )


def check_facts_fold(season: m.Season) -> None:
    """Fold the season from its stored facts now, not from a stored or remembered fold: a
    `Refusal` (``season_facts_refused``, a ValidationError) when the rules reject them, its
    message a sentence naming the players by name. A restore checks every season it wrote."""
    try:
        results.compute_fold(season)
    except RuleError as error:
        raise Refusal(_sentence(_with_names(error)), code="season_facts_refused") from error


def _with_names(error: RuleError) -> str:
    """The error's message with the players it names by name, not by player key (one query)."""
    ids = [int(key) for key in error.players.values() if key.isdigit()]
    if not ids:
        return str(error)
    rows = m.Player.objects.filter(pk__in=ids).values_list("pk", "first_name", "last_name")
    return error.render({player_key(pk): f"{first} {last}" for pk, first, last in rows})


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else f"{text}."
