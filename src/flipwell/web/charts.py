"""Charts drawn on the server as inline SVG: no JavaScript, no chart library, no inline style.

Words:
- *series*: one player's running league-point total after meet 1, 2, ... (exact fractions,
  drawn at float precision: a chart is a picture, the numbers themselves are in the table).
- *points chart*: every series on one pair of axes, meets across, points up, each line named
  at its end; names too close to each other are spread apart, each joined to its line's end
  (every line has a tooltip too). Drawn twice: wide, and narrow for a phone.
- *sparkline*: one series in a small picture on a scale shared by the whole table.
- *bracket diagram*: one playoff division's matches in rounds (QF, SF, F) as boxes, with the
  players, their points and who advanced, joined by lines from each match to the one its top
  two go on to (`flipwell.rules.BRACKET_MATCHES`).

Colours and fonts come from CSS classes (app.css, tv.css, print.css), so the same SVG suits
the light pages, the dark TV and paper. The Content-Security-Policy forbids style attributes,
so none is used. Every text is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from flipwell.league.selectors.playoffs.bracket import DivisionView, MatchView
from flipwell.league.selectors.standings import PlayerRef
from flipwell.rules import BRACKET_MATCHES
from flipwell.web.formatting import number

PALETTE_SIZE = 8
LABEL_GAP = 15.0
"""The vertical distance between two end-of-line names, in chart units: a 12-unit name's box
is some 14 units high, so no two boxes overlap."""
CHAR_WIDTH = 7.2
"""A generous width of one character of a 12-unit name, for the room the names get."""
WIDE_PLOT, NARROW_PLOT = 560.0, 200.0
"""The plot's width, in chart units, on a wide screen and on a phone (where the picture is
about as many pixels wide as units, so its type stays readable)."""

Series = Sequence[tuple[str, Sequence[Fraction]]]


def nice_ceiling(value: float) -> tuple[float, float]:
    """A round top for an axis at or above `value`, and the step between its grid lines."""
    if value <= 0:
        return 10.0, 2.0
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if value / step <= 6:
            top = step * -(-value // step)
            return float(top), float(step)
    step = 10 ** len(str(int(value)))
    return float(step), float(step) / 5


def spread_labels(wanted: Sequence[float], *, gap: float, low: float, high: float) -> list[float]:
    """Each name's height, as close to its line's end (`wanted`, sorted top to bottom) as it
    can be with every two names at least `gap` apart, all between `low` and `high` (which must
    hold them: `high - low >= gap * (len(wanted) - 1)`)."""
    placed: list[float] = []
    for want in wanted:  # down the chart: each name below the one above it
        placed.append(max(want, low, placed[-1] + gap if placed else low))
    limit = high
    for index in range(len(placed) - 1, -1, -1):  # then up from the bottom, into the chart
        placed[index] = min(placed[index], limit)
        limit = placed[index] - gap
    return placed


def points_chart(
    series: Series, *, title: str, meets: int | None = None, narrow: bool = False
) -> SafeString:
    """Every player's points after each meet as one line chart (see the module docstring):
    every meet on the axis and every line named at its end, no two names overlapping (a name
    moved off its line's end is joined to it by a thin line). `narrow` draws it for a phone."""
    count = max([meets or 0, *(len(points) for _, points in series)])
    if count == 0 or not series:
        return mark_safe("")  # safe: nothing to draw
    longest = max(len(name) for name, _ in series)
    left, top, bottom = (36.0 if narrow else 48.0), 14.0, 40.0
    right = 18.0 + CHAR_WIDTH * longest
    plot_w = NARROW_PLOT if narrow else WIDE_PLOT
    plot_h = max(200.0 if narrow else 326.0, LABEL_GAP * (len(series) - 1))
    width, height = left + plot_w + right, top + plot_h + bottom
    highest = max((float(p) for _, points in series for p in points), default=0.0)
    y_top, step = nice_ceiling(highest)
    chart_id = "chart-title-narrow" if narrow else "chart-title"

    def x(meet: int) -> float:
        return left + plot_w * meet / count

    def y(points: float) -> float:
        return top + plot_h * (1 - points / y_top)

    parts = [
        f'<svg class="chart points-chart{" narrow" if narrow else " wide"}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" '
        f'aria-labelledby="{chart_id}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}">{escape(title)}</title>',
    ]
    tick = 0.0
    while tick <= y_top + 1e-9:
        parts.append(
            f'<line class="grid" x1="{left:g}" x2="{left + plot_w:g}" '
            f'y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
            f'<text class="axis" x="{left - 6:g}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{number(int(tick))}</text>'
        )
        tick += step
    parts.extend(_meet_axis([x(meet) for meet in range(count + 1)], height, bottom=bottom))
    parts.append(
        f'<text class="axis-title" x="{left + plot_w / 2:g}" y="{height - 4:g}" '
        'text-anchor="middle">meet</text>'
    )
    ends: list[tuple[float, int, str]] = []
    for index, (name, points) in enumerate(series):
        coords = [(x(0), y(0))] + [(x(i + 1), y(float(p))) for i, p in enumerate(points)]
        path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
        last = number(points[-1]) if points else "0"
        parts.append(
            f'<polyline class="series s{index % PALETTE_SIZE}" points="{path}">'
            f"<title>{escape(name)}: {last}</title></polyline>"
        )
        ends.append((coords[-1][1], index, name))
    parts.extend(_end_labels(ends, plot_right=left + plot_w, top=top, plot_h=plot_h))
    parts.append("</svg>")
    return mark_safe("".join(parts))  # safe: every text above is escaped


def _meet_axis(xs: list[float], height: float, *, bottom: float) -> list[str]:
    """The meets' numbers under the plot, meet 0 first, at their `xs`."""
    return [
        f'<text class="axis meet-tick" x="{at:.1f}" y="{height - bottom + 18:g}" '
        f'text-anchor="middle">{meet}</text>'
        for meet, at in enumerate(xs)
    ]


def _end_labels(
    ends: list[tuple[float, int, str]], *, plot_right: float, top: float, plot_h: float
) -> list[str]:
    """Each line's name at its end (`ends`: the end's height, the line's index, its name),
    spread so that no two overlap, each joined to its line's end by a thin leader line."""
    ends = sorted(ends)
    heights = spread_labels(
        [end_y for end_y, _, _ in ends], gap=LABEL_GAP, low=top, high=top + plot_h
    )
    label_x = plot_right + 14
    labels = []
    for (end_y, index, name), label_y in zip(ends, heights, strict=True):
        colour = f"s{index % PALETTE_SIZE}"
        labels.append(
            f'<line class="leader {colour}" x1="{plot_right:g}" y1="{end_y:.1f}" '
            f'x2="{label_x - 3:g}" y2="{label_y:.1f}"/>'
            f'<text class="label {colour}" x="{label_x:g}" y="{label_y + 4:.1f}">'
            f"{escape(name)}</text>"
        )
    return labels


def sparkline(points: Sequence[Fraction], *, scale: Fraction | int, label: str) -> SafeString:
    """One player's running total as a small line, on the table's shared `scale`."""
    width, height, pad = 100.0, 28.0, 2.0
    top = float(scale) or 1.0
    count = max(len(points), 1)
    coords = [(pad, height - pad)] + [
        (
            pad + (width - 2 * pad) * (i + 1) / count,
            height - pad - (height - 2 * pad) * float(p) / top,
        )
        for i, p in enumerate(points)
    ]
    path = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
    return mark_safe(  # safe: the label is escaped
        f'<svg class="spark" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f'<polyline points="{path}"/></svg>'
    )


def rating_chart(steps: Sequence[tuple[str, float, float, float]], *, title: str) -> SafeString:
    """A person's rating after each meet as a line in its range (a band), each step given as
    (name, rating, low, high) and named in its tooltip; the axis's lowest and highest rating
    written at its left. Small enough for a phone: the picture scales to its column."""
    if not steps:
        return mark_safe("")  # safe: nothing to draw
    width, height, left, right, top, bottom = 320.0, 120.0, 44.0, 8.0, 8.0, 8.0
    low = 50 * (min(lo for _, _, lo, _ in steps) // 50)
    high = 50 * -(-max(hi for _, _, _, hi in steps) // 50)
    count = max(len(steps) - 1, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / count

    def y(rating: float) -> float:
        return top + (height - top - bottom) * (high - rating) / ((high - low) or 1)

    upper = [(x(i), y(hi)) for i, (_, _, _, hi) in enumerate(steps)]
    lower = [(x(i), y(lo)) for i, (_, _, lo, _) in enumerate(steps)]
    band = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in [*upper, *reversed(lower)])
    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (_, r, _, _) in enumerate(steps))
    dots = "".join(
        f'<circle class="step" cx="{x(i):.1f}" cy="{y(r):.1f}" r="2.5">'
        f"<title>{escape(name)}: {number(round(r))} "
        f"({number(round(lo))} to {number(round(hi))})</title></circle>"
        for i, (name, r, lo, hi) in enumerate(steps)
    )
    return mark_safe(  # safe: every text is escaped
        f'<svg class="chart rating-chart" viewBox="0 0 {width:g} {height:g}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">'
        f'<text class="axis" x="{left - 4:g}" y="{y(high) + 10:.1f}" text-anchor="end">'
        f"{number(int(high))}</text>"
        f'<text class="axis" x="{left - 4:g}" y="{y(low):.1f}" text-anchor="end">'
        f"{number(int(low))}</text>"
        f'<polygon class="range" points="{band}"/>'
        f'<polyline class="series s0" points="{line}"/>{dots}</svg>'
    )


# --- The bracket diagram ------------------------------------------------------------------

BOX_W, ROW_H, HEAD_H, COL_GAP, ROW_GAP = 230.0, 24.0, 26.0, 46.0, 22.0
NARROW_BOX_W = 340.0
"""A box's width on a phone, where the matches stand one under another, the final last: about
as many pixels as units, so the names stay readable and the champion on screen."""
ROUND_COLUMN = {"QF": 0, "SF": 1, "F": 2}


def bracket_diagram(division: DivisionView, *, narrow: bool = False) -> SafeString:
    """One division's bracket as an SVG diagram (see the module docstring); `narrow` stands
    the matches in one column in playing order, each saying where its top two go."""
    layout = BRACKET_MATCHES.get(division.bracket)
    if layout is None:
        return mark_safe("")  # safe: unknown size: nothing to draw
    views = {match.match: match for match in division.matches}
    box_h = HEAD_H + 4 * ROW_H + 6
    positions: dict[str, tuple[float, float]] = {}
    goes_to = {slot: mid for mid, slots in layout for slot in slots if isinstance(slot, str)}
    if narrow:
        box_w = NARROW_BOX_W
        for row, (mid, _slots) in enumerate(layout):
            positions[mid] = (0.0, row * (box_h + ROW_GAP))
        width = box_w + 2
        height = len(layout) * box_h + (len(layout) - 1) * ROW_GAP + 2
    else:
        box_w = BOX_W
        columns = sorted({ROUND_COLUMN[_prefix(mid)] for mid, _ in layout})
        rows = 2 if len(layout) > 1 else 1
        for mid, _slots in layout:
            col = columns.index(ROUND_COLUMN[_prefix(mid)])
            x = col * (BOX_W + COL_GAP)
            if mid == "F":
                y = (rows - 1) * (box_h + ROW_GAP) / 2
            else:
                y = (int(mid[-1]) - 1) * (box_h + ROW_GAP)
            positions[mid] = (x, y)
        width = len(columns) * BOX_W + (len(columns) - 1) * COL_GAP + 2
        height = rows * box_h + (rows - 1) * ROW_GAP + 2
    seeds = dict(division.seeds)
    parts = [
        f'<svg class="chart bracket{" narrow" if narrow else " wide"}" '
        f'viewBox="-1 -1 {width:g} {height:g}" role="img" '
        f'aria-label="Division {escape(division.name)} bracket" '
        'xmlns="http://www.w3.org/2000/svg">'
    ]
    for mid, slots in layout if not narrow else ():
        tx, ty = positions[mid]
        for slot in slots:
            if isinstance(slot, str):
                fx, fy = positions[slot]
                x1, y1, x2, y2 = fx + BOX_W, fy + box_h / 2, tx, ty + box_h / 2
                mx = (x1 + x2) / 2
                parts.append(f'<path class="link" d="M{x1:g},{y1:g} H{mx:g} V{y2:g} H{x2:g}"/>')
    for mid, slots in layout:
        x, y = positions[mid]
        head = mid
        if narrow and mid in goes_to:
            head += " · top 2 to " + ("the final" if goes_to[mid] == "F" else goes_to[mid])
        box = _Box(x=x, y=y, width=box_w, height=box_h, head=head)
        parts.append(_match_box(mid, slots, views.get(mid), seeds, box))
    parts.append("</svg>")
    return mark_safe("".join(parts))  # safe: every text is escaped in _match_box


@dataclass(frozen=True)
class _Box:
    """Where a match's box stands, its size, and its heading."""

    x: float
    y: float
    width: float
    height: float
    head: str


def _prefix(match_id: str) -> str:
    return match_id.rstrip("0123456789")


def _match_box(
    mid: str,
    slots: Sequence[int | str],
    view: MatchView | None,
    seeds: dict[int, PlayerRef | None],
    box: _Box,
) -> str:
    x, y, box_w, box_h = box.x, box.y, box.width, box.height
    status = view.status if view is not None else "waiting"
    shown = status.replace("_", " ")
    if view is not None and view.game_in_progress is not None:
        shown = f"game {view.game_in_progress.number} playing"
    parts = [
        f'<g class="match {escape(status)}">',
        f'<rect x="{x:g}" y="{y:g}" width="{box_w:g}" height="{box_h:g}" rx="8"/>',
        f'<text class="match-head" x="{x + 10:g}" y="{y + 18:g}">{escape(box.head)}</text>',
        f'<text class="match-status" x="{x + box_w - 10:g}" y="{y + 18:g}" '
        f'text-anchor="end">{escape(shown)}</text>',
    ]
    lines: list[tuple[str, str, str]] = []
    if view is not None and view.players:
        totals = {ref.id: total for ref, total in view.totals}
        advancing = {ref.id for ref in view.advancing}
        eliminated = {ref.id for ref in view.eliminated}
        # The final once complete: its places, the champion marked (R6.3-e).
        places = {ref.id: i for i, ref in enumerate(view.placing, 1)}
        for ref in view.placing or view.players:
            css = "adv" if ref.id in advancing or places.get(ref.id) == 1 else "in"
            css = "out" if ref.id in eliminated else css
            points = _pts(totals[ref.id]) if ref.id in totals and view.games else ""
            mark = "✓ " if ref.id in advancing else f"{places[ref.id]}. " if places else ""
            lines.append((css, mark + ref.name, points))
    else:
        for slot in slots:
            if isinstance(slot, str):
                lines.append(("tbd", f"Top 2 of {slot}", ""))
            else:
                seeded = seeds.get(slot)
                name = seeded.name if seeded is not None else "vacant"
                lines.append(("in", f"{slot}. {name}", ""))
    for index, (css, name, points) in enumerate(lines[:4]):
        row_y = y + HEAD_H + ROW_H * index + 17
        parts.append(
            f'<text class="player {css}" x="{x + 10:g}" y="{row_y:g}">{escape(name)}</text>'
        )
        if points:
            parts.append(
                f'<text class="player-points {css}" x="{x + box_w - 10:g}" y="{row_y:g}" '
                f'text-anchor="end">{escape(points)}</text>'
            )
    parts.append("</g>")
    return "".join(parts)


# --- QR codes -------------------------------------------------------------------------------


def qr_code(url: str, *, label: str) -> SafeString:
    """`url` as an inline SVG QR code (segno; error correction M survives a beer stain)."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(
        scale=4, border=2, dark="#000", light="#fff", svgclass="qr", omitsize=True, title=label
    )
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))  # safe: segno escapes


def _pts(points: object) -> str:
    """A bracket box's short points: "1 pt", "7 pts" (never "1 pts")."""
    return f"{points} pt" if points == 1 else f"{points} pts"
