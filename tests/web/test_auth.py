"""Signing in and out of the console, and the limit on failed sign-ins."""

import pytest
from django.core.cache import cache

from flipwell.web.auth import MAX_FAILURES
from tests import factories as f

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def sign_in(client, username, password, address="10.0.0.1", **extra):
    return client.post(
        "/manage/login/", {"username": username, "password": password, **extra},
        REMOTE_ADDR=address,
    )  # fmt: skip


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
    for _ in range(MAX_FAILURES):
        sign_in(client, user.username, "wrong")

    response = sign_in(client, user.username, PASSWORD)

    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.text
    assert client.get("/manage/").status_code == 302


def test_login_lock_is_per_name_and_address(client):
    user = f.UserFactory()
    for _ in range(MAX_FAILURES):
        sign_in(client, user.username, "wrong", address="10.0.0.1")

    response = sign_in(client, user.username, PASSWORD, address="10.0.0.2")

    assert response.status_code == 302


def test_login_success_clears_the_failure_count(client):
    user = f.UserFactory()
    for _ in range(MAX_FAILURES - 1):
        sign_in(client, user.username, "wrong")
    sign_in(client, user.username, PASSWORD)
    client.logout()

    for _ in range(MAX_FAILURES - 1):
        sign_in(client, user.username, "wrong")
    response = sign_in(client, user.username, PASSWORD)

    assert response.status_code == 302


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
