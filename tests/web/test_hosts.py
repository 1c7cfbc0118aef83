"""The Host a request names, the address e-mails link to, and the pages of a failed request
(issue 23 §1, issue 26 §5)."""

from __future__ import annotations

import logging
import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client, RequestFactory

from flipwell.league import notices
from flipwell.serving import http_cache
from flipwell.web.hosts import port_allowed
from tests import factories as f

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_page_memo")]


@pytest.fixture
def venue(settings):
    """The settings `make run HOST=0.0.0.0 PORT=8000` gives a machine at 192.168.1.20."""
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]
    settings.ALLOWED_PORTS = ["8000"]
    settings.SITE_URL = "http://192.168.1.20:8000"
    return settings


# --- the host's name and port ---


def test_host_naming_another_port_is_refused(client, venue):
    """issue 26 §5: `Host: 127.0.0.1:31337` passed ALLOWED_HOSTS (Django ignores the port)."""
    forged = client.get("/", headers={"Host": "127.0.0.1:31337"})
    served = client.get("/", headers={"Host": "127.0.0.1:8000"})

    assert (forged.status_code, served.status_code) == (400, 200)


def test_host_not_allowed_is_refused(client, venue):
    """issue 23 §1: a forged host never reaches a page, so never a printed QR code."""
    league = f.LeagueFactory()

    refused = client.get(f"/tv/{league.slug}/", headers={"Host": "evil.example:8000"})

    assert refused.status_code == 400


def test_host_without_a_port_is_served(client, venue):
    """A reverse proxy's public name carries no port."""
    assert client.get("/", headers={"Host": "192.168.1.20"}).status_code == 200


@pytest.mark.parametrize(
    ("port", "allowed", "expected"),
    [
        ("", [], True),
        ("8000", ["8000"], True),
        ("31337", ["8000"], False),
        ("31337", ["*"], True),
        ("8000", [], False),
    ],
)
def test_port_allowed_only_when_listed(port, allowed, expected):
    assert port_allowed(port, allowed) is expected


def test_remembered_page_is_kept_per_host(client, settings):
    """issue 26 §5: a page remembered for one host (its `next` link names it) was served to
    clean requests for another (17 of 20 got a `next` link on port 31337)."""
    settings.ALLOWED_HOSTS = ["league.example.org", "127.0.0.1"]
    settings.ALLOWED_PORTS = ["*"]
    league = f.LeagueFactory()
    f.MachineFactory.create_batch(2, league=league)
    url = f"/api/v1/leagues/{league.slug}/machines?limit=1"

    forged = client.get(url, headers={"Host": "127.0.0.1:31337"}).json()["next"]
    clean = client.get(url, headers={"Host": "league.example.org"}).json()["next"]

    assert forged.startswith("http://127.0.0.1:31337/api/v1/")
    assert clean.startswith("http://league.example.org/api/v1/")


def test_entity_tag_differs_by_scheme_and_host(settings):
    settings.ALLOWED_HOSTS = ["a.example", "b.example"]
    requests = RequestFactory()
    tags = {
        http_cache.entity_tag(requests.get("/tv/x/", headers={"Host": "a.example"}), 7),
        http_cache.entity_tag(requests.get("/tv/x/", headers={"Host": "b.example"}), 7),
        http_cache.entity_tag(
            requests.get("/tv/x/", headers={"Host": "a.example"}, secure=True), 7
        ),
    }

    assert len(tags) == 3


# --- e-mails link to the site address ---


def test_forgot_password_link_starts_with_the_site_address_not_the_host(client, settings):
    """issue 26 §5: a forged Host landed in the password-reset e-mail's link."""
    settings.ALLOWED_PORTS = ["*"]
    settings.SITE_URL = "https://league.example.org"
    f.UserFactory(email="lo@example.org")

    client.post(
        "/manage/forgot-password/",
        {"email": "lo@example.org"},
        headers={"Host": "testserver:31337"},
    )

    (message,) = mail.outbox
    links = re.findall(r"\S+/manage/set-password/\S+/", message.body)
    assert [link.split("/manage/")[0] for link in links] == ["https://league.example.org"]
    assert "31337" not in message.body


def test_forgot_password_without_a_site_address_sends_nothing_and_says_why(client, settings):
    """issue 26 §5: with no site address an e-mail could only guess its links."""
    settings.SITE_URL = ""
    f.UserFactory(email="lo@example.org")

    page = client.get("/manage/forgot-password/")
    sent = client.post("/manage/forgot-password/", {"email": "lo@example.org"})

    assert "has not set its address (FLIPWELL_SITE_URL)" in page.text
    assert '<form method="post"' not in page.text
    assert sent.status_code == 503
    assert mail.outbox == []


def test_notices_are_not_queued_without_a_site_address(settings):
    """issue 26 §5: with no site address, notices linked to `http://127.0.0.1/`."""
    settings.NOTICES_EMAIL = True
    settings.SITE_URL = ""

    assert notices.enabled() is False
    assert notices.missing_site_address().startswith(
        "FLIPWELL_SITE_URL is not set: e-mails have no address to link to, so no notice is "
        "queued (NOTICES_EMAIL is on) and the forgot-password page sends no link."
    )


def test_notices_are_queued_with_a_site_address(settings):
    settings.NOTICES_EMAIL = True
    settings.SITE_URL = "https://league.example.org"

    assert (notices.enabled(), notices.missing_site_address()) == (True, "")


def test_work_says_at_start_up_that_the_site_address_is_missing(settings, capsys):
    """issue 26 §5: say so at start-up."""
    settings.NOTICES_EMAIL = True
    settings.SITE_URL = ""

    call_command("work", "--once")

    assert "Warning: FLIPWELL_SITE_URL is not set" in capsys.readouterr().err


# --- the pages of a failed request, DEBUG off ---


def test_server_error_page_shows_the_request_id_and_the_log_has_the_traceback(settings, caplog):
    """issue 23 §1: a 500 showed the venue's Wi-Fi a traceback and the settings."""
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.web.failing_urls"
    client = Client(raise_request_exception=False)
    logger = logging.getLogger("django.request")
    logger.addHandler(caplog.handler)
    try:
        response = client.get("/test/error/", headers={"X-Request-ID": "night-500"})
    finally:
        logger.removeHandler(caplog.handler)

    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert response.status_code == 500
    assert response["X-Request-ID"] == "night-500"
    assert "<code>night-500</code>" in response.text
    assert "Traceback" not in response.text
    assert "DeliberateFailureError" not in response.text
    assert "SECRET_KEY" not in response.text
    assert record.exc_info is not None
    assert record.exc_info[0].__name__ == "DeliberateFailureError"


def test_not_found_page_is_plain(client, settings):
    """issue 23 §1: with DEBUG on, a 404 listed every URL pattern."""
    settings.DEBUG = False

    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert "<h1>Page not found</h1>" in response.text
    assert "urlpatterns" not in response.text.lower()
    assert "api/v1/" not in response.text
