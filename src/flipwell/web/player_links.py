"""Where a player's personal link points (``/me/<token>/``); see
`flipwell.league.services.player_links` for the token and `flipwell.web.views.me` for the page.

Call `player_link_url` (with a request) or `player_link_path` (site-relative, for a message
built without a request: prefix the site's address) to give a player their link.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.player_link_tokens import token_for


def player_link_path(link: m.PlayerLink) -> str:
    """The site-relative path of `link`'s page (no query)."""
    return reverse("web:me", kwargs={"token": token_for(link)})


def player_link_url(request: HttpRequest, link: m.PlayerLink) -> str:
    """The absolute URL of `link`'s page (to copy, print as a QR code, or send)."""
    return request.build_absolute_uri(player_link_path(link))
