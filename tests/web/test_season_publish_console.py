"""The console's season being prepared (issue 27 §1): it says the season is not public yet,
publishes it after a confirmation, and refreshes its IFPA ranks from a CSV before week 1
(R3.1-b, R4.3-a)."""

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db

HEADER = "first_name,last_name,ifpa_number,ifpa_rank\n"


@pytest.fixture
def prepared(client):
    """Winter (meet 1 closed, 8 players) and Spring started from it, being prepared."""
    night = night_.build_night(players=8, machines=8)
    night.season.name = "Winter 2026"
    night.season.save()
    meet = night_.start(night)
    services.close_meet(meet=meet, actor=night.user, override_reason="Short season")
    spring = services.start_next_season(season=night.season, name="Spring 2027", actor=night.user)
    client.force_login(night.user)
    return night, spring


def test_console_says_a_season_being_prepared_is_not_public_and_offers_to_publish_it(
    client, prepared
):
    night, spring = prepared
    slug = night.league.slug

    hub = client.get(f"/manage/{slug}/")
    seasons = client.get(f"/manage/{slug}/seasons/")

    note = (
        "Spring 2027 is being prepared: the public pages, the TV and the API show Winter 2026 "
        "until its first meet starts or you publish it."
    )
    for page in (hub, seasons):
        assert "Not public yet" in page.text
        assert note in page.text
        assert f"/manage/{slug}/seasons/{spring.pk}/publish/" in page.text
    assert f"/manage/{slug}/seasons/{spring.pk}/ifpa-ranks/" in seasons.text


def test_publish_page_asks_first_and_says_what_changes(client, prepared):
    night, spring = prepared

    response = client.get(f"/manage/{night.league.slug}/seasons/{spring.pk}/publish/")

    assert response.status_code == 200
    assert "Publish Spring 2027?" in response.text
    assert (
        "Spring 2027 is being prepared and is not public yet: the public standings, the player "
        "pages, the TV and the API show Winter 2026 until Spring 2027's first meet starts."
    ) in response.text
    assert "Yes, publish Spring 2027 now" in response.text
    spring.refresh_from_db()
    assert spring.published_at is None


def test_publish_page_publishes_and_the_public_pages_show_the_new_season(client, prepared):
    """issue 27 §1: the official makes the new season the public one before its first meet."""
    night, spring = prepared
    slug = night.league.slug

    response = client.post(
        f"/manage/{slug}/seasons/{spring.pk}/publish/", {"action": "publish"}, follow=True
    )

    assert response.redirect_chain == [(f"/manage/{slug}/seasons/", 302)]
    assert "Spring 2027 is published: the public pages, the TV and the API show it now." in (
        response.text
    )
    assert "Not public yet" not in response.text
    spring.refresh_from_db()
    assert spring.published_by == night.user
    assert client.get(f"/leagues/{slug}/").context["page"].season.name == "Spring 2027"
    again = client.get(f"/manage/{slug}/seasons/{spring.pk}/publish/")
    assert f"Published by {night.user.username} on" in again.text


def test_publish_page_refuses_a_season_already_shown(client, prepared):
    night, _spring = prepared

    response = client.post(
        f"/manage/{night.league.slug}/seasons/{night.season.pk}/publish/", {"action": "publish"}
    )

    assert response.status_code == 400
    assert "Winter 2026 is already shown to the public." in response.text


def test_ifpa_ranks_page_refreshes_the_ranks_from_a_csv(client, prepared):
    """issue 27 §1, R3.1-b: the ranks of the carried players, before week 1."""
    night, spring = prepared
    first, second = night.players[:2]
    text = HEADER + f"{first.first_name},{first.last_name},,20\n"
    url = f"/manage/{night.league.slug}/seasons/{spring.pk}/ifpa-ranks/"

    response = client.post(url, {"action": "ranks", "csv_text": text}, follow=True)

    assert response.redirect_chain == [(url, 302)]
    assert f"IFPA ranks of Spring 2027: 1 changed ({first} 1 → 20), 0 the same." in response.text
    assert f"Not in the file, so kept as they were: {second}" in response.text
    entry = m.SeasonEntry.objects.get(season=spring, player=first)
    assert entry.ifpa_rank_at_start == 20


def test_ifpa_ranks_page_names_the_lines_it_cannot_place(client, prepared):
    night, spring = prepared
    url = f"/manage/{night.league.slug}/seasons/{spring.pk}/ifpa-ranks/"

    response = client.post(url, {"action": "ranks", "csv_text": HEADER + "Zed,Quux,,3\n"})

    assert response.status_code == 400
    assert (
        "Line 2: Zed Quux is not a player of Spring 2027 (enter them on the roster first, or "
        "take the line out)."
    ) in response.text


def test_ifpa_ranks_page_says_why_once_the_first_meet_has_started(client, prepared):
    """R3.1-b: later weeks go by league points; no form is offered, and a post is refused."""
    night, _spring = prepared
    url = f"/manage/{night.league.slug}/seasons/{night.season.pk}/ifpa-ranks/"
    reason = (
        "Meet 1 of Winter 2026 has started: week 1 was seeded by the IFPA ranks the players "
        "had then, and later weeks go by league points"
    )

    shown = client.get(url)
    posted = client.post(url, {"action": "ranks", "csv_text": HEADER})

    assert reason in shown.text
    assert "Refresh the ranks" not in shown.text
    assert posted.status_code == 400
    assert reason in posted.text


def test_roster_of_a_season_not_started_links_the_rank_refresh(client, prepared):
    night, spring = prepared
    slug = night.league.slug

    spring_roster = client.get(f"/manage/{slug}/seasons/{spring.pk}/roster/")
    winter_roster = client.get(f"/manage/{slug}/seasons/{night.season.pk}/roster/")

    assert f"/manage/{slug}/seasons/{spring.pk}/ifpa-ranks/" in spring_roster.text
    assert "ifpa-ranks/" not in winter_roster.text


def test_next_meet_of_the_new_season_is_on_its_league_night_not_today(client, prepared):
    """issue 27 §1, R2-a: a season whose league night is another weekday offers its next
    league night for meet 1 (today only when today is that weekday)."""
    night, _spring = prepared
    thursdays = services.start_next_season(
        season=night.season, name="Thursdays 2027", weekday=m.Weekday.THURSDAY, actor=night.user
    )
    today = timezone.localdate(timezone=ZoneInfo(night.league.time_zone))
    thursday = today + datetime.timedelta(days=(3 - today.weekday()) % 7)

    hub = client.get(f"/manage/{night.league.slug}/")
    meets = client.get(f"/manage/{night.league.slug}/seasons/{thursdays.pk}/meets/")

    assert f"Next meet: schedule meet 1 for Thu {thursday.day} {thursday:%b}" in hub.text
    assert meets.context["form"].initial == {"number": 1, "date": thursday}


def test_ifpa_ranks_page_lists_the_players_better_rank_first(client, prepared):
    """R4.3-a, R4.3-b: as the week-1 ladder orders them, unranked last (sorted is stable)."""
    night, spring = prepared
    last = night.players[0]
    text = HEADER + f"{last.first_name},{last.last_name},,\n"
    url = f"/manage/{night.league.slug}/seasons/{spring.pk}/ifpa-ranks/"
    client.post(url, {"action": "ranks", "csv_text": text})

    response = client.get(url)

    ranks = [e.ifpa_rank_at_start for e in response.context["entries"]]
    assert ranks == [2, 3, 4, 5, 6, 7, 8, None]
