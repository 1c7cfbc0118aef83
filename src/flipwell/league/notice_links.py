"""The links a notice carries, as tokens: a player's preferences link for one league's notices
and the one-tap absence link of a reminder (see `flipwell.league.notices` for the words).
The web layer makes the addresses; no token is stored and none can be guessed (each is signed
with the installation's key, `django.core.signing`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from flipwell.league import models as m
from flipwell.league.player_link_tokens import token_for

TOKEN_SALT = "flipwell.notices.preferences"


def absence_tokens(meet: m.Meet) -> dict[int, str]:
    """The token of each player's personal link (`flipwell.league.services.player_links`), by
    player id, for the one-tap absence link of their reminder of `meet` (R3.1-d). One query.
    Only players whose official issued them a link have one; the others' reminder asks them to
    tell the league official. The link only opens the page: the tap on "I'll be absent"
    records the notice, so a mail scanner that follows links announces nothing.
    """
    # Imported here: the services import this module to queue their notices.
    from flipwell.league.selectors.player_links import season_links

    return {player_id: token_for(link) for player_id, link in season_links(meet.season).items()}


def preferences_token(league_id: int, player_id: int) -> str:
    """The signed token of a player's preferences link for the notices of one league (see the
    module docstring)."""
    return signing.dumps([league_id, player_id], salt=TOKEN_SALT)


@dataclass(frozen=True)
class PreferencesLink:
    """Whose notices a preferences token names: a player's, from one league (`league` None: a
    token made before subscriptions belonged to a league, which names every league's)."""

    player: int
    league: int | None


def preferences_for_token(token: str) -> PreferencesLink | None:
    """Whose notices a preferences token was made for, or None for a token that is not one.

    A token of ``[league id, player id]``; an older one signs the player's id alone
    and still works, for the notices of every league (the e-mails already sent carry it)."""
    try:
        value = signing.loads(token, salt=TOKEN_SALT)
    except signing.BadSignature:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return PreferencesLink(player=value, league=None)
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return PreferencesLink(player=value[1], league=value[0])
    return None
