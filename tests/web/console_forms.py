"""The console's pages and forms as the permission matrix reads them (issue 26 §6): the pages
are the console's URL patterns, each filled with the ids of one league night (the
``console_night`` fixture of tests/web/conftest.py), and the forms are read off the page the
league official (LO) is shown.

Words:
- *form*: one way to post a page's form: its URL, its fields and the ``action`` of the submit
  button used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

from django.urls import URLPattern, resolve

from flipwell.web import urls_manage
from tests import factories as f

KEEPER, OTHER, ANON = "scorekeeper", "other league's official", "signed out"
ROLES = (KEEPER, OTHER, ANON)

# Pages of one's account, not of a league: signing in and out, a forgotten password, the list
# of one's own leagues and the answer to an invitation (tests/web/test_invitation_pages.py).
ACCOUNT = {
    "login", "logout", "forgot_password", "forgot_password_sent", "set_password", "manage_home",
    "manage_answer_invitation",
}  # fmt: skip
# The forms a scorekeeper may post (page, the submit button's `action`): his night's work.
# A non-countable forfeit is an LO's (tests/web/test_console_permissions.py, and
# tests/league/services/test_permission_matrix.py).
KEEPER_MAY = {("manage_forfeits", "forfeit"), ("manage_forfeits", "late")}
# A text field the page leaves empty gets a value of its kind.
EMPTY = {"number": "1", "date": "2026-01-20", "time": "19:00", "email": "dee@example.org"}

PAGES = [
    pattern
    for pattern in urls_manage.urlpatterns
    if isinstance(pattern, URLPattern) and pattern.name not in ACCOUNT
]


@dataclass
class Form:
    """One way to post a form: its URL, its fields, and its ``action`` (which of the page's
    forms it is, as the views tell them apart)."""

    url: str
    data: dict[str, list[str]] = field(default_factory=dict)
    button: str = ""


class FormReader(HTMLParser):
    """The POST forms of a page: each submit button of a form is one `Form`."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.page = page
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._buttons: list[tuple[str, str]] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._form = Form(url=a.get("action") or self.page)
            self._buttons = []
        if self._form is None:
            return
        name = a.get("name", "")
        kind = a.get("type", "submit" if tag == "button" else "text").lower()
        if tag in ("input", "button") and kind == "submit":
            self._buttons.append((name, a.get("value", "")))
        elif tag == "input" and name and kind in ("checkbox", "radio"):
            if "checked" in a and not (kind == "radio" and name in self._form.data):
                self._form.data.setdefault(name, []).append(a.get("value", "on"))
        elif tag == "input" and name and kind != "file" and name != "form_key":
            # The form key is the page's session's: each client posts one issued to its own.
            self._form.data[name] = [a.get("value") or EMPTY.get(kind, "Test")]
        elif tag == "select" and name:
            self._select, self._options = name, []
        elif tag == "option" and self._select is not None:
            self._options.append((a.get("value", ""), "selected" in a))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if self._form is None:
            return
        if tag == "select" and self._select is not None:
            chosen = [v for v, selected in self._options if selected]
            filled = [v for v, _ in self._options if v]
            self._form.data[self._select] = (chosen or filled or [""])[:1]
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self._form.data[self._textarea] = [self._text.strip() or "Test"]
            self._textarea = None
        elif tag == "form":
            for name, value in self._buttons or [("", "")]:
                data = dict(self._form.data)
                if name:
                    data[name] = [value]
                # The form's `action`: its button's, or a hidden field's of that name.
                posted = data.get("action", [""])[0]
                self.forms.append(Form(url=self._form.url, data=data, button=posted))
            self._form = None


def urls_of(pattern: URLPattern, ids: dict[str, list[int | str]]) -> list[str]:
    """The page's URL for each choice of its ids (the open meet's, then the planned one's)."""
    route = str(pattern.pattern)
    names = list(pattern.pattern.converters)
    missing = [name for name in names if name not in ids]
    assert missing == [], f"give the night fixture an id for {missing} ({route})"
    urls = [route]
    for name in names:
        part = re.compile(rf"<(?:\w+:)?{name}>")  # <int:meet_id>, <slug:slug>, <meet_id>
        urls = [part.sub(str(value), url) for url in urls for value in ids[name]]
    return [f"/manage/{url}" for url in urls]


def forms_of(client: Any, lo: Any, urls: list[str]) -> list[Form]:
    """The POST forms, to the console's league pages, of each URL the LO (or, for opening a
    league, a staff member) can open, and an empty POST of each (a page without a form must
    refuse it too)."""
    found: list[Form] = []
    for user in (lo, f.UserFactory(is_staff=True)):
        client.force_login(user)
        for url in urls:
            response = client.get(url)
            if response.status_code == 405:  # an action posted from another page's forms
                found.append(Form(url=url))
            if response.status_code == 200 and not response["Content-Type"].startswith("text/"):
                found.append(Form(url=url))  # a file (a score photo): no form to read
            elif response.status_code == 200:
                reader = FormReader(url)
                reader.feed(response.content.decode())
                mine = [form for form in reader.forms if _console(urlsplit(form.url).path)]
                found += [Form(url=url), *mine]
        client.logout()
        if found:
            return found
    raise AssertionError(f"neither the LO nor staff can open any of {urls}")


def _console(path: str) -> bool:
    return path.startswith("/manage/") and resolve(path).url_name not in ACCOUNT
