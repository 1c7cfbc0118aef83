"""A player's own view through their personal link (`flipwell.league.selectors.player_links`):
their coming meets and notices, tonight's group, their season; and what they may send."""

from __future__ import annotations

import datetime
from typing import Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import InputSchema, text_field
from flipwell.api.schemas.standings import PlayerHistoryOut


class ComingMeetOut(Schema):
    number: int = Field(..., description="The meet's number in the season.")
    start: datetime.datetime = Field(
        ..., description="Its scheduled start, in the league's time: the notices' deadline."
    )
    status: Literal["planned", "open"] = Field(..., description="planned or open.")
    absence_told_at: datetime.datetime | None = Field(
        ..., description="When the player's absence was told (R3.1-d); null: not told."
    )
    lateness_told_at: datetime.datetime | None = Field(
        ..., description="When the player's lateness was told (R2.2-a); null: not told."
    )
    can_announce_absence: bool = Field(
        ..., description="An absence may still be told through the link (before the start)."
    )
    can_announce_lateness: bool = Field(
        ..., description="A lateness may still be told through the link (before the start)."
    )


class TonightGroupOut(Schema):
    meet: int = Field(..., description="The open meet's number.")
    number: int = Field(..., description="The player's group, 1 = top of the ladder.")
    players: list[str] = Field(..., description="The group's players, in game 1's play order.")


class MeOut(Schema):
    player: str = Field(..., description="The link's player.")
    league: str = Field(..., description="The league's name.")
    season: str = Field(..., description="The link's season.")
    email: str = Field(..., description="The email address the player gave (private); or ''.")
    meets: list[ComingMeetOut] = Field(..., description="The season's meets not closed yet.")
    group: TonightGroupOut | None = Field(
        ..., description="The player's group at the open meet; null: none drawn yet."
    )
    rank: int | None = Field(..., description="Their place in the standings.")
    history: PlayerHistoryOut = Field(
        ..., description="Their season: every meet, game and point explained with its rule."
    )


class MeAbsenceOut(Schema):
    meet: int = Field(..., description="The meet's number.")
    recorded_at: datetime.datetime = Field(..., description="When the absence was received.")


class MeEmailIn(InputSchema):
    email: str = text_field("An email address, or '' to remove it (private).", max_length=254)


class MeEmailOut(Schema):
    email: str = Field(..., description="The email address saved; '' when removed.")
