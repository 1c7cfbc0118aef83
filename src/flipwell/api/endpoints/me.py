"""A player's personal link through the API: ``/me/{token}``, the token of their link's URL
(`flipwell.league.services.player_links`) as the path's key; no API token, no account.

The player reads their own view and tells an absence or lateness for a coming meet of their
season, before its start time (R2.2-a, R3.1-d): the same facts the official records. A token
that is forged or whose link was revoked is a 404: it opens nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import Http404, HttpRequest
from ninja import Path, Router

from flipwell.api.arguments import resolved
from flipwell.api.contract import created, private
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.schemas.me import MeAbsenceOut, MeEmailIn, MeEmailOut, MeOut
from flipwell.api.schemas.meets import LatenessOut
from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.player_link_tokens import DeadLinkError
from flipwell.league.selectors import lookups
from flipwell.league.selectors.player_links import player_link_page
from flipwell.league.services.player_links import live_link

router = Router(tags=["with a personal link"])

Token = Annotated[
    str,
    Path(
        max_length=200,
        pattern=r"^[A-Za-z0-9_:-]+$",
        description="The personal link's token: the last part of its URL (/me/<token>/).",
    ),
]
MeetNumber = Annotated[
    int, Path(ge=1, le=1000, description="The meet's number in the link's season.")
]


def _link(token: str) -> m.PlayerLink:
    try:
        return live_link(token)
    except DeadLinkError as error:
        raise Http404(str(error)) from error


def _meet(link: m.PlayerLink, number: int) -> m.Meet:
    meet = lookups.season_meet(link.season_id, number)
    if meet is None:
        raise Http404(f"No scheduled meet {number} in {link.season.name}.")
    return meet


@router.get("/me/{token}", response={200: MeOut, **ERROR_RESPONSES})
@private
def get_me(request: HttpRequest, token: Token) -> Any:
    """The player's own view: coming meets and what they told, tonight's group, their season
    with every point explained."""
    page = player_link_page(_link(token))
    return {
        "player": str(page.player),
        "league": page.league.name,
        "season": page.season.season.name,
        "email": page.link.email,
        "meets": page.meets,
        "group": page.group,
        "rank": page.season.rank,
        "history": page.season.history,
    }


@router.post("/me/{token}/meets/{number}/absence", response={201: MeAbsenceOut, **ERROR_RESPONSES})
@key_required
def announce_my_absence(request: HttpRequest, token: Token, number: MeetNumber) -> Any:
    """Tell the league the player will miss meet `number` (R2-b, R3.1-d); only before its
    start time and before it starts (422 after)."""
    link = _link(token)
    absence = services.announce_absence_by_link(link=link, meet=_meet(link, number))
    body = {"meet": number, "recorded_at": absence.recorded_at}
    return created(request, body, f"/api/v1/me/{token}")


@router.post("/me/{token}/meets/{number}/lateness", response={201: LatenessOut, **ERROR_RESPONSES})
@key_required
def announce_my_lateness(request: HttpRequest, token: Token, number: MeetNumber) -> Any:
    """Tell the league the player will be late to meet `number`; told before its start time,
    their group waits up to 15 minutes (R2.2-a, A59); 422 after the start time."""
    link = _link(token)
    told = services.announce_lateness_by_link(link=link, meet=_meet(link, number))
    return created(request, told.tardiness, f"/api/v1/me/{token}")


@router.put("/me/{token}/email", response={200: MeEmailOut, **ERROR_RESPONSES})
@private
def set_my_email(request: HttpRequest, token: Token, payload: MeEmailIn) -> Any:
    """Give (or, with '', remove) the player's email address; private, never on a public
    page (422 for an invalid address)."""
    link = services.set_player_link_email(**resolved(payload), link=_link(token))
    return {"email": link.email}
