"""What cutting a season short would change, before the official confirms it (R2-a, A68).

Words (`flipwell.rules.season_length`): the *preview* folds the season with the new number of
meets, never stored: whose place in the playoff race changes (eligible or not, clinched,
eliminated), the meets left, the planned meets the cut cancels, and the IFPA requirements
the new length cannot meet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import league_ifpa_parameters
from flipwell.league.derived.results import season_fold
from flipwell.rules import SeasonCut, ifpa_schedule_warnings, meets_started, season_cut
from flipwell.rules.values import PlayerId


@dataclass(frozen=True)
class CutPreview:
    """The preview of a cut: what the rules say it changes (`cut`), each player's name by
    key, the planned meets it cancels, and the IFPA requirements the new length fails."""

    season: m.Season
    cut: SeasonCut
    names: Mapping[PlayerId, str]
    cancelled: tuple[m.Meet, ...]
    ifpa_warnings: tuple[str, ...]


def season_cut_preview(season: m.Season, *, number_of_meets: int) -> CutPreview:
    """The preview of cutting `season` to `number_of_meets` meets (module words); RuleError,
    in plain words, for a number the rules refuse (below the meets started, not below the
    season's). Read-only: the season's stored fold and a fold with the new number."""
    folded = season_fold(season)
    cut = season_cut(
        folded.facts,
        number_of_meets=number_of_meets,
        ruleset=folded.ruleset,
        result=folded.result,
    )
    names = {e.player: f"{e.first_name} {e.last_name}" for e in folded.facts.entrants}
    cancelled = tuple(
        season.meets.filter(number__gt=number_of_meets, status=m.Meet.Status.PLANNED).order_by(
            "number"
        )
    )
    warnings = ifpa_schedule_warnings(
        number_of_meets=number_of_meets,
        members=len(folded.facts.entrants),
        ruleset=folded.ruleset,
        parameters=league_ifpa_parameters(season.league),
    )
    return CutPreview(season, cut, names, cancelled, warnings)


def season_meets_started(season: m.Season) -> int:
    """The meets of `season` started (open or closed): the number that ends it early, and
    the fewest a cut leaves (A68)."""
    return meets_started(season_fold(season).facts)
