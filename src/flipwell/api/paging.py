"""Cursor pagination: every list answers one page and the URL of the next one.

Words: a *cursor* is opaque to clients (URL-safe base64 of a number): for a table, the id of
the last row shown (the next page starts after it, so rows added meanwhile are not skipped);
for a computed list, the position in it. A bad cursor is a 422 on the field ``cursor``.
"""

from __future__ import annotations

import base64
import binascii
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


def encode_cursor(position: int) -> str:
    """The cursor for a position (an id or an index)."""
    return base64.urlsafe_b64encode(str(position).encode("ascii")).decode("ascii").rstrip("=")


def decode_cursor(cursor: str | None) -> int:
    """The position a cursor names; 0 (the start) for none; a ValidationError when bad."""
    if not cursor:
        return 0
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        text = ""
    if not (text.isascii() and text.isdigit() and int(text) <= MAX_POSITION):
        raise Refusal(
            {"cursor": "This cursor is not one the API gave: use the 'next' link as it is."},
            code="invalid_cursor",
        )
    return int(text)


def page_of_queryset(
    request: HttpRequest, rows: QuerySet[M], *, cursor: str | None, limit: int
) -> tuple[list[M], str | None]:
    """One page of a table, by id, and the next page's URL (None on the last page)."""
    after = decode_cursor(cursor)
    items = list(rows.filter(pk__gt=after).order_by("pk")[: limit + 1])
    more = len(items) > limit
    items = items[:limit]
    return items, _next_url(request, items[-1].pk if more else None)


def page_of_sequence(
    request: HttpRequest, items: Sequence[T], *, cursor: str | None, limit: int
) -> tuple[list[T], str | None]:
    """One page of a computed list, by position, and the next page's URL."""
    start = decode_cursor(cursor)
    page = list(items[start : start + limit])
    more = start + limit < len(items)
    return page, _next_url(request, start + limit if more else None)


def _next_url(request: HttpRequest, position: int | None) -> str | None:
    if position is None:
        return None
    query: dict[str, Any] = {k: v for k, v in request.GET.items() if k != "cursor"}
    query["cursor"] = encode_cursor(position)
    return request.build_absolute_uri(f"{request.path}?{urlencode(sorted(query.items()))}")
