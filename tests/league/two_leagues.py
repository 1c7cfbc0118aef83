"""Two leagues and a person who plays in both (issue 26 §1: a league's people are its own).

Tuesday Flippers (``/tuesday``) and Wednesday Wizards (``/wednesday``), each with its own league
official. Dee Cruz (IFPA number 4321, a public identity: how one person is linked across
leagues) is entered in a season of each; Tuesday's official has set her notices address
`TUESDAY_ADDRESS`. Wednesday also has Dee Kruz, entered in its other season only: the person
Wednesday's official might merge Dee into.
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.services.notices import set_notice_preferences
from tests import factories as f

TUESDAY_ADDRESS = "dee@tuesday.example.org"
WEDNESDAY_ADDRESS = "dee@wednesday.example.org"


@dataclass(frozen=True)
class TwoLeagues:
    """The two leagues, their officials and seasons, and the players (module docstring)."""

    tuesday: m.League
    wednesday: m.League
    tuesday_official: m.LeagueOfficial
    wednesday_official: m.LeagueOfficial
    tuesday_season: m.Season
    wednesday_season: m.Season
    wednesday_spring: m.Season
    dee: m.Player
    kruz: m.Player


def build_two_leagues() -> TwoLeagues:
    """Both leagues as the module docstring says, Dee's Tuesday notices set."""
    tuesday = f.LeagueOfficialFactory(
        league__name="Tuesday Flippers", league__slug="tuesday", user__username="tuesday_lo"
    )
    wednesday = f.LeagueOfficialFactory(
        league__name="Wednesday Wizards", league__slug="wednesday", user__username="wednesday_lo"
    )
    tuesday_season = f.SeasonFactory(league=tuesday.league, name="Tuesday Winter")
    wednesday_season = f.SeasonFactory(league=wednesday.league, name="Wednesday Winter")
    wednesday_spring = f.SeasonFactory(league=wednesday.league, name="Wednesday Spring")
    dee = f.PlayerFactory(first_name="Dee", last_name="Cruz", ifpa_number=4321)
    f.SeasonEntryFactory(season=tuesday_season, player=dee)
    f.SeasonEntryFactory(season=wednesday_season, player=dee)
    kruz = f.SeasonEntryFactory(
        season=wednesday_spring, player__first_name="Dee", player__last_name="Kruz"
    ).player
    set_notice_preferences(
        league=tuesday.league,
        player=dee,
        email=TUESDAY_ADDRESS,
        kinds=["ruling", "results"],
        actor=tuesday.user,
    )
    return TwoLeagues(
        tuesday=tuesday.league,
        wednesday=wednesday.league,
        tuesday_official=tuesday,
        wednesday_official=wednesday,
        tuesday_season=tuesday_season,
        wednesday_season=wednesday_season,
        wednesday_spring=wednesday_spring,
        dee=dee,
        kruz=kruz,
    )


def official_of_both(two: TwoLeagues) -> m.LeagueOfficial:
    """A user who is a league official of both leagues (their Tuesday role returned)."""
    both = f.LeagueOfficialFactory(league=two.tuesday, user__username="both_lo")
    f.LeagueOfficialFactory(league=two.wednesday, user=both.user)
    return both
