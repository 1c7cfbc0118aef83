"""Ratings (`flipwell.league.selectors.ratings`): a person's Glicko-2 rating from every group
game, its history and his rivals. A rating is not a standing: the standings alone decide the
playoffs."""

from __future__ import annotations

import datetime

from ninja import Field, Schema

from flipwell.api.schemas.common import PlayerRefOut
from flipwell.api.schemas.people import SeasonNameOut


class RatingOut(Schema):
    player: PlayerRefOut = Field(..., description="The person (their own player row).")
    rating: int = Field(..., description="The rating (a new player starts at 1500).")
    deviation: int = Field(
        ..., description="How unsure the rating is (350 for a new player; smaller is surer)."
    )
    low: int = Field(
        ..., description="The low end of the 95% range (the rating less ~2 deviations)."
    )
    high: int = Field(..., description="The high end of the 95% range.")
    words: str = Field(..., description='The rating in plain words: "about 1,650 ± 120".')
    games: int = Field(..., description="Pairwise results the rating rests on.")


class RatingPage(Schema):
    results: list[RatingOut] = Field(..., description="This page's ratings, best first.")
    next: str | None = Field(..., description="URL of the next page; null on the last page.")


class RatingStepOut(Schema):
    season: SeasonNameOut = Field(..., description="The season of the meet.")
    meet: int = Field(..., description="The meet's number in its season.")
    date: datetime.date = Field(..., description="The meet's date.")
    rating: int = Field(..., description="The rating after the meet.")
    deviation: int = Field(..., description="The deviation after the meet.")


class RivalOut(Schema):
    rival: PlayerRefOut = Field(..., description="The rival (their own player row).")
    games: int = Field(..., description="Pairwise results against the rival.")
    expected: float = Field(
        ..., description="Wins the ratings before each meet expected (a tie counts a half)."
    )
    actual: float = Field(..., description="Wins: placed higher (a tie counts a half).")


class PlayerRatingOut(Schema):
    current: RatingOut | None = Field(..., description="The rating now; null before any meet.")
    history: list[RatingStepOut] = Field(..., description="After each meet, oldest first.")
    rivals: list[RivalOut] = Field(..., description="Each rival, most results first.")
