"""Use cases that write the league's money: append a ledger entry, reverse one (§9).

Words: see `flipwell.rules.treasury` (kinds, accounts, reasons) and
`flipwell.league.models.ledger` (how an entry is stored). The ledger is append-only: a
correction is a reversing entry, never an edit (STYLE 6). Every entry is checked by the rules
against the whole league's ledger before it is written: an overdraft is refused with the
rules' message (R9-d, R9-f).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal
from zoneinfo import ZoneInfo

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.enums import AccountValue, LedgerReasonValue
from flipwell.league.refusals import Refusal
from flipwell.league.selectors.treasury import KIND_LABELS, STORED_KIND, to_rules_ledger
from flipwell.league.services._edge import (
    rules_edge,
)
from flipwell.league.services._protocol import official_write
from flipwell.rules import (
    EntryKind,
    Ledger,
    LedgerEntry,
)
from flipwell.rules.treasury import (
    KINDS,
    append_entry,
    reversal_of,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FIELD_WORDS = (
    ("account", "account"),
    ("reason", "reason"),
    ("player", "player"),
    ("note", "note"),
)
"""Which argument a rules message is about, by the first of these words it contains."""


def record_ledger_entry(
    *,
    league: m.League,
    kind: EntryKind,
    account: AccountValue,
    amount_cents: int,
    season: m.Season | None = None,
    player: m.Player | None = None,
    reason: LedgerReasonValue | Literal[""] = "",
    note: str = "",
    actor: User,
) -> m.LedgerEntry:
    """Append one money movement to the league's ledger (§9, R9-a..f, R8.3-d, R8.6-d).

    kind: a rules kind (reversals go through `reverse_ledger_entry`); amount_cents: positive,
    the kind gives the direction. Dues are per season (A47): dues_paid names the season and a
    player entered in it. The league row is locked, so two entries cannot overdraw an account
    together. Audited ``ledger.entry_recorded``. ValidationError keyed by field for anything
    the rules refuse (account or reason for the kind, missing player, amount, overdraft).
    """
    with official_write(league=league, actor=actor, action="record ledger entries") as write:
        m.League.objects.select_for_update().filter(pk=league.pk).first()
        _check_links(league=league, kind=kind, season=season, player=player)
        ledger = to_rules_ledger(league)
        new_id = _next_id(ledger)
        said = _new_entry_message(new_id)
        with rules_edge(_field, code="invalid_ledger_entry", message=said):
            entry = _new_entry(new_id, league, kind, account, amount_cents, player, reason, note)
        with rules_edge("amount_cents", code="overdraft", conflict=True, message=said):
            append_entry(ledger, entry)
        stored_kind, sign = STORED_KIND[kind]
        row = m.LedgerEntry.objects.create(
            league=league,
            season=season,
            account=account,
            kind=stored_kind,
            amount_cents=sign * amount_cents,
            player=player,
            reason=reason,
            note=note.strip(),
            created_by=actor,
        )
        write.event("ledger.entry_recorded", row, {**_entry_data(row), "kind": kind})
    return row


def _new_entry(
    entry_id: int,
    league: m.League,
    kind: EntryKind,
    account: AccountValue,
    amount_cents: int,
    player: m.Player | None,
    reason: LedgerReasonValue | Literal[""],
    note: str,
) -> LedgerEntry:
    """The entry `record_ledger_entry` appends, as the rules read it (dated today where the
    league is)."""
    return LedgerEntry(
        entry_id=entry_id,
        on=timezone.localdate(timezone=ZoneInfo(league.time_zone)),
        kind=kind,
        account=account,  # untyped input (a form, JSON): the rules refuse an unknown one
        amount=amount_cents,
        player=player_key(player.pk) if player is not None else None,
        reason=reason or None,
        note=note.strip(),
    )


def _entry_data(row: m.LedgerEntry) -> dict[str, object]:
    """An entry's audit data: what moved, where, for whom and why."""
    return {
        "account": row.account,
        "amount_cents": abs(row.amount_cents),
        "season": row.season_id,
        "player": row.player_id,
        "reason": row.reason,
        "note": row.note,
    }


def _new_entry_message(entry_id: int) -> Callable[[str], str]:
    """The rules' message about an entry not yet recorded, as an official reads it: without
    its id (nothing in the ledger has it yet) and with kinds in words, not codes ("entry 7: a
    dues_paid entry must name the player" -> "A “Dues paid” entry must name the player")."""
    prefix = f"entry {entry_id}: "

    def message(text: str) -> str:
        text = text.removeprefix(prefix)
        for code, label in KIND_LABELS.items():
            text = text.replace(f" {code} ", f" “{label}” ")
        return text[:1].upper() + text[1:]

    return message


def reverse_ledger_entry(*, entry: m.LedgerEntry, reason: str, actor: User) -> m.LedgerEntry:
    """Correct an entry by appending its exact reversal (§9: money is append-only).

    reason: why it is reversed (required; kept as the reversal's note). To correct an amount,
    reverse the entry and record the right one.

    Side effects: locks the league row, inserts the reversing LedgerEntry (same league,
    season, account and player; the opposite amount) and an audit event
    ``ledger.entry_reversed``. Raises PermissionDenied unless `actor` is a league official,
    and ValidationError (nothing written) without a reason, for a reversal, for an entry
    already reversed, or when the reversal would overdraw an account (the rules' message).
    """
    league = entry.league
    with official_write(league=league, actor=actor, action="reverse ledger entries") as write:
        m.League.objects.select_for_update().filter(pk=league.pk).first()
        if not reason.strip():
            raise Refusal(
                {
                    "reason": "Say why this entry is reversed; a reversal without a reason is "
                    "refused."
                },
                code="reason_required",
            )
        ledger = to_rules_ledger(league)
        today = timezone.localdate(timezone=ZoneInfo(league.time_zone))
        with rules_edge("entry", code="reversal_refused", conflict=True, message=str):
            reversal = reversal_of(
                ledger, entry.pk, new_id=_next_id(ledger), on=today, note=reason.strip()
            )
            append_entry(ledger, reversal)
        row = m.LedgerEntry.objects.create(
            league=league,
            season=entry.season,
            account=entry.account,
            kind=m.LedgerEntry.Kind.REVERSAL,
            amount_cents=-entry.amount_cents,
            player=entry.player,
            note=reason.strip(),
            reverses=entry,
            created_by=actor,
        )
        data = {"reverses": entry.pk, "amount_cents": row.amount_cents, "reason": row.note}
        write.event("ledger.entry_reversed", row, data)
    return row


def _check_links(
    *, league: m.League, kind: str, season: m.Season | None, player: m.Player | None
) -> None:
    """The entry's season belongs to the league; dues name a season and its entrant."""
    if kind not in KINDS or kind == "reversal":
        allowed = ", ".join(k for k in KINDS if k != "reversal")
        raise Refusal(
            {
                "kind": f"Unknown entry kind {kind!r}; allowed: {allowed} (reverse an entry with "
                "reverse_ledger_entry)."
            },
            code="unknown_entry_kind",
        )
    if season is not None and season.league_id != league.pk:
        raise Refusal(
            {"season": f"{season} is not a season of {league}."}, code="season_of_another_league"
        )
    if kind == "dues_paid":
        if season is None:
            raise Refusal(
                {"season": "Dues are paid for a season (A47): say which season."},
                code="season_required",
            )
        if player is not None and not season.entries.filter(player=player).exists():
            raise Refusal(
                {"player": f"{player} is not entered in {season.name}, so owes no dues in it."},
                code="not_entered",
            )


def _next_id(ledger: Ledger) -> int:
    """An id for the candidate entry, unique in the rules' ledger (the row gets its own)."""
    return max((e.entry_id for e in ledger.entries), default=0) + 1


def _field(message: str) -> str:
    for word, field in FIELD_WORDS:
        if word in message:
            return field
    return "amount_cents"
