"""Printable sheets: score sheets for the league's staff (they carry the QR keys), the
standings and the maintenance sheet for anyone."""

import html
import re
import time

import pytest

from flipwell.league import models as m
from flipwell.league.services.meets.close import close_meet
from flipwell.web.charts import qr_code
from flipwell.web.scoresheet_tokens import make_token
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


def sheets_url(night, meet):
    return f"/print/{night.league.slug}/meets/{meet.pk}/sheets/"


def test_score_sheets_one_page_per_group_with_players_boxes_and_qr(client, started_night):
    night, meet = started_night
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


def test_score_sheet_qr_encodes_the_groups_token(client, started_night, monkeypatch):
    night, meet = started_night
    client.force_login(night.user)
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)  # a token carries its second of signing

    response = client.get(sheets_url(night, meet))

    for group in meet.groups.all():
        url = f"http://testserver/sheet/{make_token(group)}/"
        assert qr_code(url, label=f"Score sheet of group {group.number}") in response.text


def test_score_sheet_prints_its_address_beside_the_qr_code(client, started_night, monkeypatch):
    """issue 33 §3: a phone that cannot scan had no way to the sheet."""
    night, meet = started_night
    client.force_login(night.user)
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)

    response = client.get(sheets_url(night, meet))

    addresses = re.findall(r'<span class="sheet-url">([^<]+)</span>', response.text)
    assert addresses == [
        f"http://testserver/sheet/{make_token(group)}/" for group in meet.groups.order_by("number")
    ]


def test_score_sheets_for_a_closed_meet_carry_no_qr(client, started_night):
    night, meet = started_night
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
def test_score_sheets_permission(client, started_night, who, expected):
    night, meet = started_night
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


def test_score_sheets_of_another_leagues_meet_is_404(client, started_night):
    _night, meet = started_night
    other = f.LeagueOfficialFactory()
    client.force_login(other.user)

    response = client.get(f"/print/{other.league.slug}/meets/{meet.pk}/sheets/")

    assert response.status_code == 404


def test_print_standings_is_one_public_page(client, started_night):
    night, _meet = started_night

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


def test_score_sheets_print_game_1s_drawn_machine(client, started_night):
    """R5-a: game 1's machine is drawn at the start, so its sheet names it; later games'
    machines are picked during the night, so their line is left blank."""
    night, meet = started_night
    client.force_login(night.user)

    response = client.get(sheets_url(night, meet))

    for group in meet.groups.order_by("number"):
        title = group.games.get(number=1).machine.title
        assert f'<div class="machine-line">Machine: <strong>{title}</strong></div>' in (
            response.text
        )
    assert response.text.count('<div class="machine-line">Machine: </div>') == 6


def test_console_meet_page_and_public_board_show_how_players_reach_their_sheet(
    client, started_night
):
    night, meet = started_night
    client.force_login(night.user)
    print_link = f'href="/print/{night.league.slug}/meets/{meet.pk}/sheets/"'

    console = client.get(f"/manage/{night.league.slug}/meets/{meet.pk}/")
    client.logout()
    board = client.get(f"/leagues/{night.league.slug}/meets/{meet.pk}/")

    assert f'<a class="button primary" {print_link}>Print the score sheets</a>' in console.text
    assert f'href="/tv/{night.league.slug}/"' in console.text
    assert "scan the QR code on your group's printed score sheet, or on the TV" in board.text
    assert print_link in board.text


def test_tv_tells_players_how_to_reach_their_sheet(client, started_night):
    night, _meet = started_night

    public = client.get(f"/tv/{night.league.slug}/")
    client.force_login(night.user)
    staff = client.get(f"/tv/{night.league.slug}/")

    assert "scan the QR code on your group's printed score sheet" in public.text
    assert "Scores: scan your group's code with your phone." in staff.text


# --- issue 27 §5: the night's results on paper once it closes ---

BILLIONS = 1_234_567_000_000


def text(response) -> str:
    """The page's words, tags left out (a line-break opportunity is no space)."""
    words = re.sub(r"<[^>]+>", " ", response.text.replace("<wbr>", ""))
    return " ".join(html.unescape(words).split())


@pytest.fixture
def closed_night():
    """One group of four whose match is played with 13-digit scores (the ladder's last player
    wins games 1 to 3, the first wins game 4), and its meet closed."""
    night = night_.build_night(players=4)
    meet = night_.start(night)
    members = [g.player for g in meet.groups.get().members.order_by("position")]
    current = night_.game(meet, 1, 1)
    for number in range(1, 5):
        order = members if number == 4 else members[::-1]
        night_.play(current, {p: BILLIONS + 1000 * (4 - i) for i, p in enumerate(order)})
        if number < 4:
            current = night_.next_game(meet, 1, order[3])
    close_meet(meet=meet, actor=night.user)
    return night, meet, members


def test_score_sheets_of_a_closed_meet_print_scores_places_and_points(client, closed_night):
    """R3.2-e, R3.3-a: a closed meet's sheets are filled in: each game's scores (13 digits,
    each one piece, issue 33 §3), places and points, then the night's totals by place."""
    night, meet, (a, b, c, d) = closed_night
    client.force_login(night.user)

    response = client.get(f"/print/{night.league.slug}/meets/{meet.pk}/sheets/")

    shown = text(response)
    assert response.text.count('class="sheet-game filled"') == 4
    assert '<td class="score-box"></td>' not in response.text
    assert '<span class="score">1,234,567,004,000</span>' in response.text
    assert f"Game 1 Machine: {night_.game(meet, 1, 1).machine.title} Player Score Place Points" in (
        shown
    )
    assert f"{a} 1,234,567,001,000 4th 2 {b} 1,234,567,002,000 3rd 4" in shown
    assert (
        f"The night's points Place Player Game points Match bonus Night total "
        f"1st {d} 23 0 23 2nd {c} 19 0 19 3rd {b} 17 1 18 4th {a} 13 1 14"
    ) in shown
    assert "Entered by" not in shown
    assert f'href="/print/{night.league.slug}/meets/{meet.pk}/results/"' in response.text


def test_results_of_a_closed_meet_are_one_public_page(client, closed_night):
    """R3.3-a: each group's night by place, then every game's scores, places and points."""
    night, meet, (a, b, c, d) = closed_night

    response = client.get(f"/print/{night.league.slug}/meets/{meet.pk}/results/")

    assert response.status_code == 200
    assert response.text.count('class="print-page results"') == 1
    assert "/static/flipwell/print.css" in response.text
    shown = text(response)
    assert "Provisional" not in shown
    assert (
        f"Group 1 The night's points Place Player Game points Match bonus Night total "
        f"1st {d} 23 0 23 2nd {c} 19 0 19 3rd {b} 17 1 18 4th {a} 13 1 14"
    ) in shown
    last = night_.game(meet, 1, 4).machine.title
    assert (
        f"Game 4 · {last} Player Score Place Points {a} 1,234,567,004,000 1st 7 "
        f"{b} 1,234,567,003,000 2nd 5"
    ) in shown
    assert response.text.count('<span class="score">') == 16


def test_results_of_an_open_meet_say_they_are_provisional(client, started_night):
    night, meet = started_night

    shown = text(client.get(f"/print/{night.league.slug}/meets/{meet.pk}/results/"))

    assert "Provisional: the meet is open, so these points count once it is closed." in shown
    assert shown.count("No game of this group is confirmed yet.") == 2


def test_results_of_another_leagues_meet_is_404(client, closed_night):
    _night, meet, _members = closed_night
    other = f.LeagueFactory(slug="other")

    response = client.get(f"/print/{other.slug}/meets/{meet.pk}/results/")

    assert response.status_code == 404


def test_closed_meet_links_its_printed_results_from_the_console_and_the_board(
    client, closed_night, started_night
):
    night, meet, _members = closed_night
    link = f'href="/print/{night.league.slug}/meets/{meet.pk}/results/"'
    client.force_login(night.user)

    console = client.get(f"/manage/{night.league.slug}/meets/{meet.pk}/")
    client.logout()
    board = client.get(f"/leagues/{night.league.slug}/meets/{meet.pk}/")
    still_open = client.get(f"/leagues/{started_night[0].league.slug}/meets/{started_night[1].pk}/")

    assert f'<a class="button primary" {link}>Print the night\'s results</a>' in console.text
    assert f"<a {link}>Print the night's results</a>" in board.text
    assert "/results/" not in still_open.text
