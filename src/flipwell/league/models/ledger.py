"""The league's money: an append-only ledger of entries in integer cents (§9).

Words:
- *account*: *dues* (collected from players, R9-a), *kitty* (paid when a machine already has
  credits, R9-c) or *treasury* (what the league holds and spends, R9-f).
- *amount*: signed cents; positive money came into the account, negative went out. A balance is
  the sum of an account's entries (pretix's transactions model): nothing stores a balance.
- *reversal*: the only way to correct an entry. It names the entry it `reverses` and carries
  the opposite amount; an entry is reversed at most once.
- *reason*: the reason code the rules require for a kitty spend (R9-d), a treasury expense
  (R9-f) and an interference charge (R8.3-d); empty for every other entry. A charge without a
  reason is a restart charge (R8.6-d).

The rules' entry kinds (`flipwell.rules.treasury.EntryKind`) are this table's kind, account and
reason together: a payment into dues is ``dues_paid``, into the kitty ``kitty_in``; an expense
of the kitty is ``kitty_spend``, of the treasury ``treasury_expense``; a transfer (from the
kitty or dues, negative on that account) is ``transfer_to_treasury`` and credits the treasury
account; a charge is ``interference_charge`` with a reason, ``restart_charge`` without. So the
treasury account's balance is not the sum of its own rows: balances come from
`flipwell.rules.treasury.balances`, through `flipwell.league.selectors.treasury`.

Append-only: services only ever insert entries. The database backs this: a trigger (migration
0002) refuses every UPDATE of a ledger row on SQLite and PostgreSQL; the foreign keys into the
ledger PROTECT it from cascading deletes. Deleting a row by hand is still possible (a trigger
on DELETE would break Django's `flush`, which test tools use, on SQLite).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league import enums
from flipwell.league.models.leagues import League
from flipwell.league.models.players import Player
from flipwell.league.models.seasons import Season


class LedgerEntry(models.Model):
    """One movement of money in one account; never updated (see the module docstring)."""

    Account = enums.LedgerAccount

    class Kind(models.TextChoices):
        PAYMENT = "payment", "Payment by a player"
        CHARGE = "charge", "Charge to a player (§8.3, §8.6)"
        EXPENSE = "expense", "Expense"
        TRANSFER = "transfer", "Transfer between accounts"
        REVERSAL = "reversal", "Reversal of an entry"

    Reason = enums.LedgerReason

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="ledger_entries")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_entries"
    )
    account = models.CharField(max_length=10, choices=Account.choices)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount_cents = models.BigIntegerField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_entries"
    )
    reason = models.CharField(max_length=20, choices=Reason.choices, blank=True)
    note = models.TextField(blank=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "ledger entries"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(amount_cents=0), name="ledger_entry_amount_not_zero"
            ),
            models.CheckConstraint(
                condition=models.Q(account__in=enums.LedgerAccount.values),
                name="ledger_entry_account_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(
                    kind__in=["payment", "charge", "expense", "transfer", "reversal"]
                ),
                name="ledger_entry_kind_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(reason="") | models.Q(reason__in=enums.LedgerReason.values),
                name="ledger_entry_reason_valid",
            ),
            models.CheckConstraint(
                # The sign is the entry's effect on its own account (see the module docstring).
                condition=models.Q(kind__in=["payment", "charge"], amount_cents__gt=0)
                | models.Q(kind__in=["expense", "transfer"], amount_cents__lt=0)
                | models.Q(kind="reversal"),
                name="ledger_entry_sign_follows_kind",
            ),
            models.CheckConstraint(
                condition=models.Q(kind="reversal", reverses__isnull=False)
                | (~models.Q(kind="reversal") & models.Q(reverses__isnull=True)),
                name="ledger_entry_reversal_names_entry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.kind} {self.amount_cents / 100:+.2f}"
