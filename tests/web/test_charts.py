"""Server-side SVG charts: the points chart, sparklines, the bracket diagram, QR codes."""

from fractions import Fraction

from flipwell.league.selectors.playoffs import DivisionView, MatchView
from flipwell.league.selectors.standings import PlayerRef
from flipwell.web.charts import bracket_diagram, nice_ceiling, points_chart, qr_code, sparkline


def test_points_chart_draws_one_line_per_player_from_zero():
    chart = points_chart(
        [("Ann", (Fraction(7), Fraction(15))), ("Bob", (Fraction(5), Fraction(79, 4)))],
        title="Points",
    )

    assert chart.startswith('<svg class="chart points-chart"')
    assert chart.count("<polyline") == 2
    assert "<title>Bob: 19.75</title>" in chart
    assert chart.count('class="label') == 2


def test_points_chart_escapes_names():
    chart = points_chart([("<b>Ann</b>", (Fraction(7),))], title="T")

    assert "<b>" not in chart
    assert "&lt;b&gt;Ann&lt;/b&gt;" in chart


def test_points_chart_leaves_out_overlapping_names():
    chart = points_chart(
        [("Ann", (Fraction(100),)), ("Bob", (Fraction(100),)), ("Cy", (Fraction(10),))],
        title="T",
    )

    assert chart.count('class="label') == 2


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
