"""Ledger services (§9): append-only entries checked by flipwell.rules.treasury."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError

from flipwell.league import models as m
from flipwell.league.selectors.treasury import treasury
from flipwell.league.services.ledger import record_ledger_entry, reverse_ledger_entry
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(official):
    return f.SeasonFactory(league=official.league, dues_cents=2000)


@pytest.fixture
def ann(season):
    return f.SeasonEntryFactory(season=season, player__first_name="Ann").player


def pay_dues(season, official, player, cents=2000):
    return record_ledger_entry(
        league=season.league,
        season=season,
        kind="dues_paid",
        account="dues",
        amount_cents=cents,
        player=player,
        actor=official.user,
    )


def test_dues_payment_is_stored_and_audited(season, official, ann):
    """R9-a: dues collected from a player for the season."""
    entry = pay_dues(season, official, ann)

    assert (entry.kind, entry.account, entry.amount_cents, entry.player) == (
        "payment",
        "dues",
        2000,
        ann,
    )
    event = m.AuditEvent.objects.get(action="ledger.entry_recorded")
    assert event.data["kind"] == "dues_paid"


def test_transfer_and_expense_balance(season, official, ann):
    """R9-c, R9-e, R9-f: kitty money goes to the treasury, which pays playoff games."""
    pay_dues(season, official, ann)
    record_ledger_entry(
        league=season.league, kind="kitty_in", account="kitty", amount_cents=500,
        actor=official.user,
    )  # fmt: skip
    record_ledger_entry(
        league=season.league, kind="transfer_to_treasury", account="kitty", amount_cents=400,
        actor=official.user,
    )  # fmt: skip
    record_ledger_entry(
        league=season.league, kind="treasury_expense", account="treasury", amount_cents=300,
        reason="playoff_games", actor=official.user,
    )  # fmt: skip

    books = treasury(season.league)

    assert (books.dues_cents, books.kitty_cents, books.treasury_cents, books.total_cents) == (
        2000,
        100,
        100,
        2200,
    )


def test_overdraft_refused_with_the_rules_message(season, official):
    """R9-f: only money the treasury account holds can be spent."""
    with pytest.raises(ValidationError) as error:
        record_ledger_entry(
            league=season.league, kind="treasury_expense", account="treasury",
            amount_cents=300, reason="trophies", actor=official.user,
        )  # fmt: skip

    assert "would take the treasury account to -3.00" in error.value.message_dict["amount_cents"][0]
    assert m.LedgerEntry.objects.count() == 0


def test_expense_without_reason_code_refused(season, official):
    """R9-d: a kitty spend needs its reason code."""
    with pytest.raises(ValidationError) as error:
        record_ledger_entry(
            league=season.league, kind="kitty_spend", account="kitty", amount_cents=100,
            actor=official.user,
        )  # fmt: skip

    assert "coin_mech_failure" in error.value.message_dict["reason"][0]


def test_dues_into_kitty_account_refused(season, official, ann):
    with pytest.raises(ValidationError) as error:
        record_ledger_entry(
            league=season.league, season=season, kind="dues_paid", account="kitty",
            amount_cents=2000, player=ann, actor=official.user,
        )  # fmt: skip

    assert "allowed: dues" in error.value.message_dict["account"][0]


def test_interference_charge_needs_the_violator(season, official):
    """R8.3-d: the interfering player pays; the entry names him."""
    with pytest.raises(ValidationError) as error:
        record_ledger_entry(
            league=season.league, kind="interference_charge", account="kitty", amount_cents=75,
            reason="replayed_game", actor=official.user,
        )  # fmt: skip

    assert "player" in error.value.message_dict


def test_restart_charge_recorded_against_the_player(season, official, ann):
    """R8.6-d: the player responsible pays the restart for all players."""
    entry = record_ledger_entry(
        league=season.league, kind="restart_charge", account="kitty", amount_cents=300,
        player=ann, actor=official.user,
    )  # fmt: skip

    assert (entry.kind, entry.reason, treasury(season.league).kitty_cents) == ("charge", "", 300)


def test_negative_amount_refused(season, official):
    with pytest.raises(ValidationError) as error:
        record_ledger_entry(
            league=season.league, kind="kitty_in", account="kitty", amount_cents=-5,
            actor=official.user,
        )  # fmt: skip

    assert "positive number of cents" in error.value.message_dict["amount_cents"][0]


def test_dues_from_a_player_not_entered_refused(season, official):
    stranger = f.PlayerFactory()

    with pytest.raises(ValidationError) as error:
        pay_dues(season, official, stranger)

    assert "not entered" in error.value.message_dict["player"][0]


def test_entry_by_a_scorekeeper_refused(season):
    scorekeeper = f.LeagueOfficialFactory(
        league=season.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )

    with pytest.raises(PermissionDenied):
        record_ledger_entry(
            league=season.league, kind="kitty_in", account="kitty", amount_cents=100,
            actor=scorekeeper.user,
        )  # fmt: skip


def test_reversal_appends_the_opposite_entry(season, official, ann):
    """§9: a correction is a reversing entry; the original is never edited."""
    entry = pay_dues(season, official, ann)

    reversal = reverse_ledger_entry(
        entry=entry, reason="paid twice by mistake", actor=official.user
    )

    assert (reversal.kind, reversal.amount_cents, reversal.reverses, reversal.player) == (
        "reversal",
        -2000,
        entry,
        ann,
    )
    books = treasury(season.league, season=season)
    assert books.total_cents == 0
    assert (books.dues[0].paid, books.dues[0].outstanding) == (0, 2000)
    assert books.entries[0].reversed_by == reversal.pk


def test_reversal_without_reason_refused(season, official, ann):
    entry = pay_dues(season, official, ann)

    with pytest.raises(ValidationError, match="reason"):
        reverse_ledger_entry(entry=entry, reason=" ", actor=official.user)
    assert m.LedgerEntry.objects.count() == 1


def test_reversing_twice_refused(season, official, ann):
    entry = pay_dues(season, official, ann)
    reverse_ledger_entry(entry=entry, reason="mistake", actor=official.user)

    with pytest.raises(ValidationError, match="already reversed"):
        reverse_ledger_entry(entry=entry, reason="again", actor=official.user)
    assert m.LedgerEntry.objects.count() == 2


def test_reversal_that_would_overdraw_refused(season, official):
    """R9-f: the kitty already spent the money, so its payment cannot be reversed."""
    payment = record_ledger_entry(
        league=season.league, kind="kitty_in", account="kitty", amount_cents=500,
        actor=official.user,
    )  # fmt: skip
    record_ledger_entry(
        league=season.league, kind="kitty_spend", account="kitty", amount_cents=400,
        reason="coin_mech_failure", actor=official.user,
    )  # fmt: skip

    with pytest.raises(ValidationError, match=r"would take the kitty account to -4\.00"):
        reverse_ledger_entry(entry=payment, reason="counted wrong", actor=official.user)


def test_stored_entries_are_never_updated(season, official, ann):
    entry = pay_dues(season, official, ann)
    entry.note = "edited"

    with pytest.raises(IntegrityError):
        entry.save()


def test_dues_status_per_player(season, official, ann):
    """R9-a, A47: dues are owed once per season."""
    bob = f.SeasonEntryFactory(season=season, player__first_name="Bob").player
    pay_dues(season, official, ann, cents=2500)
    pay_dues(season, official, bob, cents=500)

    dues = {d.player.name.split()[0]: d for d in treasury(season.league, season=season).dues}

    assert (dues["Ann"].paid, dues["Ann"].outstanding, dues["Ann"].ahead) == (2500, 0, 500)
    assert (dues["Bob"].paid, dues["Bob"].outstanding, dues["Bob"].ahead) == (500, 1500, 0)


def test_dues_lines_alphabetical_with_accents_under_base_letter(season, official, ann):
    """A64, R4.3-b: "Éclair" files beside "Eclair" (first names decide: Émile before Eva),
    before "Zane", not after it."""
    for first, last in (("Zed", "Zane"), ("Émile", "Éclair"), ("Eva", "Eclair")):
        f.SeasonEntryFactory(season=season, player__first_name=first, player__last_name=last)
    listed = {"Émile Éclair", "Eva Eclair", "Zed Zane"}

    dues = treasury(season.league, season=season).dues

    assert [d.player.name for d in dues if d.player.name in listed] == [
        "Émile Éclair",
        "Eva Eclair",
        "Zed Zane",
    ]
