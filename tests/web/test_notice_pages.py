"""The console's page of a player's e-mail notices: the official sets the address and the
notices the player asked for, and sees the latest ones with their state."""

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def lo(client):
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(league=official.league, name="Spring", number_of_meets=3)
    player = f.SeasonEntryFactory(season=season).player
    url = f"/manage/tuesday/seasons/{season.pk}/roster/{player.pk}/notices/"
    return official, season, player, url


def test_roster_links_each_players_notices(client, lo):
    _, season, player, url = lo

    page = client.get(f"/manage/tuesday/seasons/{season.pk}/roster/").content.decode()

    assert f'href="{url}"' in page
    assert f'Notices<span class="visually-hidden"> of {player}</span>' in page


def test_official_sets_a_players_notices(client, lo):
    _, _, player, url = lo

    answer = client.post(url, {"email": "ann@example.org", "groups": "on", "ruling": "on"})
    page = client.get(url).content.decode()

    row = m.NoticeSubscription.objects.get(player=player)
    assert answer.status_code == 302
    assert (row.email, row.groups, row.results, row.reminder, row.ruling) == (
        "ann@example.org",
        True,
        False,
        False,
        True,
    )
    assert f"{player}&#x27;s notices are saved." in page
    assert "This installation sends no e-mail" in page  # NOTICES_EMAIL is off in the tests


def test_official_notices_without_an_address_show_the_message_by_the_field(client, lo):
    _, _, player, url = lo

    answer = client.post(url, {"email": "", "results": "on"})

    assert answer.status_code == 400
    assert f"Give {player}&#x27;s e-mail address to send them notices." in answer.content.decode()
    assert m.NoticeSubscription.objects.count() == 0


def test_notices_page_of_a_player_not_on_the_roster_is_404(client, lo):
    _, season, _, _ = lo
    stranger = f.PlayerFactory()

    answer = client.get(f"/manage/tuesday/seasons/{season.pk}/roster/{stranger.pk}/notices/")

    assert answer.status_code == 404


def test_league_notices_page_shows_the_queue_by_player_name(client, lo, settings):
    settings.NOTICES_EMAIL = True
    official, season, _, url = lo
    client.post(url, {"email": "ann@example.org", "ruling": "on"})
    late = f.SeasonEntryFactory(season=season, joined_at_meet=2).player
    client.post(
        f"/manage/tuesday/seasons/{season.pk}/roster/{late.pk}/notices/",
        {"email": "late@example.org", "ruling": "on"},
    )
    services.designate_late_join_forfeits(
        season=season, player=late, countable=False, reason="Moved here", actor=official.user
    )

    page = client.get("/manage/tuesday/notices/").content.decode()

    assert "Waiting: 1" in page
    assert f"<td>{late}</td>" in page
    assert "This installation sends no e-mail" not in page
