"""Every column of the public tables holds the value its header names (issue 34 §4: swapping
the standings' Games and Forfeits, or Points and Games, passed every web test).

Each table is parsed as a reader sees it (the header cells, then each row's cells, in order),
each header is paired with the cell below it, and the cell is compared with the selector's
value for that row: the standings (R3.3, R2.5-a), the meet board's scores and night totals
(R3.2, R3.3-a), and the player page's game tables (R3.2)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.standings import player_history, standings
from flipwell.web.templatetags.flipwell_numbers import num

pytestmark = pytest.mark.django_db

GOLDEN = (Path(__file__).parents[1] / "data" / "golden_season.json").read_text()


class Table:
    def __init__(self, classes: list[str]) -> None:
        self.classes = classes
        self.head: list[str] = []
        self.body: list[list[str]] = []
        self.foot: list[list[str]] = []


class Tables(HTMLParser):
    """Every <table>: its header cells and each visible row's cells, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[Table] = []
        self.part = ""
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.hidden_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if self.hidden_depth:
            self.hidden_depth += 1
            return
        if a.get("aria-hidden") == "true" and tag in {"tr", "sup"}:
            self.hidden_depth = 1
        elif tag == "table":
            self.tables.append(Table((a.get("class") or "").split()))
        elif tag in {"thead", "tbody", "tfoot"}:
            self.part = tag
        elif tag == "tr":
            self.row = []
        elif tag in {"th", "td"}:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if self.hidden_depth:
            self.hidden_depth -= 1
            return
        if tag in {"th", "td"} and self.cell is not None and self.row is not None:
            self.row.append(re.sub(r"\s+", " ", "".join(self.cell)).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None and self.tables:
            table = self.tables[-1]
            if self.part == "thead":
                table.head = self.row
            else:
                (table.foot if self.part == "tfoot" else table.body).append(self.row)
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None and not self.hidden_depth:
            self.cell.append(data)


def tables(html: str, css_class: str) -> list[Table]:
    parser = Tables()
    parser.feed(html)
    return [t for t in parser.tables if css_class in t.classes]


def columns(table: Table, row: list[str]) -> dict[str, str]:
    assert len(row) == len(table.head), (table.head, row)
    return dict(zip(table.head, row, strict=True))


def test_standings_columns_hold_what_their_headers_name(client, tuesday_golden):
    """R3.3 (points), R2.5-a (forfeits): the Points, Games and Forfeits columns."""
    lines = {line.player.name: line for line in standings(tuesday_golden).lines}

    (table,) = tables(client.get("/leagues/tuesday/").text, "standings")

    assert table.head[:5] == ["#", "Player", "Points", "Games", "Forfeits"]
    assert len(table.body) == len(lines)
    for row in table.body:
        cells = columns(table, row)
        line = lines[cells["Player"]]
        assert cells["#"] == str(line.rank)
        assert cells["Points"] == num(line.league_points)
        assert cells["Games"] == num(line.games_played)
        assert cells["Forfeits"].split(" ")[0] == str(line.forfeits)
    # The check can tell the columns apart: no column equals another on every row.
    values = [[columns(table, r)[h] for r in table.body] for h in ("Points", "Games", "Forfeits")]
    assert len({tuple(v) for v in values}) == 3


def test_meet_board_columns_hold_each_named_players_scores(client, tuesday_golden):
    """R3.2: each player's column of a group holds his scores, and his night total."""
    meet = tuesday_golden.meets.get(number=1)
    board = meet_board(meet)

    page = tables(client.get(f"/leagues/tuesday/meets/{meet.pk}/").text, "scores")

    assert len(page) == len(board.groups)
    for table, group in zip(page, board.groups, strict=True):
        ids = {name: pid for pid, name in group.names.items()}
        assert table.head[0] == "Game"
        assert sorted(table.head[1:]) == sorted(ids)
        assert len(table.body) == len(group.games)
        for row, played in zip(table.body, group.games, strict=True):
            assert played.ranking_scores is not None
            for name, cell in list(columns(table, row).items())[1:]:
                assert cell.split(" ")[0] == num(played.ranking_scores[ids[name]])
        totals = {n.name: n.night_total for n in group.nights}
        night_total = columns(table, table.foot[-1])
        for name in table.head[1:]:
            assert night_total[name].split(" ")[0] == num(totals[name])


def test_player_page_game_tables_hold_each_players_score(client, tuesday_golden):
    """R3.2: on a player's page, each game's Player column names the player whose score the
    Score column holds."""
    entry = tuesday_golden.entries.select_related("player").order_by("pk").first()
    history = player_history(tuesday_golden, entry.player)
    expected = [
        {ref.name: score for ref, score in game.scores}
        for meet in history.meets
        for game in meet.games
    ]

    page = tables(client.get(f"/leagues/tuesday/players/{entry.player_id}/").text, "scores")

    assert len(page) == len(expected) > 0
    for table, scores in zip(page, expected, strict=True):
        assert table.head == ["Player", "Score"]
        assert len(table.body) == len(scores)
        for row in table.body:
            cells = columns(table, row)
            assert cells["Score"] == num(scores[cells["Player"]])
