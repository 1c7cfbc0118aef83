"""Printable sheets: score sheets for the league's staff (they carry the QR keys), the
standings and the maintenance sheet for anyone."""

import time

import pytest

from flipwell.league import models as m
from flipwell.web.charts import qr_code
from flipwell.web.scoresheet_tokens import make_token
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_night():
    night = night_.build_night(players=8, machines=8)
    return night, night_.start(night)


def sheets_url(night, meet):
    return f"/print/{night.league.slug}/meets/{meet.pk}/sheets/"


def test_score_sheets_one_page_per_group_with_players_boxes_and_qr(client, open_night):
    night, meet = open_night
    client.force_login(night.user)

    response = client.get(sheets_url(night, meet))

    assert response.status_code == 200
    assert response.text.count('class="print-page"') == 2
    assert response.text.count('class="sheet-game"') == 8
    assert response.text.count('<svg role="img" viewBox') == 2
    assert "/static/flipwell/print.css" in response.text
    group1 = meet.groups.get(number=1)
    first = group1.members.order_by("position").first().player
    assert f"<li>{first}</li>" in response.text
    assert response.context["sheets"][0][0].group == group1


def test_score_sheet_qr_encodes_the_groups_token(client, open_night, monkeypatch):
    night, meet = open_night
    client.force_login(night.user)
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)  # a token carries its second of signing

    response = client.get(sheets_url(night, meet))

    for group in meet.groups.all():
        url = f"http://testserver/sheet/{make_token(group)}/"
        assert qr_code(url, label=f"Score sheet of group {group.number}") in response.text


def test_score_sheets_for_a_closed_meet_carry_no_qr(client, open_night):
    night, meet = open_night
    m.Meet.objects.filter(pk=meet.pk).update(status=m.Meet.Status.CLOSED)
    client.force_login(night.user)

    response = client.get(sheets_url(night, meet))

    assert response.status_code == 200
    assert "<svg" not in response.text
    assert "carry no QR code" in response.text


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", 302),
        ("other_league_official", 403),
        ("scorekeeper", 200),
        ("league_official", 200),
        ("superuser", 200),
    ],
)
def test_score_sheets_permission(client, open_night, who, expected):
    night, meet = open_night
    users = {
        "other_league_official": lambda: f.LeagueOfficialFactory().user,
        "scorekeeper": lambda: (
            f.LeagueOfficialFactory(
                league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
            ).user
        ),
        "league_official": lambda: night.user,
        "superuser": lambda: f.UserFactory(is_superuser=True, is_staff=True),
    }
    if who in users:
        client.force_login(users[who]())

    response = client.get(sheets_url(night, meet))

    assert response.status_code == expected


def test_score_sheets_of_another_leagues_meet_is_404(client, open_night):
    _night, meet = open_night
    other = f.LeagueOfficialFactory()
    client.force_login(other.user)

    response = client.get(f"/print/{other.league.slug}/meets/{meet.pk}/sheets/")

    assert response.status_code == 404


def test_print_standings_is_one_public_page(client, open_night):
    night, _meet = open_night

    response = client.get(f"/print/{night.league.slug}/standings/")

    assert response.status_code == 200
    assert response.text.count('class="print-page"') == 1
    assert len(response.context["page"].standings.lines) == 8


def test_print_maintenance_is_one_public_page(client):
    league = f.LeagueFactory(slug="arcade")
    f.MaintenanceNoteFactory(machine__league=league, text="Coil replaced.")

    response = client.get("/print/arcade/maintenance/")

    assert response.status_code == 200
    assert response.text.count('class="print-page"') == 1
    assert "Coil replaced." in response.text


def test_score_sheets_print_game_1s_drawn_machine(client, open_night):
    """R5-a: game 1's machine is drawn at the start, so its sheet names it; later games'
    machines are picked during the night, so their line is left blank."""
    night, meet = open_night
    client.force_login(night.user)

    response = client.get(sheets_url(night, meet))

    for group in meet.groups.order_by("number"):
        title = group.games.get(number=1).machine.title
        assert f'<div class="machine-line">Machine: <strong>{title}</strong></div>' in (
            response.text
        )
    assert response.text.count('<div class="machine-line">Machine: </div>') == 6


def test_console_meet_page_and_public_board_show_how_players_reach_their_sheet(client, open_night):
    night, meet = open_night
    client.force_login(night.user)
    print_link = f'href="/print/{night.league.slug}/meets/{meet.pk}/sheets/"'

    console = client.get(f"/manage/{night.league.slug}/meets/{meet.pk}/")
    client.logout()
    board = client.get(f"/leagues/{night.league.slug}/meets/{meet.pk}/")

    assert f'<a class="button primary" {print_link}>Print the score sheets</a>' in console.text
    assert f'href="/tv/{night.league.slug}/"' in console.text
    assert "scan the QR code on your group's printed score sheet, or on the TV" in board.text
    assert print_link in board.text


def test_tv_tells_players_how_to_reach_their_sheet(client, open_night):
    night, _meet = open_night

    public = client.get(f"/tv/{night.league.slug}/")
    client.force_login(night.user)
    staff = client.get(f"/tv/{night.league.slug}/")

    assert "scan the QR code on your group's printed score sheet" in public.text
    assert "Scores: scan your group's code with your phone." in staff.text
