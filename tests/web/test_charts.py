"""Server-side SVG charts: the points chart, sparklines, the bracket diagram, QR codes."""

import itertools
import re
from fractions import Fraction

from flipwell.league.selectors.playoffs.bracket import DivisionView, MatchView
from flipwell.league.selectors.standings import PlayerRef
from flipwell.web.charts import (
    LABEL_GAP,
    bracket_diagram,
    nice_ceiling,
    points_chart,
    qr_code,
    sparkline,
    spread_labels,
)


def test_points_chart_draws_one_line_per_player_from_zero():
    chart = points_chart(
        [("Ann", (Fraction(7), Fraction(15))), ("Bob", (Fraction(5), Fraction(79, 4)))],
        title="Points",
    )

    assert chart.startswith('<svg class="chart points-chart wide"')
    assert chart.count("<polyline") == 2
    assert "<title>Bob: 19.75</title>" in chart
    assert chart.count('class="label') == 2


def test_points_chart_escapes_names():
    chart = points_chart([("<b>Ann</b>", (Fraction(7),))], title="T")

    assert "<b>" not in chart
    assert "&lt;b&gt;Ann&lt;/b&gt;" in chart


def test_points_chart_names_every_line_even_where_they_end_together():
    """Issue 33 §3: two lines ending at the same height both get their name, apart."""
    chart = points_chart(
        [("Ann", (Fraction(100),)), ("Bob", (Fraction(100),)), ("Cy", (Fraction(10),))],
        title="T",
    )

    names = re.findall(r'<text class="label s\d" x="[\d.]+" y="([\d.]+)">(\w+)</text>', chart)
    assert sorted(name for _, name in names) == ["Ann", "Bob", "Cy"]
    heights = sorted(float(y) for y, _ in names)
    assert heights[1] - heights[0] >= LABEL_GAP
    assert chart.count('class="leader') == 3


def test_points_chart_of_twelve_players_names_each_apart_wide_and_narrow():
    """Issue 33 §3: twelve players whose lines end close together: twelve names, each at least
    a name's height from the next, inside the picture, on the wide chart and the phone's."""
    series = [(f"Player {n:02}", (Fraction(40 + n % 3),)) for n in range(12)]
    for narrow in (False, True):
        chart = points_chart(series, title="T", meets=10, narrow=narrow)

        heights = sorted(
            float(y) for y in re.findall(r'class="label s\d" x="[\d.]+" y="([\d.]+)"', chart)
        )
        box_height = float(re.search(r'viewBox="0 0 [\d.]+ ([\d.]+)"', chart)[1])
        assert len(heights) == 12
        assert min(b - a for a, b in itertools.pairwise(heights)) >= LABEL_GAP - 0.1
        assert heights[-1] < box_height
        assert chart.count('class="axis meet-tick"') == 11  # meets 0 to 10


def test_spread_labels_keeps_each_name_near_its_line_and_apart():
    assert spread_labels([10, 50, 52, 53, 200], gap=15, low=0, high=100) == [10, 50, 65, 80, 100]
    assert spread_labels([95, 96, 97], gap=15, low=0, high=100) == [70, 85, 100]


def test_points_chart_without_meets_is_empty():
    assert points_chart([("Ann", ())], title="T") == ""


def test_nice_ceiling_rounds_up_to_a_grid_step():
    assert [nice_ceiling(v) for v in (0, 7, 92, 213)] == [
        (10.0, 2.0),
        (8.0, 2.0),
        (100.0, 20.0),
        (250.0, 50.0),
    ]


def test_sparkline_uses_the_shared_scale():
    line = sparkline((Fraction(50),), scale=100, label="Ann's points")

    assert 'aria-label="Ann&#x27;s points"' in line
    assert 'points="2.0,26.0 98.0,14.0"' in line


def _match(mid, players, advancing=(), status="complete", totals=()):
    return MatchView(
        match=mid,
        round="final" if mid == "F" else "semifinal",
        status=status,
        needed="",
        players=players,
        no_shows=(),
        games=(),
        game_in_progress=None,
        next_game=None,
        play_order=(),
        machine_chooser=None,
        totals=totals,
        tied=(),
        advancing=advancing,
        eliminated=(),
        placing=(),
    )


def test_bracket_diagram_of_an_8_bracket_joins_semifinals_to_the_final():
    refs = [PlayerRef(i, f"P{i}") for i in range(1, 9)]
    division = DivisionView(
        name="A",
        bracket=8,
        seeds=tuple((i, r) for i, r in enumerate(refs, 1)),
        matches=(
            _match("SF1", (refs[0], refs[3]), advancing=(refs[0],), totals=((refs[0], 9),)),
            _match("SF2", (), status="waiting"),
        ),
        complete=False,
        places=(),
    )

    svg = bracket_diagram(division)

    assert svg.count('<g class="match') == 3
    assert svg.count('class="link"') == 2
    assert "✓ P1" in svg
    assert "2. P2" in svg  # SF2 not played yet: its seeds
    assert "Top 2 of SF1" in svg  # the final waits for both semifinals


def test_qr_code_is_inline_svg_without_style_attributes():
    code = qr_code("http://testserver/sheet/abc/", label="Group 1")

    assert code.startswith('<svg role="img" viewBox=')
    assert "<title>Group 1</title>" in code
    assert "style=" not in code
