"""The meet board's live parts: its machines line and each group's card, rendered on their own
for the live stream's events (`flipwell.serving.live_parts`) by the templates the board
includes, so a part sent is byte for byte the part the page holds.

A stream asks for them with ``?board=<meet id>`` (the board's ``data-live-board``, read by
``static/flipwell/live.js``); `watch` turns that into the hub's `Watch`. The parts are
rendered on the hub's thread, with its own database connection, once per revision per
process.
"""

from __future__ import annotations

from functools import partial

from django.db import connection
from django.template.loader import render_to_string
from django.urls import reverse

from flipwell.league.selectors import revisions
from flipwell.league.selectors.public_pages import meets as meet_pages
from flipwell.league.selectors.public_pages import seasons as season_pages
from flipwell.serving.live_parts import Parts, Watch

MACHINES_PART = "board-machines"


def group_part(group_id: int) -> str:
    """The id of a group's card on the board."""
    return f"board-group-{group_id}"


def watch(slug: str, meet_id: int) -> Watch:
    """The hub's watch of the board of meet `meet_id` of the league `slug`."""
    return Watch(key=f"board:{meet_id}", render=partial(board_parts, slug, meet_id))


def board_parts(slug: str, meet_id: int) -> Parts | None:
    """The board's parts now, exact as of the league's revision; None when the meet is not the
    league's or not open (its board is not live), or when a write came in while they were
    rendered (which revision they show is then not known: the client fetches the page)."""
    try:
        league = season_pages.league_by_slug(slug)
        page = meet_pages.meet_page(league, meet_id)
        if page.meet.status != "open":
            return None
        html: dict[str, str] = {
            MACHINES_PART: render_to_string("public/_board_machines.html", {"page": page})
        }
        machines_url = reverse("web:machines", args=[league.slug])
        for group in page.groups:
            context = {"league": league, "group": group, "machines_url": machines_url}
            html[group_part(group.id)] = render_to_string("public/_board_group.html", context)
        after = revisions.of_leagues([league.pk]).get(league.pk)
    except season_pages.NotFoundError:
        return None
    except Exception:
        connection.close()  # the hub's connection: the next render connects afresh
        raise
    return Parts(league.revision, html) if after == league.revision else None
