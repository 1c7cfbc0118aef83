"""IFPA ranks refreshed from a roster CSV before week 1 of a season (issue 27 §1; R3.1-b,
R4.3-a, R4.3-b): the file's players get their rank at the start of the season, until its first
meet starts."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.selectors.standings import ladder
from flipwell.league.services import ConflictError
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db

HEADER = "first_name,last_name,ifpa_number,ifpa_rank\n"


@pytest.fixture
def spring():
    """Spring 2027 started from Winter 2026: Alice (IFPA 1001, rank 5), Bob (rank 12, no
    number), Carol (unranked)."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    winter = f.SeasonFactory(league=official.league, name="Winter 2026", number_of_meets=8)
    players = [
        f.PlayerFactory(first_name="Alice", last_name="Archer", ifpa_number=1001),
        f.PlayerFactory(first_name="Bob", last_name="Baker", ifpa_number=None),
        f.PlayerFactory(first_name="Carol", last_name="Cole", ifpa_number=None),
    ]
    for player, rank in zip(players, (5, 12, None), strict=True):
        f.SeasonEntryFactory(season=winter, player=player, ifpa_rank_at_start=rank)
    season = services.start_next_season(season=winter, name="Spring 2027", actor=official.user)
    return official.user, season, players


def _ranks(season):
    return {e.player.first_name: e.ifpa_rank_at_start for e in season.entries.all()}


def test_refresh_ifpa_ranks_sets_the_ranks_the_file_lists_before_week_1(spring):
    """R3.1-b, R4.3-a: week 1 is seeded by the IFPA ranks at the start of the season; a player
    named by IFPA number or, without one, by name; an empty rank is unranked (R4.3-b)."""
    user, season, (alice, bob, carol) = spring
    text = HEADER + "Alice,Archer,1001,3\nbob,BAKER,,\n"

    refresh = services.refresh_ifpa_ranks(season=season, csv_text=text, actor=user)

    assert _ranks(season) == {"Alice": 3, "Bob": None, "Carol": None}
    assert refresh.changed == [(alice, 5, 3), (bob, 12, None)]
    assert (refresh.unchanged, refresh.not_in_file) == (0, [carol])
    event = m.AuditEvent.objects.get(action="season.ifpa_ranks_refreshed")
    assert event.data == {"changed": {str(alice.pk): [5, 3], str(bob.pk): [12, None]}}


def test_refresh_ifpa_ranks_reorders_the_first_ladder(spring):
    """R4.3-a: the week-1 ladder follows the refreshed ranks (better rank first)."""
    user, season, _players = spring
    text = HEADER + "Carol,Cole,,1\nAlice,Archer,1001,40\n"

    services.refresh_ifpa_ranks(season=season, csv_text=text, actor=user)

    season.refresh_from_db()
    assert [line.player.name for line in ladder(season).ladder] == [
        "Carol Cole",
        "Bob Baker",
        "Alice Archer",
    ]


def test_refresh_ifpa_ranks_is_refused_once_the_first_meet_has_started():
    """R3.1-b: later weeks go by league points; the ranks no longer change, and the official
    is told why."""
    night = night_.build_night(players=8, machines=8)
    night_.start(night)
    player = night.players[0]
    text = HEADER + f"{player.first_name},{player.last_name},{player.ifpa_number or ''},99\n"

    with pytest.raises(ConflictError) as refused:
        services.refresh_ifpa_ranks(season=night.season, csv_text=text, actor=night.user)

    assert refused.value.conflict == "season_started"
    assert refused.value.messages == [
        f"Meet 1 of {night.season.name} has started: week 1 was seeded by the IFPA ranks the "
        "players had then, and later weeks go by league points (R3.1-b), so the ranks no "
        "longer change."
    ]
    assert m.SeasonEntry.objects.get(season=night.season, player=player).ifpa_rank_at_start == 1


def test_refresh_ifpa_ranks_names_every_line_naming_nobody_of_the_season(spring):
    """All or nothing: a stranger and a player listed twice are both named; nothing changes."""
    user, season, _players = spring
    text = HEADER + "Bob,Baker,,3\nZed,Quux,,7\nBob,Baker,,4\n"

    with pytest.raises(ValidationError) as refused:
        services.refresh_ifpa_ranks(season=season, csv_text=text, actor=user)

    assert refused.value.messages == [
        "Line 3: Zed Quux is not a player of Spring 2027 (enter them on the roster first, or "
        "take the line out).",
        "Line 4: Bob Baker is already on line 2.",
    ]
    assert _ranks(season) == {"Alice": 5, "Bob": 12, "Carol": None}


def test_refresh_ifpa_ranks_reads_the_file_with_the_roster_parser(spring):
    """One CSV parser: a bad rank is the roster import's own error, with its line and column."""
    user, season, _players = spring

    with pytest.raises(PlayersCsvError) as refused:
        services.refresh_ifpa_ranks(
            season=season, csv_text=HEADER + "Alice,Archer,1001,first\n", actor=user
        )

    assert (refused.value.line, refused.value.column) == (2, "ifpa_rank")


def test_refresh_ifpa_ranks_is_an_officials_act(spring):
    _user, season, _players = spring
    keeper = f.LeagueOfficialFactory(
        league=season.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    ).user

    with pytest.raises(PermissionDenied):
        services.refresh_ifpa_ranks(
            season=season, csv_text=HEADER + "Alice,Archer,1001,3\n", actor=keeper
        )
