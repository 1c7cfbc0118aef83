"""Money (§9): the treasury, ledger entries and reversals."""

from __future__ import annotations

import datetime
from typing import Literal

from ninja import Field, Schema

from flipwell.api.schemas.common import (
    MAX_ID,
    InputSchema,
    PlayerRefOut,
    bounded,
    text_field,
)
from flipwell.league import enums, limits
from flipwell.league import models as m
from flipwell.league.selectors.treasury import entry_kind
from flipwell.rules import EntryKind


class LedgerLineOut(Schema):
    """Read from the treasury's `EntryLine`."""

    id: int = Field(..., description="The entry's id.")
    on: datetime.date = Field(..., description="The day it was recorded (league time).")
    kind: EntryKind = Field(..., description="The entry's kind (§9): dues_paid, kitty_in, ...")
    account: enums.AccountValue = Field(..., description="The account.")
    amount_cents: int = Field(..., description="Signed cents on its account.")
    player: PlayerRefOut | None = Field(..., description="The player; null: none.")
    reason: str = Field(..., description="Reason code; empty when the kind needs none.")
    note: str = Field(..., description="The official's note.")
    reverses: int | None = Field(..., description="The entry this one reverses.")
    reversed_by: int | None = Field(..., description="The entry that reversed this one.")
    season_id: int | None = Field(..., description="The season it belongs to.")


class TreasuryOut(Schema):
    """Read from the selector's `Treasury`."""

    dues_cents: int = Field(..., description="Dues account balance, cents.")
    kitty_cents: int = Field(..., description="Kitty balance, cents.")
    treasury_cents: int = Field(..., description="Treasury account balance, cents.")
    total_cents: int = Field(..., description="The league's holdings (R9-e), cents.")
    entries: list[LedgerLineOut] = Field(..., description="Every entry, oldest first.")


class LedgerIn(InputSchema):
    kind: enums.NewEntryKind = Field(..., description="The kind of movement (§9).")
    account: enums.AccountValue = Field(..., description="The account.")
    amount_cents: int = bounded(limits.AMOUNT_CENTS, "Positive cents.")
    season: int | None = Field(
        None,
        ge=1,
        le=MAX_ID,
        alias="season_id",
        description="The season (needed for dues_paid).",
    )
    player: int | None = Field(
        None, ge=1, le=MAX_ID, alias="player_id", description="The player concerned."
    )
    reason: enums.LedgerReasonValue | Literal[""] = Field(
        "", description="The reason code; empty when the kind needs none (R9-d, R9-f, R8.3-d)."
    )
    note: str = text_field("A note.", "")


class LedgerEntryOut(Schema):
    id: int = Field(..., description="The entry's id.")
    account: str = Field(..., description="The account.")
    kind: EntryKind = Field(
        ..., description="The entry's kind (§9), as the treasury lists it: dues_paid, kitty_in, ..."
    )
    amount_cents: int = Field(..., description="Signed cents on its account.")

    @staticmethod
    def resolve_kind(obj: m.LedgerEntry) -> EntryKind:
        return entry_kind(obj)


class ReversalIn(InputSchema):
    reason: str = text_field("Why it is reversed (required).", min_length=1)
