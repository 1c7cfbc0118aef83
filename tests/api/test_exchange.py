"""Exchange files: IFPA CSV, iCalendar, standings and scores CSV, JSON export, round trip."""

from __future__ import annotations

import csv
import datetime
import io
import time

import pytest
from django.core.management import call_command

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.players_csv import COLUMNS
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from tests import factories as f
from tests.api.conftest import bearer, token
from tests.golden import GOLDEN

pytestmark = pytest.mark.django_db


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _preview(client, season_id: int, query: str = "") -> dict:
    response = client.get(f"/api/v1/seasons/{season_id}/ifpa/preview{query}")
    assert response.status_code == 200, response.content
    return response.json()


def test_ifpa_csv_lists_only_players_who_attended_enough_in_final_order(client, golden):
    """Issue #13: below the threshold and no finals (none yet) -> left out; positions close up."""
    m.Player.objects.filter(first_name="Cal").update(ifpa_number=12345)

    response = client.get(f"/api/v1/seasons/{golden.pk}/ifpa.csv?threshold=10")
    rows = _rows(response.content.decode())
    preview = _preview(client, golden.pk, "?threshold=10")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="ifpa-{golden.pk}-regular-season.csv"'
    )
    assert list(rows[0]) == ["position", "first_name", "last_name", "ifpa_number", "meets_attended"]
    assert [r["position"] for r in rows] == [str(i) for i in range(1, len(rows) + 1)]
    assert (rows[0]["first_name"], rows[0]["ifpa_number"]) == ("Cal", "12345")
    assert {r["meets_attended"] for r in rows} == {"10"}
    assert len(rows) + len(preview["left_out"]) == len(GOLDEN["entrants"])
    assert [f"{r['first_name']} {r['last_name']}" for r in rows] == [
        line["player"]["name"] for line in preview["included"]
    ]


def test_ifpa_threshold_defaults_to_half_the_meets_played(client, golden):
    rows = _rows(client.get(f"/api/v1/seasons/{golden.pk}/ifpa.csv").content.decode())
    preview = _preview(client, golden.pk)

    assert (preview["meets_played"], preview["threshold"]) == (10, 5)
    assert all(int(r["meets_attended"]) >= 5 for r in rows)
    assert {line["reason"] for line in preview["left_out"]} <= {"below_attendance"}
    assert all(line["meets_attended"] < 5 for line in preview["left_out"])
    assert len(rows) == len(preview["included"])


def test_ifpa_preview_names_who_is_left_out_and_why(client, golden):
    preview = _preview(client, golden.pk, "?threshold=10")
    out = preview["left_out"][0]

    assert preview["results"] == "regular_season"
    assert preview["playoffs_complete"] is False
    assert out["position"] is None
    assert out["why"] == (
        f"attended {out['meets_attended']} of 10 meets, fewer than the 10 needed "
        "(half the meets played), and did not reach the finals"
    )
    assert out["player"]["name"] in {
        f"{e['first_name']} {e['last_name']}" for e in GOLDEN["entrants"]
    }


def test_ifpa_post_finals_results_are_refused_before_the_playoffs(client, golden):
    response = client.get(f"/api/v1/seasons/{golden.pk}/ifpa.csv?results=post_finals")

    assert response.status_code == 409  # the league's state: the playoffs are not over
    assert response.json()["error"]["code"] == "playoffs_not_complete"
    assert response.json()["error"]["fields"] == {
        "results": [
            f"The playoffs of {golden.name} are not complete, so there are no post-finals "
            "results yet; ask for regular_season results."
        ]
    }


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


def test_meets_calendar_keeps_its_etag_while_nothing_changes(client, night):
    """issue 34 §1: the calendar's DTSTAMP was the time of the request, so its ETag changed
    every second and a subscribed calendar was downloaded again each time."""
    url = f"/api/v1/seasons/{night.season.pk}/meets.ics"
    services.schedule_meet(
        season=night.season,
        number=1,
        date=datetime.date(2026, 1, 8),
        actor=night.user,
        date_reason="The venue's Tuesday is booked",
    )

    first = client.get(url)
    time.sleep(1.1)  # past the second the first answer was made in
    second = client.get(url)
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    services.cancel_meet(
        meet=night.season.meets.get(number=1), reason="The venue is closed", actor=night.user
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])

    assert second["ETag"] == first["ETag"]
    assert second.content == first.content
    assert unchanged.status_code == 304
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]


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

    rows = _rows(client.get(f"/api/v1/seasons/{season.pk}/ifpa.csv").text)
    preview = _preview(client, season.pk)

    assert preview["results"] == "post_finals"
    assert (rows[0]["position"], f"{rows[0]['first_name']} {rows[0]['last_name']}") == (
        "1",
        winner.name,
    )
    assert len(rows) + len(preview["left_out"]) == season.entries.count()


def test_ifpa_finalists_are_listed_whatever_their_attendance(client):
    """Issue #13: a player who reached the finals is never left out (R6.2-a qualifiers)."""
    call_command("demo", stdout=io.StringIO())
    season = m.Season.objects.filter(playoff_night__status="closed").get()
    (division,) = playoff_bracket(season).divisions
    finalists = {p.name for _, p in division.seeds if p is not None}

    preview = _preview(client, season.pk, "?threshold=1000")

    assert {line["player"]["name"] for line in preview["included"]} == finalists
    assert {line["reason"] for line in preview["included"]} == {"finalist"}
    assert len(preview["left_out"]) == season.entries.count() - len(finalists)


def test_ifpa_regular_season_results_ignore_the_playoffs(client):
    """One kind per file: regular-season positions are the standings' order (R6.1-d)."""
    call_command("demo", stdout=io.StringIO())
    season = m.Season.objects.filter(playoff_night__status="closed").get()
    standings = client.get(f"/api/v1/seasons/{season.pk}/standings.csv").text

    rows = _rows(client.get(f"/api/v1/seasons/{season.pk}/ifpa.csv?results=regular_season").text)
    leader = _rows(standings)[0]

    assert (rows[0]["first_name"], rows[0]["last_name"]) == (
        leader["first_name"],
        leader["last_name"],
    )


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
