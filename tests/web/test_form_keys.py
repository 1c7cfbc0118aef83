"""issue 34 §3: a console write form is stored only with a form key the server issued to the
signed-in user's session (`flipwell.web.once`). Posted without a key, or with a key the client
made up, another official's, another session's or an expired one, it is refused (400) with a
plain sentence, nothing is written, and what was typed comes back in a form to send again.

The crawl reads every form off the console's pages (the permission matrix's pages and reader,
`tests.web.console_forms`), so a form added tomorrow is in it the day it is added.
"""

from __future__ import annotations

import datetime
import html
import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.test import Client

from flipwell.league import models as m
from flipwell.web.once import NOT_ISSUED, NOT_SENT_AGAIN, issue_form_key
from tests import factories as f
from tests.form_keys import issued_key
from tests.rows import row_counts
from tests.web.console_forms import PAGES, FormReader, forms_of, urls_of

pytestmark = pytest.mark.django_db

REFUSED = html.escape(NOT_ISSUED)
KEY = re.compile(r'name="form_key" value="([^"]+)"')


def _bad_keys(client: Any, tuesday_lo: Any) -> dict[str, str | None]:
    """Keys the server did not issue to `client`'s session: none, made up, one issued to
    another session of the same official (another official's: `test_once`)."""
    return {
        "none": None,
        "made up": "tap-1",
        "another session's": issue_form_key(user_pk=tuesday_lo.pk, session_key="another-session"),
    }


def _post(client: Any, path: str, data: dict[str, list[str]], key: str | None) -> Any:
    client.carries_form_key = False
    sent = {name: values for name, values in data.items() if name != "form_key"}
    if key is not None:
        sent["form_key"] = [key]
    try:
        return client.post(path, sent)
    finally:
        client.carries_form_key = True


@pytest.mark.parametrize("pattern", PAGES, ids=[pattern.name for pattern in PAGES])
def test_console_form_without_an_issued_key_is_refused_and_writes_nothing(
    client, console_night, pattern
):
    forms = forms_of(client, console_night["lo"], urls_of(pattern, console_night["ids"]))
    client.force_login(console_night["lo"])

    for form in forms:
        path = urlsplit(form.url).path
        for why, key in _bad_keys(client, console_night["lo"]).items():
            before = row_counts()

            response = _post(client, path, form.data, key)

            posted = f"{form.url} action={form.button!r} with {why} key"
            assert response.status_code == 400, posted
            assert REFUSED in response.text, posted
            assert row_counts() == before, posted
            typed = [v for n, vs in form.data.items() if n not in NOT_SENT_AGAIN for v in vs if v]
            assert [v for v in typed if html.escape(v) not in response.text] == [], posted


@pytest.mark.parametrize("pattern", PAGES, ids=[pattern.name for pattern in PAGES])
def test_console_form_with_the_pages_key_is_not_refused(client, console_night, pattern):
    """The normal flow: the key the page was drawn with is accepted (the form then runs, and
    is recorded or refused on its own merits)."""
    client.force_login(console_night["lo"])

    for url in urls_of(pattern, console_night["ids"]):
        page = client.get(url)
        shown = page.status_code == 200 and page["Content-Type"].startswith("text/html")
        keys = KEY.findall(page.text) if shown else []
        for form, key in zip(forms_of_page(page.text, url) if shown else [], keys, strict=False):
            response = _post(client, urlsplit(form.url).path, form.data, key)

            assert REFUSED not in response.text, f"{form.url} action={form.button!r}"


def forms_of_page(page: str, url: str) -> list[Any]:
    reader = FormReader(url)
    reader.feed(page)
    return [form for form in reader.forms if form.url.startswith("/manage/")]


LEDGER = {"action": "entry", "kind": "kitty_in", "account": "kitty", "amount_cents": "12.50"}


def test_ledger_entry_with_a_made_up_key_is_refused_every_time_and_keeps_what_was_typed(
    client, tuesday_lo
):
    """Before: each post of a made-up (or no) key booked a new entry."""
    for key in ("tap-1", "tap-1", None, None, "", "abc:1kZ:xyz"):
        response = _post(
            client, "/manage/tuesday/ledger/", {k: [v] for k, v in LEDGER.items()}, key
        )

        assert response.status_code == 400
        assert REFUSED in response.text
        assert 'value="12.50"' in response.text
        assert 'name="action" value="entry"' in response.text
    assert m.LedgerEntry.objects.count() == 0


def test_refused_form_sent_again_from_its_page_is_recorded_once(client, tuesday_lo):
    refused = _post(client, "/manage/tuesday/ledger/", {k: [v] for k, v in LEDGER.items()}, None)
    key = KEY.findall(refused.text)[-1]  # the form that carries what was typed

    sent = client.post("/manage/tuesday/ledger/", {**LEDGER, "form_key": key})
    again = client.post("/manage/tuesday/ledger/", {**LEDGER, "form_key": key})

    assert (sent.status_code, again.status_code) == (302, 302)
    assert m.LedgerEntry.objects.count() == 1


def test_ledger_entry_with_the_pages_key_is_recorded_once(client, tuesday_lo):
    page = client.get("/manage/tuesday/ledger/").text
    key = KEY.findall(page)[0]

    first = client.post("/manage/tuesday/ledger/", {**LEDGER, "form_key": key})
    second = client.post("/manage/tuesday/ledger/", {**LEDGER, "form_key": key})

    assert (first.status_code, second.status_code) == (302, 302)
    assert m.LedgerEntry.objects.count() == 1


def test_a_key_from_before_signing_in_again_is_refused(client, tuesday_lo):
    key = issued_key(client)
    client.logout()
    client.force_login(tuesday_lo.user)  # a new session

    response = client.post("/manage/tuesday/ledger/", {**LEDGER, "form_key": key})

    assert response.status_code == 400
    assert m.LedgerEntry.objects.count() == 0


def test_a_key_older_than_its_lifetime_is_refused(client, tuesday_lo, settings, monkeypatch):
    key = issued_key(client)
    later = datetime.datetime.now().timestamp() + 25 * 3600
    monkeypatch.setattr("time.time", lambda: later)

    response = client.post("/manage/tuesday/ledger/", {**LEDGER, "form_key": key})

    assert response.status_code == 400
    assert m.LedgerEntry.objects.count() == 0


def test_signing_in_needs_no_key():
    user = f.UserFactory()
    user.set_password("a-long-password-1")
    user.save()

    response = Client().post(
        "/manage/login/", {"username": user.username, "password": "a-long-password-1"}
    )

    assert response.status_code == 302
