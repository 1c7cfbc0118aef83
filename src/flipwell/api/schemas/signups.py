"""The question about the next season, its answers and the newcomers' sign-ups (see
flipwell.league.models.signups)."""

from __future__ import annotations

import datetime
from typing import Literal

from ninja import Field, Schema

AnswerValue = Literal["yes", "no", "maybe"]
DecisionValue = Literal["", "accepted", "refused"]


class SeasonCallOut(Schema):
    name: str = Field(..., description="The next season's name, as the question says it.")
    weekday: int = Field(..., description="Its league night: 0 is Monday, 6 Sunday.")
    starts_on: datetime.date = Field(..., description="Its first meet's date.")
    dues_cents: int = Field(..., description="Its dues, in cents.")
    signups_open: bool = Field(..., description="Whether the public sign-up form is open.")
    asked_at: datetime.datetime = Field(..., description="When the official asked.")
    built_season_id: int | None = Field(
        ..., description="The season built from the answers; null until it is built."
    )


class AnswerOut(Schema):
    player_id: int = Field(..., description="A player of the season asked.")
    player: str = Field(..., description="Their name.")
    answer: AnswerValue | None = Field(
        ..., description="Their latest answer (maybe: not sure); null before they answer."
    )
    answered_at: datetime.datetime | None = Field(..., description="When they gave it.")
    changes: int = Field(..., description="How many answers they gave before it.")


class SignUpOut(Schema):
    id: int = Field(..., description="The sign-up's id.")
    first_name: str = Field(..., description="The newcomer's first name.")
    last_name: str = Field(..., description="The newcomer's last name.")
    email: str = Field(..., description="The newcomer's address (private).")
    ifpa_number: int | None = Field(..., description="Their IFPA number; null when none.")
    received_at: datetime.datetime = Field(..., description="When it was sent.")
    decision: DecisionValue = Field(
        ..., description="accepted, refused, or empty while the official has not decided."
    )
    decided_at: datetime.datetime | None = Field(..., description="When it was decided.")
    reason: str = Field(..., description="Why it was refused; empty otherwise.")


class NextSeasonOut(Schema):
    season_id: int = Field(..., description="The season whose players are asked.")
    call: SeasonCallOut | None = Field(
        ..., description="The question about the next season; null before it is asked."
    )
    answers: list[AnswerOut] = Field(
        ..., description="Every player of the season with their answer, by name."
    )
    signups: list[SignUpOut] = Field(..., description="The newcomers' sign-ups, oldest first.")
