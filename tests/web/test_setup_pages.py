"""The console's setup pages: a new league, the machine pool, officials, API tokens and the
one-time set-password link. Invitations: tests/web/test_invitation_pages.py."""

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.models import ApiToken
from flipwell.league.selectors.setup import token_hash
from flipwell.league.services.tokens import issue_api_token
from tests import factories as f

pytestmark = pytest.mark.django_db

SECRET = re.compile(r'id="new-token" value="(fw_[^"]+)"')


# --- a new league ----------------------------------------------------------------------------


def test_new_league_page_opens_the_first_league_for_any_user(client):
    client.force_login(f.UserFactory())

    page = client.get("/manage/leagues/new/")
    response = client.post(
        "/manage/leagues/new/",
        {"name": "Tuesday Flippers", "slug": "tuesday", "venue": "The Arcade",
         "time_zone": "America/Chicago"},
    )  # fmt: skip

    assert page.status_code == 200
    assert response.status_code == 302
    assert response["Location"] == "/manage/tuesday/"
    assert m.League.objects.get(slug="tuesday").time_zone == "America/Chicago"


def test_new_league_page_is_403_for_a_non_staff_user_once_a_league_exists(client, lo_account):
    client.force_login(f.UserFactory())

    response = client.get("/manage/leagues/new/")
    posted = client.post("/manage/leagues/new/", {"name": "Mine", "slug": "mine"})

    assert response.status_code == 403
    assert "Your account may not open a new league" in response.text
    assert "flipwell createofficial USERNAME" in response.text
    assert posted.status_code == 403
    assert not m.League.objects.filter(slug="mine").exists()


def test_new_league_page_opens_a_league_for_an_account_from_createofficial(client, lo_account):
    opener = services.create_league_opener(username="ada", password="a long passphrase 42")
    client.force_login(opener)

    home = client.get("/manage/")
    response = client.post(
        "/manage/leagues/new/", {"name": "Ada's League", "slug": "ada", "time_zone": "UTC"}
    )

    assert '<a class="button" href="/manage/leagues/new/">Open a new league</a>' in home.text
    assert response.status_code == 302
    assert response["Location"] == "/manage/ada/"


def test_console_home_hides_the_new_league_button_from_an_account_that_may_not(client, lo_account):
    client.force_login(f.UserFactory())

    home = client.get("/manage/")

    assert "Open a new league" not in home.text


def test_new_league_page_shows_a_taken_address_next_to_the_field(client, lo_account):
    client.force_login(f.UserFactory(is_staff=True))

    response = client.post(
        "/manage/leagues/new/", {"name": "Again", "slug": "tuesday", "time_zone": "UTC"}
    )

    assert response.status_code == 400
    assert "The address “tuesday” is taken by another league" in response.text


# --- machines --------------------------------------------------------------------------------


def test_machine_pool_lists_and_adds_machines(client, lo_account):
    f.MachineFactory(league=lo_account.league, title="Elvira")

    page = client.get("/manage/tuesday/machines/pool/")
    response = client.post(
        "/manage/tuesday/machines/pool/",
        {"title": "Medieval Madness", "balls_per_game": "5", "location": "back room"},
    )

    assert page.status_code == 200
    assert "Elvira" in page.text
    assert response.status_code == 302
    assert m.Machine.objects.get(title="Medieval Madness").balls_per_game == 5


def test_machine_pool_shows_balls_out_of_range_next_to_the_field(client, lo_account):
    response = client.post("/manage/tuesday/machines/pool/", {"title": "X", "balls_per_game": "12"})

    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 10." in response.text


def test_machine_page_edits_location(client, lo_account):
    machine = f.MachineFactory(league=lo_account.league)

    response = client.post(
        f"/manage/tuesday/machines/{machine.pk}/",
        {"action": "edit", "location": "by the door", "balls_per_game": "3"},
    )

    assert response.status_code == 302
    machine.refresh_from_db()
    assert machine.location == "by the door"


def test_machine_page_takes_it_out_of_the_pool_asking_why(client, lo_account):
    machine = f.MachineFactory(league=lo_account.league)

    refused = client.post(
        f"/manage/tuesday/machines/{machine.pk}/", {"action": "status", "status": "unplayable"}
    )
    response = client.post(
        f"/manage/tuesday/machines/{machine.pk}/",
        {"action": "status", "status": "unplayable", "reason": "Away for a new playfield"},
    )

    assert refused.status_code == 400
    assert response.status_code == 302
    machine.refresh_from_db()
    assert machine.status == m.Machine.Status.UNPLAYABLE
    assert m.Ruling.objects.get(league=lo_account.league).reason == "Away for a new playfield"


def test_machine_page_of_another_leagues_machine_is_404(client, lo_account):
    machine = f.MachineFactory()

    response = client.get(f"/manage/tuesday/machines/{machine.pk}/")

    assert response.status_code == 404


# --- officials -------------------------------------------------------------------------------


def test_set_password_page_with_a_forged_link_is_400(client):
    user = f.UserFactory()

    response = client.get(f"/manage/set-password/{user.pk}/not-a-token/")

    assert response.status_code == 400


def test_set_password_page_shows_mismatched_passwords(client, lo_account):
    user = f.UserFactory(username="newbie")
    uid = urlsafe_base64_encode(force_bytes(user.pk))

    response = client.post(
        f"/manage/set-password/{uid}/{default_token_generator.make_token(user)}/",
        {"new_password1": "pinball wizard 1977", "new_password2": "pinball wizard 1978"},
    )

    assert response.status_code == 400
    assert "The two password fields didn’t match." in response.text


def test_official_page_links_a_player(client, lo_account):
    player = f.SeasonEntryFactory(season=f.SeasonFactory(league=lo_account.league)).player

    response = client.post(
        f"/manage/tuesday/officials/{lo_account.official.pk}/",
        {"action": "link", "player": player.pk},
    )

    assert response.status_code == 302
    lo_account.official.refresh_from_db()
    assert lo_account.official.player == player


def test_official_page_refuses_to_remove_the_last_league_official(client, lo_account):
    response = client.post(
        f"/manage/tuesday/officials/{lo_account.official.pk}/", {"action": "remove"}
    )

    assert response.status_code == 400
    assert "is the last league official of" in response.text
    assert m.LeagueOfficial.objects.filter(pk=lo_account.official.pk).exists()


def test_official_page_removes_a_scorekeeper(client, lo_account):
    keeper = f.LeagueOfficialFactory(
        league=lo_account.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    response = client.post(f"/manage/tuesday/officials/{keeper.pk}/", {"action": "remove"})

    assert response.status_code == 302
    assert response["Location"] == "/manage/tuesday/officials/"
    assert not m.LeagueOfficial.objects.filter(pk=keeper.pk).exists()


def test_official_page_changes_a_role(client, lo_account):
    keeper = f.LeagueOfficialFactory(
        league=lo_account.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    response = client.post(
        f"/manage/tuesday/officials/{keeper.pk}/", {"action": "role", "role": "league_official"}
    )

    assert response.status_code == 302
    keeper.refresh_from_db()
    assert keeper.role == m.LeagueOfficial.Role.LEAGUE_OFFICIAL


def test_official_page_of_another_leagues_official_is_404(client, lo_account):
    stranger = f.LeagueOfficialFactory()

    response = client.get(f"/manage/tuesday/officials/{stranger.pk}/")

    assert response.status_code == 404


# --- API tokens ------------------------------------------------------------------------------


def test_api_tokens_page_issues_a_token_shown_once(client, lo_account):
    response = client.post(
        "/manage/tuesday/api-tokens/",
        {"action": "issue", "name": "bar TV", "scopes": ["read_private", "scores"]},
    )
    secret = SECRET.search(response.text).group(1)
    again = client.get("/manage/tuesday/api-tokens/")

    assert response.status_code == 200
    token = ApiToken.objects.get(token_hash=token_hash(secret))
    assert (token.name, token.read_private, token.scores, token.manage) == (
        "bar TV",
        True,
        True,
        False,
    )
    assert secret not in again.text
    assert token.prefix in again.text


def test_api_tokens_page_asks_for_a_scope(client, lo_account):
    response = client.post("/manage/tuesday/api-tokens/", {"action": "issue", "name": "bar TV"})

    assert response.status_code == 400
    assert "This field is required." in response.text
    assert ApiToken.objects.count() == 0


def test_api_tokens_page_revokes_a_token(client, lo_account):
    issued = issue_api_token(
        league=lo_account.league, name="old", scopes=["scores"], actor=lo_account.user
    )

    response = client.post(
        "/manage/tuesday/api-tokens/", {"action": "revoke", "token": issued.token.pk}
    )

    assert response.status_code == 302
    assert ApiToken.objects.get(pk=issued.token.pk).revoked_by == lo_account.user


def test_api_tokens_page_cannot_revoke_another_leagues_token(client, lo_account):
    other = f.LeagueOfficialFactory()
    issued = issue_api_token(league=other.league, name="x", scopes=["scores"], actor=other.user)

    response = client.post(
        "/manage/tuesday/api-tokens/", {"action": "revoke", "token": issued.token.pk}
    )

    assert response.status_code == 404
    assert ApiToken.objects.get(pk=issued.token.pk).revoked_at is None


# --- starting a meet -------------------------------------------------------------------------


def test_start_meet_lands_on_the_night_page(client, lo_account):
    season = f.SeasonFactory(league=lo_account.league, number_of_meets=3, created_at=f.SET_UP_2026)
    for r in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=r)
    f.MachineFactory(league=lo_account.league)
    meet = services.schedule_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=lo_account.user
    )
    form = client.get(f"/manage/tuesday/meets/{meet.pk}/start/").context["form"]
    data = {n: str(x.initial) for n, x in form.fields.items() if n.startswith("group_")}

    response = client.post(f"/manage/tuesday/meets/{meet.pk}/start/", data, follow=True)

    assert response.redirect_chain == [(f"/manage/tuesday/meets/{meet.pk}/", 302)]
    assert "Meet 1 started." in response.text


def test_other_leagues_official_cannot_add_an_official_here(client, lo_account):
    client.force_login(f.LeagueOfficialFactory().user)

    response = client.post(
        "/manage/tuesday/officials/", {"who": "intruder", "role": "league_official"}
    )

    assert response.status_code == 403
    assert not User.objects.filter(username="intruder").exists()


def test_console_links_reach_the_setup_pages(client):
    """A league official finds the machine pool, officials and API tokens from his league."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    client.force_login(official.user)

    page = client.get(f"/manage/{official.league.slug}/").text

    for label in ("Machine pool", "Officials", "API tokens"):
        assert f">{label}</a>" in page


def test_console_home_offers_a_new_league_only_to_who_may_open_one(client):
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    client.force_login(official.user)

    assert "Open a new league" not in client.get("/manage/").text
    official.user.is_staff = True
    official.user.save()
    assert "Open a new league" in client.get("/manage/").text


def test_pages_show_no_template_comment(client, lo_account):
    """Django's {# #} comments are one line long: a longer one shows on the page."""
    response = client.get("/manage/")

    assert "{#" not in response.text


# --- the new-league form: time zones and the web address (issue 27 §5) ----------------------


def _zone_options(text: str) -> list[str]:
    select = re.search(r'<select name="time_zone".*?</select>', text, re.S)
    assert select is not None
    return re.findall(r'<option value="([^"]+)"', select.group(0))


def test_new_league_form_offers_the_servers_zone_first_and_selected(client, settings):
    """Issue 27 §5: a server set to Europe/Berlin offers Berlin first, selected, then the
    common zones; no "Factory", "localtime" or other zone that names no place."""
    settings.TIME_ZONE = "Europe/Berlin"
    client.force_login(f.UserFactory())

    page = client.get("/manage/leagues/new/")
    zones = _zone_options(page.text)

    assert zones[:3] == ["Europe/Berlin", "America/New_York", "America/Chicago"]
    assert '<option value="Europe/Berlin" selected>Europe/Berlin</option>' in page.text
    assert [z for z in zones if z in ("Factory", "localtime", "posixrules", "GMT", "EST")] == []
    assert [z for z in zones if z.startswith(("Etc/", "US/", "SystemV/"))] == []
    assert len(zones) == len(set(zones))
    assert "America/Argentina/Buenos_Aires" in zones
    assert '<optgroup label="Common zones">' in page.text


def test_server_zone_is_the_machines_when_the_setting_is_utc(settings, tmp_path, monkeypatch):
    """Issue 27 §5: with TIME_ZONE left at UTC the machine's own zone (/etc/localtime) is the
    server's; UTC only when the machine says none."""
    from flipwell.web import time_zones

    settings.TIME_ZONE = "UTC"
    zoneinfo_dir = tmp_path / "usr/share/zoneinfo/America"
    zoneinfo_dir.mkdir(parents=True)
    (zoneinfo_dir / "Chicago").write_bytes(b"TZif")
    (tmp_path / "localtime").symlink_to(zoneinfo_dir / "Chicago")
    monkeypatch.setattr(time_zones, "LOCALTIME", tmp_path / "localtime")

    chicago = time_zones.server_zone()
    (tmp_path / "localtime").unlink()
    (tmp_path / "localtime").symlink_to(tmp_path / "usr/share/zoneinfo/Factory")
    nowhere = time_zones.server_zone()

    assert chicago == "America/Chicago"
    assert nowhere == "UTC"


def test_new_league_form_makes_the_address_from_the_name_when_empty(client):
    """Issue 27 §5: the page fills the address in as the official types (league-slug.js); the
    server makes the same address when it comes empty."""
    client.force_login(f.UserFactory())

    page = client.get("/manage/leagues/new/")
    response = client.post(
        "/manage/leagues/new/",
        {"name": "Tuesday Flippers’ Café", "slug": "", "time_zone": "UTC"},
    )

    assert 'data-slug-source="id_slug"' in page.text
    assert "/static/flipwell/league-slug.js" in page.text
    assert response.status_code == 302
    assert response["Location"] == "/manage/tuesday-flippers-cafe/"


def test_new_league_form_refuses_an_address_that_is_not_one(client):
    """The server checks the address it receives: a typed one with spaces, and a name that
    makes none ("!!!"), are refused on the address field."""
    client.force_login(f.UserFactory())

    typed = client.post(
        "/manage/leagues/new/", {"name": "Mine", "slug": "my league", "time_zone": "UTC"}
    )
    none = client.post("/manage/leagues/new/", {"name": "!!!", "slug": "", "time_zone": "UTC"})

    assert typed.status_code == 400
    assert "letters, numbers, underscores or hyphens" in typed.text
    assert none.status_code == 400
    assert "Give the web address: letters, digits and dashes." in none.text
    assert m.League.objects.count() == 0


# --- several machines at once (issue 27 §5) --------------------------------------------------


def test_machine_pool_adds_several_machines_one_title_a_line(client, lo_account):
    """Issue 27 §5: a title a line, empty lines passed over, one audit event per machine."""
    response = client.post(
        "/manage/tuesday/machines/pool/",
        {"action": "add_many", "many-titles": "Attack from Mars\n\n  Godzilla \r\nElvira\n",
         "many-balls_per_game": "3"},
    )  # fmt: skip
    after = client.get("/manage/tuesday/machines/pool/")

    assert response.status_code == 302
    titles = m.Machine.objects.filter(league=lo_account.league).values_list("title", flat=True)
    assert sorted(titles) == ["Attack from Mars", "Elvira", "Godzilla"]
    assert (
        m.AuditEvent.objects.filter(action="machine.created", league=lo_account.league).count() == 3
    )
    assert "3 machines added to the pool: Attack from Mars, Godzilla, Elvira." in after.text


def test_machine_pool_refuses_several_machines_saying_which_line(client, lo_account):
    """Issue 27 §5: each refused line is named (its number and title) and nothing is added."""
    f.MachineFactory(league=lo_account.league, title="Elvira", location="back room")

    response = client.post(
        "/manage/tuesday/machines/pool/",
        {"action": "add_many", "many-titles": "Godzilla\nelvira\nGodzilla\n" + "X" * 121,
         "many-balls_per_game": "3"},
    )  # fmt: skip

    assert response.status_code == 400
    assert (
        "Line 2 (“elvira”): the league has it already (back room): add another copy alone, "
        "with its location." in response.text
    )
    assert "Line 3 (“Godzilla”): written twice" in response.text
    assert "Line 4 (“XXXX" in response.text
    assert "a title has at most 120 characters." in response.text
    assert "Line 1" not in response.text
    assert 'name="many-titles"' in response.text
    assert m.Machine.objects.filter(league=lo_account.league).count() == 1


# --- every personal link at once, printed as QR codes (issue 27 §5) --------------------------


def test_roster_issues_every_missing_personal_link_at_once(client, lo_account):
    """Issue 27 §5: one press gives a link to every player without one; a live link is kept
    (its player's card still works); one audit event per link issued."""
    season = f.SeasonFactory(league=lo_account.league)
    entries = [f.SeasonEntryFactory(season=season) for _ in range(3)]
    kept = services.issue_player_link(
        season=season, player=entries[0].player, actor=lo_account.user
    )
    url = f"/manage/tuesday/seasons/{season.pk}/roster/"

    before = client.get(url)
    response = client.post(url, {"action": "links_issue_all"})
    after = client.get(url)
    again = client.post(url, {"action": "links_issue_all"})

    live = m.PlayerLink.objects.filter(season=season, revoked_at__isnull=True)
    assert "1 of 3 players has a personal link." in before.text
    assert response.status_code == 302
    assert sorted(live.values_list("player_id", flat=True)) == sorted(e.player_id for e in entries)
    assert live.get(player=entries[0].player).pk == kept.pk
    assert m.AuditEvent.objects.filter(action="player_link.issued").count() == 3
    assert "2 personal links issued: every player of the roster has one" in after.text
    assert "3 of 3 players have a personal link." in after.text
    assert f'href="/print/tuesday/seasons/{season.pk}/links/"' in after.text
    assert again.status_code == 302
    assert live.count() == 3


def test_personal_links_sheet_prints_a_qr_code_per_live_link(client, lo_account):
    """Issue 27 §5: the sheet has a card per player with a live link (name and QR code of the
    link's address), by name; a revoked link is not printed."""
    season = f.SeasonFactory(league=lo_account.league)
    ann = f.SeasonEntryFactory(season=season, player__first_name="Ann", player__last_name="Zed")
    bob = f.SeasonEntryFactory(season=season, player__first_name="Bob", player__last_name="Ash")
    gone = f.SeasonEntryFactory(season=season, player__first_name="Cy", player__last_name="Bo")
    services.issue_player_links(season=season, actor=lo_account.user)
    services.revoke_player_link(
        link=m.PlayerLink.objects.get(season=season, player=gone.player), actor=lo_account.user
    )

    sheet = client.get(f"/print/tuesday/seasons/{season.pk}/links/")

    assert sheet.status_code == 200
    names = re.findall(r'<p class="link-name">([^<]+)</p>', sheet.text)
    assert names == [str(bob.player), str(ann.player)]
    assert sheet.text.count('<svg role="img"') == 2
    assert f"<title>{ann.player}'s personal link</title>" in sheet.text.replace("&#x27;", "'")
    assert "2 personal links of" in sheet.text


def test_personal_links_sheet_is_the_league_officials_only(client, lo_account):
    """The cards are keys to the players' pages: a scorekeeper, another league's official and
    nobody signed in get none."""
    season = f.SeasonFactory(league=lo_account.league)
    f.SeasonEntryFactory(season=season)
    services.issue_player_links(season=season, actor=lo_account.user)
    keeper = f.LeagueOfficialFactory(
        league=lo_account.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )
    url = f"/print/tuesday/seasons/{season.pk}/links/"

    client.force_login(keeper.user)
    as_keeper = client.get(url)
    client.force_login(f.LeagueOfficialFactory().user)
    as_other = client.get(url)
    client.logout()
    as_nobody = client.get(url)

    assert as_keeper.status_code == 403
    assert as_other.status_code in (403, 404)
    assert as_nobody.status_code == 302
    assert "<svg" not in as_keeper.text + as_other.text
