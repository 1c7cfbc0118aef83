"""issue 34 §3: a league's special rulings are its own (RA-a). Another league's official
neither adds to nor amends them, through the services, the console or the API; another
league's write changes neither what this league's machine page and API show nor its
revision (ETag)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.services.special_rulings import (
    add_special_ruling,
    amend_special_ruling,
    copy_special_ruling,
    load_appendix_a,
)
from tests import factories as f
from tests.api.conftest import post, token
from tests.form_keys import KeyedClient

pytestmark = pytest.mark.django_db

RULING = {
    "machine_title": "Ghostbusters",
    "kind": "major_malfunction",
    "reproducible": True,
    "reproduction": "Shoot the PKE ramp at full speed.",
    "cause_and_effect": "The ball sticks on the ramp; the player loses it.",
}
OURS = "A ball stuck on the PKE ramp is a major malfunction."
THEIRS = "League B says the PKE ramp is play on."


@pytest.fixture
def two():
    """Two leagues, each with an official and a Ghostbusters; league A made one ruling."""
    a = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    b = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    for official in (a, b):
        f.MachineFactory(league=official.league, title="Ghostbusters")
    ruling = add_special_ruling(league=a.league, actor=a.user, text=OURS, **RULING)
    return a, b, ruling


def _revision(official: m.LeagueOfficial) -> str:
    return m.League.objects.get(pk=official.league_id).revision


def test_another_leagues_ruling_is_numbered_and_shown_in_its_league_only(two, client):
    a, b, _ = two
    before = _revision(a)

    theirs = add_special_ruling(league=b.league, actor=b.user, text=THEIRS, **RULING)
    page = client.get(f"/leagues/{a.league.slug}/machines/").content.decode()
    api = client.get(f"/api/v1/leagues/{a.league.slug}/special-rulings").json()

    assert (theirs.league, theirs.number, theirs.version) == (b.league, 1, 1)
    assert (OURS in page, THEIRS in page) == (True, False)
    assert [r["text"] for r in api["results"]] == [OURS]
    assert _revision(a) == before


def test_another_leagues_official_cannot_amend_the_ruling(two):
    a, b, ruling = two
    before = _revision(a)

    with pytest.raises(PermissionDenied):
        amend_special_ruling(
            league=b.league, ruling=ruling, text=THEIRS, reason="Mine now", actor=b.user,
            **{k: v for k, v in RULING.items() if k != "machine_title"},
        )  # fmt: skip

    assert list(m.SpecialRuling.objects.values_list("text", flat=True)) == [OURS]
    assert _revision(a) == before


def test_the_leagues_own_official_amends_it_and_only_its_revision_changes(two):
    a, b, ruling = two
    before = (_revision(a), _revision(b))

    amended = amend_special_ruling(
        league=a.league, ruling=ruling, text="Play on.", reason="Ramp fixed", actor=a.user,
        **{k: v for k, v in RULING.items() if k != "machine_title"},
    )  # fmt: skip

    assert (amended.league, amended.version) == (a.league, 2)
    assert (_revision(a) != before[0], _revision(b) == before[1]) == (True, True)


def test_appendix_a_loaded_into_one_league_only(two, client):
    a, b, _ = two
    before = _revision(a)

    load_appendix_a(league=b.league, actor=b.user)
    page = client.get(f"/leagues/{a.league.slug}/machines/").content.decode()

    assert not m.SpecialRuling.objects.filter(league=a.league).exclude(text=OURS).exists()
    assert "PKE" not in page.replace(OURS, "")
    assert _revision(a) == before


def test_api_amendment_by_another_league_is_404_and_keeps_the_etag(two, client):
    a, b, _ = two
    url = f"/api/v1/leagues/{a.league.slug}/special-rulings"
    etag = client.get(url)["ETag"]
    body = {**RULING, "text": THEIRS, "number": 1, "reason": "Mine now"}

    amended = post(
        client, f"/api/v1/leagues/{b.league.slug}/special-rulings/amendments", body,
        token(b, "manage"),
    )  # fmt: skip
    added = post(
        client, f"/api/v1/leagues/{b.league.slug}/special-rulings", {**RULING, "text": THEIRS},
        token(b, "manage"),
    )  # fmt: skip
    after = client.get(url, HTTP_IF_NONE_MATCH=etag)

    assert (amended.status_code, added.status_code, after.status_code) == (404, 201, 304)
    assert f"/api/v1/leagues/{b.league.slug}/special-rulings?" in added["Location"]


def test_public_list_requires_a_league_and_shows_only_its_rulings(two, client):
    a, b, _ = two
    add_special_ruling(league=b.league, actor=b.user, text=THEIRS, **RULING)

    without = client.get("/api/v1/special-rulings")
    of_a = client.get(f"/api/v1/special-rulings?league={a.league.slug}&machine_title=Ghostbusters")

    assert without.status_code == 422
    assert [r["text"] for r in of_a.json()["results"]] == [OURS]


def test_console_amendment_of_another_leagues_ruling_refused(two):
    _, b, ruling = two
    client = KeyedClient()
    client.force_login(b.user)
    body = {
        "action": "amend", "ruling": ruling.pk, "kind": "not_a_malfunction", "text": THEIRS,
        "reproducible": "on", "reproduction": RULING["reproduction"],
        "cause_and_effect": RULING["cause_and_effect"], "reason": "Mine now",
    }  # fmt: skip

    response = client.post(f"/manage/{b.league.slug}/special-rulings/", body)
    page = client.get(f"/manage/{b.league.slug}/special-rulings/").content.decode()

    assert response.status_code != 302
    assert list(m.SpecialRuling.objects.values_list("text", flat=True)) == [OURS]
    assert "<h2>0 rulings</h2>" in page  # A's ruling is offered to copy, not listed as B's


def test_copy_of_another_leagues_ruling_is_the_leagues_own(two):
    """A league may copy another's ruling: a version-1 ruling of its own, numbered in its
    list; amending the copy leaves the original alone, and only the copier's revision moves."""
    a, b, ruling = two
    add_special_ruling(league=b.league, actor=b.user, text=THEIRS, **RULING)
    before = _revision(a)

    copy = copy_special_ruling(league=b.league, source=ruling, actor=b.user)
    amend_special_ruling(
        league=b.league, ruling=copy, text="Play on.", reason="Ours now", actor=b.user,
        **{k: v for k, v in RULING.items() if k != "machine_title"},
    )  # fmt: skip

    assert (copy.league, copy.number, copy.version, copy.text) == (b.league, 2, 1, OURS)
    assert m.Ruling.objects.filter(league=b.league, kind="special_ruling.copied").exists()
    assert list(m.SpecialRuling.objects.filter(league=a.league).values_list("text", flat=True)) == [
        OURS
    ]
    assert _revision(a) == before


def test_copy_of_the_leagues_own_ruling_refused(two):
    a, _, ruling = two

    with pytest.raises(ValidationError):
        copy_special_ruling(league=a.league, source=ruling, actor=a.user)


def test_api_copy_with_idempotency_key_is_stored_once(two, client):
    a, b, _ = two
    url = f"/api/v1/leagues/{b.league.slug}/special-rulings/copies"
    body = {"league": a.league.slug, "machine_title": "ghostbusters", "number": 1}
    secret = token(b, "manage")

    first = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
        HTTP_IDEMPOTENCY_KEY="copy-1",
    )
    again = client.post(
        url,
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
        HTTP_IDEMPOTENCY_KEY="copy-1",
    )
    unknown = post(client, url, {**body, "number": 9}, secret)  # fmt: skip

    assert (first.status_code, first.json()["text"], first.json()["ruling_id"]) == (
        201, OURS, "Ghostbusters #1",
    )  # fmt: skip
    assert (again.status_code, again.json()) == (201, first.json())
    assert unknown.status_code == 404
    assert m.SpecialRuling.objects.filter(league=b.league).count() == 1


def test_console_copies_another_leagues_ruling_on_its_machine(two):
    a, b, ruling = two
    client = KeyedClient()  # posts with a form key, as a browser does
    client.force_login(b.user)
    url = f"/manage/{b.league.slug}/special-rulings/"

    shown = client.get(url).content.decode()
    response = client.post(url, {"action": "copy", "ruling": ruling.pk})

    assert (OURS in shown, a.league.name in shown) == (True, True)
    assert response.status_code == 302
    assert m.SpecialRuling.objects.get(league=b.league).text == OURS
