"""The signed token in a player's personal link: made from the link's key, read back to it."""

from __future__ import annotations

from django.core import signing

from flipwell.league import models as m

SALT = "flipwell.league.player_link"


class DeadLinkError(Exception):
    """A token that is forged, mistyped, or whose link was revoked (or replaced)."""


def token_for(link: m.PlayerLink) -> str:
    """The signed token of `link`'s URL (no query)."""
    return signing.Signer(salt=SALT).sign(link.key)


def key_of(token: str) -> str:
    """The key inside a token we signed (no query); DeadLinkError for any other token."""
    try:
        return signing.Signer(salt=SALT).unsign(token)
    except signing.BadSignature as error:
        raise DeadLinkError("This personal link is not valid.") from error
