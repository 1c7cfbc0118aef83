"""Special rulings (Appendix A)."""

from __future__ import annotations

from ninja import Field, Schema

from flipwell.api.schemas.common import InputSchema, text_field
from flipwell.league import enums, limits


class SpecialRulingOut(Schema):
    ruling_id: str = Field(..., description="Title and number ('Ghostbusters #1').")
    machine: str = Field(..., description="The machine title it is about.")
    kind: enums.SpecialRulingKindValue = Field(
        ...,
        description="not_a_malfunction, major_malfunction, positive_malfunction or "
        "not_an_extra_ball (RA-a).",
    )
    text: str = Field(..., description="The ruling.")
    reproduction: str = Field(..., description="How to reproduce it (RA-e).")
    cause_and_effect: str = Field(..., description="Its cause and effect (RA-e).")
    version: int = Field(..., description="Version; the highest is in force.")


class SpecialRulingPage(Schema):
    results: list[SpecialRulingOut] = Field(..., description="This page's rulings.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


SpecialRulingKind = enums.SpecialRulingKindValue


class SpecialRulingIn(InputSchema):
    machine_title: str = text_field(
        "The machine title.", min_length=1, max_length=limits.TITLE_LENGTH
    )
    kind: SpecialRulingKind = Field(..., description="What the glitch is (RA-a).")
    text: str = text_field("The ruling.", min_length=1, max_length=limits.RULING_TEXT_LENGTH)
    reproducible: bool = Field(..., description="The glitch can be reproduced (RA-e).")
    reproduction: str = text_field(
        "How to reproduce it (RA-e).", max_length=limits.RULING_TEXT_LENGTH
    )
    cause_and_effect: str = text_field(
        "Its cause and effect (RA-e).", max_length=limits.RULING_TEXT_LENGTH
    )


class AmendRulingIn(SpecialRulingIn):
    number: int = Field(
        ..., ge=1, le=32767, description="The ruling's number for its title ('Title #number')."
    )
    reason: str = text_field("Why it changes (required).", min_length=1)


class CopyRulingIn(InputSchema):
    league: str = Field(
        ...,
        min_length=1,
        max_length=60,
        pattern=r"^[-a-zA-Z0-9_]+$",
        description="The slug of the league whose ruling is copied.",
    )
    machine_title: str = text_field(
        "The title of the ruling copied.", min_length=1, max_length=limits.TITLE_LENGTH
    )
    number: int = Field(..., ge=1, le=32767, description="Its number for its title in that league.")
