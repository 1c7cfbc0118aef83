"""Playoff matches (§6.6): lateness notices and no-shows."""

import datetime
import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.services.playoff_matches import (
    playoff_start,
    record_no_show,
    record_playoff_lateness_notice,
)
from flipwell.league.services.playoffs import qualify_for_playoffs, record_seed_playoff
from flipwell.league.services.season_files import import_season_file
from tests import factories as f

pytestmark = pytest.mark.django_db

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "golden_season.json").read_text())


# --- playoff tardiness (R6.6-a, R6.6-c, A59) -------------------------------------------------


@pytest.fixture
def official():
    return f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)


def _qualified(official, date):
    season = import_season_file(
        league=official.league, name="Winter 2026", data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7), actor=official.user,
    )  # fmt: skip
    qualify_for_playoffs(season=season, date=date, actor=official.user)
    for first_names in (("Dee", "Bea"), ("Pia", "Hal")):
        order = [m.Player.objects.get(first_name=n) for n in first_names]
        record_seed_playoff(season=season, order=order, actor=official.user)
    return season


def test_playoff_lateness_notice_before_the_start_delays_the_match(official):
    """R6.6-a, §2.2, A59: a notice before the start gives the match 15 minutes' wait."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")

    lateness = record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(hours=1), actor=official.user,
    )  # fmt: skip

    assert lateness.wait_until == start + datetime.timedelta(minutes=15)
    assert m.PlayoffLatenessNotice.objects.get().player == pia


def test_playoff_lateness_notice_at_the_start_refused(official):
    """R6.6-a: the notice must come before the match start."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)

    with pytest.raises(ValidationError) as caught:
        record_playoff_lateness_notice(
            season=season, division="A", match="QF1",
            player=m.Player.objects.get(first_name="Pia"), at=start, actor=official.user,
        )  # fmt: skip

    assert "Too late" in caught.value.message_dict["at"][0]


def test_playoff_lateness_notice_for_a_player_not_in_the_match_refused(official):
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)

    with pytest.raises(ValidationError, match="does not play in QF1"):
        record_playoff_lateness_notice(
            season=season, division="A", match="QF1",
            player=m.Player.objects.get(first_name="Cal"),
            at=start - datetime.timedelta(hours=1), actor=official.user,
        )  # fmt: skip


def test_playoff_no_show_before_the_delayed_start_refused(official):
    """R6.6-a, R6.6-c: a player who gave notice is a no-show only after the wait."""
    season = _qualified(official, datetime.date(2099, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")
    record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(days=1), actor=official.user,
    )  # fmt: skip

    with pytest.raises(ValidationError, match="waits for him"):
        record_no_show(season=season, division="A", match="QF1", player=pia, actor=official.user)
    assert m.PlayoffNoShow.objects.count() == 0


def test_playoff_no_show_after_the_delayed_start_recorded(official):
    """R6.6-c: once the wait is over, he is disqualified from the match."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")
    record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(hours=1), actor=official.user,
    )  # fmt: skip

    no_show = record_no_show(
        season=season, division="A", match="QF1", player=pia, actor=official.user
    )

    assert no_show.player == pia
