"""What the standings page's template is given beside its page: each line's sparkline, the
points charts, and the playoff line; built once here for the page (`flipwell.web.views.public`)
and for its live part (`flipwell.web.live_parts`), so the two are the same HTML."""

from __future__ import annotations

from typing import Any

from flipwell.league import models as m
from flipwell.league.selectors.public_pages.seasons import SeasonPage
from flipwell.web.charts import points_chart, sparkline


def season_context(league: m.League, page: SeasonPage | None) -> dict[str, Any]:
    """The template context of `league`'s standings page `page` (None: no season yet)."""
    context: dict[str, Any] = {"league": league, "page": page, "section": "standings"}
    if page is None:
        return context
    lines = page.standings.lines
    scale = max((max(line.points_after_meet, default=0) for line in lines), default=0)
    context["rows"] = [
        (
            line,
            sparkline(
                line.points_after_meet,
                scale=scale,
                label=f"{line.player.name}'s points after each meet",
            ),
        )
        for line in lines
    ]
    chart_title = f"League points after each meet, {page.season.name}"
    meets = page.standings.meets_played
    context["chart"] = points_chart(page.chart_series, title=chart_title, meets=meets)
    context["chart_narrow"] = points_chart(
        page.chart_series, title=chart_title, meets=meets, narrow=True
    )
    above = page.standings.above_line()
    context["qualifiers"] = {line.player.id for line in above}
    context["cut_after"] = above[-1].player.id if above else None
    return context
