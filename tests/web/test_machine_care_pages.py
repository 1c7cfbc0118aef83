"""The broken-machine loop on the web: the public report form from a machine's QR code,
the machine's page, the printed sheet's QR codes, and the console's warning beside the
machine choice (R7.3-u)."""

import datetime

import pytest
from django.conf import settings as django_settings

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f
from tests.league.league_night import all_late_for_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def machine():
    return f.MachineFactory(league__slug="tuesday", title="Funhouse")


def test_report_form_stores_a_report_not_a_ruling_r7_3_u(client, machine):
    """R7.3-u: a report from the QR page is stored as reported, not yet ruled."""
    url = f"/leagues/tuesday/machines/{machine.pk}/report/"

    response = client.post(url, {"text": "Rudy's mouth stuck", "reported_by": "Sam"})

    assert response.status_code == 200
    assert "the league official sees your report" in response.content.decode()
    report = m.MachineProblemReport.objects.get()
    assert (report.machine, report.text, report.reported_by) == (
        machine, "Rudy's mouth stuck", "Sam",
    )  # fmt: skip
    assert len(report.address_hash) == 32
    assert m.Ruling.objects.count() == 0


def test_report_form_refuses_another_leagues_machine(client, machine):
    other = f.MachineFactory()

    response = client.post(f"/leagues/tuesday/machines/{other.pk}/report/", {"text": "Tilt"})

    assert response.status_code == 404
    assert m.MachineProblemReport.objects.count() == 0


def test_report_form_limits_one_address_with_429_r7_3_u(client, machine):
    """R7.3-u: a public QR page: one address sends a few reports an hour, then 429."""
    url = f"/leagues/tuesday/machines/{machine.pk}/report/"
    for n in range(django_settings.PROBLEM_REPORTS_PER_MACHINE):
        client.post(url, {"text": f"Problem {n}"})

    response = client.post(url, {"text": "One more"})

    assert response.status_code == 429
    assert "Too many reports from here" in response.content.decode()
    assert 1 <= int(response["Retry-After"]) <= 3600


def test_machine_page_shows_open_problem_and_reliability_r7_3_u(client, machine):
    services.report_machine_problem(machine=machine, text="Trap door weak")

    text = client.get(f"/leagues/tuesday/machines/{machine.pk}/").content.decode()

    assert "1 open" in text
    assert "reported, not yet ruled" in text


def test_printed_maintenance_sheet_has_a_qr_code_per_machine_r7_3_u(client, machine):
    f.MachineFactory(league=machine.league, title="Tron")

    text = client.get("/print/tuesday/maintenance/").content.decode()

    assert text.count("Scan to report a problem") == 2
    assert 'title="Report a problem on Funhouse"' in text or "Report a problem on Funhouse" in text


def test_console_machine_choice_warns_of_an_open_problem_r7_3_u(client):
    """R7.3-u: the official choosing a group's next machine sees which have open problems."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(league=official.league, number_of_meets=3, created_at=f.SET_UP_2026)
    players = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank).player for rank in range(1, 5)
    ]
    machines = [
        f.MachineFactory(league=official.league, title=t) for t in ("Addams", "Tron", "Funhouse")
    ]
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    all_late_for_game(started.first_games[0], players)
    broken = next(x for x in machines if x.pk != started.first_games[0].machine_id)
    services.report_machine_problem(machine=broken, text="Left flipper weak")

    text = client.get(f"/manage/tuesday/meets/{started.meet.pk}/").content.decode()

    assert f"{broken.title} (open problem: 1)" in text
    assert f"Open problems reported on: {broken.title} (1)" in text


def test_console_closes_a_report_saying_why_r7_3_u(client, machine):
    """R7.3-u: the official closes a report from the console; who, when and why are kept."""
    official = f.LeagueOfficialFactory(league=machine.league)
    client.force_login(official.user)
    report = services.report_machine_problem(machine=machine, text="Ramp loose")

    response = client.post(
        "/manage/tuesday/machines/",
        {"action": "close", "report": report.pk, "reason": "Tightened, fine"},
    )

    report.refresh_from_db()
    assert response.status_code == 302
    assert (report.closed_by, report.close_reason) == (official.user, "Tightened, fine")


def test_console_close_refuses_another_leagues_report(client, machine):
    official = f.LeagueOfficialFactory(league=machine.league)
    client.force_login(official.user)
    other = services.report_machine_problem(machine=f.MachineFactory(), text="Ramp loose")

    response = client.post(
        "/manage/tuesday/machines/", {"action": "close", "report": other.pk, "reason": "Fine"}
    )

    other.refresh_from_db()
    assert response.status_code == 400
    assert other.closed_at is None
