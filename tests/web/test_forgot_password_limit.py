"""The forgot-password limit (issue 26 §5): per client address and per e-mail address, in
the configured cache, with a plain sentence (flipwell.web.reset_limit)."""

import pytest
from django.core import mail

from flipwell.league.rate_limits import shared_cache
from flipwell.web.reset_limit import refusal
from tests import factories as f

pytestmark = pytest.mark.django_db

URL = "/manage/forgot-password/"


@pytest.fixture(autouse=True)
def limits(settings):
    shared_cache().clear()
    settings.FORGOT_PASSWORD_PER_ADDRESS = 4
    settings.FORGOT_PASSWORD_PER_ACCOUNT = 2
    settings.FORGOT_PASSWORD_WINDOW_MINUTES = 60
    yield
    shared_cache().clear()


def _ask(client, email, address="203.0.113.7"):
    return client.post(URL, {"email": email}, REMOTE_ADDR=address)


def test_forgot_password_per_account_limit_stops_the_mails_to_one_inbox(client):
    """issue 26 §5: forgot-password is limited per account (here 2 links an hour)."""
    f.UserFactory(email="lo@example.org")

    answers = [
        _ask(client, "LO@example.org", address=f"203.0.113.{n}").status_code for n in (1, 2, 3)
    ]
    refused = _ask(client, "lo@example.org", address="203.0.113.9")

    assert answers == [302, 302, 429]
    assert len(mail.outbox) == 2
    assert "Too many set-password links were asked for lo@example.org: try again in" in (
        refused.text
    )
    assert 1 <= int(refused["Retry-After"]) <= 3600


def test_forgot_password_per_address_limit_refuses_one_client_asking_for_many(client):
    """issue 26 §5: forgot-password is limited per client address (here 4 an hour)."""
    for n in range(4):
        f.UserFactory(email=f"lo{n}@example.org")
    answers = [_ask(client, f"lo{n}@example.org").status_code for n in range(4)]

    refused = _ask(client, "someone@example.org")

    assert answers == [302, 302, 302, 302]
    assert refused.status_code == 429
    assert "Too many set-password links were asked for from this address: try again in" in (
        refused.text
    )
    assert len(mail.outbox) == 4


def test_forgot_password_limit_counts_unknown_addresses_too(client):
    """The answer tells nobody which addresses have accounts: one with none is limited alike."""
    answers = [_ask(client, "nobody@example.org", f"198.51.100.{n}").status_code for n in range(3)]

    assert answers == [302, 302, 429]


def test_forgot_password_limit_ends_with_the_window(rf):
    request = rf.post(URL, REMOTE_ADDR="192.0.2.1")
    hour = 3600 * 1000

    counted = [refusal(request, "lo@example.org", now=hour + n)[0] == "" for n in range(3)]
    next_hour = refusal(request, "lo@example.org", now=hour + 3600)

    assert counted == [True, True, False]
    assert next_hour == ("", 0)


def test_forgot_password_limit_waits_are_counted_to_the_windows_end(rf):
    request = rf.post(URL, REMOTE_ADDR="192.0.2.2")
    start = 3600 * 2000
    refusal(request, "a@example.org", now=start)
    refusal(request, "a@example.org", now=start)

    message, wait = refusal(request, "a@example.org", now=start + 600)

    assert wait == 3000
    assert "try again in 50 minutes" in message
