"""Fixtures shared by the web tests: league nights as the console's and the phone sheet's
tests see them. Each is named for what it builds; one module's own set-up stays in that module.
"""

from __future__ import annotations

import datetime
from types import SimpleNamespace
from typing import Any

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.exchange.demo import DemoLeague, create_demo_league
from flipwell.serving import http_cache
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f
from tests import photo_files as pf
from tests.golden import tuesday_season
from tests.league import league_night as night_
from tests.league.league_night import DATE, build_night, game, start
from tests.shared_rows import own_copy
from tests.web.console_forms import KEEPER, OTHER


@pytest.fixture
def console_night(shared_console_night: dict[str, Any], db) -> dict[str, Any]:
    """League A's night: meet 1 open, meet 2 scheduled; A's LO, a scorekeeper, B's LO."""
    return own_copy(shared_console_night)


@pytest.fixture(scope="module")
def shared_console_night(module_rows) -> dict[str, Any]:
    """`console_night`, built once for a module (tests/conftest.py's ``module_rows``)."""
    night = build_night()
    meet = start(night)
    planned = services.schedule_meet(
        season=night.season, number=2, date=DATE + datetime.timedelta(days=7), actor=night.user
    )
    keeper = f.LeagueOfficialFactory(league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    other = f.LeagueOfficialFactory()  # a league official of another league
    content = pf.png()
    photo = services.attach_photo(
        game=game(meet, 1, 1), photo=pf.upload(content), size=len(content)
    )
    return {
        "lo": night.user,
        KEEPER: keeper.user,
        OTHER: other.user,
        "ids": {
            "slug": [night.league.slug],
            "season_id": [night.season.pk],
            "meet_id": [meet.pk, planned.pk],  # the open meet's forms, then the planned one's
            "number": [1],  # a group's number in its meet
            "player_id": [night.players[0].pk],
            "machine_id": [night.machines[0].pk],
            "official_id": [night.official.pk],
            "key": [photo.key],
        },
    }


@pytest.fixture
def demo(shared_demo: DemoLeague, db) -> DemoLeague:
    """The demo league: a finished season with its playoffs, and a newer season whose meet 1
    is open."""
    return own_copy(shared_demo)


@pytest.fixture(scope="module")
def shared_demo(module_rows) -> DemoLeague:
    """`demo`, built once for a module (tests/conftest.py's ``module_rows``)."""
    return create_demo_league()


@pytest.fixture
def spring_lo(client):
    """The signed-in league official of league "tuesday", its season Spring (3 meets)."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    return SimpleNamespace(user=official.user, league=official.league, season=season)


@pytest.fixture
def spring_night(spring_lo):
    """Meet 1 open with one group of four playing game 1."""
    players = [
        f.SeasonEntryFactory(season=spring_lo.season, ifpa_rank_at_start=r).player
        for r in (1, 2, 3, 4)
    ]
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone"):
        f.MachineFactory(league=spring_lo.league, title=title)
    started = services.start_meet(
        season=spring_lo.season,
        number=1,
        date=datetime.date(2026, 1, 6),
        actor=spring_lo.user,
        seed=5,
    )
    spring_lo.meet, spring_lo.players, spring_lo.game = (
        started.meet,
        players,
        started.first_games[0],
    )
    spring_lo.meet_url = f"/manage/tuesday/meets/{started.meet.pk}/"
    return spring_lo


@pytest.fixture
def sheet_night():
    """An open meet 1 with one group of four players playing game 1."""
    official = f.LeagueOfficialFactory()
    league = official.league
    season = f.SeasonFactory(league=league, created_at=f.SET_UP_2026)
    entries = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank) for rank in (1, 2, 3, 4)
    ]
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone", "Attack from Mars"):
        f.MachineFactory(league=league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=7
    )
    group = started.groups[0]
    players = [e.player for e in entries]
    return SimpleNamespace(
        league=league,
        season=season,
        meet=started.meet,
        group=group,
        game=started.first_games[0],
        players=players,
        official=official.user,
        url=scoresheet_path(group),
    )


@pytest.fixture
def game_ending_night(client):
    """Meet 1 open with one group of four (Ann, Ben, Cleo, Dan in play order) on game 1 of
    three-ball machines; its malfunctions page, and Ben's power-loss report on ball 2."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    players = [
        f.SeasonEntryFactory(
            season=season, ifpa_rank_at_start=rank, player__first_name=first, player__last_name="X"
        ).player
        for rank, first in enumerate(("Ann", "Ben", "Cleo", "Dan"), start=1)
    ]
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone"):
        f.MachineFactory(league=official.league, title=title, balls_per_game=3)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    game = started.first_games[0]
    return SimpleNamespace(
        user=official.user,
        players=players,
        game=game,
        url=f"/manage/tuesday/meets/{started.meet.pk}/malfunctions/",
        report={
            "action": "malfunction", "game": game.pk, "player": players[1].pk, "ball": "2",
            "reason_code": "power_loss", "ball_in_play": "on",
        },
    )  # fmt: skip


@pytest.fixture
def tuesday_lo(client):
    """The official of league "tuesday", signed in."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    return official


@pytest.fixture
def lo_account(client):
    official = f.LeagueOfficialFactory(league__slug="tuesday", user__username="lo")
    client.force_login(official.user)
    return SimpleNamespace(official=official, user=official.user, league=official.league)


@pytest.fixture
def empty_page_memo():
    """No page kept from another test."""
    http_cache.forget_pages()


@pytest.fixture
def started_night():
    """Eight players and eight machines; meet 1 started (the night and its meet)."""
    night = night_.build_night(players=8, machines=8)
    return night, night_.start(night)


@pytest.fixture
def tuesday_golden() -> m.Season:
    """League "tuesday" (Tuesday Flippers) with the golden season imported (ten closed meets)."""
    return tuesday_season()
