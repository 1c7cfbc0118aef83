"""Forms of the ledger (§9): an entry, and its reversal."""

from __future__ import annotations

from typing import Any

from django import forms

from flipwell.league import models as m
from flipwell.web.forms.fields import MoneyField, PlayerChoices, player_field

LEDGER_KINDS = [
    ("dues_paid", "Dues paid"),
    ("kitty_in", "Money into the kitty"),
    ("kitty_spend", "Kitty spent"),
    ("transfer_to_treasury", "Transfer to the treasury"),
    ("treasury_expense", "Treasury expense"),
    ("interference_charge", "Interference charge (§8.3)"),
    ("restart_charge", "Restart charge (§8.6)"),
]


LEDGER_REASONS = [
    ("", "— (none needed)"),
    ("coin_mech_failure", "Kitty spend: coin mech failure (R9-d)"),
    ("bonus_credits", "Kitty spend: bonus credits (R9-d)"),
    ("playoff_games", "Expense: playoff games (R9-f)"),
    ("trophies", "Expense: trophies"),
    ("parties", "Expense: parties"),
    ("prizes", "Expense: prizes"),
    ("other", "Expense: other"),
    ("replayed_game", "Interference: replayed game (R8.3-d)"),
    ("buy_in_ball", "Interference: buy-in ball (R8.3-d)"),
]


class LedgerEntryForm(forms.Form):
    kind = forms.ChoiceField(choices=LEDGER_KINDS)
    account = forms.ChoiceField(choices=m.LedgerEntry.Account.choices)
    amount_cents = MoneyField(label="Amount")
    reason = forms.ChoiceField(label="Reason", required=False, choices=LEDGER_REASONS)
    note = forms.CharField(required=False, max_length=200)

    def __init__(
        self, *args: Any, players: PlayerChoices, seasons: PlayerChoices, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = player_field(players, "Player", required=False, empty_value=None)
        self.fields["season"] = forms.TypedChoiceField(
            choices=[("", "—"), *[(str(i), n) for i, n in seasons]],
            coerce=int,
            required=False,
            empty_value=None,
        )


class ReverseEntryForm(forms.Form):
    entry = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(label="Why reverse it?", max_length=200)
