"""A league's people are its own (issue 26 §1), through the console as Wednesday's official:
registering a name of Tuesday's players, reading and setting a shared player's notices,
renaming and merging her (`tests.league.two_leagues`)."""

from __future__ import annotations

import pytest
from django.core import signing

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.notice_links import TOKEN_SALT, preferences_token
from flipwell.league.services import set_notice_preferences
from tests import factories as f
from tests.league.two_leagues import TUESDAY_ADDRESS, WEDNESDAY_ADDRESS, build_two_leagues

pytestmark = pytest.mark.django_db

REFUSED = (
    "Dee Cruz also plays in Tuesday Flippers: only an official of every league they play in, "
    "or an installation admin, can {doing}."
)


@pytest.fixture
def two(client):
    built = build_two_leagues()
    client.force_login(built.wednesday_official.user)
    return built


def _notices_page(two, player) -> str:
    return f"/manage/wednesday/seasons/{two.wednesday_season.pk}/roster/{player.pk}/notices/"


def test_roster_register_of_another_leagues_name_opens_none_of_its_notices(client, two):
    """issue 26 §1: Wednesday's official registered "Eve Ames", got Tuesday's Eve, and read
    and overwrote the address Tuesday's official had set."""
    eve = f.SeasonEntryFactory(
        season=two.tuesday_season, player__first_name="Eve", player__last_name="Ames"
    ).player
    set_notice_preferences(
        league=two.tuesday,
        player=eve,
        email="eve@tuesday.example.org",
        kinds=["results"],
        actor=two.tuesday_official.user,
    )
    roster = f"/manage/wednesday/seasons/{two.wednesday_season.pk}/roster/"

    registered = client.post(
        roster, {"action": "register", "first_name": "Eve", "last_name": "Ames"}
    )
    entered = m.SeasonEntry.objects.get(season=two.wednesday_season, player__last_name="Ames")
    page = client.get(_notices_page(two, entered.player))
    saved = client.post(
        _notices_page(two, entered.player), {"email": "eve@wednesday.example.org", "results": "on"}
    )

    assert (registered.status_code, page.status_code, saved.status_code) == (302, 200, 302)
    assert entered.player != eve
    assert "eve@tuesday.example.org" not in page.text
    assert m.NoticeSubscription.objects.get(player=eve).email == "eve@tuesday.example.org"


def test_notices_page_of_a_shared_player_shows_and_sets_only_the_leagues_own(client, two):
    """issue 26 §1: Dee plays in both leagues (one IFPA number); Wednesday's official read
    Tuesday's address for her and overwrote it."""
    page = client.get(_notices_page(two, two.dee))
    saved = client.post(_notices_page(two, two.dee), {"email": WEDNESDAY_ADDRESS, "ruling": "on"})
    client.force_login(two.tuesday_official.user)
    tuesday = client.get(
        f"/manage/tuesday/seasons/{two.tuesday_season.pk}/roster/{two.dee.pk}/notices/"
    )

    assert (page.status_code, saved.status_code) == (200, 302)
    assert TUESDAY_ADDRESS not in page.text
    assert TUESDAY_ADDRESS in tuesday.text
    assert WEDNESDAY_ADDRESS not in tuesday.text
    rows = m.NoticeSubscription.objects.filter(player=two.dee).order_by("league__name")
    assert [row.email for row in rows] == [TUESDAY_ADDRESS, WEDNESDAY_ADDRESS]


def test_roster_edit_of_a_player_of_another_league_is_refused_naming_it(client, two):
    """issue 26 §1: Wednesday's official renamed Dee, and Tuesday's pages showed the name."""
    response = client.post(
        f"/manage/wednesday/seasons/{two.wednesday_season.pk}/roster/",
        {"action": "edit", "player": two.dee.pk, "first_name": "Deedee", "last_name": "Cruz",
         "ifpa_number": "4321"},
    )  # fmt: skip
    tuesday = client.get(f"/leagues/tuesday/players/{two.dee.pk}/")

    assert response.status_code == 400
    assert REFUSED.format(doing="rename them") in response.text
    assert tuesday.status_code == 200
    assert "Deedee" not in tuesday.text
    assert not m.AuditEvent.objects.filter(action="player.edited").exists()


def test_merge_page_refuses_merging_a_player_of_another_league_naming_it(client, two):
    """issue 26 §1: Wednesday's official merged Tuesday's Dee into Wednesday's Dee Kruz, and
    Tuesday's page for Dee then redirected to Dee Kruz."""
    fields = {"kept": two.kruz.pk, "merged": two.dee.pk, "reason": "Same person."}

    review = client.post("/manage/wednesday/players/merge/", {**fields, "action": "review"})
    merge = client.post("/manage/wednesday/players/merge/", {**fields, "action": "merge"})
    tuesday = client.get(f"/leagues/tuesday/players/{two.dee.pk}/")

    assert (review.status_code, merge.status_code) == (400, 400)
    assert REFUSED.format(doing="merge them") in review.text
    assert REFUSED.format(doing="merge them") in merge.text
    assert "Are these one person?" not in review.text
    assert m.PlayerMerge.objects.count() == 0
    assert tuesday.status_code == 200


def test_notices_link_of_one_league_stops_only_its_notices(client, two):
    """A subscription is its league's: the unsubscribe link of Tuesday's notices leaves
    Wednesday's running."""
    set_notice_preferences(
        league=two.wednesday,
        player=two.dee,
        email=WEDNESDAY_ADDRESS,
        kinds=["ruling"],
        actor=two.wednesday_official.user,
    )
    link = f"/notices/{preferences_token(two.tuesday.pk, two.dee.pk)}/"

    page = client.get(link)
    stopped = client.post(link, {"List-Unsubscribe": "One-Click"})

    assert (page.status_code, stopped.status_code) == (200, 200)
    assert TUESDAY_ADDRESS in page.text
    assert WEDNESDAY_ADDRESS not in page.text
    rows = m.NoticeSubscription.objects.filter(player=two.dee).order_by("league__name")
    stopped_where = [(row.league.name, row.unsubscribed_at is not None) for row in rows]
    assert stopped_where == [("Tuesday Flippers", True), ("Wednesday Wizards", False)]


def test_notices_link_made_before_leagues_stops_every_leagues_notices(client, two):
    """An e-mail sent before subscriptions belonged to a league carries the player's id
    alone: its unsubscribe link still stops what it stopped then, every notice."""
    set_notice_preferences(
        league=two.wednesday,
        player=two.dee,
        email=WEDNESDAY_ADDRESS,
        kinds=["ruling"],
        actor=two.wednesday_official.user,
    )
    link = f"/notices/{signing.dumps(two.dee.pk, salt=TOKEN_SALT)}/"

    stopped = client.post(link, {"List-Unsubscribe": "One-Click"})

    assert stopped.status_code == 200
    assert (
        list(
            m.NoticeSubscription.objects.filter(unsubscribed_at__isnull=True).values_list(
                "league", flat=True
            )
        )
        == []
    )


def test_personal_link_address_stays_with_the_league_that_issued_the_link(client, two):
    """issue 26 §1: the address Flo left on her Tuesday personal link became her notices
    address everywhere, so Wednesday's official read it on his notices page for her. Her
    Wednesday link panel never showed it (links are per season), and still does not."""
    flo = f.PlayerFactory(first_name="Flo", last_name="Ray", ifpa_number=999)
    f.SeasonEntryFactory(season=two.tuesday_season, player=flo)
    f.SeasonEntryFactory(season=two.wednesday_season, player=flo)
    tuesday_link = services.issue_player_link(
        season=two.tuesday_season, player=flo, actor=two.tuesday_official.user
    )
    services.set_player_link_email(link=tuesday_link, email="flo@home.example.org")
    services.issue_player_link(
        season=two.wednesday_season, player=flo, actor=two.wednesday_official.user
    )
    roster = f"/manage/wednesday/seasons/{two.wednesday_season.pk}/roster/"

    panel = client.get(f"{roster}?link={flo.pk}")
    notices = client.get(_notices_page(two, flo))

    assert (panel.status_code, notices.status_code) == (200, 200)
    assert "flo@home.example.org" not in panel.text
    assert "flo@home.example.org" not in notices.text
