"""The console's setup pages: a new league, the machine pool, officials, API tokens and the
one-time set-password link."""

import datetime
import re
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.models import ApiToken
from flipwell.league.services.tokens import issue_api_token, token_hash
from tests import factories as f

pytestmark = pytest.mark.django_db

LINK = re.compile(r'id="set-password-link" value="https?://[^/"]+(/manage/set-password/[^"]+)"')
SECRET = re.compile(r'id="new-token" value="(fw_[^"]+)"')


@pytest.fixture
def lo(client):
    official = f.LeagueOfficialFactory(league__slug="tuesday", user__username="lo")
    client.force_login(official.user)
    return SimpleNamespace(official=official, user=official.user, league=official.league)


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


def test_new_league_page_is_403_for_a_non_staff_user_once_a_league_exists(client, lo):
    client.force_login(f.UserFactory())

    response = client.get("/manage/leagues/new/")
    posted = client.post("/manage/leagues/new/", {"name": "Mine", "slug": "mine"})

    assert response.status_code == 403
    assert "Your account may not open a new league" in response.text
    assert "flipwell createofficial USERNAME" in response.text
    assert posted.status_code == 403
    assert not m.League.objects.filter(slug="mine").exists()


def test_new_league_page_opens_a_league_for_an_account_from_createofficial(client, lo):
    opener = services.create_league_opener(username="ada", password="a long passphrase 42")
    client.force_login(opener)

    home = client.get("/manage/")
    response = client.post(
        "/manage/leagues/new/", {"name": "Ada's League", "slug": "ada", "time_zone": "UTC"}
    )

    assert '<a class="button" href="/manage/leagues/new/">Open a new league</a>' in home.text
    assert response.status_code == 302
    assert response["Location"] == "/manage/ada/"


def test_console_home_hides_the_new_league_button_from_an_account_that_may_not(client, lo):
    client.force_login(f.UserFactory())

    home = client.get("/manage/")

    assert "Open a new league" not in home.text


def test_new_league_page_shows_a_taken_address_next_to_the_field(client, lo):
    client.force_login(f.UserFactory(is_staff=True))

    response = client.post(
        "/manage/leagues/new/", {"name": "Again", "slug": "tuesday", "time_zone": "UTC"}
    )

    assert response.status_code == 400
    assert "The address “tuesday” is taken by another league" in response.text


# --- machines --------------------------------------------------------------------------------


def test_machine_pool_lists_and_adds_machines(client, lo):
    f.MachineFactory(league=lo.league, title="Elvira")

    page = client.get("/manage/tuesday/machines/pool/")
    response = client.post(
        "/manage/tuesday/machines/pool/",
        {"title": "Medieval Madness", "balls_per_game": "5", "location": "back room"},
    )

    assert page.status_code == 200
    assert "Elvira" in page.text
    assert response.status_code == 302
    assert m.Machine.objects.get(title="Medieval Madness").balls_per_game == 5


def test_machine_pool_shows_balls_out_of_range_next_to_the_field(client, lo):
    response = client.post("/manage/tuesday/machines/pool/", {"title": "X", "balls_per_game": "12"})

    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 10." in response.text


def test_machine_page_edits_location(client, lo):
    machine = f.MachineFactory(league=lo.league)

    response = client.post(
        f"/manage/tuesday/machines/{machine.pk}/",
        {"action": "edit", "location": "by the door", "balls_per_game": "3"},
    )

    assert response.status_code == 302
    machine.refresh_from_db()
    assert machine.location == "by the door"


def test_machine_page_takes_it_out_of_the_pool_asking_why(client, lo):
    machine = f.MachineFactory(league=lo.league)

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
    assert m.Ruling.objects.get(league=lo.league).reason == "Away for a new playfield"


def test_machine_page_of_another_leagues_machine_is_404(client, lo):
    machine = f.MachineFactory()

    response = client.get(f"/manage/tuesday/machines/{machine.pk}/")

    assert response.status_code == 404


# --- officials -------------------------------------------------------------------------------


def test_officials_page_adds_an_existing_user(client, lo):
    f.UserFactory(username="bo")

    response = client.post("/manage/tuesday/officials/", {"username": "bo", "role": "scorekeeper"})

    assert response.status_code == 302
    assert m.LeagueOfficial.objects.get(user__username="bo").role == "scorekeeper"


def test_officials_page_shows_a_new_users_link_once_and_it_sets_the_password(client, lo):
    response = client.post(
        "/manage/tuesday/officials/", {"username": "newbie", "role": "scorekeeper"}
    )
    link = LINK.search(response.text).group(1)
    again = client.get("/manage/tuesday/officials/")
    client.logout()
    form = client.get(link)
    done = client.post(
        link, {"new_password1": "pinball wizard 1977", "new_password2": "pinball wizard 1977"}
    )
    dead = client.get(link)

    assert response.status_code == 200
    assert "set-password-link" not in again.text
    assert form.status_code == 200
    assert done.status_code == 302
    assert User.objects.get(username="newbie").check_password("pinball wizard 1977")
    assert dead.status_code == 400
    assert "This link no longer works" in dead.text


def test_set_password_page_with_a_forged_link_is_400(client):
    user = f.UserFactory()

    response = client.get(f"/manage/set-password/{user.pk}/not-a-token/")

    assert response.status_code == 400


def test_set_password_page_shows_mismatched_passwords(client, lo):
    added = services.add_official(
        league=lo.league, username="newbie", role="scorekeeper", actor=lo.user
    )

    response = client.post(
        f"/manage/set-password/{added.uidb64}/{added.token}/",
        {"new_password1": "pinball wizard 1977", "new_password2": "pinball wizard 1978"},
    )

    assert response.status_code == 400
    assert "The two password fields didn’t match." in response.text


def test_official_page_links_a_player(client, lo):
    player = f.SeasonEntryFactory(season=f.SeasonFactory(league=lo.league)).player

    response = client.post(
        f"/manage/tuesday/officials/{lo.official.pk}/", {"action": "link", "player": player.pk}
    )

    assert response.status_code == 302
    lo.official.refresh_from_db()
    assert lo.official.player == player


def test_official_page_refuses_to_remove_the_last_league_official(client, lo):
    response = client.post(f"/manage/tuesday/officials/{lo.official.pk}/", {"action": "remove"})

    assert response.status_code == 400
    assert "is the last league official of" in response.text
    assert m.LeagueOfficial.objects.filter(pk=lo.official.pk).exists()


def test_official_page_removes_a_scorekeeper(client, lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=m.LeagueOfficial.Role.SCOREKEEPER)

    response = client.post(f"/manage/tuesday/officials/{keeper.pk}/", {"action": "remove"})

    assert response.status_code == 302
    assert response["Location"] == "/manage/tuesday/officials/"
    assert not m.LeagueOfficial.objects.filter(pk=keeper.pk).exists()


def test_official_page_changes_a_role(client, lo):
    keeper = f.LeagueOfficialFactory(league=lo.league, role=m.LeagueOfficial.Role.SCOREKEEPER)

    response = client.post(
        f"/manage/tuesday/officials/{keeper.pk}/", {"action": "role", "role": "league_official"}
    )

    assert response.status_code == 302
    keeper.refresh_from_db()
    assert keeper.role == m.LeagueOfficial.Role.LEAGUE_OFFICIAL


def test_official_page_of_another_leagues_official_is_404(client, lo):
    stranger = f.LeagueOfficialFactory()

    response = client.get(f"/manage/tuesday/officials/{stranger.pk}/")

    assert response.status_code == 404


# --- API tokens ------------------------------------------------------------------------------


def test_api_tokens_page_issues_a_token_shown_once(client, lo):
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


def test_api_tokens_page_asks_for_a_scope(client, lo):
    response = client.post("/manage/tuesday/api-tokens/", {"action": "issue", "name": "bar TV"})

    assert response.status_code == 400
    assert "This field is required." in response.text
    assert ApiToken.objects.count() == 0


def test_api_tokens_page_revokes_a_token(client, lo):
    issued = issue_api_token(league=lo.league, name="old", scopes=["scores"], actor=lo.user)

    response = client.post(
        "/manage/tuesday/api-tokens/", {"action": "revoke", "token": issued.token.pk}
    )

    assert response.status_code == 302
    assert ApiToken.objects.get(pk=issued.token.pk).revoked_by == lo.user


def test_api_tokens_page_cannot_revoke_another_leagues_token(client, lo):
    other = f.LeagueOfficialFactory()
    issued = issue_api_token(league=other.league, name="x", scopes=["scores"], actor=other.user)

    response = client.post(
        "/manage/tuesday/api-tokens/", {"action": "revoke", "token": issued.token.pk}
    )

    assert response.status_code == 404
    assert ApiToken.objects.get(pk=issued.token.pk).revoked_at is None


# --- starting a meet -------------------------------------------------------------------------


def test_start_meet_lands_on_the_night_page(client, lo):
    season = f.SeasonFactory(league=lo.league, number_of_meets=3, created_at=f.SET_UP_2026)
    for r in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=r)
    f.MachineFactory(league=lo.league)
    meet = services.schedule_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=lo.user
    )
    form = client.get(f"/manage/tuesday/meets/{meet.pk}/start/").context["form"]
    data = {n: str(x.initial) for n, x in form.fields.items() if n.startswith("group_")}

    response = client.post(f"/manage/tuesday/meets/{meet.pk}/start/", data, follow=True)

    assert response.redirect_chain == [(f"/manage/tuesday/meets/{meet.pk}/", 302)]
    assert "Meet 1 started." in response.text


def test_other_leagues_official_cannot_add_an_official_here(client, lo):
    client.force_login(f.LeagueOfficialFactory().user)

    response = client.post(
        "/manage/tuesday/officials/", {"username": "intruder", "role": "league_official"}
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


def test_pages_show_no_template_comment(client, lo):
    """Django's {# #} comments are one line long: a longer one shows on the page."""
    response = client.get("/manage/")

    assert "{#" not in response.text
