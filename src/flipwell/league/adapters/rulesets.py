"""The rules a league and a season are played under: FWPL v1.0 and the IFPA's figures with the
stored overrides applied.

Words:
- *override*: a setting (or IFPA figure) the league or the season changed from the default,
  stored as JSON.
"""

from __future__ import annotations

from flipwell.league import models as m
from flipwell.rules import (
    IfpaParameters,
    Ruleset,
    ifpa_parameters,
    ruleset_from_overrides,
)


def ruleset_for(league: m.League) -> Ruleset:
    """The league's `Ruleset`: FWPL v1.0 with its stored overrides (JSON) applied. These are
    the readings a season created now takes; a season is folded under its own
    (`season_ruleset`).

    Raises RuleError naming the setting when a stored override is not allowed.
    """
    return ruleset_from_overrides(league.ruleset_overrides or {})


def league_ifpa_parameters(league: m.League) -> IfpaParameters:
    """The IFPA's figures as the league uses them: the IFPA's, with the league's own
    (`League.ifpa_figures`) in their place. RuleError for a stored figure not allowed."""
    return ifpa_parameters(league.ifpa_figures or {})


def season_ruleset(season: m.Season) -> Ruleset:
    """The `Ruleset` a season is played and folded under: FWPL v1.0 with the season's
    readings (its overrides, copied from the league's when it was created) applied.

    Raises RuleError naming the setting when a stored override is not allowed.
    """
    return ruleset_from_overrides(season.ruleset_overrides or {})
