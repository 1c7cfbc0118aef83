"""Signing in and out of the console, and the limit on failed sign-ins (django-axes: counted
in the database per user name and client address, the admin's sign-in included)."""

import datetime

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import F
from django.test import Client

from tests import factories as f

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
LIMIT = settings.LOGIN_FAILURE_LIMIT


def sign_in(client, username, password, address="10.0.0.1", **extra):
    return client.post(
        "/manage/login/", {"username": username, "password": password, **extra},
        REMOTE_ADDR=address,
    )  # fmt: skip


def lock_out(username, address="10.0.0.1"):
    """`LIMIT` wrong passwords for `username` from `address`, each from a new client."""
    for _ in range(LIMIT):
        sign_in(Client(), username, "wrong", address=address)


def test_login_page_has_labelled_fields_and_csrf(client):
    response = client.get("/manage/login/")

    assert response.status_code == 200
    assert 'for="id_username"' in response.text
    assert 'for="id_password"' in response.text
    assert "csrfmiddlewaretoken" in response.text


def test_console_sends_an_anonymous_visitor_to_sign_in(client):
    response = client.get("/manage/")

    assert response.status_code == 302
    assert response["Location"] == "/manage/login/?next=/manage/"


def test_login_with_the_right_password_opens_the_console(client):
    user = f.UserFactory()

    response = sign_in(client, user.username, PASSWORD)

    assert response.status_code == 302
    assert response["Location"] == "/manage/"
    assert client.get("/manage/").status_code == 200


def test_login_goes_back_to_a_local_next_page(client):
    user = f.UserFactory()

    response = sign_in(client, user.username, PASSWORD, next="/manage/some-league/")

    assert response["Location"] == "/manage/some-league/"


def test_login_ignores_a_next_page_on_another_site(client):
    user = f.UserFactory()

    response = sign_in(client, user.username, PASSWORD, next="https://evil.example/")

    assert response["Location"] == "/manage/"


def test_login_with_a_wrong_password_says_so(client):
    user = f.UserFactory()

    response = sign_in(client, user.username, "wrong")

    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.text


def test_login_is_locked_after_too_many_failures_even_with_the_right_password(client):
    user = f.UserFactory()
    lock_out(user.username)

    response = sign_in(client, user.username, PASSWORD)

    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.text
    assert client.get("/manage/").status_code == 302


def test_login_failures_are_stored_in_the_database_every_worker_shares(client):
    """Counted in the database (not one process's memory): a failure through one client
    counts for the next, and the row is there for every worker to read."""
    user = f.UserFactory()
    for _ in range(LIMIT - 1):
        sign_in(Client(), user.username, "wrong")

    stored = AccessAttempt.objects.get(username=user.username, ip_address="10.0.0.1")
    sign_in(Client(), user.username, "wrong")
    response = sign_in(client, user.username, PASSWORD)

    assert stored.failures_since_start == LIMIT - 1
    assert response.status_code == 429


def test_login_warns_when_few_attempts_are_left(client):
    user = f.UserFactory()
    for _ in range(LIMIT - 2):
        sign_in(client, user.username, "wrong")

    response = sign_in(client, user.username, "wrong")

    assert response.status_code == 200
    assert "1 attempt left." in response.text


def test_admin_login_is_limited_too(client):
    admin = f.UserFactory(is_staff=True, is_superuser=True)
    for _ in range(LIMIT):
        client.post(
            "/admin/login/", {"username": admin.username, "password": "wrong"},
            REMOTE_ADDR="10.0.0.1",
        )  # fmt: skip

    response = client.post(
        "/admin/login/?next=/admin/", {"username": admin.username, "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
    )  # fmt: skip

    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.text
    assert client.get("/admin/").status_code == 302  # still signed out


def test_lockout_of_a_name_from_one_address_locks_neither_other_addresses_nor_other_names():
    """An attacker elsewhere cannot lock the official out: the count is per name+address."""
    official, other = f.UserFactory(), f.UserFactory()
    lock_out(official.username, address="203.0.113.66")

    from_home = sign_in(Client(), official.username, PASSWORD, address="10.0.0.1")
    other_name = sign_in(Client(), other.username, PASSWORD, address="203.0.113.66")
    attacker = sign_in(Client(), official.username, PASSWORD, address="203.0.113.66")

    assert (from_home.status_code, other_name.status_code) == (302, 302)
    assert attacker.status_code == 429


def test_lockout_lasts_until_the_cool_off_has_passed(client):
    user = f.UserFactory()
    lock_out(user.username)

    locked = sign_in(client, user.username, PASSWORD)
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - datetime.timedelta(minutes=settings.LOGIN_COOLOFF_MINUTES)
    )  # as if the cool-off had passed
    after = sign_in(client, user.username, PASSWORD)

    assert locked.status_code == 429
    minutes = settings.LOGIN_COOLOFF_MINUTES
    assert f"try again in {minutes} minutes" in locked.text
    assert minutes * 60 - 60 < int(locked["Retry-After"]) <= minutes * 60
    assert after.status_code == 302


def test_login_success_clears_the_failure_count(client):
    user = f.UserFactory()
    for _ in range(LIMIT - 1):
        sign_in(client, user.username, "wrong")
    sign_in(client, user.username, PASSWORD)
    client.logout()

    for _ in range(LIMIT - 1):
        sign_in(client, user.username, "wrong")
    response = sign_in(client, user.username, PASSWORD)

    assert response.status_code == 302


def test_login_behind_the_proxy_counts_the_forwarded_address(settings):
    """BEHIND_PROXY: the client is the last X-Forwarded-For entry (the one the proxy added),
    not the proxy's own REMOTE_ADDR, so one address's lockout spares the venue's others."""
    settings.BEHIND_PROXY = True
    user = f.UserFactory()
    for _ in range(LIMIT):
        Client().post(
            "/manage/login/", {"username": user.username, "password": "wrong"},
            REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.66",
        )  # fmt: skip

    elsewhere = Client().post(
        "/manage/login/", {"username": user.username, "password": PASSWORD},
        REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.66, 198.51.100.7",
    )  # fmt: skip

    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["203.0.113.66"]
    assert elsewhere.status_code == 302


def test_login_not_behind_a_proxy_ignores_the_forwarded_header():
    user = f.UserFactory()

    Client().post(
        "/manage/login/", {"username": user.username, "password": "wrong"},
        REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4",
    )  # fmt: skip

    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["10.0.0.2"]


def test_logout_needs_a_post(client):
    user = f.UserFactory()
    client.force_login(user)

    assert client.get("/manage/logout/").status_code == 405
    response = client.post("/manage/logout/")

    assert response.status_code == 302
    assert client.get("/manage/").status_code == 302


def test_console_home_lists_only_the_users_leagues(client):
    official = f.LeagueOfficialFactory(league__name="Tuesday Flippers")
    f.LeagueFactory(name="Other Town League")
    client.force_login(official.user)

    response = client.get("/manage/")

    assert "Tuesday Flippers" in response.text
    assert "Other Town League" not in response.text
