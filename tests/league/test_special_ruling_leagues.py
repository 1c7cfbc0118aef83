"""issue 34 §3: a league's special rulings are its own (RA-a). Another league's official
neither adds to nor amends them, through the services, the console or the API; another
league's write changes neither what this league's machine page and API show nor its
revision (ETag)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from flipwell.league import models as m
from flipwell.league.services.special_rulings import (
    add_special_ruling,
    amend_special_ruling,
    load_appendix_a,
)
from tests import factories as f
from tests.api.conftest import post, token

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
    client = Client()
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
    assert OURS not in page
