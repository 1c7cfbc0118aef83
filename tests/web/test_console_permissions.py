"""The permission matrix of the console's forms (issue 26 §6): every form the league official
(LO) is shown under ``/manage/<league>/``, posted as he would post it, by a scorekeeper of the
league, by an LO of another league and by nobody signed in: refused (403; a redirect to sign
in for nobody) and nothing written, not one row of any model nor an audit event.

Nothing here lists the pages or their forms: the pages are the console's URL patterns, each
filled with the ids of one league night, and the forms are read off the page the LO is shown
(their fields as the page fills them, a text left empty given a plain value). A new page or
form is in the matrix the day it is added. What a scorekeeper may post (forfeits, late
arrivals) is the one list kept by hand, KEEPER_MAY.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.urls import URLPattern, resolve

from flipwell.league import models as m
from flipwell.league import services
from flipwell.web import urls_manage
from tests import factories as f
from tests import photo_files as pf
from tests.league.league_night import DATE, build_night, game, start
from tests.rows import row_counts

pytestmark = pytest.mark.django_db

KEEPER, OTHER, ANON = "scorekeeper", "other league's official", "signed out"
ROLES = (KEEPER, OTHER, ANON)

# Pages of one's account, not of a league: signing in and out, a forgotten password, the list
# of one's own leagues and the answer to an invitation (tests/web/test_invitation_pages.py).
ACCOUNT = {
    "login", "logout", "forgot_password", "forgot_password_sent", "set_password", "manage_home",
    "manage_answer_invitation",
}  # fmt: skip
# The forms a scorekeeper may post (page, the submit button's `action`): his night's work.
# A non-countable forfeit is an LO's (tests below, and tests/league/test_permission_matrix.py).
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


@pytest.fixture
def night() -> dict[str, Any]:
    """League A's night: meet 1 open, meet 2 scheduled; A's LO, a scorekeeper, B's LO."""
    night = build_night()
    meet = start(night)
    planned = services.schedule_meet(
        season=night.season, number=2, date=DATE + datetime.timedelta(days=7), actor=night.user
    )
    keeper = f.LeagueOfficialFactory(league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER)
    other = f.LeagueOfficialFactory()  # a league official of another league
    content = pf.png()
    photo = services.attach_photo(
        game=game(meet, 1, 1), photo=pf.upload(content), size=len(content)
    )
    return {
        "lo": night.user,
        KEEPER: keeper.user,
        OTHER: other.user,
        "ids": {
            "slug": [night.league.slug],
            "season_id": [night.season.pk],
            "meet_id": [meet.pk, planned.pk],  # the open meet's forms, then the planned one's
            "number": [1],  # a group's number in its meet
            "player_id": [night.players[0].pk],
            "machine_id": [night.machines[0].pk],
            "official_id": [night.official.pk],
            "key": [photo.key],
        },
    }


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


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("pattern", PAGES, ids=[pattern.name for pattern in PAGES])
def test_console_form_refuses_role_and_writes_nothing(client, night, pattern, role):
    """issue 26 §6: each form of the page, posted by `role`, is refused; nothing is written."""
    forms = forms_of(client, night["lo"], urls_of(pattern, night["ids"]))
    if role != ANON:
        client.force_login(night[role])

    for form in forms:
        opens_page = role == KEEPER and client.get(form.url).status_code == 200
        if role == KEEPER and (pattern.name, form.button) in KEEPER_MAY:
            continue
        before = row_counts()

        response = client.post(urlsplit(form.url).path, form.data)

        posted = f"{form.url} action={form.button!r} as {role}"
        if role == ANON and response.status_code != 405:  # 405: a page only to read
            assert response.status_code == 302, posted
            assert response["Location"].startswith("/manage/login/?next="), posted
        elif opens_page and not form.button and not form.data:
            pass  # an empty POST of a page he may open: nothing to refuse, nothing written
        else:
            assert response.status_code in (403, 405), posted
        after = row_counts()
        if opens_page and not form.button and not form.data:
            # The page answered his empty POST: its form key is kept (flipwell.web.once), no fact.
            after["league.IdempotencyKey"] = before["league.IdempotencyKey"]
        assert after == before, posted


def test_console_matrix_finds_the_forms(client, night):
    """issue 26 §6: the matrix reads real forms (not only empty POSTs) off the pages."""
    found = [
        (pattern.name, form.button)
        for pattern in PAGES
        for form in forms_of(client, night["lo"], urls_of(pattern, night["ids"]))
        if form.data
    ]

    assert len(found) >= 30
    assert ("manage_meets", "schedule") in found
    assert ("manage_violations", "violation") in found


def test_scorekeeper_posting_the_schedule_form_gets_403_and_no_meet(client, night):
    """issue 26 §6: the schedule form is on a page the scorekeeper may open; the meet is the
    LO's to schedule."""
    client.force_login(night[KEEPER])
    slug, season = night["ids"]["slug"][0], night["ids"]["season_id"][0]

    response = client.post(
        f"/manage/{slug}/seasons/{season}/meets/", {"number": "3", "date": "2026-01-20"}
    )

    assert response.status_code == 403
    assert list(m.Meet.objects.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_scorekeeper_posting_a_non_countable_forfeit_gets_403_and_no_forfeit(client, night):
    """issue 26 §6: a scorekeeper records forfeits, but only an LO makes one non-countable."""
    meet = m.Meet.objects.get(number=1)
    game = m.Game.objects.filter(group__meet=meet).order_by("group__number", "number").first()
    player = game.group.members.order_by("position").first().player
    client.force_login(night[KEEPER])

    response = client.post(
        f"/manage/{meet.season.league.slug}/meets/{meet.pk}/forfeits/",
        {"action": "forfeit", "game": game.pk, "player": player.pk, "reason": "other",
         "note": "Excused by the LO"},  # no `countable`: an unticked box
    )  # fmt: skip

    assert response.status_code == 403
    assert not m.Forfeit.objects.exists()
