"""Cursor pagination: every list answers one page and the URL of the next one.

Words:
- *page*: ``{"results": [...], "next": URL or null}``, the one shape of every list.
- *list*: what a request asks to page through: its path and its query without the page's own
  parameters (``cursor``, ``limit``); ``/leagues/a/seasons`` and ``/leagues/b/seasons`` are
  two lists, and so are a filtered and an unfiltered one.
- *cursor*: opaque to clients (URL-safe base64 of 12 bytes): a tag of its list (`list_tag`)
  and a position. For a table, the position is the id of the last row shown (the next page
  starts after it, so rows added meanwhile are not skipped); for a computed list, the
  position in it. A cursor the API did not make, or made for another list, is a 422 on the
  field ``cursor``: a position is only meaningful in its own list.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Sequence
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.db.models import Model, QuerySet
from django.http import HttpRequest

from flipwell.league.refusals import Refusal

T = TypeVar("T")
M = TypeVar("M", bound=Model)
DEFAULT_LIMIT = 50
MAX_LIMIT = 200
MAX_POSITION = 2**63 - 1
PAGE_PARAMETERS = ("cursor", "limit")
TAG_BYTES = 4
POSITION_BYTES = 8
NOT_A_CURSOR = "This cursor is not one the API gave: use the 'next' link as it is."
ANOTHER_LIST = (
    "This cursor is another list's (another path or filter): use the 'next' link of this "
    "list as it is, or no cursor for its first page."
)


def list_tag(request: HttpRequest) -> bytes:
    """The tag of the list `request` pages through (see the module's words)."""
    query = sorted((k, v) for k, v in request.GET.items() if k not in PAGE_PARAMETERS)
    text = f"{request.path}?{urlencode(query)}"
    return hashlib.blake2b(text.encode(), digest_size=TAG_BYTES).digest()


def encode_cursor(request: HttpRequest, position: int) -> str:
    """The cursor for a position (an id or an index) in the list `request` pages through."""
    raw = list_tag(request) + position.to_bytes(POSITION_BYTES, "big")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(request: HttpRequest, cursor: str | None) -> int:
    """The position a cursor names in the list `request` pages through; 0 (the start) for
    none; a ValidationError on ``cursor`` when it is not a cursor, or another list's."""
    if not cursor:
        return 0
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    position = int.from_bytes(raw[TAG_BYTES:], "big")
    if len(raw) != TAG_BYTES + POSITION_BYTES or position > MAX_POSITION:
        raise Refusal({"cursor": NOT_A_CURSOR}, code="cursor_unknown")
    if raw[:TAG_BYTES] != list_tag(request):
        raise Refusal({"cursor": ANOTHER_LIST}, code="cursor_of_another_list")
    return position


def page_of_queryset(
    request: HttpRequest, rows: QuerySet[M], *, cursor: str | None, limit: int
) -> tuple[list[M], str | None]:
    """One page of a table, by id, and the next page's URL (None on the last page)."""
    after = decode_cursor(request, cursor)
    items = list(rows.filter(pk__gt=after).order_by("pk")[: limit + 1])
    more = len(items) > limit
    items = items[:limit]
    return items, _next_url(request, items[-1].pk if more else None)


def page_of_sequence(
    request: HttpRequest, items: Sequence[T], *, cursor: str | None, limit: int
) -> tuple[list[T], str | None]:
    """One page of a computed list, by position, and the next page's URL."""
    start = decode_cursor(request, cursor)
    page = list(items[start : start + limit])
    more = start + limit < len(items)
    return page, _next_url(request, start + limit if more else None)


def _next_url(request: HttpRequest, position: int | None) -> str | None:
    if position is None:
        return None
    query: dict[str, Any] = {k: v for k, v in request.GET.items() if k != "cursor"}
    query["cursor"] = encode_cursor(request, position)
    return request.build_absolute_uri(f"{request.path}?{urlencode(sorted(query.items()))}")
