"""GET /seasons/{id}/ifpa-compliance: the IFPA's league requirements, hand-checked against the
golden season (22 players, 10 meets) and a season not yet begun (IFPA league definitions, TGP
guide, endorsement fee)."""

from __future__ import annotations

import pytest

from tests import factories as f
from tests.api.conftest import bearer, token

pytestmark = pytest.mark.django_db


def _compliance(client, season_id: int, query: str = "") -> dict:
    response = client.get(f"/api/v1/seasons/{season_id}/ifpa-compliance{query}")
    assert response.status_code == 200, response.content
    return response.json()


def _checks(body: dict) -> dict[str, dict]:
    return {c["name"]: c for c in body["checks"]}


def _figures(check: dict) -> dict[str, str]:
    return {figure["name"]: figure["value"] for figure in check["figures"]}


def test_ifpa_compliance_of_the_golden_season_passes_every_requirement(client, golden):
    """10 meets held and counted (>= 6, >= 4); 22 players < 50; 12 will reach the playoffs
    (4 x ceil(22 / 8), §6.1) >= 3 (10% of 22, rounded up)."""
    body = _compliance(client, golden.pk)
    checks = _checks(body)

    assert (body["season_id"], body["planned"], body["passed"]) == (golden.pk, False, True)
    assert [c["name"] for c in body["checks"]] == [
        "sessions_held",
        "sessions_counted",
        "attendance",
        "direct_play",
        "finals_share",
        "tgp",
        "fee",
    ]
    assert _figures(checks["sessions_held"]) == {"meets held": "10", "needed": "6"}
    assert _figures(checks["finals_share"]) == {"finalists": "12", "players": "22", "needed": "3"}
    assert checks["sessions_held"]["source"] == "https://www.ifpapinball.com/definitions/"
    assert checks["direct_play"]["passed"] is True


def test_ifpa_compliance_tgp_of_the_golden_season_is_full(client, golden):
    """10 meets x 4 games x 2 (4-player groups) = 80 meaningful games: 320%, capped at 100%."""
    tgp = _checks(_compliance(client, golden.pk))["tgp"]

    assert _figures(tgp) == {"meaningful games": "80", "TGP": "100%", "ceiling": "100%"}
    assert (tgp["passed"], tgp["estimate"]) == (True, True)


def test_ifpa_compliance_fee_counts_the_players_the_ifpa_file_lists(client, golden):
    preview = client.get(f"/api/v1/seasons/{golden.pk}/ifpa/preview").json()
    listed = len(preview["included"])

    fee = _checks(_compliance(client, golden.pk, "?fee_cents_per_player=150"))["fee"]

    assert _figures(fee)["players"] == str(listed)
    assert _figures(fee)["total"] == f"USD {listed * 150 // 100}.{listed * 150 % 100:02d}"


def test_ifpa_compliance_reads_the_schedule_before_the_first_meet(client):
    """5 meets scheduled < 6: the season cannot meet the sessions minimum."""
    season = f.SeasonFactory(number_of_meets=5)
    f.SeasonEntryFactory.create_batch(8, season=season)

    body = _compliance(client, season.pk)
    held = _checks(body)["sessions_held"]

    assert (body["planned"], body["passed"], held["passed"]) == (True, False, False)
    assert held["explanation"] == (
        "5 meets scheduled; the IFPA asks for at least 6 a season: 1 short."
    )


def test_ifpa_compliance_takes_figures_for_one_answer(client):
    season = f.SeasonFactory(number_of_meets=5)

    body = _compliance(client, season.pk, "?min_sessions=5&fee_currency=EUR")

    assert _checks(body)["sessions_held"]["passed"] is True
    assert body["parameters"]["min_sessions"] == 5
    assert body["parameters"]["fee_currency"] == "EUR"
    assert _compliance(client, season.pk)["parameters"]["min_sessions"] == 6


def test_ifpa_compliance_uses_the_figures_the_league_set(client, official):
    """PATCH ifpa-figures sets the league's fee (a Ruling says why); the checks use it."""
    season = f.SeasonFactory(league=official.league, number_of_meets=6)
    f.SeasonEntryFactory.create_batch(4, season=season)
    slug = official.league.slug

    patched = client.patch(
        f"/api/v1/leagues/{slug}/ifpa-figures",
        {"figure": "fee_cents_per_player", "value": "250", "reason": "Euro fee"},
        content_type="application/json",
        **bearer(token(official, "manage")),
    )
    client.patch(
        f"/api/v1/leagues/{slug}/ifpa-figures",
        {"figure": "fee_currency", "value": "eur", "reason": "Euro fee"},
        content_type="application/json",
        **bearer(token(official, "manage")),
    )
    fee = _checks(_compliance(client, season.pk))["fee"]

    assert patched.status_code == 200, patched.content
    line = next(x for x in patched.json()["figures"] if x["name"] == "fee_cents_per_player")
    assert (line["value"], line["ifpa"], line["own"]) == (250, 100, True)
    assert _figures(fee) == {"players": "4", "per player": "EUR 2.50", "total": "EUR 10.00"}


def test_ifpa_figures_refuse_a_value_outside_its_bounds(client, official):
    response = client.patch(
        f"/api/v1/leagues/{official.league.slug}/ifpa-figures",
        {"figure": "finals_percent", "value": "101", "reason": "Typo"},
        content_type="application/json",
        **bearer(token(official, "manage")),
    )

    assert response.status_code == 422
    assert response.json()["error"]["fields"] == {
        "value": [
            "IFPA parameter finals_percent cannot be 101; allowed: a whole number from 0 to 100."
        ]
    }


def test_ifpa_figures_list_every_figure_with_its_source(client, official):
    body = client.get(f"/api/v1/leagues/{official.league.slug}/ifpa-figures").json()

    assert [x["name"] for x in body["figures"]][:2] == ["min_sessions", "min_counted_sessions"]
    assert body["figures"][0] == {
        "name": "min_sessions",
        "words": "Meets a season must hold",
        "value": 6,
        "ifpa": 6,
        "own": False,
        "low": 1,
        "high": 100,
        "source": "https://www.ifpapinball.com/definitions/",
        "note": "",
    }


def test_ifpa_compliance_refuses_a_figure_outside_its_bounds(client):
    season = f.SeasonFactory()

    response = client.get(f"/api/v1/seasons/{season.pk}/ifpa-compliance?min_sessions=0")

    assert response.status_code == 422
