"""The league's money as read from its ledger (§9): balances per account, and dues per player.

Words:
- *stored entry* vs *rules entry*: a `LedgerEntry` row keeps a coarse kind, the account, a
  signed amount and a reason code (see `flipwell.league.models.ledger`); the rules'
  `flipwell.rules.treasury.LedgerEntry` has a precise kind and a positive amount. `RULES_KIND`
  maps one to the other; `to_rules_ledger` turns a league's rows into the rules' `Ledger`, in
  the order they were appended (row id), which checks them again (no overdraft, one reversal
  per entry).
- *balances*: dues, kitty and treasury accounts and their total, the treasury's holdings
  (R9-e), from `flipwell.rules.treasury.balances`.
- *dues line*: one player's dues for a season: owed, paid, outstanding, paid ahead (R9-a, A47).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import season_fold
from flipwell.league.enums import (
    ACCOUNTS,
    LEDGER_REASONS,
    LedgerAccount,
    LedgerReason,
    NewLedgerEntryKind,
    one_of,
)
from flipwell.league.selectors.standings import PlayerRef
from flipwell.rules import (
    Account,
    EntryKind,
    Ledger,
    LedgerEntry,
    RuleError,
    alphabetical,
    balances,
    dues_status,
)
from flipwell.rules.treasury import money

RULES_KIND: dict[tuple[str, str, bool], EntryKind] = {
    ("payment", "dues", False): "dues_paid",
    ("payment", "kitty", False): "kitty_in",
    ("expense", "kitty", True): "kitty_spend",
    ("expense", "treasury", True): "treasury_expense",
    ("transfer", "kitty", False): "transfer_to_treasury",
    ("transfer", "dues", False): "transfer_to_treasury",
    ("charge", "kitty", True): "interference_charge",
    ("charge", "kitty", False): "restart_charge",
}
"""(stored kind, account, has a reason code) -> the rules' entry kind; reversals aside."""

STORED_KIND: dict[EntryKind, tuple[str, int]] = {
    "dues_paid": ("payment", 1),
    "kitty_in": ("payment", 1),
    "kitty_spend": ("expense", -1),
    "treasury_expense": ("expense", -1),
    "transfer_to_treasury": ("transfer", -1),
    "interference_charge": ("charge", 1),
    "restart_charge": ("charge", 1),
}
"""The rules' entry kind -> (stored kind, sign of the stored amount on its account)."""

KIND_LABELS: dict[str, str] = {**dict(NewLedgerEntryKind.choices), "reversal": "Reversal"}
"""The rules' entry kind -> how a page names it ("dues_paid" -> "Dues paid")."""
ACCOUNT_LABELS: dict[str, str] = dict(LedgerAccount.choices)
REASON_LABELS: dict[str, str] = dict(LedgerReason.choices)


@dataclass(frozen=True)
class EntryLine:
    """One ledger entry as shown."""

    id: int
    on: date
    kind: EntryKind
    account: Account
    amount_cents: int
    amount: str
    player: PlayerRef | None
    reason: str
    note: str
    reverses: int | None
    reversed_by: int | None
    season_id: int | None

    @property
    def kind_label(self) -> str:
        """The kind in words ("Dues paid"), never its code."""
        return KIND_LABELS.get(self.kind, self.kind.replace("_", " ").capitalize())

    @property
    def account_label(self) -> str:
        return ACCOUNT_LABELS.get(self.account, self.account.capitalize())

    @property
    def reason_label(self) -> str:
        """The reason code in words ("Trophies (R9-f)"); "" when none."""
        return REASON_LABELS.get(self.reason, self.reason.replace("_", " "))


@dataclass(frozen=True)
class DuesLine:
    """One player's dues for the season, in cents (R9-a, A47)."""

    player: PlayerRef
    owed: int
    paid: int
    outstanding: int
    ahead: int


@dataclass(frozen=True)
class Treasury:
    """Balances of the whole league, its entries, and a season's dues when one is given."""

    dues_cents: int
    kitty_cents: int
    treasury_cents: int
    total_cents: int
    entries: tuple[EntryLine, ...]
    dues: tuple[DuesLine, ...]

    @property
    def total(self) -> str:
        """The treasury's holdings as a person reads them (R9-e)."""
        return money(self.total_cents)


def treasury(league: m.League, *, season: m.Season | None = None) -> Treasury:
    """The league's balances and entries; with a season, its entries and dues per player.

    Balances are always the whole league's: money carries over from season to season, and
    one season's entries alone could spend money an earlier season collected (R9-e, R9-f).
    Raises RuleError when stored rows break the rules (an impossible state: services refuse
    such entries).
    """
    rows = _rows(league)
    ledger = to_rules_ledger(league, rows)
    held = balances(ledger)
    names = {
        r.player_id: PlayerRef(r.player_id, f"{r.player.first_name} {r.player.last_name}")
        for r in rows
        if r.player_id is not None and r.player is not None
    }
    reversed_by = {r.reverses_id: r.pk for r in rows if r.reverses_id is not None}
    shown = {r.pk for r in rows if season is None or r.season_id == season.pk}
    entries = tuple(
        EntryLine(
            id=row.pk,
            on=entry.on,
            kind=entry.kind,
            account=entry.account,
            amount_cents=row.amount_cents,
            amount=money(row.amount_cents),
            player=names.get(row.player_id) if row.player_id else None,
            reason=row.reason,
            note=row.note,
            reverses=row.reverses_id,
            reversed_by=reversed_by.get(row.pk),
            season_id=row.season_id,
        )
        for row, entry in zip(rows, ledger.entries, strict=True)
        if row.pk in shown
    )
    return Treasury(
        dues_cents=held.dues,
        kitty_cents=held.kitty,
        treasury_cents=held.treasury,
        total_cents=held.total,
        entries=entries,
        dues=_dues(season, ledger) if season is not None else (),
    )


def entry_kind(row: m.LedgerEntry) -> EntryKind:
    """The rules' kind of one stored entry (see `RULES_KIND`), as the treasury lists it."""
    if row.kind == m.LedgerEntry.Kind.REVERSAL:
        return "reversal"
    found = RULES_KIND.get((row.kind, row.account, bool(row.reason)))
    if found is None:
        raise RuleError(
            f"ledger entry {row.pk}: a {row.kind} in the {row.account} account "
            f"{'with' if row.reason else 'without'} a reason is not a §9 entry"
        )
    return found


def to_rules_ledger(league: m.League, rows: Iterable[m.LedgerEntry] | None = None) -> Ledger:
    """The league's stored entries as the rules' `Ledger`, in the order they were appended."""
    rows = _rows(league) if rows is None else list(rows)
    zone = ZoneInfo(league.time_zone)
    by_id = {row.pk: row for row in rows}
    return Ledger(tuple(to_rules_entry(row, by_id, zone) for row in rows))


def to_rules_entry(
    row: m.LedgerEntry, by_id: dict[int, m.LedgerEntry], zone: ZoneInfo
) -> LedgerEntry:
    """One stored entry as the rules' `LedgerEntry` (see `RULES_KIND`)."""
    if row.kind == m.LedgerEntry.Kind.REVERSAL:
        original = by_id.get(row.reverses_id) if row.reverses_id else None
        if original is None:
            raise RuleError(f"ledger entry {row.pk} reverses an entry of another league")
    kind = entry_kind(row)
    reason = one_of(row.reason, LEDGER_REASONS, field="reason") if row.reason else None
    return LedgerEntry(
        entry_id=row.pk,
        on=timezone.localtime(row.created_at, zone).date(),
        kind=kind,
        account=one_of(row.account, ACCOUNTS, field="account"),
        amount=abs(row.amount_cents),
        player=player_key(row.player_id) if row.player_id else None,
        reason=reason,
        note=row.note,
        reverses=row.reverses_id,
    )


def _rows(league: m.League) -> list[m.LedgerEntry]:
    return list(m.LedgerEntry.objects.filter(league=league).select_related("player").order_by("id"))


def _dues(season: m.Season, ledger: Ledger) -> tuple[DuesLine, ...]:
    """Each entrant's dues for the season (R9-a, A47): only this season's dues payments."""
    folded = season_fold(season)
    facts, result, ruleset = folded.facts, folded.result, folded.ruleset
    season_entries = set(m.LedgerEntry.objects.filter(season=season).values_list("id", flat=True))
    own = Ledger(
        tuple(e for e in ledger.entries if e.entry_id in season_entries and _is_dues(e, ledger))
    )
    played = {
        p: sum(1 for night in s.nights if night.games_played > 0) for p, s in result.players.items()
    }
    status = dues_status(own, dues_amount=season.dues_cents, meets_played=played, ruleset=ruleset)
    entrants = {e.player: e for e in facts.entrants}
    return tuple(
        DuesLine(
            player=PlayerRef(int(e.player), f"{e.first_name} {e.last_name}"),
            owed=status[e.player].owed,
            paid=status[e.player].paid,
            outstanding=status[e.player].outstanding,
            ahead=status[e.player].ahead,
        )
        for e in (entrants[p] for p in alphabetical(facts.entrants, ruleset=ruleset))  # A64
    )


def _is_dues(entry: LedgerEntry, ledger: Ledger) -> bool:
    if entry.kind == "reversal" and entry.reverses is not None:
        return ledger.entry(entry.reverses).kind == "dues_paid"
    return entry.kind == "dues_paid"
