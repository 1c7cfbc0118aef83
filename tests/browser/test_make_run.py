"""A phone at the venue opens `make run HOST=0.0.0.0` at the address it prints (issue 23 §1).

Not the live server of the other browser tests: a real `make run` (`tests.make_run`: gunicorn,
DEBUG off, static files collected under hashed names), reached through the machine's LAN
address, as phones on the venue's Wi-Fi reach it. The phone opens the leagues, the official
signs in with the demo login make run printed, and a missing page is the plain 404.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from flipwell.lan import lan_address
from flipwell.venue import venue_address
from tests.browser.conftest import ErrorGuard
from tests.browser.helpers import PHONE, TIMEOUT_MS, log_in, screenshot, visit
from tests.make_run import running

NOT_FOUND = 404


def test_phone_opens_make_run_at_the_lan_address(
    browser: Browser, error_guard: ErrorGuard, tmp_path: Path
) -> None:
    with running(tmp_path, host="0.0.0.0") as run:
        login = dict(
            line.split(": ", 1) for line in (run.data / "demo-login.txt").read_text().splitlines()
        )
        context = browser.new_context(
            base_url=run.address, viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US"
        )
        context.set_default_timeout(TIMEOUT_MS)
        try:
            phone = context.new_page()
            error_guard.watch(phone, "phone")  # a style or script that failed to load fails too
            visit(phone, "/")
            expect(phone.get_by_role("link", name="Flip Well Demo League").first).to_be_visible()
            screenshot(phone, "make-run-lan-home")
            log_in(phone, login["username"], login["password"])
            expect(phone.get_by_text("Flip Well Demo League").first).to_be_visible()
            error_guard.expect_refusal(phone, NOT_FOUND)
            missing = phone.goto("/no-such-page/")
            expect(phone.get_by_role("heading", name="Page not found")).to_be_visible()
            expect(phone.get_by_text("URL patterns")).to_have_count(0)  # DEBUG's list
        finally:
            context.close()

    assert run.address == (
        venue_address("0.0.0.0", run.port, lan_address()) or f"http://127.0.0.1:{run.port}"
    )
    assert missing is not None
    assert missing.status == NOT_FOUND
