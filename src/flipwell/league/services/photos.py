"""Photos of a machine's score display, attached to a game's entry, and their removal.

Words: see `flipwell.league.models.photos` (score photo, key, removed) and
`flipwell.league.photos` (clean photo, limits). A photo is evidence beside the numbers typed:
it never changes a score, so no season is refolded; the league's pages that show it get a new
revision (`league_changed`), so the confirmer's phone shows it at its next look.
"""

from __future__ import annotations

import secrets
from typing import IO, TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.photos import (
    PHOTOS_PER_GAME,
    CleanPhoto,
    clean_photo,
    max_meet_bytes,
    megabytes,
)
from flipwell.league.rate_limits import count, counted, seconds_left
from flipwell.league.refusals import ConflictError, RateLimitedError, Refusal
from flipwell.league.services._edge import (
    MeetHold,
    group_player_ids,
    hold_meet,
    league_changed,
    open_meet,
    require_member,
)
from flipwell.league.services._protocol import Actor, Write, league_write, official_write

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = ["attach_photo", "remove_meet_photos"]


def attach_photo(
    *,
    game: m.Game,
    photo: IO[bytes],
    size: int,
    uploaded_by: m.Player | None = None,
    actor: User | None = None,
    idempotency_key: str = "",
    submitter: str = "",
) -> m.ScorePhoto:
    """Attach a photo of the machine's display to `game`, before or after its scores are
    typed, while its meet is open. `photo` is the file as sent (`size` bytes); it is decoded,
    turned upright, shrunk and stored as a clean JPEG under a random key
    (`flipwell.league.photos.clean_photo`). `uploaded_by`: the player of the group who took
    it (None: sent by an official's account, `actor`, or a player who did not say). A photo
    sent again with the same `idempotency_key` by the same `submitter` (``sheet:<group id>``,
    ``token:<token id>``) in the league returns the photo kept the first time.

    Side effects: the file in storage, a ScorePhoto, an audit event ``photo.attached``, a new
    league revision. ValidationError (nothing kept) when it is not an image, is over the
    photo limit, the game already has `PHOTOS_PER_GAME`, the meet's photos would pass the
    meet limit, `uploaded_by` is not in the group; ConflictError when the meet is not open.

    Refused photos count: a game takes ``PHOTO_REFUSALS_PER_GAME`` photos refused as unreadable,
    too large or with too many pixels in an hour; past that every photo sent to it is refused
    unread until the hour ends (`REFUSALS_WINDOW`; `RateLimitedError` ``too_many_photos``), so
    a sender cannot have file after costly file decoded. A refusal for the game's or meet's
    room does not count: nothing was decoded in vain.
    """
    _check_refusals(game)
    try:
        clean = clean_photo(photo, size=size)  # before any lock: decoding takes a moment
    except ValidationError:
        _count_refusal(game)
        raise
    with league_write(league=None, actor=Actor.player(actor), action="attach a photo") as write:
        game = _held_game(game.pk)
        write.league = game.group.meet.season.league
        scope = f"{game.group.meet.season.league_id}:{submitter}"
        if idempotency_key:
            kept = m.ScorePhoto.objects.filter(
                idempotency_scope=scope, idempotency_key=idempotency_key, game=game
            ).first()
            if kept is not None:
                return kept
        open_meet(game.group.meet, doing="attach a photo")
        if uploaded_by is not None:
            members = group_player_ids(game.group)
            require_member(uploaded_by, members, field="uploaded_by", group=game.group)
        _check_room(game, clean)
        row = m.ScorePhoto(
            game=game, key=secrets.token_urlsafe(36), uploaded_by=uploaded_by, recorded_by=actor,
            width=clean.width, height=clean.height, bytes=len(clean.content),
            idempotency_key=idempotency_key, idempotency_scope=scope if idempotency_key else "",
        )  # fmt: skip
        return _store(write, row, clean)


def _held_game(game_id: int) -> m.Game:
    """The game locked for a photo, its meet held shared (`MeetHold.SCORES`: photos and
    score sheets of a meet are written side by side)."""
    hold_meet(MeetHold.SCORES, game=game_id)
    return (
        m.Game.objects.select_for_update(of=("self",))
        .select_related("group__meet__season__league")
        .get(pk=game_id)
    )


REFUSALS_WINDOW = 3600
"""Seconds over which a game's refused photos are counted (in the shared cache:
`flipwell.league.rate_limits`)."""


def _check_refusals(game: m.Game) -> None:
    """Refuse, unread, a photo for a game that refused ``PHOTO_REFUSALS_PER_GAME`` this hour."""
    refused = counted("photo-refusals", game.pk, window=REFUSALS_WINDOW)
    if refused >= int(settings.PHOTO_REFUSALS_PER_GAME):
        raise RateLimitedError(
            {"photo": "Too many photos sent to this game could not be kept: try again in an hour."},
            code="too_many_photos",
            retry_after=seconds_left(REFUSALS_WINDOW),
        )


def _count_refusal(game: m.Game) -> None:
    count("photo-refusals", game.pk, window=REFUSALS_WINDOW)


def _check_room(game: m.Game, clean: CleanPhoto) -> None:
    """Refuse a photo beyond `PHOTOS_PER_GAME` or the meet's limit."""
    kept = m.ScorePhoto.objects.filter(removed_at__isnull=True)
    if kept.filter(game=game).count() >= PHOTOS_PER_GAME:
        raise ConflictError(
            {"photo": f"Game {game.number} already has {PHOTOS_PER_GAME} photos: that is all."},
            code="game_photos_full",
        )
    used = kept.filter(game__group__meet=game.group.meet_id).aggregate(total=Sum("bytes"))
    limit = max_meet_bytes()
    if (used["total"] or 0) + len(clean.content) > limit:
        raise ConflictError(
            {
                "photo": f"This meet's photos already take {megabytes(used['total'] or 0)} of "
                f"the {megabytes(limit)} allowed per meet: ask the league official."
            },
            code="meet_photos_full",
        )


def _store(write: Write, row: m.ScorePhoto, clean: CleanPhoto) -> m.ScorePhoto:
    """The clean photo's file and `row`, its audit event and the league's new revision (a
    photo changes no number: nothing is refolded); the file is deleted again when the row
    cannot be written."""
    game = row.game
    name = default_storage.save(row.storage_name, ContentFile(clean.content))
    try:
        if name != row.storage_name:
            raise RuntimeError(f"the storage renamed a new photo: {name}")
        row.save()
        league = game.group.meet.season.league
        write.event(
            "photo.attached",
            row,
            {
                "game": game.pk,
                "uploaded_by": row.uploaded_by_id,
                "bytes": row.bytes,
                "width": row.width,
                "height": row.height,
            },
        )
        league_changed(league.pk)
    except BaseException:
        default_storage.delete(name)
        raise
    return row


def remove_meet_photos(*, meet: m.Meet, reason: str, actor: User) -> int:
    """An official removes every photo of a closed meet (after the season, say): their files
    are deleted once the write commits; each row stays, marked removed with who and when.
    Returns how many were removed.

    Side effects: a ruling ``photos_removed`` (who, when, `reason`), an audit event
    ``photos.removed`` on the meet, a new league revision. ValidationError when the meet is
    still open or planned (its photos may still settle a score) or `reason` is empty.
    """
    league = meet.season.league
    with official_write(league=league, actor=actor, action="remove a meet's photos") as write:
        meet = m.Meet.objects.select_for_update().get(pk=meet.pk)
        if meet.status != m.Meet.Status.CLOSED:
            raise ConflictError(
                f"Meet {meet.number} is not closed: its photos may still settle a score.",
                code="meet_not_closed",
            )
        if not reason.strip():
            raise Refusal({"reason": "Say why the photos are removed."}, code="reason_required")
        photos = list(
            m.ScorePhoto.objects.select_for_update()
            .filter(game__group__meet=meet, removed_at__isnull=True)
            .order_by("pk")
        )
        m.ScorePhoto.objects.filter(pk__in=[p.pk for p in photos]).update(
            removed_at=timezone.now(), removed_by=actor
        )
        names = [p.storage_name for p in photos]
        transaction.on_commit(lambda: _delete_files(names))
        write.ruling(
            kind="photos_removed",
            subject=f"The score photos of meet {meet.number}",
            reason=reason.strip(),
        )
        write.event("photos.removed", meet, {"photos": [p.pk for p in photos], "reason": reason})
        league_changed(league.pk)
    return len(photos)


def _delete_files(names: list[str]) -> None:
    for name in names:
        default_storage.delete(name)
