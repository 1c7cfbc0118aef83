"""Live parts: the pieces of a live page sent inside its stream's events, so a viewer's page
changes what changed without asking the server for the page again.

Words:
- *part*: an element of a live page with an id and ``data-live-part`` (the meet board's
  machines line, and each group's card), rendered on its own by the web layer
  (`flipwell.web.live_parts`); the page holds the same parts, rendered by the same templates.
- *parts*: every part of one page as of one revision of its league (`Parts`), in the page's
  order. Exact: rendered between two reads of the league's revision that agree, so no write
  came in between (a write and its new revision commit together).
- *watch*: what a stream's page shows (`Watch`): a key (``board:<meet id>``) and how to render
  its parts now. A stream without one (the TV, the standings, a score sheet) gets the
  revision only, and its page fetches its fragment as before.
- *base*: the parts a stream's client has, as far as its hub knows: the revision of the parts
  it last sent that stream. None until it sent any (the page came from the server's own HTML,
  which the hub never saw) and after an event without parts (the client fetches the page).
- *changes*: what an event carries: the parts that differ from the base, or every part when
  the base is None or forgotten (a full event, ``base: null``). When the parts are not the
  base's ids in the base's order (a group drawn, a late player's group), or cannot be
  rendered (the meet closed, the database away), the event carries none and the client
  fetches the page as before.

The client (``static/flipwell/live.js``) replaces each part it is sent, whole, when its page
is at the event's base (a full event: when its page has the same parts); otherwise it fetches
the page and reconnects, so that its next event is full. A hub that rendered the parts once
per revision sends a few hundred bytes to each viewer instead of answering each one's fetch.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

logger = logging.getLogger("flipwell.serving.live")

KEPT_PER_PAGE = 8
"""Parts kept per page, newest last: the bases of streams a few revisions behind."""
RENDERED_KEPT = 256
"""(page, revision) renders remembered, so each revision of a page renders once per process."""


@dataclass(frozen=True)
class Parts:
    """Every part of a page as of `revision`: each part's id and HTML, in the page's order."""

    revision: int
    html: dict[str, str]


@dataclass(frozen=True)
class Watch:
    """A stream's page: its `key` and `render`, which gives its parts now (None: no parts, such
    as a meet that is not open; it may raise, which counts as None)."""

    key: str
    render: Callable[[], Parts | None]


def changes(parts: Parts, base: Parts | None) -> dict[str, str] | None:
    """The parts to send a client whose page is at `base` (None: every part); None when the
    page's parts are not the base's (the client must fetch the page)."""
    if base is None:
        return dict(parts.html)
    if list(parts.html) != list(base.html):
        return None
    return {key: html for key, html in parts.html.items() if base.html[key] != html}


def event(revision: int, standings: int, parts: Parts, base: Parts | None) -> bytes | None:
    """A stream's event of `revision` carrying the changes from `base` to `parts` (see
    `flipwell.serving.live.event`); None when it cannot carry them."""
    changed = changes(parts, base)
    if changed is None:
        return None
    data = {
        "revision": revision,
        "standings": standings,
        "parts": {
            "revision": parts.revision,
            "base": None if base is None else base.revision,
            "html": changed,
        },
    }
    text = json.dumps(data, separators=(",", ":"))  # one line: SSE data ends at a newline
    return f"id: {revision}\ndata: {text}\n\n".encode()


class Memo:
    """The parts a hub rendered (hub thread only): each page's last `KEPT_PER_PAGE`, and which
    parts each revision it was told of rendered to."""

    def __init__(self) -> None:
        self._pages: dict[str, OrderedDict[int, Parts]] = {}
        self._rendered: OrderedDict[tuple[str, int], Parts | None] = OrderedDict()
        self._failing: set[str] = set()

    def now(self, watch: Watch, revision: int) -> Parts | None:
        """The parts of `watch` for the league's `revision`, rendered on first asking."""
        key = (watch.key, revision)
        if key not in self._rendered:
            self._rendered[key] = self._render(watch)
            if len(self._rendered) > RENDERED_KEPT:
                self._rendered.popitem(last=False)
        parts = self._rendered[key]
        if parts is not None:
            kept = self._pages.setdefault(watch.key, OrderedDict())
            kept[parts.revision] = parts
            kept.move_to_end(parts.revision)
            while len(kept) > KEPT_PER_PAGE:
                kept.popitem(last=False)
        return parts

    def at(self, page: str, revision: int | None) -> Parts | None:
        """The parts of `page` this hub sent as of `revision`; None when it has them not."""
        kept = self._pages.get(page)
        return None if revision is None or kept is None else kept.get(revision)

    def _render(self, watch: Watch) -> Parts | None:
        try:
            parts = watch.render()
        except Exception:  # the page's parts cannot be had: the client fetches the page
            if watch.key not in self._failing:
                logger.warning("live parts of %s cannot be rendered", watch.key, exc_info=True)
            self._failing.add(watch.key)
            return None
        self._failing.discard(watch.key)
        return parts
