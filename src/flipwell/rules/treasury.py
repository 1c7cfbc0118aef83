"""The league's money (§9): dues, the kitty and the treasury, as an append-only ledger.

Words:
- *cents*: every amount is a whole number of the currency's smallest unit, a positive int;
  an entry's kind gives its direction, so amounts are never negative, zero or floats.
- *account*: where money sits. ``dues`` holds the dues players paid (R9-a); ``kitty`` is the
  cash players put in when a machine already has credits, which buys credits when the league
  needs them (R9-c, R9-d); ``treasury`` is the money the league spends on playoff games,
  trophies, parties, prizes and other expenses (R9-f).
- *treasury holdings*: dues + kitty + treasury accounts. "Money collected in the kitty will be
  added to the league treasury" (R9-e) and dues are league money too, so all three accounts
  are the treasury's holdings; each is also shown on its own, because the kitty is cash at the
  venue and only the treasury account pays expenses.
- *transfer to treasury*: money moved from the kitty (R9-e) or from dues into the treasury
  account; it changes two accounts and leaves the holdings unchanged.
- *charge*: money a violator pays for the victim's replayed game or buy-in ball (R8.3-d), or
  for restarting a game for all players (R8.6-d). It goes into the kitty: it pays for games
  "even if there are credits on the machine", which is exactly what the kitty collects (R9-c).
- *reversal*: the only correction. It names the entry it reverses and undoes all of that
  entry's effects; an entry is reversed at most once and a reversal is never reversed.
  To correct an amount, reverse the entry and append the right one.
- *ledger*: the entries in the order they were appended; every balance is a sum over them.
- *dues owed*: per season (default) or per meet played (`ruleset.dues_period`, A47).

Money players put into machines for their own games (R9-b) never passes through the league,
so it is not in the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal, get_args

from flipwell.rules.checks import check_count, check_player
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

Account = Literal["dues", "kitty", "treasury"]
EntryKind = Literal[
    "dues_paid",
    "kitty_in",
    "kitty_spend",
    "transfer_to_treasury",
    "treasury_expense",
    "interference_charge",
    "restart_charge",
    "reversal",
]
KittySpendReason = Literal["coin_mech_failure", "bonus_credits"]  # R9-d
ExpenseReason = Literal["playoff_games", "trophies", "parties", "prizes", "other"]  # R9-f
InterferenceChargeReason = Literal["replayed_game", "buy_in_ball"]  # R8.3-d
Reason = KittySpendReason | ExpenseReason | InterferenceChargeReason

ACCOUNTS: tuple[Account, ...] = get_args(Account)
KINDS: tuple[EntryKind, ...] = get_args(EntryKind)

ENTRY_ACCOUNTS: Mapping[EntryKind, tuple[Account, ...]] = {
    "dues_paid": ("dues",),  # R9-a
    "kitty_in": ("kitty",),  # R9-c
    "kitty_spend": ("kitty",),  # R9-d
    # R9-e names the kitty; dues may follow the same path, or expenses could never use them.
    "transfer_to_treasury": ("kitty", "dues"),
    "treasury_expense": ("treasury",),  # R9-f
    "interference_charge": ("kitty",),  # R8.3-d
    "restart_charge": ("kitty",),  # R8.6-d
    "reversal": ACCOUNTS,  # the reversed entry's account
}
"""The accounts each kind of entry may name: the one it pays into, draws on or moves from."""

REASONS: Mapping[EntryKind, tuple[str, ...]] = {
    "kitty_spend": get_args(KittySpendReason),
    "treasury_expense": get_args(ExpenseReason),
    "interference_charge": get_args(InterferenceChargeReason),
}
"""The kinds that need a reason code, and the codes each allows; other kinds take none."""

PLAYER_REQUIRED: frozenset[EntryKind] = frozenset(
    {"dues_paid", "interference_charge", "restart_charge"}
)
"""Kinds that must name a player: who paid his dues, or the violator charged (R8.3-d, R8.6-d)."""

RULE_OF_KIND: Mapping[EntryKind, str] = {
    "dues_paid": "R9-a",
    "kitty_in": "R9-c",
    "kitty_spend": "R9-d",
    "transfer_to_treasury": "R9-e",
    "treasury_expense": "R9-f",
    "interference_charge": "R8.3-d",
    "restart_charge": "R8.6-d",
    "reversal": "§9",
}


def money(cents: int) -> str:
    """An amount in cents as a person reads it: 1234550 -> '12,345.50', -250 -> '-2.50'."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{part:02d}"


def check_cents(value: object, *, what: str = "amount") -> int:
    """A ledger amount: a positive int of cents (never a float, never zero)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{what} must be a whole number of cents (an int), got {value!r}")
    if value <= 0:
        raise RuleError(
            f"{what} must be a positive number of cents, got {value}: the entry's kind gives "
            "its direction, and a correction is a reversal"
        )
    return value


@dataclass(frozen=True)
class LedgerEntry:
    """One money movement (§9, R8.3-d, R8.6-d); refused at construction if malformed.

    entry_id: unique in its ledger (a sequence number). account: see `ENTRY_ACCOUNTS`.
    reason: a reason code for kitty spends (R9-d), treasury expenses (R9-f) and interference
    charges (R8.3-d). reverses: the entry_id a reversal undoes, and only for reversals.
    """

    entry_id: int
    on: date
    kind: EntryKind
    account: Account
    amount: int
    player: PlayerId | None = None
    reason: Reason | None = None
    note: str = ""
    reverses: int | None = None

    def __post_init__(self) -> None:
        check_count(self.entry_id, what="entry_id", minimum=1)
        if not isinstance(self.on, date):
            raise RuleError(f"entry {self.entry_id}: date must be a datetime.date, got {self.on!r}")
        if self.kind not in KINDS:
            raise RuleError(
                f"entry {self.entry_id}: unknown kind {self.kind!r}; allowed: {', '.join(KINDS)}"
            )
        if self.account not in ENTRY_ACCOUNTS[self.kind]:
            allowed = ", ".join(ENTRY_ACCOUNTS[self.kind])
            raise RuleError(
                f"entry {self.entry_id}: a {self.kind} entry cannot use the {self.account!r} "
                f"account; allowed: {allowed} ({RULE_OF_KIND[self.kind]})"
            )
        check_cents(self.amount, what=f"entry {self.entry_id}'s amount")
        if not isinstance(self.note, str):
            raise RuleError(f"entry {self.entry_id}: note must be a string, got {self.note!r}")
        self._check_player()
        self._check_reason()
        self._check_reverses()

    def _check_player(self) -> None:
        if self.player is not None:
            check_player(self.player)
        elif self.kind in PLAYER_REQUIRED:
            raise RuleError(
                f"entry {self.entry_id}: a {self.kind} entry must name the player "
                f"({RULE_OF_KIND[self.kind]})"
            )

    def _check_reason(self) -> None:
        allowed = REASONS.get(self.kind, ())
        if not allowed:
            if self.reason is not None:
                raise RuleError(
                    f"entry {self.entry_id}: a {self.kind} entry takes no reason code, "
                    f"got {self.reason!r}"
                )
            return
        if self.reason not in allowed:
            raise RuleError(
                f"entry {self.entry_id}: a {self.kind} entry needs a reason code, one of "
                f"{', '.join(allowed)} ({RULE_OF_KIND[self.kind]}); got {self.reason!r}"
            )
        if self.reason == "other" and not self.note.strip():
            raise RuleError(
                f"entry {self.entry_id}: an 'other' treasury expense needs a note saying what "
                "it paid for (R9-f)"
            )

    def _check_reverses(self) -> None:
        if self.kind == "reversal":
            check_count(self.reverses, what=f"entry {self.entry_id}: reverses", minimum=1)
        elif self.reverses is not None:
            raise RuleError(
                f"entry {self.entry_id}: only a reversal may name an entry to reverse, "
                f"not a {self.kind} entry"
            )


@dataclass(frozen=True)
class Balances:
    """Each account's balance in cents; `total` is the treasury's holdings (R9-e)."""

    dues: int = 0
    kitty: int = 0
    treasury: int = 0

    @property
    def total(self) -> int:
        """The treasury's holdings: dues + kitty + treasury accounts (R9-e)."""
        return self.dues + self.kitty + self.treasury

    def of(self, account: Account) -> int:
        """One account's balance."""
        amounts: dict[str, int] = {
            "dues": self.dues,
            "kitty": self.kitty,
            "treasury": self.treasury,
        }
        return amounts[account]


@dataclass(frozen=True)
class Ledger:
    """The league's entries in the order appended; refused at construction if any is invalid.

    Checks, entry by entry: unique ids; a reversal names an earlier entry that is not a
    reversal and not yet reversed, with its account and amount; no entry takes an account
    below zero (R9-d, R9-f).
    """

    entries: tuple[LedgerEntry, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.entries, tuple):
            raise RuleError(f"ledger entries must be a tuple, got {type(self.entries).__name__}")
        _replay(self.entries)

    def entry(self, entry_id: int) -> LedgerEntry:
        """The entry with this id; unknown ids are refused."""
        for entry in self.entries:
            if entry.entry_id == entry_id:
                return entry
        raise RuleError(f"no ledger entry {entry_id!r}")


def append_entry(ledger: Ledger, entry: LedgerEntry) -> Ledger:
    """The ledger with one more entry (§9: money is append-only); refused if invalid.

    R9-d, R9-f: a spend, transfer or reversal that would take an account below zero is
    refused, naming the account, its balance and the shortfall.
    """
    return Ledger((*ledger.entries, entry))


def reversal_of(
    ledger: Ledger, entry_id: int, *, new_id: int, on: date, note: str = ""
) -> LedgerEntry:
    """The entry that reverses entry `entry_id` of the ledger: same account, amount and player.

    Append it with `append_entry`; reversing a reversal, reversing twice and unknown ids are
    refused there (and here, for an unknown id or a reversal).
    """
    original = ledger.entry(entry_id)
    if original.kind == "reversal":
        raise RuleError(
            f"entry {entry_id} is itself a reversal and cannot be reversed: "
            f"append the correct entry instead"
        )
    return LedgerEntry(
        entry_id=new_id,
        on=on,
        kind="reversal",
        account=original.account,
        amount=original.amount,
        player=original.player,
        note=note,
        reverses=entry_id,
    )


def balances(ledger: Ledger, *, as_of: date | None = None) -> Balances:
    """Each account's balance and the treasury's holdings, as sums of entries (§9, R9-e).

    as_of: count only entries dated on or before that day (a reversal counts from its own
    date). The result may then show what the books said, not what was known, that day.
    """
    by_id = {e.entry_id: e for e in ledger.entries}
    sums = dict.fromkeys(ACCOUNTS, 0)
    for entry in ledger.entries:
        if as_of is not None and entry.on > as_of:
            continue
        for account, cents in _effects(entry, by_id).items():
            sums[account] += cents
    return Balances(dues=sums["dues"], kitty=sums["kitty"], treasury=sums["treasury"])


@dataclass(frozen=True)
class DuesStatus:
    """One player's dues for the season in cents: owed, paid (net of reversals), and the rest.

    outstanding: what he still owes (0 if paid up); ahead: what he paid beyond what he owes.
    """

    owed: int
    paid: int

    @property
    def outstanding(self) -> int:
        """Cents still owed, never negative."""
        return max(self.owed - self.paid, 0)

    @property
    def ahead(self) -> int:
        """Cents paid beyond what is owed so far (dues paid in advance), never negative."""
        return max(self.paid - self.owed, 0)


def dues_status(
    ledger: Ledger,
    *,
    dues_amount: int,
    meets_played: Mapping[PlayerId, int],
    ruleset: Ruleset = FWPL_V1,
) -> dict[PlayerId, DuesStatus]:
    """Each player's dues owed, paid and outstanding (§9, R9-a, A47).

    dues_amount: cents per period, 0 if the league collects none (R9-a says "may").
    meets_played: every player of the season, with the meets he has played. With
    `dues_period = "season"` (default) each owes `dues_amount` once; with "meet" he owes it for
    each meet he played, since dues are collected from the players present at its start.
    Dues paid by a player missing from meets_played are refused rather than left uncounted.
    """
    if isinstance(dues_amount, bool) or not isinstance(dues_amount, int) or dues_amount < 0:
        raise RuleError(
            f"dues_amount must be a whole number of cents, 0 or more, got {dues_amount!r}"
        )
    meets = {
        check_player(p): check_count(n, what="{player}'s meets played", player=p)
        for p, n in meets_played.items()
    }
    paid = dict.fromkeys(meets, 0)
    by_id = {e.entry_id: e for e in ledger.entries}
    for entry in ledger.entries:
        original = by_id[entry.reverses] if entry.reverses is not None else entry
        if original.kind != "dues_paid":
            continue
        player = original.player
        assert player is not None  # LedgerEntry requires a player for dues_paid
        if player not in paid:
            raise about_player(
                "entry {entry} records dues from {player}, who is not among the "
                "season's players in meets_played",
                player,
                entry=str(entry.entry_id),
            )
        paid[player] += _effects(entry, by_id)["dues"]
    periods = {p: 1 if ruleset.dues_period == "season" else n for p, n in meets.items()}
    return {p: DuesStatus(owed=dues_amount * periods[p], paid=paid[p]) for p in meets}


def _effects(entry: LedgerEntry, by_id: Mapping[int, LedgerEntry]) -> dict[Account, int]:
    """Signed cents per account; a reversal is the exact negation of what it reverses."""
    if entry.kind == "reversal":
        assert entry.reverses is not None  # checked by LedgerEntry
        return {a: -c for a, c in _effects(by_id[entry.reverses], by_id).items()}
    if entry.kind == "transfer_to_treasury":
        return {entry.account: -entry.amount, "treasury": entry.amount}
    if entry.kind in ("kitty_spend", "treasury_expense"):
        return {entry.account: -entry.amount}
    return {entry.account: entry.amount}


def _replay(entries: Sequence[LedgerEntry]) -> None:
    """Check the entries in order, as if appended one by one (see `Ledger`)."""
    by_id: dict[int, LedgerEntry] = {}
    reversed_by: dict[int, int] = {}
    sums = dict.fromkeys(ACCOUNTS, 0)
    for entry in entries:
        if not isinstance(entry, LedgerEntry):
            raise RuleError(f"a ledger holds LedgerEntry values, got {entry!r}")
        if entry.entry_id in by_id:
            raise RuleError(f"entry {entry.entry_id} is already in the ledger: ids are unique")
        if entry.kind == "reversal":
            _check_reversal(entry, by_id, reversed_by)
        by_id[entry.entry_id] = entry
        effects = _effects(entry, by_id)
        for account, cents in effects.items():
            if sums[account] + cents < 0:
                raise RuleError(_overdraft_message(entry, account, sums[account], cents))
        for account, cents in effects.items():
            sums[account] += cents


def _check_reversal(
    entry: LedgerEntry, by_id: Mapping[int, LedgerEntry], reversed_by: dict[int, int]
) -> None:
    target = entry.reverses
    assert target is not None  # checked by LedgerEntry
    if target not in by_id:
        raise RuleError(
            f"entry {entry.entry_id} reverses entry {target}, which is not in the ledger "
            "(an entry can only reverse an earlier one)"
        )
    original = by_id[target]
    if original.kind == "reversal":
        raise RuleError(
            f"entry {entry.entry_id} reverses entry {target}, which is itself a reversal: "
            "append the correct entry instead"
        )
    if target in reversed_by:
        raise RuleError(
            f"entry {entry.entry_id} reverses entry {target}, already reversed by entry "
            f"{reversed_by[target]}"
        )
    if (entry.account, entry.amount) != (original.account, original.amount):
        raise RuleError(
            f"entry {entry.entry_id} must reverse all of entry {target}: "
            f"{money(original.amount)} in {original.account}, got {money(entry.amount)} in "
            f"{entry.account}; to correct an amount, reverse it and append the right one"
        )
    if entry.player != original.player:
        raise RuleError.about(
            "entry {entry} reverses entry {target} of {original}, but names {named}",
            players={"original": str(original.player), "named": str(entry.player)},
            values={"entry": str(entry.entry_id), "target": str(target)},
        )
    if entry.on < original.on:
        raise RuleError(
            f"entry {entry.entry_id} is dated {entry.on}, before the entry {target} it "
            f"reverses ({original.on})"
        )
    reversed_by[target] = entry.entry_id


def _overdraft_message(entry: LedgerEntry, account: Account, balance: int, cents: int) -> str:
    what = {
        "reversal": f"reversing entry {entry.reverses}",
        "transfer_to_treasury": f"transferring {money(entry.amount)} to the treasury",
        "kitty_spend": f"spending {money(entry.amount)} from the kitty",
        "treasury_expense": f"paying {money(entry.amount)} from the treasury",
    }.get(entry.kind, f"entry {entry.entry_id}")
    rule = RULE_OF_KIND[entry.kind]
    return (
        f"entry {entry.entry_id}: {what} would take the {account} account to "
        f"{money(balance + cents)}; it holds {money(balance)} ({rule}: only money the "
        "account holds can be spent)"
    )
