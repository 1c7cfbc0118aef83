"""Forms of the ledger (§9): an entry, and its reversal; each cleans into its service's
keyword arguments, the season, player and entry as the league's rows."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import enums, limits
from flipwell.league import models as m
from flipwell.league.selectors import form_rows
from flipwell.web.forms.fields import (
    HiddenRowField,
    MoneyField,
    PlayerChoices,
    cents_as_money,
    plain_choices,
    player_row_field,
    row_field,
)

LEDGER_KINDS = plain_choices(enums.NewLedgerEntryKind.choices)
LEDGER_REASONS = plain_choices(enums.choices_of(enums.LedgerReason, blank="— (none needed)"))


class LedgerEntryForm(forms.Form):
    kind = forms.ChoiceField(choices=LEDGER_KINDS)
    account = forms.ChoiceField(choices=enums.LedgerAccount.choices)
    amount_cents = MoneyField(label="Amount", min_value=cents_as_money(limits.AMOUNT_CENTS.minimum))
    reason = forms.ChoiceField(label="Reason", required=False, choices=LEDGER_REASONS)
    note = forms.CharField(required=False, max_length=limits.TEXT_LENGTH)

    def __init__(
        self, *args: Any, players: PlayerChoices, seasons: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_row_field(
            players, "Player", required=False, empty_value=None
        )
        self.fields["season"] = row_field(
            "season",
            seasons,
            form_rows.seasons(),
            label="Season",
            blank="—",
            required=False,
            empty_value=None,
        )


class ReverseEntryForm(forms.Form):
    """Reverse one of the league's entries (hidden), saying why."""

    reason = forms.CharField(label="Why reverse it?", max_length=limits.TEXT_LENGTH)

    def __init__(self, *args: Any, league: m.League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"] = HiddenRowField("entry", form_rows.league_ledger_entries(league))
        self.order_fields(["entry"])
