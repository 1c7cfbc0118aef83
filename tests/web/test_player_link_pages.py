"""A player's personal link (/me/<token>/) and the console's roster panel that issues it."""

import datetime
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.notice_links import preferences_for_token
from flipwell.league.player_link_tokens import token_for
from flipwell.league.services.season_files import import_season_file
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def me(client):
    """Ana's live link for Spring, meet 1 scheduled a week from now, meet 2 in two weeks."""
    official = f.LeagueOfficialFactory(league__slug="tuesday", league__name="Tuesday League")
    season = f.SeasonFactory(league=official.league, name="Spring", number_of_meets=3)
    players = [
        f.SeasonEntryFactory(
            season=season, player__first_name=name, player__last_name="Flipper"
        ).player
        for name in ("Ana", "Bo", "Cy", "Di")
    ]
    today = timezone.localdate()
    meets = [
        services.schedule_meet(
            season=season,
            number=n,
            date=today + datetime.timedelta(days=7 * n),
            actor=official.user,
            date_reason="Weeks from now, whatever the season's days",
        )
        for n in (1, 2)
    ]
    link = services.issue_player_link(season=season, player=players[0], actor=official.user)
    return SimpleNamespace(
        official=official,
        league=official.league,
        season=season,
        players=players,
        meets=meets,
        link=link,
        url=f"/me/{token_for(link)}/",
    )


def test_player_link_page_lists_coming_meets_with_their_buttons(client, me):
    response = client.get(me.url)

    assert response.status_code == 200
    assert "Ana Flipper" in response.text
    assert "I'll be absent from meet 1" in response.text
    assert "I'll be late to meet 2" in response.text
    assert response["X-Robots-Tag"] == "noindex, nofollow"


def test_player_link_page_announces_an_absence(client, me):
    response = client.post(me.url, {"action": "absence", "meet": "1"}, follow=True)

    assert response.status_code == 200
    assert "Your absence from meet 1 is recorded." in response.text
    absence = m.AnnouncedAbsence.objects.get()
    assert (absence.player, absence.meet, absence.player_link) == (
        me.players[0],
        me.meets[0],
        me.link,
    )
    assert "I'll be absent from meet 1" not in response.text


def test_player_link_page_announces_a_lateness_with_the_wait(client, me):
    response = client.post(me.url, {"action": "late", "meet": "2"}, follow=True)

    assert "your group waits for you until 19:15 at the latest." in response.text
    assert (
        '</p><details class="why"><summary>Why</summary><p>The rulebook: R2.2-a.</p></details>'
        in response.text
    )  # issue 27 §5
    assert m.LatenessNotice.objects.get().meet == me.meets[1]


def test_player_link_page_refuses_a_meet_not_in_its_season(client, me):
    response = client.post(me.url, {"action": "absence", "meet": "9"})

    assert response.status_code == 400
    assert "There is no scheduled meet &#x27;9&#x27; in Spring." in response.text
    assert not m.AnnouncedAbsence.objects.exists()


def test_player_link_page_after_revocation_is_not_found(client, me):
    services.revoke_player_link(link=me.link, actor=me.official.user)

    assert client.get(me.url).status_code == 404
    assert client.post(me.url, {"action": "absence", "meet": "1"}).status_code == 404
    assert not m.AnnouncedAbsence.objects.exists()


def test_player_link_page_forged_token_is_not_found(client, me):
    assert client.get(f"/me/{me.link.key}:forged/").status_code == 404


def test_player_link_page_saves_a_private_email(client, me):
    response = client.post(me.url, {"action": "email", "email": "ana@example.org"}, follow=True)

    assert "Your email address ana@example.org is saved." in response.text
    me.link.refresh_from_db()
    assert me.link.email == "ana@example.org"
    player_page = client.get(f"/leagues/tuesday/players/{me.players[0].pk}/")
    assert "ana@example.org" not in player_page.text


def test_player_link_page_refuses_an_invalid_email(client, me):
    response = client.post(me.url, {"action": "email", "email": "ana at home"})

    assert response.status_code == 400
    assert "&#x27;ana at home&#x27; is not an email address" in response.text


def test_player_link_page_shows_no_database_ids(client, me):
    response = client.get(me.url)

    assert 'name="meet" value="1"' in response.text  # the meet's number, not its id


def test_roster_issues_shows_and_revokes_a_link(client, me):
    client.force_login(me.official.user)
    roster = f"/manage/tuesday/seasons/{me.season.pk}/roster/"
    bo = me.players[1]

    issued = client.post(roster, {"action": "link_issue", "player": bo.pk}, follow=True)

    assert "Bo Flipper&#x27;s new personal link is ready" in issued.text
    link = m.PlayerLink.objects.get(player=bo, revoked_at__isnull=True)
    assert f"http://testserver/me/{token_for(link)}/" in issued.text
    assert "<svg" in issued.text  # its QR code
    revoked = client.post(roster, {"action": "link_revoke", "player": bo.pk}, follow=True)
    assert "Bo Flipper&#x27;s personal link is revoked" in revoked.text
    assert client.get(f"/me/{token_for(link)}/").status_code == 404
    assert m.AuditEvent.objects.filter(action="player_link.revoked").count() == 1


def test_roster_link_panel_shows_the_players_email_to_the_official(client, me):
    services.set_player_link_email(link=me.link, email="ana@example.org")
    client.force_login(me.official.user)

    response = client.get(f"/manage/tuesday/seasons/{me.season.pk}/roster/?link={me.players[0].pk}")

    assert "ana@example.org" in response.text


def test_roster_link_actions_refuse_a_player_of_another_season(client, me):
    client.force_login(me.official.user)
    stranger = f.SeasonEntryFactory().player

    response = client.post(
        f"/manage/tuesday/seasons/{me.season.pk}/roster/",
        {"action": "link_issue", "player": stranger.pk},
        follow=True,
    )

    assert "Choose a player of this season&#x27;s roster." in response.text
    assert not m.PlayerLink.objects.filter(player=stranger).exists()


def test_attendance_page_marks_a_notice_told_through_the_link(client, me):
    client.post(me.url, {"action": "absence", "meet": "1"})
    client.force_login(me.official.user)

    response = client.get(f"/manage/tuesday/meets/{me.meets[0].pk}/attendance/")

    assert "through their personal link" in response.text
    assert "Ana Flipper" in response.text


def test_player_link_page_queries_do_not_grow_with_the_meets(client, me):
    """Counted once the season's fold is stored (the first view after a change computes it)."""
    client.get(me.url)
    with CaptureQueriesContext(connection) as two_meets:
        client.get(me.url)
    services.schedule_meet(
        season=me.season,
        number=3,
        date=timezone.localdate() + datetime.timedelta(days=21),
        actor=me.official.user,
        date_reason="Weeks from now, whatever the season's days",
    )
    services.announce_absence(meet=me.meets[1], player=me.players[0], actor=me.official.user)
    client.get(me.url)

    with CaptureQueriesContext(connection) as three_meets:
        response = client.get(me.url)

    assert "Meet 3," in response.text
    assert len(three_meets) == len(two_meets)


def test_player_link_page_of_a_player_joining_later_opens(client, me):
    late = f.SeasonEntryFactory(season=me.season, joined_at_meet=3).player
    link = services.issue_player_link(season=me.season, player=late, actor=me.official.user)

    response = client.get(f"/me/{token_for(link)}/")

    assert response.status_code == 200
    assert "No meet played yet." in response.text
    assert "Meet 1," not in response.text  # before they join: nothing to tell


def test_player_link_page_links_to_the_players_email_notices_when_email_is_sent(
    client, me, settings
):
    settings.NOTICES_EMAIL = True
    assert "ask a league official to set them up" in client.get(me.url).text
    client.post(me.url, {"action": "email", "email": "ana@example.org"})
    found = re.search(r'<a href="(/notices/([^/"]+)/)">Email notices</a>', client.get(me.url).text)
    assert found is not None
    target = preferences_for_token(found.group(2))
    assert (target.player, target.league) == (me.players[0].pk, me.league.pk)
    assert client.get(found.group(1)).status_code == 200

    settings.NOTICES_EMAIL = False
    assert "Email notices" not in client.get(me.url).text


def test_player_link_email_becomes_the_notices_address_with_nothing_chosen(client, me):
    client.post(me.url, {"action": "email", "email": "ana@example.org"})
    official = services.set_notice_preferences(
        league=me.league,
        player=me.players[1],
        email="bo@example.org",
        kinds=["groups"],
        actor=me.official.user,
    )
    bo = services.issue_player_link(season=me.season, player=me.players[1], actor=me.official.user)
    client.post(f"/me/{token_for(bo)}/", {"action": "email", "email": "other@example.org"})

    ana = m.NoticeSubscription.objects.get(player=me.players[0])
    kept = m.NoticeSubscription.objects.get(pk=official.pk)
    assert (ana.email, [k for k in m.NoticeKind.values if getattr(ana, k)]) == (
        "ana@example.org",
        [],
    )
    assert (kept.email, kept.groups) == ("bo@example.org", True)


def test_player_link_page_of_a_finished_season_says_it_is_finished(client):
    """issue 33 §3: a finished season's link said "No meet scheduled yet"."""
    official = f.LeagueOfficialFactory()
    season = import_season_file(
        league=official.league,
        name="Winter 2026",
        data=json.loads((Path(__file__).parents[1] / "data" / "golden_season.json").read_text()),
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )
    player = m.SeasonEntry.objects.filter(season=season).first().player
    link = services.issue_player_link(season=season, player=player, actor=official.user)

    response = client.get(f"/me/{token_for(link)}/")

    assert response.status_code == 200
    assert "Winter 2026 is finished: every meet is played." in response.text
    assert "No meet scheduled yet" not in response.text


def test_player_link_page_before_any_meet_is_scheduled_says_so(client, me):
    m.Meet.objects.filter(season=me.season).delete()

    response = client.get(me.url)

    assert "No meet scheduled yet." in response.text
