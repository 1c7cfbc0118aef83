"""A player's e-mail notices and a league's notice queue (see flipwell.league.models.notices)."""

from __future__ import annotations

import datetime

from ninja import Field, Schema

from flipwell.api.schemas.common import InputSchema
from flipwell.league.enums import NoticeKindValue, NoticeStateValue


class NoticePreferencesIn(InputSchema):
    email: str = Field(
        ...,
        max_length=254,
        pattern=r"^[^\x00]*$",
        description="The player's e-mail address; empty, with no kinds, removes their notices.",
    )
    kinds: list[NoticeKindValue] = Field(
        ...,
        max_length=4,
        description="The notices the player chose: groups (when a meet starts), results (when "
        "it closes), reminder (before each meet), ruling (an official's ruling on them).",
    )


class NoticePreferencesOut(Schema):
    player_id: int = Field(..., description="The player.")
    player: str = Field(..., description="The player's name.")
    email: str = Field(..., description="Their address for notices; empty when none.")
    kinds: list[NoticeKindValue] = Field(..., description="The notices they chose.")
    unsubscribed_at: datetime.datetime | None = Field(
        ...,
        description="When the player stopped every notice through their link (only they can "
        "resume them); null when they did not.",
    )
    sending: bool = Field(
        ...,
        description="Whether this installation sends notices "
        "(NOTICES_EMAIL on and FLIPWELL_SITE_URL set).",
    )


class NoticeOut(Schema):
    id: int = Field(..., description="The notice's id.")
    player_id: int = Field(..., description="The player it is for.")
    player: str = Field(..., description="The player's name.")
    kind: NoticeKindValue = Field(..., description="What it is about.")
    meet_id: int | None = Field(..., description="The meet it is about, when one.")
    subject: str = Field(..., description="The e-mail's subject.")
    state: NoticeStateValue = Field(
        ...,
        description="pending (waiting for `flipwell work`), sent, failed (every attempt "
        "failed) or skipped (the player stopped that notice after it was queued).",
    )
    attempts: int = Field(..., description="Attempts to send it so far.")
    next_attempt_at: datetime.datetime = Field(..., description="When it is tried next.")
    last_error: str = Field(..., description="Why the last attempt failed; empty when none.")
    created_at: datetime.datetime = Field(..., description="When it was queued.")
    sent_at: datetime.datetime | None = Field(..., description="When it was sent.")


class NoticeQueueOut(Schema):
    sending: bool = Field(
        ...,
        description="Whether this installation sends notices "
        "(NOTICES_EMAIL on and FLIPWELL_SITE_URL set).",
    )
    counts: dict[NoticeStateValue, int] = Field(
        ..., description="How many of the league's notices are in each state."
    )
    latest: list[NoticeOut] = Field(..., description="The latest 50 notices, newest first.")
