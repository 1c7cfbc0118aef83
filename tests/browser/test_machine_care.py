"""The broken-machine loop from phones, at 390 px and 1280 px: a player reports a problem
from the machine's QR page, the official sees it in the console as reported, not yet ruled,
and records the repair; the machine's page and the printed maintenance sheet show it, and no
page overflows (the demo league, 13-digit scores)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, log_in, overflows, screenshot


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_machine_problem_reported_from_a_phone_reaches_the_console_and_is_repaired(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    demo = billions
    slug = demo.league.slug
    machine = demo.league.machines.order_by("title").first()
    assert machine is not None
    viewport = PHONE if size == "phone" else DESKTOP
    player = new_page(f"player, {size}", viewport=viewport)
    report_url = f"/leagues/{slug}/machines/{machine.pk}/report/"

    problems = overflows(player, {"machine-report": report_url}, size)
    player.get_by_label("What is wrong?").fill("Left flipper weak, the ramp is hard to make.")
    player.get_by_label("Your name (optional)").fill("Sam")
    player.get_by_role("button", name="Send the report").click()
    player.get_by_text("Thank you: the league official sees your report.").wait_for()
    screenshot(player, f"machine-report-sent-{size}")

    official = new_page(f"official, {size}", viewport=viewport)
    log_in(official, DEMO_USERNAME, demo.password)
    console = f"/manage/{slug}/machines/"
    problems += overflows(official, {"machine-console": console}, size)
    reports = official.locator("#reports")
    assert "reported, not yet ruled" in reports.inner_text()
    official.locator("#repair select[name=machine]").select_option(str(machine.pk))
    official.locator("#repair [name=note]").fill("New flipper coil.")
    official.get_by_role("button", name="Record the repair").click()
    official.get_by_text(f"{machine.title} recorded repaired.").wait_for()
    screenshot(official, f"machine-repaired-console-{size}")

    problems += overflows(
        player,
        {
            "machine-page": f"/leagues/{slug}/machines/{machine.pk}/",
            "maintenance": f"/leagues/{slug}/maintenance/",
            "print-maintenance": f"/print/{slug}/maintenance/",
        },
        size,
    )
    player.goto(f"/leagues/{slug}/machines/{machine.pk}/")
    assert "Repaired" in player.inner_text("main")
    assert m.MachineRepair.objects.filter(machine=machine).count() == 1
    assert not problems, "\n".join(problems)
