"""The IFPA submission preview (who the IFPA file lists, who it leaves out, why) and the
season's IFPA compliance checks."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import InputSchema, PlayerRefOut, text_field
from flipwell.league.selectors.ifpa import SeasonIfpaCompliance
from flipwell.rules import IFPA_DEFAULTS, PARAMETER_BOUNDS, IfpaCheck


class IfpaLineOut(Schema):
    position: int | None = Field(
        ..., description="His position in the IFPA file; null: he is left out of it."
    )
    player: PlayerRefOut = Field(..., description="The player.")
    ifpa_number: int | None = Field(..., description="His IFPA number; null: he has none.")
    meets_attended: int = Field(..., description="Meets at which he played a game (R2-b).")
    reason: Literal["attended", "finalist", "below_attendance"] = Field(
        ...,
        description="attended: at least the threshold; finalist: below it but reached the "
        "finals; below_attendance: left out.",
    )
    why: str = Field(..., description="The reason in words.")


class IfpaPreviewOut(Schema):
    results: Literal["regular_season", "post_finals"] = Field(
        ..., description="The positions the file reports (never both kinds)."
    )
    playoffs_complete: bool = Field(
        ..., description="Whether every playoff final is complete (post-finals possible)."
    )
    meets_played: int = Field(..., description="The meets played so far.")
    threshold: int = Field(..., description="Meets a player must attend to be listed.")
    included: list[IfpaLineOut] = Field(..., description="The file's players, best first.")
    left_out: list[IfpaLineOut] = Field(..., description="The players left out, with why.")


class IfpaCheckFigureOut(Schema):
    name: str = Field(..., description="What the figure is, in words.")
    value: str = Field(..., description="The figure as a person reads it (12, 72%, USD 3.00).")


class IfpaCheckOut(Schema):
    name: Literal[
        "sessions_held",
        "sessions_counted",
        "attendance",
        "direct_play",
        "finals_share",
        "tgp",
        "fee",
    ] = Field(..., description="Which check.")
    passed: bool = Field(
        ...,
        description="A requirement: met. An estimate: the TGP reaches its ceiling; always "
        "true for the fee.",
    )
    estimate: bool = Field(
        ..., description="True for a figure to know (TGP, fee) rather than a requirement."
    )
    figures: list[IfpaCheckFigureOut] = Field(..., description="The numbers the check read.")
    rule: str = Field(..., description="The IFPA rule, in short.")
    source: str = Field(..., description="The address of the IFPA page the rule is on.")
    explanation: str = Field(..., description="What the check found, in plain words.")

    @staticmethod
    def resolve_figures(obj: IfpaCheck) -> list[dict[str, str]]:
        return [{"name": name, "value": value} for name, value in obj.figures]

    @staticmethod
    def resolve_rule(obj: IfpaCheck) -> str:
        return obj.source.rule

    @staticmethod
    def resolve_source(obj: IfpaCheck) -> str:
        return obj.source.url


def _bounded(name: str, description: str) -> Any:
    """A query parameter of `IfpaParameters` with its bounds; absent: the league's figure."""
    bounds = PARAMETER_BOUNDS[name]
    return Field(
        None,
        ge=bounds.low,
        le=bounds.high,
        description=f"{description} Absent: the league's figure (the IFPA's is "
        f"{getattr(IFPA_DEFAULTS, name)}, {bounds.source.url}).",
    )


class IfpaParametersIn(Schema):
    """IFPA figures for one answer, in place of the league's (each absent keeps the league's)."""

    min_sessions: int | None = _bounded("min_sessions", "Meets a season must hold.")
    min_counted_sessions: int | None = _bounded(
        "min_counted_sessions", "Meets that must count towards the standings."
    )
    direct_play_members: int | None = _bounded(
        "direct_play_members", "Players from which the IFPA requires direct play."
    )
    finals_percent: int | None = _bounded(
        "finals_percent", "Percent of the players the finals take."
    )
    tgp_percent_per_game: int | None = _bounded("tgp_percent_per_game", "TGP percent a game.")
    tgp_ceiling_percent: int | None = _bounded("tgp_ceiling_percent", "Highest TGP without finals.")
    tgp_ceiling_with_finals_percent: int | None = _bounded(
        "tgp_ceiling_with_finals_percent", "Highest TGP with a separate finals part."
    )
    fee_cents_per_player: int | None = _bounded(
        "fee_cents_per_player", "Endorsement fee per listed player, in cents."
    )
    fee_currency: str | None = Field(
        None,
        pattern="^[A-Z]{3}$",
        description="The fee's currency (3 capital letters). Absent: the league's (the "
        "IFPA's is USD, in North America).",
    )


class IfpaParametersOut(Schema):
    """The IFPA figures used: the IFPA's published ones unless the league set its own."""

    min_sessions: int = Field(..., description="Meets a season must hold.")
    min_counted_sessions: int = Field(..., description="Meets that must count.")
    direct_play_members: int = Field(..., description="Players from which direct play is due.")
    finals_percent: int = Field(..., description="Percent of the players the finals take.")
    tgp_percent_per_game: int = Field(..., description="TGP percent a meaningful game.")
    tgp_ceiling_percent: int = Field(..., description="Highest TGP without finals.")
    tgp_ceiling_with_finals_percent: int = Field(..., description="Highest TGP with finals.")
    fee_cents_per_player: int = Field(..., description="Fee per listed player, in cents.")
    fee_currency: str = Field(..., description="The fee's currency.")


class IfpaComplianceOut(Schema):
    season_id: int = Field(..., description="The season.")
    planned: bool = Field(
        ..., description="True before the first meet: the checks read the schedule."
    )
    passed: bool = Field(..., description="Every requirement is met (estimates aside).")
    parameters: IfpaParametersOut = Field(..., description="The IFPA figures used.")
    checks: list[IfpaCheckOut] = Field(..., description="Every check, in this order.")

    @staticmethod
    def resolve_season_id(obj: SeasonIfpaCompliance) -> int:
        return obj.season_id


FIGURE_NAMES = Literal[
    "min_sessions",
    "min_counted_sessions",
    "direct_play_members",
    "finals_percent",
    "tgp_percent_per_game",
    "tgp_ceiling_percent",
    "tgp_ceiling_with_finals_percent",
    "fee_cents_per_player",
    "fee_currency",
]


class IfpaFigureOut(Schema):
    name: FIGURE_NAMES = Field(..., description="The figure's name.")
    words: str = Field(..., description="What it is, in words.")
    value: int | str = Field(..., description="The figure the league's checks use.")
    ifpa: int | str = Field(..., description="The IFPA's published figure.")
    own: bool = Field(..., description="True when the league set its own.")
    low: int | None = Field(..., description="Lowest allowed; null for the currency.")
    high: int | None = Field(..., description="Highest allowed; null for the currency.")
    source: str = Field(..., description="The IFPA page the figure comes from.")
    note: str = Field(..., description="Why it may differ from the IFPA's; may be empty.")


class IfpaFiguresOut(Schema):
    figures: list[IfpaFigureOut] = Field(..., description="Every IFPA figure, in this order.")


class IfpaFigureChangeIn(InputSchema):
    figure: FIGURE_NAMES = Field(..., description="Which figure (a name of GET ifpa-figures).")
    value: str = text_field(
        "Its new value: a whole number within its bounds, or a 3-letter currency; empty "
        "returns to the IFPA's.",
        max_length=12,
    )
    reason: str = text_field("Why it changes (required; a Ruling records it).", min_length=1)
