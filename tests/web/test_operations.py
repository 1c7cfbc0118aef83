"""Operating flipwell: /healthz, the request id, logs on stdout, the forgot-password flow."""

import io
import json
import logging.config
import os
import re

import pytest
from django.core import mail

from flipwell.logs import JsonFormatter, RequestIdFilter, logging_config, request_id
from flipwell.web.request_id import incoming_or_new
from tests import factories as f

# --- /healthz ---


@pytest.mark.django_db
def test_healthz_answers_json_when_database_and_migrations_are_fine(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "database": "ok", "migrations": "applied"}


@pytest.mark.django_db
def test_healthz_answers_any_host_without_https_redirect(client, settings):
    """A load balancer probes by address over plain HTTP: no ALLOWED_HOSTS entry needed."""
    settings.ALLOWED_HOSTS = ["league.example.org"]
    settings.SECURE_SSL_REDIRECT = True

    response = client.get("/healthz", headers={"Host": "10.0.0.7:8000"})

    assert response.status_code == 200
    assert client.get("/", headers={"Host": "10.0.0.7:8000"}).status_code == 400


# --- the request id ---


@pytest.mark.django_db
def test_request_id_from_the_proxy_is_echoed(client):
    response = client.get("/manage/login/", headers={"X-Request-ID": "caddy-7f3a.1"})

    assert response["X-Request-ID"] == "caddy-7f3a.1"


@pytest.mark.django_db
def test_request_id_is_made_when_the_proxy_sent_none(client):
    response = client.get("/manage/login/")

    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])


@pytest.mark.parametrize("header", ["x\nforged log line", "a" * 129, "", "ü"])
def test_request_id_that_could_forge_a_log_line_is_replaced(header):
    assert re.fullmatch(r"[0-9a-f]{32}", incoming_or_new(header))


def test_request_ids_made_are_all_different():
    assert len({incoming_or_new(None) for _ in range(10_000)}) == 10_000


def test_a_forked_worker_makes_other_request_ids_than_its_parent():
    """gunicorn forks its workers from one master: each draws its own ids."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: its next id to the parent, and out whatever happens
        try:
            os.write(write, incoming_or_new(None).encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    with os.fdopen(read) as pipe:
        assert pipe.read() != incoming_or_new(None)


# --- logs ---


def _json_line(record: logging.LogRecord) -> dict[str, object]:
    RequestIdFilter().filter(record)
    return json.loads(JsonFormatter().format(record))


def test_json_log_line_carries_the_request_id_and_the_traceback():
    token = request_id.set("abc123")
    try:
        error = ValueError("boom")
        record = logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s", ("/x",),
            (ValueError, error, error.__traceback__),
        )  # fmt: skip
        line = _json_line(record)
    finally:
        request_id.reset(token)

    assert (line["level"], line["message"], line["request_id"]) == (
        "ERROR",
        "Internal Server Error: /x",
        "abc123",
    )
    assert "ValueError: boom" in str(line["exc_info"])


def test_logging_config_writes_text_lines_to_stdout(monkeypatch):
    stdout = io.StringIO()
    monkeypatch.setattr("sys.stdout", stdout)
    logging.config.dictConfig(logging_config(log_format="text", level="INFO"))
    try:
        logging.getLogger("flipwell.test").info("league night started")
    finally:
        from django.conf import settings

        logging.config.dictConfig(settings.LOGGING)

    assert stdout.getvalue().endswith("INFO flipwell.test [-] league night started\n")


@pytest.mark.parametrize(
    ("log_format", "level", "message"),
    [("xml", "INFO", "LOG_FORMAT='xml'"), ("json", "LOUD", "LOG_LEVEL='LOUD'")],
)
def test_logging_config_refuses_an_unknown_format_or_level(log_format, level, message):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match=message):
        logging_config(log_format=log_format, level=level)


# --- forgot password ---


@pytest.mark.django_db
def test_login_page_links_to_forgot_password(client):
    assert 'href="/manage/forgot-password/"' in client.get("/manage/login/").text


@pytest.mark.django_db
def test_forgot_password_mails_a_link_that_sets_a_new_password(client):
    user = f.UserFactory(email="lo@example.org")

    sent = client.post("/manage/forgot-password/", {"email": "lo@example.org"})
    (message,) = mail.outbox
    link = re.search(r"http://testserver(/manage/set-password/\S+/)", message.body).group(1)
    page = client.get(link)
    new = "a new pinball secret"
    done = client.post(link, {"new_password1": new, "new_password2": new})

    assert (sent.status_code, sent["Location"]) == (302, "/manage/forgot-password/sent/")
    assert message.to == ["lo@example.org"]
    assert user.username in message.body
    assert page.status_code == 200
    assert (done.status_code, done["Location"]) == (302, "/manage/login/")
    user.refresh_from_db()
    assert user.check_password(new)


@pytest.mark.django_db
def test_forgot_password_for_an_unknown_address_says_the_same_and_sends_nothing(client):
    sent = client.post("/manage/forgot-password/", {"email": "nobody@example.org"})

    assert (sent.status_code, sent["Location"]) == (302, "/manage/forgot-password/sent/")
    assert mail.outbox == []
    assert "Check your e-mail" in client.get("/manage/forgot-password/sent/").text
