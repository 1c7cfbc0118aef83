"""An official's second thoughts about a league night: withdrawing an announced absence or
lateness, or a player's absence for the rest of his match; making a forfeit non-countable;
removing a closed meet's photos.

Each input schema's attribute names are the keyword names of the service it is passed to
(`flipwell.league.services`), so an endpoint hands it over whole.
"""

from __future__ import annotations

import datetime
from typing import Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import InputSchema, id_field, text_field


class NoticeWithdrawalIn(InputSchema):
    player: int = id_field("The player whose announcement is withdrawn.")
    kind: Literal["absence", "lateness"] = Field(
        ...,
        description="What he had announced: an absence (R3.1-d) or a lateness (R2.2-a).",
    )


class NoticeWithdrawalOut(Schema):
    """Read from the withdrawn (deleted) `AnnouncedAbsence` or `LatenessNotice`."""

    meet_id: int = Field(..., description="The meet's id.")
    player_id: int = Field(..., description="The player's id.")
    told_at: datetime.datetime = Field(
        ..., validation_alias="recorded_at", description="When the withdrawn notice was told."
    )


class MatchAbsenceWithdrawalIn(InputSchema):
    player: int = id_field("The player recorded absent for the rest of the match by mistake.")
    reason: str = text_field("Why (required): he is here after all.", min_length=1)


class MatchAbsenceWithdrawalOut(Schema):
    """Read from the withdrawn (deleted) `MatchAbsence`."""

    group_id: int = Field(..., description="The group's id.")
    player_id: int = Field(..., description="The player's id.")
    from_game: int = Field(..., description="The first game the withdrawn absence covered.")


class NonCountableIn(InputSchema):
    player: int = id_field("The player who forfeited the game.")
    reason: str = text_field("Why it does not count (required, R2.4-g).", min_length=1)


class PhotoRemovalIn(InputSchema):
    reason: str = text_field("Why the photos are removed (required).", min_length=1)


class PhotoRemovalOut(Schema):
    meet_id: int = Field(..., description="The meet's id.")
    removed: int = Field(..., description="How many photos were removed now.")
