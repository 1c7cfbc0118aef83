"""Score sheet tokens: the unguessable part of a group's score sheet URL (``/sheet/<token>/``).

Words:
- *token*: the group's id and its meet's id, signed with the site's SECRET_KEY under a salt of
  its own (`django.core.signing`), so nobody can make one for another group without the key,
  and a token made for one purpose (a session, a password reset) is never accepted here.
  Nothing is stored: a token is checked by verifying its signature.
- *scoped*: a token opens one group's sheet at one meet, nothing else.
- *dead*: a token stops working once its meet is closed (or was never started), and in any
  case `MAX_AGE` after it was made, so a photographed QR code from an old night is useless.
"""

from __future__ import annotations

import datetime

from django.core import signing
from django.http import Http404, HttpRequest
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.selectors import access

SALT = "flipwell.web.scoresheet"
MAX_AGE = datetime.timedelta(days=3)
"""Longer than any league night (and its late corrections), short enough to expire."""


class DeadToken(Http404):
    """A token that is forged, expired, or whose meet is no longer open (shown as a 404)."""


class SheetClosed(DeadToken):
    """A token of ours whose meet (or playoff night) is closed: the sheet is over, and its
    results are on the league's public page at `results_path` (the sheet page says so and
    links it, rather than a 404 that speaks of a new link)."""

    def __init__(self, message: str, *, results_path: str, what: str) -> None:
        super().__init__(message)
        self.results_path = results_path
        self.what = what
        """What is closed, as a sentence's subject: "Meet 3", "The playoff night"."""


def make_token(group: m.Group) -> str:
    """The signed token of `group`'s score sheet at its meet."""
    return token_for(group.pk, group.meet_id)


def token_for(group_id: int, meet_id: int) -> str:
    """The signed token of group `group_id` of meet `meet_id` (no query)."""
    return signing.dumps([group_id, meet_id], salt=SALT, compress=False)


def scoresheet_path(group: m.Group) -> str:
    """The site-relative path of `group`'s score sheet."""
    return path_for(group.pk, group.meet_id)


def path_for(group_id: int, meet_id: int) -> str:
    """The site-relative path of group `group_id`'s sheet at meet `meet_id` (no query)."""
    return reverse("web:scoresheet", kwargs={"token": token_for(group_id, meet_id)})


def scoresheet_url(request: HttpRequest, group: m.Group) -> str:
    """The absolute URL of `group`'s score sheet (for the QR code on the print sheet and TV)."""
    return request.build_absolute_uri(scoresheet_path(group))


def ids_for_token(token: str) -> tuple[int, int]:
    """(group id, meet id) of a token signed by us and younger than `MAX_AGE` (no query: the
    signature is the proof). Raises `DeadToken` for any other token."""
    try:
        value = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature as error:  # SignatureExpired is a BadSignature
        raise DeadToken("This score sheet link is not valid or has expired.") from error
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise DeadToken("This score sheet link is not valid.")
    group_id, meet_id = value
    return group_id, meet_id


def group_for_token(token: str) -> m.Group:
    """The group a live token opens (with its meet, season and league loaded).

    Raises `DeadToken` for a token that is not ours, is older than `MAX_AGE`, names a group
    that is not in the meet it names, or whose meet is not open.
    """
    group_id, meet_id = ids_for_token(token)
    group = access.sheet_group(group_id, meet_id)
    if group is not None and group.meet.status == m.Meet.Status.CLOSED:
        meet = group.meet
        raise SheetClosed(
            "This meet is over: its score sheet links no longer work.",
            results_path=reverse("web:meet", args=[meet.season.league.slug, meet.pk]),
            what=f"Meet {meet.number}",
        )
    if group is None or group.meet.status != m.Meet.Status.OPEN:
        raise DeadToken("This meet is over: its score sheet links no longer work.")
    return group


# --- a playoff match's sheet (§6): the same signed, scoped, dying token ----------------------

MATCH_SALT = "flipwell.web.playoffsheet"


def match_token(night_id: int, division: str, match: str) -> str:
    """The signed token of `match` (QF1, SF2, F...) of `division` on playoff night `night_id`
    (no query): the match's row may not exist before its first game."""
    return signing.dumps([night_id, division, match], salt=MATCH_SALT, compress=False)


def match_sheet_path(night_id: int, division: str, match: str) -> str:
    """The site-relative path of a playoff match's sheet."""
    return reverse("web:playoff_sheet", kwargs={"token": match_token(night_id, division, match)})


def night_id_for_token(token: str) -> int:
    """The playoff night id of a match sheet token signed by us and younger than `MAX_AGE`
    (no query: the signature is the proof). Raises `DeadToken` for any other token."""
    return _match_token_value(token)[0]


def _match_token_value(token: str) -> tuple[int, str, str]:
    try:
        value = signing.loads(token, salt=MATCH_SALT, max_age=MAX_AGE)
    except signing.BadSignature as error:
        raise DeadToken("This score sheet link is not valid or has expired.") from error
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not isinstance(value[0], int)
        or isinstance(value[0], bool)
        or not all(isinstance(v, str) for v in value[1:])
    ):
        raise DeadToken("This score sheet link is not valid.")
    night_id, division, match = value
    return night_id, division, match


def match_for_token(token: str) -> tuple[m.PlayoffNight, str, str]:
    """(playoff night, division, match) of a live playoff sheet token. Raises `DeadToken` for a
    token that is not ours, older than `MAX_AGE`, or whose night is closed or unknown."""
    night_id, division, match = _match_token_value(token)
    night = access.sheet_playoff_night(night_id, division)
    if night is not None and night.status == m.PlayoffNight.Status.CLOSED:
        raise SheetClosed(
            "The playoffs are over: their score sheet links no longer work.",
            results_path=reverse("web:playoffs", args=[night.season.league.slug])
            + f"?season={night.season_id}",
            what="The playoff night",
        )
    if night is None:
        raise DeadToken("The playoffs are over: their score sheet links no longer work.")
    return night, division, match
