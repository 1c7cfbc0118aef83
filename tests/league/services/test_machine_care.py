"""The broken-machine loop (R7.3-q, R7.3-r, R7.3-s, R7.3-u): a problem reported, the machine
declared unplayable, the game moved to another machine, the machine repaired; its history and
reliability read from those facts."""

import pytest
from django.conf import settings as django_settings
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.machine_history import machine_histories, sheets_open_first
from tests import factories as f
from tests.league.league_night import DATE, game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db


def history(machine):
    (sheet,) = machine_histories(machine.league, machine_id=machine.pk)
    return sheet


def test_machine_history_report_unplayable_replacement_repair_r7_3_u(night):
    """R7.3-u, R7.3-r, R7.3-s: report -> malfunction -> replacement (declared unplayable) ->
    repair: one history, the problems open until the repair, then none open."""
    meet = start_night(night)
    first = game(meet, 1, 1)
    broken = first.machine
    report = services.report_machine_problem(
        machine=broken, text="Left flipper weak", reported_by="Sam"
    )
    f.MalfunctionFactory(game=first, player=night.players[0], official=night.user)

    replaced = services.replace_machine(
        game=first, reason="Left flipper dead", seed=3, actor=night.user
    )
    during = history(broken)

    assert [p.what for p in during.open_problems] == ["unplayable", "malfunction", "report"]
    assert during.open_problems[2].ruled == "“Left flipper weak”: reported, not yet ruled"
    assert during.open_problems[2].by == "Sam"
    assert during.open_problems[1].game == "meet 1, group 1, game 1"
    assert during.malfunctions == 1  # on the machine that failed, not its replacement
    assert history(replaced.game.machine).malfunctions == 0
    assert m.Ruling.objects.filter(kind__contains="report").count() == 0

    repair = services.record_machine_repair(
        machine=broken, note="New flipper coil", actor=night.user
    )
    after = history(broken)

    assert after.open_problems == ()
    assert {p.repaired_at for p in after.problems} == {repair.created_at}
    kinds = [line.what for line in after.lines]
    assert kinds[:2] + sorted(kinds[2:4]) + kinds[4:] == [
        "report", "malfunction", "declaration", "replacement", "repair", "declaration",
    ]  # fmt: skip
    assert m.MachineProblemReport.objects.get(pk=report.pk).closed_at is None


def test_machine_history_reliability_counts_games_and_days_out_r7_3_u(night):
    """R7.3-u: 1 malfunction in the machine's 1 game is 100 per 100 games; a machine
    declared unplayable on the meet's day is out of service that day."""
    meet = start_night(night)
    first = game(meet, 1, 1)
    f.MalfunctionFactory(game=first, player=night.players[0], official=night.user)
    services.declare_machine_unplayable(
        meet=meet, machine=first.machine, reason="Stuck ball", actor=night.user
    )

    found = history(first.machine).reliability

    assert (found.games, found.malfunctions, found.per_100_games) == (1, 1, 100.0)
    assert found.days_out == 1


def test_set_machine_status_records_a_status_change_r7_3_q(night):
    """R7.3-q: taking a machine out of the pool is stored with who, when and why, and is an
    open problem until it comes back."""
    machine = night.machines[0]

    ruling = services.set_machine_status(
        machine=machine, status="unplayable", reason="Sent for repair", actor=night.user
    )

    change = m.MachineStatusChange.objects.get()
    assert (change.previous, change.status, change.reason, change.official, change.ruling) == (
        "playable", "unplayable", "Sent for repair", night.user, ruling,
    )  # fmt: skip
    assert [p.what for p in history(machine).open_problems] == ["out of the pool"]

    services.record_machine_repair(machine=machine, note="Rubbers replaced", actor=night.user)

    machine.refresh_from_db()
    assert machine.status == "playable"
    assert history(machine).open_problems == ()


def test_close_problem_report_records_who_when_why_r7_3_u(night):
    """R7.3-u: the official closes a report without a repair, saying why."""
    machine = night.machines[0]
    report = services.report_machine_problem(machine=machine, text="Shooter lane rough")

    closed = services.close_machine_problem_report(
        report=report, reason="No fault found", actor=night.user
    )

    assert (closed.closed_by, closed.close_reason) == (night.user, "No fault found")
    assert history(machine).open_problems == ()
    with pytest.raises(ValidationError):
        services.close_machine_problem_report(report=report, reason="Again", actor=night.user)


def test_close_problem_report_by_another_leagues_official_refused(night):
    """R7.3-u: only an official of the machine's league closes its reports."""
    report = services.report_machine_problem(machine=night.machines[0], text="Dim GI")
    other = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL).user

    with pytest.raises(PermissionDenied):
        services.close_machine_problem_report(report=report, reason="Fine", actor=other)


def test_report_machine_problem_limits_one_address_r7_3_u(night):
    """R7.3-u: one address may send a few reports an hour, then is refused."""
    machine = night.machines[0]
    for n in range(django_settings.PROBLEM_REPORTS_PER_MACHINE):
        services.report_machine_problem(machine=machine, text=f"Problem {n}", address_hash="x")

    with pytest.raises(ValidationError) as caught:
        services.report_machine_problem(machine=machine, text="One more", address_hash="x")

    assert "Too many reports" in caught.value.message_dict["text"][0]


def test_report_machine_problem_sent_twice_is_kept_once_r7_3_u(night):
    """A double tap on the QR code's form, or a browser's retry, is one report."""
    machine = night.machines[0]

    first = services.report_machine_problem(machine=machine, text="Left flipper", address_hash="x")
    again = services.report_machine_problem(machine=machine, text="Left flipper", address_hash="x")

    assert again.pk == first.pk
    assert m.MachineProblemReport.objects.filter(machine=machine).count() == 1
    assert m.AuditEvent.objects.filter(action="machine.problem_reported").count() == 1


def test_report_machine_problem_without_text_refused(night):
    with pytest.raises(ValidationError) as caught:
        services.report_machine_problem(machine=night.machines[0], text="  ")

    assert caught.value.message_dict["text"] == ["Say what is wrong with the machine."]


def test_maintenance_sheet_puts_open_problems_first_r7_3_u(night):
    """R7.3-u: the venue's sheet starts with the machines that need work."""
    quiet, loud = night.machines[0], night.machines[-1]
    services.report_machine_problem(machine=loud, text="Dead pop bumper")

    ordered = sheets_open_first(machine_histories(night.season.league))

    assert ordered[0].machine_id == loud.pk
    assert quiet.pk in [s.machine_id for s in ordered[1:]]


def test_start_meet_names_the_machines_left_out_of_the_draw_r5_a(night):
    """R5-a, R7.3-r: the draw leaves out a machine out of the pool and says why."""
    out = night.machines[0]
    services.set_machine_status(
        machine=out, status="unplayable", reason="Coil burnt", actor=night.user
    )

    started = services.start_meet(
        season=night.season, number=1, date=DATE, actor=night.user, seed=7
    )

    assert (
        f"Left out of the first-machine draw as unplayable: {out.title} "
        "(out of the pool: Coil burnt)."
    ) in started.warnings
    assert out.pk not in [g.machine_id for g in started.first_games]
