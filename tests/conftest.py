"""Shared test configuration: Hypothesis profiles (issue 34 §4), and the fixtures tests in
more than one directory share (one place each, STYLE.md convention 18):

- ``official``: a league official of a new league;
- ``night``: a league of 8 players ranked IFPA 1..8 and 8 machines, no meet started yet
  (`tests.league.league_night.Night`);
- ``meet``: the night's meet 1 started (two groups of four);
- ``golden``: the golden season (22 players, 10 closed meets) in the official's league;
- ``seeded``: the golden season qualified for its playoff night, both seeding ties settled;
- ``qualified``: seeded, and Ned withdrew (R6.6-b);
- ``tuesday_official``: the official of league "tuesday" (Tuesday Flippers);
- ``rated_tuesday_season``: the golden season in league "tuesday", no rating kept from before;
- ``two_leagues``: two leagues side by side (`tests.league.two_leagues`);
- ``media_root``: uploads in a directory of the test's own (a module asks for it with
  ``pytest.mark.usefixtures``);
- ``module_rows``: one transaction around a module's tests, for rows its module-scoped
  fixtures build once and every test of the module shares (below).

A fixture one module alone uses stays in that module; fixtures one directory's modules share
are in that directory's conftest.py.

`make test` (and any plain pytest run) loads the profile ``test``: derandomized, so every run
of one commit draws the same examples (each test's seed is fixed, derived from the test
itself) and no example database replays an earlier run's failures: CI never fails or passes
by chance. ``FLIPWELL_CHAOS=long`` (`make chaos`) loads ``chaos``: a random search, three
times the examples. The profile is printed in the run's header.
"""

import os
from collections.abc import Iterator

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings

from flipwell.league import models as m
from flipwell.league.rate_limits import shared_cache
from flipwell.league.selectors import ratings
from flipwell.league.services.playoffs import (
    qualify_for_playoffs,
    record_seed_playoff,
    record_withdrawal,
)
from tests import factories as f
from tests.form_keys import KeyedClient
from tests.golden import import_golden, tuesday_season
from tests.league.league_night import Night, build_night, start
from tests.league.two_leagues import build_two_leagues
from tests.playoff_night import NIGHT, player

CHAOS = os.environ.get("FLIPWELL_CHAOS", "").strip().lower() == "long"

settings.register_profile(
    "test",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "chaos",
    max_examples=300,
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
HYPOTHESIS_PROFILE = "chaos" if CHAOS else "test"
settings.load_profile(HYPOTHESIS_PROFILE)


LONG_MODULES = (
    # the stateful runs
    "tests/web/test_season_state_machine.py",
    "tests/league/test_night_state_machine.py",
    # real servers and commands
    "tests/test_make_run.py",
    "tests/chaos/test_two_servers.py",
    "tests/chaos/test_serve.py",
    "tests/chaos/test_api_season.py",
    "tests/chaos/test_crash.py",
    "tests/chaos/test_concurrency.py",
    "tests/league/models/test_migrations.py",
    "tests/web/test_player_words_crawl.py",
    # whole nights in the browser
    "tests/browser/test_playoffs_from_phones.py",
    "tests/browser/test_new_league.py",
    "tests/browser/test_playoffs_night.py",
    "tests/browser/test_make_run.py",
    "tests/browser/test_pages.py",
    "tests/browser/test_league_night.py",
)
"""The modules whose tests take longest (each pass prints its slowest 25), longest first."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Run `LONG_MODULES` first, in their order, the rest as collected.

    A pass runs on every core (pytest-xdist, work stealing: a worker that runs out takes the
    tests queued last for another). A long test queued last leaves the other cores idle while
    it runs; queued first, it runs while the others take the short tests, and the pass ends on
    short ones. A module stays whole, so its module-scoped fixtures are built once."""
    rank = {module: index for index, module in enumerate(LONG_MODULES)}
    root = config.rootpath

    def order(item: pytest.Item) -> int:
        return rank.get(item.path.relative_to(root).as_posix(), len(rank))

    items.sort(key=order)  # stable: each module's tests keep their order


def pytest_report_header() -> str:
    if CHAOS:
        return "flipwell: Hypothesis profile 'chaos': random search (seed printed on failure)"
    return (
        "flipwell: Hypothesis profile 'test': derandomized, seed fixed per test "
        "(FLIPWELL_CHAOS=long for a random search)"
    )


@pytest.fixture
def client() -> KeyedClient:
    """Django's test client, posting the console's forms with a form key the server issued
    (`tests.form_keys`), as a browser does."""
    return KeyedClient()


@pytest.fixture
def official(db) -> m.LeagueOfficial:
    """A league official of a new league."""
    return f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)


@pytest.fixture
def night(db) -> Night:
    """A league with 8 ranked players and 8 machines, no meet started yet."""
    return build_night()


@pytest.fixture
def meet(night: Night) -> m.Meet:
    """The night's meet 1, started: two groups of four on their first games."""
    return start(night)


@pytest.fixture
def golden(official: m.LeagueOfficial) -> m.Season:
    """The golden season (22 players, 10 closed meets) stored in the official's league."""
    return import_golden(official, "Winter 2026")


@pytest.fixture
def seeded(golden: m.Season, official: m.LeagueOfficial) -> m.Season:
    """Qualified, both seeding ties settled (R6.1-e, A39)."""
    qualify_for_playoffs(season=golden, date=NIGHT, actor=official.user)
    record_seed_playoff(season=golden, order=[player("Dee"), player("Bea")], actor=official.user)
    record_seed_playoff(season=golden, order=[player("Pia"), player("Hal")], actor=official.user)
    return golden


@pytest.fixture
def qualified(seeded: m.Season, official: m.LeagueOfficial) -> m.Season:
    """Seeded, and Ned withdrew (R6.6-b): QF1 is Ivy, Pia, Hal, Kim; QF2 Jon, Omar, Eli, Rae."""
    record_withdrawal(season=seeded, player=player("Ned"), actor=official.user)
    return seeded


@pytest.fixture
def rated_tuesday_season() -> m.Season:
    """The golden season as "Winter 2026" of league "tuesday", no rating kept from before."""
    ratings.forget()
    return tuesday_season()


@pytest.fixture
def two_leagues():
    """Two leagues (tests/league/two_leagues.py)."""
    return build_two_leagues()


@pytest.fixture
def tuesday_official():
    """The official of league "tuesday" (Tuesday Flippers)."""
    return f.LeagueOfficialFactory(league__slug="tuesday", league__name="Tuesday Flippers")


@pytest.fixture
def media_root(settings, tmp_path):
    """Uploaded files in a directory of the test's own, the shared cache emptied."""
    settings.MEDIA_ROOT = tmp_path / "media"
    shared_cache().clear()  # each game's refused photos are counted there


@pytest.fixture(scope="module")
def module_rows(django_db_setup, django_db_blocker) -> Iterator[None]:
    """A transaction open around one module's tests, rolled back after its last test.

    A module-scoped fixture that asks for it writes its rows once for the module (a league and
    its night built once, not once per test: most of a parametrized module's time). Each test
    still runs in its own savepoint of it (pytest-django's ``db``, as Django's TestCase runs
    ``setUpTestData``), so what a test writes is gone before the next one. The function-scoped
    fixture that hands the rows to a test gives it its own copy (`tests.shared_rows.own_copy`):
    a service that changes an instance it was given changes that test's copy only, and no page
    a previous test had remembered is served to it.
    Not for a module with transactional tests (``transactional_db``, a live server): they
    commit, and there is no commit inside this transaction.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)
