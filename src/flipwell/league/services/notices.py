"""Use cases for a player's choice of notices (see `flipwell.league.models.notices`): an
official sets their address and notices, or the player chooses or stops them through the link
in every notice (`flipwell.league.notices.preferences_url`).

A player's choice is theirs: when they stopped every notice through the link, an official's
edit keeps them stopped (the address and kinds are saved for when the player resumes).

A subscription is the league's own: an official reads and sets it for their
league only, a player's link changes the league's that sent it, and an address left on a
personal link becomes the notices address of the link's league only.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._protocol import Actor, league_write, official_write

if TYPE_CHECKING:
    from django.contrib.auth.models import User

KINDS: tuple[str, ...] = tuple(m.NoticeKind.values)


def _kinds(kinds: Collection[str]) -> set[str]:
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise Refusal(
            {
                "kinds": f"Unknown kind of notice: {', '.join(unknown)}; choose among "
                f"{', '.join(KINDS)}."
            },
            code="unknown_notice_kind",
        )
    return set(kinds)


def set_notice_preferences(
    *,
    league: m.League,
    player: m.Player,
    email: str,
    kinds: Collection[str],
    actor: User,
) -> m.NoticeSubscription | None:
    """A league official sets `player`'s e-mail address and the notices they chose from
    `league` (the league's own subscription: another league's is neither read nor changed).

    An empty address with no kind removes the player's notices of `league` (returns None). A
    player who stopped every notice through their link stays stopped (module docstring). Side
    effects: the player's NoticeSubscription inserted, updated or deleted; an audit event
    ``notices.preferences_set`` (without the address). Raises PermissionDenied unless `actor`
    is a league official of `league`; ValidationError for a player not entered in any of its
    seasons, an address that is not one, kinds without an address, or an unknown kind.
    """
    chosen = _kinds(kinds)
    address = email.strip()
    with official_write(league=league, actor=actor, action="set a player's notices") as write:
        if not m.SeasonEntry.objects.filter(season__league=league, player=player).exists():
            raise Refusal(
                {"player": f"{player} is not entered in any season of {league}."},
                code="not_entered",
            )
        _check_address(address, player, chosen)
        row = _stored_subscription(league, player, address, chosen)
        data = {"player": player.pk, "email_given": bool(address), "kinds": sorted(chosen)}
        stopped = bool(row and row.unsubscribed_at)
        write.event("notices.preferences_set", player, {**data, "stopped_by_player": stopped})
    return row


def _check_address(address: str, player: m.Player, chosen: set[str]) -> None:
    """An address that is one, given whenever a notice is chosen."""
    if address:
        try:
            validate_email(address)
        except ValidationError as error:
            raise Refusal(
                {"email": f"{address!r} is not an e-mail address (name@example.org)."},
                code="invalid_email",
            ) from error
    elif chosen:
        raise Refusal(
            {"email": f"Give {player}'s e-mail address to send them notices."},
            code="email_required",
        )


def _stored_subscription(
    league: m.League, player: m.Player, address: str, chosen: set[str]
) -> m.NoticeSubscription | None:
    """The player's subscription of `league` set to `address` and `chosen` (locked, then
    saved); deleted, None, without an address."""
    existing = (
        m.NoticeSubscription.objects.select_for_update()
        .filter(league=league, player=player)
        .first()
    )
    if not address:
        if existing is not None:
            existing.delete()
        return None
    row = existing or m.NoticeSubscription(league=league, player=player)
    row.email = address
    for kind in KINDS:
        setattr(row, kind, kind in chosen)
    row.updated_at = timezone.now()
    row.full_clean()
    row.save()
    return row


def offer_notices(*, league: m.League, player: m.Player, email: str) -> m.NoticeSubscription | None:
    """A player gave their address on their personal link of a season of `league`: it becomes
    their address for `league`'s notices when they have none there yet, with no notice chosen
    (they choose on their notices page; every notice is opt-in). An address the official set
    up, the player's own choices, and every other league's subscription are kept. Side
    effects: a NoticeSubscription row, an audit event ``notices.offered`` in `league`. Returns
    the row, or None when `email` is empty."""
    address = email.strip()
    if not address:
        return None
    with league_write(league=league, actor=Actor.player(), action="give an address") as write:
        row, created = m.NoticeSubscription.objects.get_or_create(
            league=league, player=player, defaults={"email": address}
        )
        if created:
            write.event("notices.offered", player, {"player": player.pk})
    return row


def _link_rows(player: m.Player, league: m.League | None) -> list[m.NoticeSubscription]:
    """The subscriptions a preferences link reaches, locked: the player's in `league`, or in
    every league for an older link that names none (`flipwell.league.notices`)."""
    rows = (
        m.NoticeSubscription.objects.select_for_update(of=("self",))
        .select_related("league")
        .filter(player=player)
    )
    if league is not None:
        rows = rows.filter(league=league)
    return list(rows.order_by("league_id"))


def choose_notices_by_link(
    *, player: m.Player, league: m.League | None, kinds: Collection[str]
) -> m.NoticeSubscription:
    """The player chooses their notices of `league` through the link in its notices (`league`
    None: an older link, for every league's): no kind stops them all, any kind resumes them.
    Side effects: their NoticeSubscription updated, an audit event ``notices.chosen_by_player``
    in its league. Returns the (first) row. Raises ValidationError for a player without an
    address there (the link is only sent to players who have one) or an unknown kind."""
    chosen = _kinds(kinds)
    with league_write(league=league, actor=Actor.player(), action="choose notices") as write:
        rows = _link_rows(player, league)
        if not rows:
            raise ConflictError(
                f"{player} has no e-mail address for notices: the league official adds it.",
                code="no_email_address",
            )
        now = timezone.now()
        for row in rows:
            for kind in KINDS:
                setattr(row, kind, kind in chosen)
            row.unsubscribed_at = None if chosen else now
            row.updated_at = now
            row.save()
            data = {"player": player.pk, "kinds": sorted(chosen)}
            write.event("notices.chosen_by_player", player, data, league=row.league)
    return rows[0]


def unsubscribe_by_link(
    *, player: m.Player, league: m.League | None
) -> m.NoticeSubscription | None:
    """The player stops every notice of `league` through the link in its notices (or their
    mail program's unsubscribe button; `league` None: an older link, every league's). Nothing
    queued for them from there is sent from then on. Side effects: `unsubscribed_at` set (kept
    when already set), an audit event ``notices.unsubscribed`` in its league. Returns the
    (first) row, or None for a player without an address there (nothing to stop)."""
    with league_write(league=league, actor=Actor.player(), action="stop notices") as write:
        rows = _link_rows(player, league)
        for row in rows:
            if row.unsubscribed_at is None:
                row.unsubscribed_at = row.updated_at = timezone.now()
                row.save(update_fields=["unsubscribed_at", "updated_at"])
                write.event(
                    "notices.unsubscribed", player, {"player": player.pk}, league=row.league
                )
    return rows[0] if rows else None
