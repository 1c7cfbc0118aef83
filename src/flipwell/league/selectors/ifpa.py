"""A season's IFPA submission as read from its facts (who is listed, who is left out and why),
its IFPA compliance checks, and the IFPA figures a league uses.

Words (`flipwell.rules.ifpa` and `flipwell.rules.ifpa_compliance` define the rest):
- *submission*: the players the IFPA results file lists, at their final positions, and the
  players left out of it, each with the reason in words. Both the file
  (`flipwell.league.exchange.for_other_programs.ifpa_results`) and its preview (the API and
  the console) read it.
- *playoffs complete*: every playoff division's final is complete; only then are post-finals
  results possible, and they are the default.
- *the league's figures*: the IFPA's numbers (`IfpaParameters`) with the league's own
  (`League.ifpa_figures`, set by `change_ifpa_figure`) in their place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.refusals import ConflictError
from flipwell.league.selectors.playoffs.bracket import PlayoffBracket, playoff_bracket
from flipwell.league.selectors.season_folds import fold
from flipwell.league.selectors.standings import PlayerRef
from flipwell.rules import (
    IFPA_DEFAULTS,
    PARAMETER_BOUNDS,
    IfpaCheck,
    IfpaCompliance,
    IfpaDecision,
    IfpaParameters,
    IfpaResults,
    IfpaSeasonFacts,
    attendance,
    held_meets,
    ifpa_compliance,
    ifpa_finalists,
    ifpa_finals_games,
    ifpa_meet_games,
    ifpa_parameters,
    ifpa_positions,
    ifpa_selection,
    planned_ifpa_facts,
    season_final_positions,
)


@dataclass(frozen=True)
class IfpaLine:
    """One player of the submission: his position (None when left out) and the reason."""

    position: int | None
    player: PlayerRef
    first_name: str
    last_name: str
    ifpa_number: int | None
    meets_attended: int
    reason: str
    why: str


@dataclass(frozen=True)
class IfpaSubmission:
    """A season's IFPA submission and the numbers it was made with."""

    season_id: int
    results: IfpaResults
    playoffs_complete: bool
    meets_played: int
    threshold: int
    included: tuple[IfpaLine, ...]
    left_out: tuple[IfpaLine, ...]


def ifpa_submission(
    season: m.Season, *, results: IfpaResults | None = None, threshold: int | None = None
) -> IfpaSubmission:
    """Who the season's IFPA file lists and who it leaves out (IFPA league rules).

    results: regular-season or post-finals positions; by default post-finals once the
    playoffs are complete, else regular season. threshold: the league's own number of meets
    (default half the meets played). Raises ValidationError (key ``results``) when post-finals
    results are asked for before the playoffs are complete. Read-only; fixed queries.
    """
    folded = fold(season)
    bracket = playoff_bracket(season)
    complete = bool(bracket.divisions) and all(d.complete for d in bracket.divisions)
    chosen = _chosen_results(season, results, playoffs_complete=complete)
    standings = [s.player for s in folded.result.standings()]
    places = _playoff_places(bracket) if chosen is IfpaResults.POST_FINALS else []
    positions = season_final_positions(standings, places)
    held = {meet.number for meet in held_meets(folded.facts.meets)}
    nights = {s.player: [n for n in s.nights if n.meet in held] for s in folded.result.standings()}
    # `attendance` counts the meets attended (R2-b); who falls short is ifpa_selection's call.
    attended = {key: attendance(nights[key], threshold=0)[0] for _, key in positions}
    selection = ifpa_selection(
        attended,
        meets_played=len(held),
        finalists=_finalists(bracket),
        threshold=threshold,
    )
    numbers = dict(
        m.SeasonEntry.objects.filter(season=season).values_list("player_id", "player__ifpa_number")
    )
    included = {d.player for d in selection.included}
    new_positions = {key: position for position, key in ifpa_positions(positions, included)}

    def line(decision: IfpaDecision) -> IfpaLine:
        first, last = folded.names[decision.player]
        pk = int(decision.player)
        return IfpaLine(
            position=new_positions.get(decision.player),
            player=PlayerRef(pk, f"{first} {last}"),
            first_name=first,
            last_name=last,
            ifpa_number=numbers.get(pk),
            meets_attended=decision.meets_attended,
            reason=decision.reason.value,
            why=selection.explain(decision),
        )

    return IfpaSubmission(
        season_id=season.pk,
        results=chosen,
        playoffs_complete=complete,
        meets_played=selection.meets_played,
        threshold=selection.threshold,
        included=tuple(line(d) for d in selection.included),
        left_out=tuple(line(d) for d in selection.left_out),
    )


def _chosen_results(
    season: m.Season, results: IfpaResults | None, *, playoffs_complete: bool
) -> IfpaResults:
    """The results asked for, by default post-finals once the playoffs are complete, else
    regular season; ConflictError for post-finals results before the playoffs are complete."""
    default = IfpaResults.POST_FINALS if playoffs_complete else IfpaResults.REGULAR_SEASON
    chosen = results or default
    if chosen is IfpaResults.POST_FINALS and not playoffs_complete:
        raise ConflictError(
            {
                "results": [
                    f"The playoffs of {season.name} are not complete, so there are no "
                    "post-finals results yet; ask for regular_season results."
                ]
            },
            code="playoffs_not_complete",
        )
    return chosen


def _playoff_places(bracket: PlayoffBracket) -> list[list[tuple[int, str]]]:
    """Each division's final places (the bracket is complete)."""
    return [[(place, player_key(p.id)) for place, p in d.places] for d in bracket.divisions]


def _finalists(bracket: PlayoffBracket) -> set[str]:
    """The players seeded into a playoff division: they reached the finals (R6.2-a)."""
    return {player_key(p.id) for d in bracket.divisions for _, p in d.seeds if p is not None}


@dataclass(frozen=True)
class SeasonIfpaCompliance:
    """A season's IFPA checks (`flipwell.rules.ifpa_compliance`) and the figures they used."""

    season_id: int
    compliance: IfpaCompliance

    @property
    def planned(self) -> bool:
        return self.compliance.planned

    @property
    def passed(self) -> bool:
        return self.compliance.passed

    @property
    def parameters(self) -> IfpaParameters:
        return self.compliance.parameters

    @property
    def checks(self) -> tuple[IfpaCheck, ...]:
        return self.compliance.checks


def season_ifpa_compliance(
    season: m.Season, *, figures: Mapping[str, int | str] | None = None
) -> SeasonIfpaCompliance:
    """The season's IFPA checks: read from its schedule before its first meet is held, from
    what happened once one is held (the meets closed, who attended them, who reached the
    finals; the meet being played is not held yet, `held_meets`). The IFPA's
    figures are the league's (`league_ifpa_parameters`), with `figures` in their place.
    RuleError for a figure not allowed. Read-only; fixed queries."""
    own = {**(season.league.ifpa_figures or {}), **(figures or {})}
    return SeasonIfpaCompliance(season.pk, _compliance(season, ifpa_parameters(own)))


def _compliance(season: m.Season, parameters: IfpaParameters) -> IfpaCompliance:
    """The checks of `season_ifpa_compliance`."""
    members = m.SeasonEntry.objects.filter(season=season).count()
    ruleset = season_ruleset(season)
    folded = fold(season)
    meets = held_meets(folded.facts.meets)
    if not meets:
        facts = planned_ifpa_facts(
            number_of_meets=season.number_of_meets, members=members, ruleset=ruleset
        )
        return ifpa_compliance(facts, parameters=parameters)
    submission = ifpa_submission(season)
    bracket = playoff_bracket(season)
    seeded = len(_finalists(bracket))
    finalists = min(seeded or ifpa_finalists(members, ruleset=ruleset), members)
    lines = (*submission.included, *submission.left_out)
    top = bracket.divisions[0].bracket if bracket.divisions else None
    facts = IfpaSeasonFacts(
        meets_scheduled=season.number_of_meets,
        meets_held=len(meets),
        meets_counted=len(meets),  # R6.1-d: every meet's points make the season total
        attended=tuple(line.meets_attended for line in lines),
        members=members,
        finalists=finalists,
        direct_play=True,  # R4.1-a, R6.3-a: groups play each game head-to-head
        meets=tuple(ifpa_meet_games(meet) for meet in meets),
        finals=ifpa_finals_games(finalists, bracket=top),
        post_finals=submission.results is IfpaResults.POST_FINALS,
    )
    return ifpa_compliance(facts, parameters=parameters)


FIGURE_WORDS = {
    "min_sessions": "Meets a season must hold",
    "min_counted_sessions": "Meets that must count",
    "direct_play_members": "Players from which direct play is required",
    "finals_percent": "Share of the players the finals must take (%)",
    "tgp_percent_per_game": "TGP per meaningful game (%)",
    "tgp_ceiling_percent": "Highest TGP without finals (%)",
    "tgp_ceiling_with_finals_percent": "Highest TGP with finals (%)",
    "fee_cents_per_player": "Endorsement fee per player, in cents",
    "fee_currency": "Currency of the fee",
}
"""Each IFPA figure (`IfpaParameters`) in words."""

UNCERTAIN = {
    "tgp_ceiling_with_finals_percent": "Announced for the IFPA's 2023 rankings; not confirmed "
    "for later ones.",
    "fee_cents_per_player": "USD 1 in North America; elsewhere the IFPA sets it in local currency.",
    "fee_currency": "USD in North America; elsewhere the IFPA's local currency.",
}
"""Why a figure may differ from the IFPA's published number."""


@dataclass(frozen=True)
class IfpaFigureLine:
    """One IFPA figure as the league uses it, the IFPA's own, its bounds and source."""

    name: str
    words: str
    value: int | str
    ifpa: int | str
    own: bool
    low: int | None
    high: int | None
    source: str
    note: str


def league_ifpa_figures(league: m.League) -> tuple[IfpaFigureLine, ...]:
    """The IFPA figures the league's checks use, in `IfpaParameters` order (no query)."""
    used = ifpa_parameters(league.ifpa_figures or {})
    currency_source = PARAMETER_BOUNDS["fee_cents_per_player"].source.url
    lines = []
    for name in FIGURE_WORDS:
        bounds = PARAMETER_BOUNDS.get(name)
        value, ifpa = getattr(used, name), getattr(IFPA_DEFAULTS, name)
        lines.append(
            IfpaFigureLine(
                name=name,
                words=FIGURE_WORDS[name],
                value=value,
                ifpa=ifpa,
                own=value != ifpa,
                low=bounds.low if bounds else None,
                high=bounds.high if bounds else None,
                source=bounds.source.url if bounds else currency_source,
                note=UNCERTAIN.get(name, ""),
            )
        )
    return tuple(lines)
