"""A player's e-mail notices (read: scope read_private; set: scope manage) and a league's
notice queue (scope manage). Each endpoint checks the token, calls one service or selector
and renders its answer."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.auth import acting_official
from flipwell.api.endpoints.params import PlayerId, Slug
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.schemas.notices import NoticePreferencesIn, NoticePreferencesOut, NoticeQueueOut
from flipwell.api.writing import after_check, official, write
from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.notices import enabled
from flipwell.league.selectors.notices import notice_queue, notice_subscription

PATH = "/leagues/{slug}/players/{player_id}/notices"


def _preferences(player: m.Player, row: m.NoticeSubscription | None) -> dict[str, Any]:
    return {
        "player_id": player.pk,
        "player": str(player),
        "email": row.email if row else "",
        "kinds": [k for k in m.NoticeKind.values if row and getattr(row, k)],
        "unsubscribed_at": row.unsubscribed_at if row else None,
        "sending": enabled(),
    }


@router.get(PATH, response={200: NoticePreferencesOut, **ERROR_RESPONSES}, **WRITE)
def get_notice_preferences(request: HttpRequest, slug: Slug, player_id: PlayerId) -> Any:
    """A player's e-mail address and the notices they chose from this league (scope:
    read_private). The league's own: another league's address for them is never shown."""
    league = queries.league(slug)
    acting_official(request, league=league, scope="read_private")
    player = queries.league_player(league, player_id)
    return _preferences(player, notice_subscription(player, league=league))


@router.put(PATH, response={200: NoticePreferencesOut, **ERROR_RESPONSES}, **WRITE)
def set_notice_preferences(
    request: HttpRequest, slug: Slug, player_id: PlayerId, payload: NoticePreferencesIn
) -> Any:
    """Set a player's e-mail address and the notices they chose from this league, with their
    consent (scope: manage); another league's are left alone. A player who stopped every
    notice through their link stays stopped."""
    league = queries.league(slug)
    return write(
        request,
        _set_preferences,
        payload,
        by=official(league, "manage"),
        league=league,
        player=after_check(queries.league_player, league, player_id),
    )


def _set_preferences(*, player: m.Player, **arguments: Any) -> dict[str, Any]:
    """`services.set_notice_preferences`, answered with the player's preferences."""
    row = services.set_notice_preferences(player=player, **arguments)
    return _preferences(player, row)


@router.get("/leagues/{slug}/notices", response={200: NoticeQueueOut, **ERROR_RESPONSES}, **WRITE)
def get_notice_queue(request: HttpRequest, slug: Slug) -> Any:
    """The league's notice queue: how many notices are waiting, sent, failed or skipped, and
    the latest ones (scope: manage)."""
    league = queries.league(slug)
    acting_official(request, league=league, scope="manage")
    queue = notice_queue(league)
    return {
        "sending": enabled(),
        "counts": queue.counts,
        "latest": [
            {
                "id": n.pk,
                "player_id": n.player_id,
                "player": str(n.player),
                "kind": n.kind,
                "meet_id": n.meet_id,
                "subject": n.subject,
                "state": n.state,
                "attempts": n.attempts,
                "next_attempt_at": n.next_attempt_at,
                "last_error": n.last_error,
                "created_at": n.created_at,
                "sent_at": n.sent_at,
            }
            for n in queue.latest
        ],
    }
