"""The console's forms carry a one-time key: a double tap or a form sent again records once
(issue 26 §2), and the second answer says "Already recorded"."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.messages import get_messages

from flipwell.league import models as m
from flipwell.league import services
from flipwell.web.once import ALREADY_RECORDED
from tests import factories as f
from tests.form_keys import issued_key

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).parents[2] / "src" / "flipwell" / "web" / "templates" / "manage"


@pytest.fixture
def tuesday_night(client):
    """Meet 1 of league "tuesday" open, one group of four playing game 1; its LO signed in."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    players = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=r).player for r in (1, 2, 3, 4)
    ]
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone"):
        f.MachineFactory(league=official.league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    return SimpleNamespace(
        players=players,
        game=started.first_games[0],
        meet_url=f"/manage/tuesday/meets/{started.meet.pk}/",
    )


def _twice(client, url: str, form: dict[str, object]):
    """POST the same form (same form_key, one the server issued) twice; both answers."""
    form = {**form, "form_key": issued_key(client)}
    return client.post(url, form), client.post(url, form)


def _said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def _audit(action: str) -> int:
    return m.AuditEvent.objects.filter(action=action).count()


def test_violation_form_posted_twice_is_one_violation_and_one_event(client, tuesday_night):
    url = tuesday_night.meet_url + "violations/"
    form = {
        "player": tuesday_night.players[0].pk,
        "kind": "interference",
        "reason": "Shoved the machine during an opponent's ball.",
        "games_completed": "0",
    }

    first, second = _twice(client, url, form)

    assert (first.status_code, second.status_code) == (200, 302)
    assert second["Location"] == url
    assert ALREADY_RECORDED in _said(second)
    assert m.Violation.objects.count() == 1
    assert _audit("violation.recorded") == 1


def test_ledger_entry_form_posted_twice_books_once(client, tuesday_night):
    url = "/manage/tuesday/ledger/"
    form = {"action": "entry", "kind": "kitty_in", "account": "kitty", "amount_cents": "12.50"}

    first, second = _twice(client, url, form)

    assert (first.status_code, second.status_code) == (302, 302)
    assert second["Location"] == first["Location"]
    assert ALREADY_RECORDED in _said(second)
    assert m.LedgerEntry.objects.count() == 1
    assert _audit("ledger.entry_recorded") == 1


def test_forfeit_form_posted_twice_records_once(client, tuesday_night):
    form = {
        "action": "forfeit",
        "game": tuesday_night.game.pk,
        "player": tuesday_night.players[3].pk,
        "reason": "absent",
        "countable": "on",
    }

    first, second = _twice(client, tuesday_night.meet_url + "forfeits/", form)

    assert (first.status_code, second.status_code) == (302, 302)
    assert second["Location"] == first["Location"]
    assert m.Forfeit.objects.count() == 1


def test_malfunction_form_posted_twice_records_once(client, tuesday_night):
    form = {
        "action": "malfunction",
        "game": tuesday_night.game.pk,
        "player": tuesday_night.players[0].pk,
        "ball": "1",
        "reason_code": "forced_tilt_stuck_ball",
        "ball_in_play": "on",
    }

    first, second = _twice(client, tuesday_night.meet_url + "malfunctions/", form)

    assert (first.status_code, second.status_code) == (302, 302)
    assert m.Malfunction.objects.count() == 1


def test_refused_form_keeps_no_key_so_its_correction_records(client, tuesday_night):
    url = tuesday_night.meet_url + "violations/"
    form = {"player": tuesday_night.players[0].pk, "kind": "interference", "games_completed": "0"}

    key = issued_key(client)
    refused = client.post(url, {**form, "form_key": key})
    corrected = client.post(url, {**form, "reason": "Shoved it.", "form_key": key})

    assert refused.status_code == 400
    assert corrected.status_code == 200
    assert m.Violation.objects.count() == 1


def test_form_key_is_the_users_own(client, tuesday_night):
    """issue 34 §3: a key issued to one official is refused when another posts it; each
    official's own key is his own write."""
    url = "/manage/tuesday/ledger/"
    form = {"action": "entry", "kind": "kitty_in", "account": "kitty", "amount_cents": "1.00"}
    key = issued_key(client)
    client.post(url, {**form, "form_key": key})
    other = f.LeagueOfficialFactory(league=m.League.objects.get(slug="tuesday"))
    client.force_login(other.user)

    refused = client.post(url, {**form, "form_key": key})
    own = client.post(url, {**form, "form_key": issued_key(client)})

    assert (refused.status_code, own.status_code) == (400, 302)
    assert m.LedgerEntry.objects.count() == 2


def test_every_rendered_form_carries_a_new_key(client, tuesday_night):
    page = client.get(tuesday_night.meet_url + "violations/").text
    again = client.get(tuesday_night.meet_url + "violations/").text

    keys = re.findall(r'name="form_key" value="([^"]+)"', page)
    assert keys
    assert set(keys).isdisjoint(re.findall(r'name="form_key" value="([^"]+)"', again))


def test_every_console_post_form_template_carries_the_key():
    """issue 26 §2: each POST form of the console's templates writes {% form_key %}."""
    forms = [
        (path.name, form)
        for path in sorted(TEMPLATES.glob("*.html"))
        for form in re.findall(
            r"<form\b[^>]*method=\"post\".*?</form>", path.read_text(), re.DOTALL | re.I
        )
    ]

    assert len(forms) >= 20
    assert [f"{name}: {form[:80]}" for name, form in forms if "{% form_key %}" not in form] == []


def test_closing_a_closed_meet_again_shows_the_plain_message(client, tuesday_night):
    """issue 26 §2: a conflict is told in words on the console (no code, no id)."""
    client.post(tuesday_night.meet_url + "close/", {"override_reason": "Power cut"})

    again = client.post(tuesday_night.meet_url + "close/", {"override_reason": "Power cut"})

    assert again.status_code == 400
    assert "Meet 1 is closed: there is nothing to close." in again.text
    assert "meet_already_closed" not in again.text
    assert m.AuditEvent.objects.filter(action="meet.closed").count() == 1
