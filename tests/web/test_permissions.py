"""THE table: who may open which page. Roles: anonymous, an official of another league, a
scorekeeper of this league, a league official of this league. Console pages answer 302 (to
sign in) for anonymous visitors and 403 to anyone without the page's role in *this* league;
public pages answer 200 to everybody. Then the cells the table cannot hold: an override (a
correction of a closed meet) by each way in, and a removed official's session and token."""

import datetime
from types import SimpleNamespace

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.services.tokens import issue_api_token
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f
from tests.league.league_night import build_night, game, play, start

pytestmark = pytest.mark.django_db

ANON, OTHER, KEEPER, LO = "anonymous", "other league's official", "scorekeeper", "league official"
ROLES = (ANON, OTHER, KEEPER, LO)

# page -> expected status for (anonymous, other league's LO, scorekeeper, LO)
TABLE = {
    "/manage/": (302, 200, 200, 200),
    "/manage/{slug}/": (302, 403, 200, 200),
    "/manage/{slug}/seasons/": (302, 403, 403, 200),
    "/manage/{slug}/seasons/{season}/roster/": (302, 403, 403, 200),
    "/manage/{slug}/seasons/{season}/meets/": (302, 403, 200, 200),
    "/manage/{slug}/seasons/{season}/playoffs/": (302, 403, 403, 200),
    "/manage/{slug}/seasons/{season}/ifpa/": (302, 403, 403, 200),
    "/manage/{slug}/meets/{meet}/": (302, 403, 200, 200),
    "/manage/{slug}/meets/{planned}/attendance/": (302, 403, 403, 200),
    "/manage/{slug}/meets/{planned}/start/": (302, 403, 403, 200),
    "/manage/{slug}/meets/{meet}/close/": (302, 403, 403, 200),
    "/manage/{slug}/meets/{meet}/forfeits/": (302, 403, 200, 200),
    "/manage/{slug}/meets/{meet}/malfunctions/": (302, 403, 403, 200),
    "/manage/{slug}/meets/{meet}/violations/": (302, 403, 403, 200),
    "/manage/{slug}/meets/{meet}/corrections/": (302, 403, 403, 200),
    "/manage/{slug}/machines/": (302, 403, 403, 200),
    "/manage/{slug}/special-rulings/": (302, 403, 403, 200),
    "/manage/{slug}/ledger/": (302, 403, 403, 200),
    "/manage/{slug}/machines/pool/": (302, 403, 403, 200),
    "/manage/{slug}/machines/{machine}/": (302, 403, 403, 200),
    "/manage/{slug}/officials/": (302, 403, 403, 200),
    "/manage/{slug}/officials/{official}/": (302, 403, 403, 200),
    "/manage/{slug}/api-tokens/": (302, 403, 403, 200),
    "/manage/leagues/new/": (302, 403, 403, 403),  # staff only once a league exists
    "/manage/set-password/MQ/not-a-token/": (400, 400, 400, 400),  # a dead link, for anyone
    "/manage/login/": (200, 302, 302, 302),
    "/": (200, 200, 200, 200),
    "/leagues/{slug}/": (200, 200, 200, 200),
}

CASES = [
    pytest.param(role, page, statuses[i], id=f"{role}:{page}")
    for page, statuses in TABLE.items()
    for i, role in enumerate(ROLES)
]


@pytest.fixture
def league_night():
    official = f.LeagueOfficialFactory()
    league = official.league
    season = f.SeasonFactory(league=league, number_of_meets=3, created_at=f.SET_UP_2026)
    for rank in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank)
    f.MachineFactory(league=league)
    f.MachineFactory(league=league)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=3
    )
    planned = services.schedule_meet(
        season=season, number=2, date=datetime.date(2026, 1, 13), actor=official.user
    )
    keeper = f.LeagueOfficialFactory(league=league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    other = f.LeagueOfficialFactory()  # a league official, of another league
    return {
        "users": {LO: official.user, KEEPER: keeper.user, OTHER: other.user},
        "values": {
            "slug": league.slug,
            "season": season.pk,
            "meet": started.meet.pk,
            "planned": planned.pk,
            "machine": league.machines.order_by("pk").first().pk,
            "official": official.pk,
        },
    }


@pytest.mark.parametrize(("role", "page", "expected"), CASES)
def test_role_page_status(client, league_night, role, page, expected):
    if role != ANON:
        client.force_login(league_night["users"][role])

    response = client.get(page.format(**league_night["values"]))

    assert response.status_code == expected


def test_other_leagues_official_cannot_post_to_a_console_form(client, league_night):
    client.force_login(league_night["users"][OTHER])
    slug = league_night["values"]["slug"]

    response = client.post(
        f"/manage/{slug}/seasons/",
        {"name": "Hijack", "weekday": "1", "start_time": "19:00", "number_of_meets": "5",
         "dues_cents": "0"},
    )  # fmt: skip

    assert response.status_code == 403
    assert not m.Season.objects.filter(name="Hijack").exists()


def test_scorekeeper_posting_an_lo_only_decision_gets_403(client, league_night):
    client.force_login(league_night["users"][KEEPER])
    values = league_night["values"]

    response = client.post(
        f"/manage/{values['slug']}/meets/{values['meet']}/close/", {"override_reason": "done"}
    )

    assert response.status_code == 403
    assert m.Meet.objects.get(pk=values["meet"]).status == m.Meet.Status.OPEN


def test_meet_of_another_league_is_not_found_under_this_leagues_console(client, league_night):
    client.force_login(league_night["users"][OTHER])
    mine = m.LeagueOfficial.objects.get(user=league_night["users"][OTHER]).league
    meet = league_night["values"]["meet"]

    response = client.get(f"/manage/{mine.slug}/meets/{meet}/")

    assert response.status_code == 404


# --- overrides: a correction of a closed meet is an LO's decision (A45.2) ---------------------


@pytest.fixture
def closed_night():
    """Meet 1 closed after group 1's first game (100, 50, 30, 10); a scorekeeper too."""
    night = build_night()
    a = night.players
    meet = start(night)
    played = game(meet, 1, 1)
    play(played, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    sheet = scoresheet_path(played.group)
    services.close_meet(meet=meet, actor=night.user, override_reason="Power cut")
    keeper = f.LeagueOfficialFactory(league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    return SimpleNamespace(night=night, meet=meet, game=played, sheet=sheet, keeper=keeper.user)


def _override_form(closed_night):
    a = closed_night.night.players
    return {
        "action": "request", "game": closed_night.game.pk, "requested_by": a[0].pk,
        "reason": "50 was misread", f"score_{a[1].pk}": "60",
        "override_reason": "The photo of the display shows 60",
    }  # fmt: skip


def _corrections_page(closed_night):
    return f"/manage/{closed_night.night.league.slug}/meets/{closed_night.meet.pk}/corrections/"


def test_override_by_a_league_official_in_the_console_is_recorded(client, closed_night):
    client.force_login(closed_night.night.user)

    response = client.post(_corrections_page(closed_night), _override_form(closed_night))

    assert response.status_code == 302
    assert m.CorrectionRequest.objects.get().override_by == closed_night.night.user


def test_override_by_a_scorekeeper_in_the_console_is_403(client, closed_night):
    client.force_login(closed_night.keeper)

    response = client.post(_corrections_page(closed_night), _override_form(closed_night))

    assert response.status_code == 403
    assert m.CorrectionRequest.objects.count() == 0


def test_override_through_the_score_sheet_link_is_not_found(client, closed_night):
    """A sheet link never overrides: it dies with its meet, even for a signed-in LO."""
    client.force_login(closed_night.night.user)

    response = client.post(f"{closed_night.sheet}correction/", _override_form(closed_night))

    assert response.status_code == 404
    assert m.CorrectionRequest.objects.count() == 0


# --- a removed official ----------------------------------------------------------------------


def test_removed_officials_session_opens_no_console_page_and_posts_nothing(client, league_night):
    removed = league_night["users"][LO]
    values = league_night["values"]
    other = f.LeagueOfficialFactory(league=m.League.objects.get(slug=values["slug"]))
    client.force_login(removed)
    services.remove_official(official=m.LeagueOfficial.objects.get(user=removed), actor=other.user)

    page = client.get(f"/manage/{values['slug']}/meets/{values['meet']}/")
    closing = client.post(
        f"/manage/{values['slug']}/meets/{values['meet']}/close/", {"override_reason": "done"}
    )

    assert (page.status_code, closing.status_code) == (403, 403)
    assert m.Meet.objects.get(pk=values["meet"]).status == m.Meet.Status.OPEN


def test_removed_officials_api_token_is_refused(client, league_night):
    removed = league_night["users"][LO]
    slug = league_night["values"]["slug"]
    league = m.League.objects.get(slug=slug)
    secret = issue_api_token(league=league, name="phone", scopes=["read_private"], actor=removed)
    other = f.LeagueOfficialFactory(league=league)
    services.remove_official(official=m.LeagueOfficial.objects.get(user=removed), actor=other.user)

    response = client.get(
        f"/api/v1/leagues/{slug}/treasury", HTTP_AUTHORIZATION=f"Bearer {secret.secret}"
    )

    assert response.status_code == 401
