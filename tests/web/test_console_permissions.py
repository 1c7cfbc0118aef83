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

from urllib.parse import urlsplit

import pytest

from flipwell.league import models as m
from tests.rows import row_counts
from tests.web.console_forms import (
    ANON,
    KEEPER,
    KEEPER_MAY,
    PAGES,
    ROLES,
    forms_of,
    urls_of,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("pattern", PAGES, ids=[pattern.name for pattern in PAGES])
def test_console_form_refuses_role_and_writes_nothing(client, console_night, pattern, role):
    """issue 26 §6: each form of the page, posted by `role`, is refused; nothing is written."""
    forms = forms_of(client, console_night["lo"], urls_of(pattern, console_night["ids"]))
    if role != ANON:
        client.force_login(console_night[role])

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


def test_console_matrix_finds_the_forms(client, console_night):
    """issue 26 §6: the matrix reads real forms (not only empty POSTs) off the pages."""
    found = [
        (pattern.name, form.button)
        for pattern in PAGES
        for form in forms_of(client, console_night["lo"], urls_of(pattern, console_night["ids"]))
        if form.data
    ]

    assert len(found) >= 30
    assert ("manage_meets", "schedule") in found
    assert ("manage_violations", "violation") in found


def test_scorekeeper_posting_the_schedule_form_gets_403_and_no_meet(client, console_night):
    """issue 26 §6: the schedule form is on a page the scorekeeper may open; the meet is the
    LO's to schedule."""
    client.force_login(console_night[KEEPER])
    slug, season = console_night["ids"]["slug"][0], console_night["ids"]["season_id"][0]

    response = client.post(
        f"/manage/{slug}/seasons/{season}/meets/", {"number": "3", "date": "2026-01-20"}
    )

    assert response.status_code == 403
    assert list(m.Meet.objects.order_by("number").values_list("number", flat=True)) == [1, 2]


def test_scorekeeper_posting_a_non_countable_forfeit_gets_403_and_no_forfeit(client, console_night):
    """issue 26 §6: a scorekeeper records forfeits, but only an LO makes one non-countable."""
    meet = m.Meet.objects.get(number=1)
    game = m.Game.objects.filter(group__meet=meet).order_by("group__number", "number").first()
    player = game.group.members.order_by("position").first().player
    client.force_login(console_night[KEEPER])

    response = client.post(
        f"/manage/{meet.season.league.slug}/meets/{meet.pk}/forfeits/",
        {"action": "forfeit", "game": game.pk, "player": player.pk, "reason": "other",
         "note": "Excused by the LO"},  # no `countable`: an unticked box
    )  # fmt: skip

    assert response.status_code == 403
    assert not m.Forfeit.objects.exists()
