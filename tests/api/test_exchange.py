"""Exchange files: IFPA CSV, iCalendar, standings and scores CSV, JSON export, round trip."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command

from flipwell.league import models as m
from flipwell.league.players_csv import COLUMNS
from flipwell.league.selectors.playoffs import playoff_bracket
from tests import factories as f
from tests.api.conftest import GOLDEN, bearer, token

pytestmark = pytest.mark.django_db


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_ifpa_csv_lists_every_player_in_final_order_with_attendance(client, golden):
    m.Player.objects.filter(first_name="Cal").update(ifpa_number=12345)

    response = client.get(f"/api/v1/seasons/{golden.pk}/ifpa.csv?threshold=10")
    rows = _rows(response.content.decode())

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert [r["position"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
    assert len(rows) == len(GOLDEN["entrants"])
    assert (rows[0]["first_name"], rows[0]["ifpa_number"]) == ("Cal", "12345")
    full = [r for r in rows if r["meets_attended"] == "10"]
    assert {r["below_threshold"] for r in full} == {"no"}
    assert {r["below_threshold"] for r in rows if int(r["meets_attended"]) < 10} == {"yes"}


def test_ifpa_threshold_defaults_to_half_the_meets(client, golden):
    rows = _rows(client.get(f"/api/v1/seasons/{golden.pk}/ifpa.csv").content.decode())

    assert all((r["below_threshold"] == "yes") == (int(r["meets_attended"]) < 5) for r in rows)


def test_meets_calendar_is_rfc5545_with_crlf_lines(client, golden):
    response = client.get(f"/api/v1/seasons/{golden.pk}/meets.ics")
    text = response.content.decode()

    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert text.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")
    assert text.endswith("END:VCALENDAR\r\n")
    assert "\n" not in text.replace("\r\n", "")
    assert text.count("BEGIN:VEVENT") == 10
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    assert "DTSTART:20260108T010000Z" in text  # 19:00 in Chicago on 7 January


def test_standings_and_scores_csv(client, golden):
    standings = _rows(client.get(f"/api/v1/seasons/{golden.pk}/standings.csv").content.decode())
    scores = _rows(client.get(f"/api/v1/seasons/{golden.pk}/scores.csv").content.decode())

    assert [r["league_points_exact"] for r in standings] == [
        e["league_points"] for e in GOLDEN["expected_standings"]
    ]
    assert {r["meet"] for r in scores} == {str(n) for n in range(1, 11)}


def test_export_json_and_unknown_season_is_404(client, golden):
    data = client.get(f"/api/v1/seasons/{golden.pk}/export.json").json()
    missing = client.get("/api/v1/seasons/999999/export.json")

    assert len(data["meets"]) == 10
    assert len(data["standings"]) == len(GOLDEN["entrants"])
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_round_trip_export_then_import_players_into_a_new_season(client, golden, official):
    """Export the season (JSON and CSV), build a roster from it, import it into a new season:
    the same players come back, none duplicated."""
    m.Player.objects.filter(first_name="Cal").update(ifpa_number=12345)
    exported = client.get(f"/api/v1/seasons/{golden.pk}/export.json").json()
    ifpa = _rows(client.get(f"/api/v1/seasons/{golden.pk}/ifpa.csv").content.decode())
    numbers = {(r["first_name"], r["last_name"]): r["ifpa_number"] for r in ifpa}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for e in exported["entrants"]:
        rank = "" if e["ifpa_rank"] is None else e["ifpa_rank"]
        writer.writerow(
            (e["first_name"], e["last_name"], numbers[(e["first_name"], e["last_name"])], rank)
        )
    spring = f.SeasonFactory(league=official.league, name="Spring 2026")
    players_before = m.Player.objects.count()

    response = client.post(
        f"/api/v1/seasons/{spring.pk}/players/import",
        {"csv": buffer.getvalue()},
        content_type="application/json",
        **bearer(token(official, "manage")),
    )

    assert response.status_code == 201
    assert response.json()["created_players"] == []
    assert m.Player.objects.count() == players_before
    assert sorted(spring.entries.values_list("player_id", flat=True)) == sorted(
        golden.entries.values_list("player_id", flat=True)
    )
    ranks = dict(spring.entries.values_list("player__first_name", "ifpa_rank_at_start"))
    assert ranks == {e["first_name"]: e["ifpa_rank"] for e in exported["entrants"]}


def test_ifpa_csv_positions_come_from_the_playoffs_once_complete(client):
    """R6.3-e: the final decides the top positions of the season; the rest follow."""
    call_command("demo", stdout=io.StringIO())
    season = m.Season.objects.filter(playoff_night__status="closed").get()
    (division,) = playoff_bracket(season).divisions
    winner = next(p for place, p in division.places if place == 1)

    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/api/v1/seasons/{season.pk}/ifpa.csv").text))
    )

    assert (rows[0]["position"], f"{rows[0]['first_name']} {rows[0]['last_name']}") == (
        "1",
        winner.name,
    )
    assert len(rows) == season.entries.count()


FORMULA_NAMES = {
    "Cal": ('=HYPERLINK("http://x")', "+1+1"),
    "Gus": ("@SUM(A1)", "-2+3"),
}
"""Golden players renamed to what a spreadsheet would run: first name -> (first, last)."""


def _rename_to_formulas() -> None:
    for first, (new_first, new_last) in FORMULA_NAMES.items():
        m.Player.objects.filter(first_name=first).update(first_name=new_first, last_name=new_last)


@pytest.mark.parametrize("name", ["standings.csv", "scores.csv", "ifpa.csv"])
def test_csv_exports_write_formula_names_as_text(client, golden, name):
    """OWASP CSV injection: a name beginning with = + - @ is written with a leading quote."""
    _rename_to_formulas()

    rows = _rows(client.get(f"/api/v1/seasons/{golden.pk}/{name}").content.decode())

    names = {(r["first_name"], r["last_name"]) for r in rows}
    assert ('\'=HYPERLINK("http://x")', "'+1+1") in names
    assert ("'@SUM(A1)", "'-2+3") in names
    assert not [r for r in rows for cell in r.values() if cell.startswith(("=", "+", "@"))]


def test_csv_export_names_import_back_as_the_same_players(client, golden, official):
    """A roster made from the neutralised IFPA CSV registers the original names."""
    _rename_to_formulas()
    ifpa = _rows(client.get(f"/api/v1/seasons/{golden.pk}/ifpa.csv").content.decode())
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows((r["first_name"], r["last_name"], "", "") for r in ifpa)
    spring = f.SeasonFactory(league=official.league, name="Spring 2026")

    response = client.post(
        f"/api/v1/seasons/{spring.pk}/players/import",
        {"csv": buffer.getvalue()},
        content_type="application/json",
        **bearer(token(official, "manage")),
    )

    assert response.status_code == 201
    names = set(spring.entries.values_list("player__first_name", "player__last_name"))
    assert set(FORMULA_NAMES.values()) <= names
    assert len(names) == len(GOLDEN["entrants"])


def test_meets_calendar_escapes_text_and_folds_long_lines_between_characters(client, golden):
    """A venue with commas, a semicolon and accented letters, longer than one line."""
    venue = "Café Flipper; Königstraße 12, 70173 Stuttgart, beside the Ölmühle arcade, 2nd floor"
    golden.league.venue = venue
    golden.league.save(update_fields=["venue"])

    text = client.get(f"/api/v1/seasons/{golden.pk}/meets.ics").content.decode()
    unfolded = text.replace("\r\n ", "")

    escaped = (
        r"Café Flipper\; Königstraße 12\, 70173 Stuttgart\, beside the Ölmühle arcade\, 2nd floor"
    )
    assert f"LOCATION:{escaped}\r\n" in unfolded
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
