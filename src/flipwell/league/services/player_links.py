"""Personal links (see `flipwell.league.models.player_links`): the official issues, reissues
and revokes them; the player, through theirs, announces an absence or lateness and leaves an
email address.

Words:
- *token*: what the link's URL carries, ``<key>:<signature>``: the link's random key signed
  with SECRET_KEY under a salt of its own (`django.core.signing.Signer`), so a forged or
  mistyped token is refused before any query, and a token made for another purpose (a score
  sheet, a session) is never accepted here.
- *received*: when the server got the player's notice; it is the notice's time, the same
  ``recorded_at`` as when the LO types in what a player told him (R2.2-a).
- *deadline*: a meet's scheduled start (`flipwell.league.selectors.meet_times.scheduled_start`).
  Through a link, an absence or lateness is told only before it (R2.2-a, R3.1-d); after it the
  player tells the LO, who records what and when he was told.
"""

from __future__ import annotations

import datetime
import secrets
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.player_link_tokens import DeadLinkError, key_of
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.league.services._protocol import Actor, Write, league_write, official_write
from flipwell.league.services.meets.announcements import (
    AnnouncedLateness,
    _record_absence,
    _record_lateness,
    _withdraw,
)
from flipwell.league.services.notices import offer_notices

if TYPE_CHECKING:
    from django.contrib.auth.models import User

KEY_BYTES = 16
"""128 random bits: unguessable, and short enough for a QR code a phone reads at once."""


EMAIL_MAX_LENGTH = 254
"""The EmailField's length (RFC 5321's limit)."""


def live_link(token: str) -> m.PlayerLink:
    """The live link a token opens (with its player, season and league loaded); DeadLinkError for
    a forged token or a revoked link."""
    link = (
        m.PlayerLink.objects.select_related("player", "season__league")
        .filter(key=key_of(token))
        .first()
    )
    if link is None or link.revoked_at is not None:
        raise DeadLinkError(
            "This personal link no longer works: ask a league official for your new link."
        )
    return link


def issue_player_link(*, season: m.Season, player: m.Player, actor: User) -> m.PlayerLink:
    """Issue `player`'s personal link for `season`, revoking the one they had (a reissue keeps
    the email address they gave).

    Side effects: the old link (if any) is revoked with an audit event ``player_link.revoked``;
    a new PlayerLink and an audit event ``player_link.issued``. Raises PermissionDenied unless
    `actor` is a league official of the season's league; ValidationError when the player is
    not entered in the season.
    """
    league = season.league
    with official_write(league=league, actor=actor, action="issue personal links") as write:
        if not m.SeasonEntry.objects.filter(season=season, player=player).exists():
            raise Refusal(
                {"player": f"{player} is not entered in {season.name}."}, code="not_entered"
            )
        old = (
            m.PlayerLink.objects.select_for_update()
            .filter(season=season, player=player, revoked_at__isnull=True)
            .first()
        )
        email = ""
        if old is not None:
            email = old.email
            _revoke(write, old, reason="reissued")
        link = m.PlayerLink.objects.create(
            season=season,
            player=player,
            key=secrets.token_urlsafe(KEY_BYTES),
            email=email,
            created_by=actor,
        )
        write.event(
            "player_link.issued",
            link,
            {"season": season.pk, "player": player.pk, "replaces": old.pk if old else None},
        )
    return link


def issue_player_links(*, season: m.Season, actor: User) -> list[m.PlayerLink]:
    """Issue a personal link to every player of `season`'s roster who has none (a link
    already live keeps working: reissue one alone), for one printed sheet of QR codes.

    Side effects, in one transaction: a PlayerLink and an audit event ``player_link.issued``
    each. Returns the links issued (none when every player has one). Raises
    PermissionDenied unless `actor` is a league official of the season's league.
    """
    league = season.league
    with official_write(league=league, actor=actor, action="issue personal links") as write:
        has_one = m.PlayerLink.objects.select_for_update().filter(
            season=season, revoked_at__isnull=True
        )
        linked = set(has_one.values_list("player_id", flat=True))
        players = [
            player_id
            for player_id in season.entries.order_by("pk").values_list("player_id", flat=True)
            if player_id not in linked
        ]
        issued = m.PlayerLink.objects.bulk_create(
            [
                m.PlayerLink(
                    season=season,
                    player_id=player_id,
                    key=secrets.token_urlsafe(KEY_BYTES),
                    created_by=actor,
                )
                for player_id in players
            ]
        )
        for link in issued:
            write.event(
                "player_link.issued",
                link,
                {"season": season.pk, "player": link.player_id, "replaces": None},
            )
    return issued


def revoke_player_link(*, link: m.PlayerLink, actor: User) -> m.PlayerLink:
    """Revoke a personal link: it is refused from now on (the row stays, for the record).

    Side effects: sets revoked_at and revoked_by, an audit event ``player_link.revoked``.
    Raises PermissionDenied unless `actor` is a league official of the link's league;
    ValidationError when it is already revoked.
    """
    league = m.League.objects.get(seasons=link.season_id)
    with official_write(league=league, actor=actor, action="revoke personal links") as write:
        link = (
            m.PlayerLink.objects.select_for_update()
            .select_related("player", "season__league")
            .get(pk=link.pk)
        )
        if link.revoked_at is not None:
            raise ConflictError(
                f"{link.player}'s link was already revoked.", code="link_already_revoked"
            )
        _revoke(write, link, reason="revoked")
    return link


def _revoke(write: Write, link: m.PlayerLink, *, reason: str) -> None:
    link.revoked_at = timezone.now()
    link.revoked_by = write.actor
    link.save(update_fields=["revoked_at", "revoked_by"])
    write.event(
        "player_link.revoked",
        link,
        {"season": link.season_id, "player": link.player_id, "why": reason},
    )


def set_player_link_email(*, link: m.PlayerLink, email: str) -> m.PlayerLink:
    """The player gives (or, with an empty string, removes) their email address.

    The address is private: officials and the player see it, public pages never do. Side
    effects: saves it on the link and an audit event ``player_link.email_set`` (without the
    address); it becomes their address for the notices of the link's league if they have
    none there (`offer_notices`, nothing chosen; no other league's). Raises ValidationError
    for an invalid address or a revoked link.
    """
    address = email.strip()
    if address:
        try:
            validate_email(address)
        except ValidationError as error:
            raise Refusal(
                {"email": f"{address!r} is not an email address (like name@example.org)."},
                code="invalid_email",
            ) from error
        if len(address) > EMAIL_MAX_LENGTH:
            raise Refusal({"email": "This email address is too long."}, code="email_too_long")
    with _link_write(link, action="give an email address") as write:
        link = _locked_live(link)
        link.email = address
        link.save(update_fields=["email"])
        write.event(
            "player_link.email_set", link, {"player": link.player_id, "has_email": bool(address)}
        )
        offer_notices(league=link.season.league, player=link.player, email=address)
    return link


def announce_absence_by_link(
    *, link: m.PlayerLink, meet: m.Meet, received_at: datetime.datetime | None = None
) -> m.AnnouncedAbsence:
    """The player tells, through their link, that they will miss `meet` (R2-b, R3.1-d).

    The same fact as when the LO records it (`announce_absence`, in
    `flipwell.league.services.meets.announcements`),
    received at `received_at` (default now; tests pass it) and naming the link instead of an
    official. Only for a meet of the link's season, before its scheduled start and before it
    starts. Side effects: an AnnouncedAbsence and an audit event ``meet.absence_announced``.
    Raises ValidationError for a revoked link, a meet of another season, a notice after the
    start time, or an absence already recorded.
    """
    now = received_at or timezone.now()
    with _link_write(link, action="announce an absence"):
        link = _locked_live(link)
        meet = _own_meet(link, meet)
        _before_start(meet, now, what="an absence")
        return _record_absence(
            meet=meet, player=link.player, actor=None, link=link, received_at=now
        )


def announce_lateness_by_link(
    *, link: m.PlayerLink, meet: m.Meet, received_at: datetime.datetime | None = None
) -> AnnouncedLateness:
    """The player tells, through their link, that they will be late to `meet` (R2.2-a): told
    before the start time, their group waits up to 15 minutes (A59).

    The same fact as when the LO records it (`announce_lateness`, in
    `flipwell.league.services.meets.announcements`),
    told at `received_at` (default now; tests pass it). Only for a meet of the link's season,
    before its scheduled start. Side effects: a LatenessNotice and an audit event
    ``meet.lateness_announced``. Raises ValidationError for a revoked link, a meet of another
    season, a notice after the start time, or a notice already recorded.
    """
    now = received_at or timezone.now()
    with _link_write(link, action="announce a lateness"):
        link = _locked_live(link)
        meet = _own_meet(link, meet)
        _before_start(meet, now, what="a lateness notice")
        return _record_lateness(meet=meet, player=link.player, told=now, actor=None, link=link)


def withdraw_announcement_by_link(
    *,
    link: m.PlayerLink,
    meet: m.Meet,
    kind: str,
    received_at: datetime.datetime | None = None,
) -> m.AnnouncedAbsence | m.LatenessNotice:
    """The player withdraws, through their link, their announced absence or lateness
    (`kind`): they will be there on time after all (R3.1-d, R2.2-a).

    Only for a meet of the link's season, before its scheduled start and before it starts.
    The same withdrawal as the LO's (`withdraw_announcement`, in
    `flipwell.league.services.meets.announcements`).
    Side effects: deletes the announcement, an audit event ``meet.absence_withdrawn`` or
    ``meet.lateness_withdrawn`` naming the link. Raises ValidationError for a revoked link, a
    meet of another season, after the start, or nothing announced.
    """
    now = received_at or timezone.now()
    with _link_write(link, action="withdraw an announcement"):
        link = _locked_live(link)
        meet = _own_meet(link, meet)
        _before_start(meet, now, what="a withdrawal")
        return _withdraw(meet=meet, player=link.player, kind=kind, actor=None, link=link)


def _link_write(link: m.PlayerLink, *, action: str) -> AbstractContextManager[Write]:
    """The write of the player through their personal link (`Actor.player`, no account):
    the link itself is checked after its lock (`_locked_live`); the season's facts, when the
    write changes any, are refolded by the meet's own services it calls."""
    league = m.League.objects.get(seasons=link.season_id)
    return league_write(league=league, actor=Actor.player(), action=action)


def _locked_live(link: m.PlayerLink) -> m.PlayerLink:
    locked = (
        m.PlayerLink.objects.select_for_update()
        .select_related("player", "season__league")
        .get(pk=link.pk)
    )
    if locked.revoked_at is not None:
        raise ConflictError(
            "This personal link no longer works: ask a league official for your new link.",
            code="link_revoked",
        )
    return locked


def _own_meet(link: m.PlayerLink, meet: m.Meet) -> m.Meet:
    locked = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
    if locked.season_id != link.season_id:
        raise Refusal(
            {"meet": f"This link is for {link.season.name}; that meet is not one of its meets."},
            code="meet_of_another_season",
        )
    return locked


def _before_start(meet: m.Meet, now: datetime.datetime, *, what: str) -> None:
    if meet.status != m.Meet.Status.PLANNED:  # started early: under way all the same
        raise ConflictError(
            {
                "meet": f"Meet {meet.number} has started: {what} is told through this link "
                "only before it starts. Tell a league official instead."
            },
            code="meet_already_started",
        )
    start = scheduled_start(meet)
    if now >= start:
        raise ConflictError(
            {
                "meet": f"Meet {meet.number} started at {start:%H:%M} on {start:%a %d %b}: "
                f"{what} is told through this link only before the start time (R2.2-a). "
                "Tell a league official instead."
            },
            code="meet_start_passed",
        )
