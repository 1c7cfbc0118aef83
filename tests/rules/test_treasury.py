"""The league's money (§9, R8.3-d, R8.6-d): an append-only ledger of entries in cents."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import Ruleset
from flipwell.rules.treasury import (
    Balances,
    DuesStatus,
    Ledger,
    LedgerEntry,
    append_entry,
    balances,
    dues_status,
    money,
    reversal_of,
)

DAY = date(2024, 3, 5)
LATER = date(2024, 3, 12)


def dues(entry_id, amount, player="ann", on=DAY):
    return LedgerEntry(entry_id, on, "dues_paid", "dues", amount, player=player)


def kitty_in(entry_id, amount, player=None, on=DAY):
    return LedgerEntry(entry_id, on, "kitty_in", "kitty", amount, player=player)


def kitty_spend(entry_id, amount, reason="coin_mech_failure", on=DAY):
    return LedgerEntry(entry_id, on, "kitty_spend", "kitty", amount, reason=reason)


def transfer(entry_id, amount, source="kitty", on=DAY):
    return LedgerEntry(entry_id, on, "transfer_to_treasury", source, amount)


def expense(entry_id, amount, reason="trophies", note="", on=DAY):
    return LedgerEntry(
        entry_id, on, "treasury_expense", "treasury", amount, reason=reason, note=note
    )


def refusal(action):
    with pytest.raises(RuleError) as caught:
        action()
    return str(caught.value)


# --- Entries and balances -------------------------------------------------------------------


def test_balances_dues_paid_go_to_dues_account():
    """R9-a: dues a player pays are held in the dues account."""
    ledger = Ledger((dues(1, 4000), dues(2, 4000, player="bob")))

    assert balances(ledger) == Balances(dues=8000, kitty=0, treasury=0)


def test_balances_kitty_in_goes_to_kitty():
    """R9-c: a player paying while the machine already has credits pays into the kitty."""
    ledger = Ledger((kitty_in(1, 100, player="ann"), kitty_in(2, 50)))

    assert balances(ledger) == Balances(dues=0, kitty=150, treasury=0)


def test_balances_kitty_spend_draws_on_kitty():
    """R9-d: credits bought after a coin mech failure, or for bonus credits, come from the kitty."""
    ledger = Ledger((kitty_in(1, 500), kitty_spend(2, 100), kitty_spend(3, 200, "bonus_credits")))

    assert balances(ledger) == Balances(dues=0, kitty=200, treasury=0)


def test_balances_transfer_moves_kitty_money_into_treasury_holdings_unchanged():
    """R9-e: kitty money is added to the treasury; the holdings stay the same."""
    before = Ledger((kitty_in(1, 700), dues(2, 3000)))

    after = append_entry(before, transfer(3, 600))

    assert (balances(before).total, balances(after)) == (
        3700,
        Balances(dues=3000, kitty=100, treasury=600),
    )


def test_balances_total_is_dues_plus_kitty_plus_treasury():
    """R9-e: the treasury's holdings count the dues and kitty accounts as well as its own."""
    ledger = Ledger((dues(1, 4000), kitty_in(2, 300), transfer(3, 200), transfer(4, 1000, "dues")))

    result = balances(ledger)

    assert (result.dues, result.kitty, result.treasury, result.total) == (3000, 100, 1200, 4300)


def test_balances_treasury_expense_draws_on_treasury_account():
    """R9-f: the treasury pays playoff games, trophies, parties, prizes and other expenses."""
    ledger = Ledger(
        (
            dues(1, 10000),
            transfer(2, 10000, "dues"),
            expense(3, 2000, "playoff_games"),
            expense(4, 3000, "trophies"),
            expense(5, 1500, "parties"),
            expense(6, 1000, "prizes"),
            expense(7, 500, "other", note="score sheets"),
        )
    )

    assert balances(ledger) == Balances(dues=0, kitty=0, treasury=2000)


def test_balances_as_of_counts_entries_up_to_that_day():
    """R9-e: a balance on a day is the sum of the entries dated up to it."""
    ledger = Ledger((kitty_in(1, 100, on=DAY), kitty_in(2, 40, on=LATER)))

    assert (balances(ledger, as_of=DAY), balances(ledger)) == (
        Balances(kitty=100),
        Balances(kitty=140),
    )


def test_interference_charge_is_paid_into_kitty():
    """R8.3-d: the interfering player pays for the replayed game or buy-in ball."""
    charge = LedgerEntry(
        1, DAY, "interference_charge", "kitty", 75, player="cal", reason="buy_in_ball"
    )

    assert balances(Ledger((charge,))) == Balances(kitty=75)


def test_interference_charge_without_player_is_refused():
    """R8.3-d: the charge must name the violator who pays."""
    message = refusal(
        lambda: LedgerEntry(1, DAY, "interference_charge", "kitty", 75, reason="replayed_game")
    )

    assert message == "entry 1: a interference_charge entry must name the player (R8.3-d)"


def test_interference_charge_without_reason_is_refused():
    """R8.3-d: the charge says whether it paid a replayed game or a buy-in ball."""
    message = refusal(lambda: LedgerEntry(1, DAY, "interference_charge", "kitty", 75, player="cal"))

    assert message == (
        "entry 1: a interference_charge entry needs a reason code, one of replayed_game, "
        "buy_in_ball (R8.3-d); got None"
    )


def test_restart_charge_is_paid_by_the_responsible_player():
    """R8.6-d: the player who started the wrong number of games pays the restart for all."""
    charge = LedgerEntry(1, DAY, "restart_charge", "kitty", 300, player="dee", note="4 credits")

    ledger = Ledger((charge,))

    assert (balances(ledger), ledger.entry(1).player) == (Balances(kitty=300), "dee")


def test_restart_charge_without_player_is_refused():
    """R8.6-d: a restart charge must name who pays it."""
    message = refusal(lambda: LedgerEntry(1, DAY, "restart_charge", "kitty", 300))

    assert message == "entry 1: a restart_charge entry must name the player (R8.6-d)"


# --- Refusals -------------------------------------------------------------------------------


def test_kitty_spend_beyond_balance_is_refused():
    """R9-d: the kitty can only buy credits with money it holds."""
    ledger = Ledger((kitty_in(1, 100),))

    message = refusal(lambda: append_entry(ledger, kitty_spend(2, 350)))

    assert message == (
        "entry 2: spending 3.50 from the kitty would take the kitty account to -2.50; "
        "it holds 1.00 (R9-d: only money the account holds can be spent)"
    )


def test_treasury_expense_beyond_treasury_account_is_refused_even_with_dues_held():
    """R9-f: expenses are paid from the treasury account; dues must be transferred first."""
    ledger = Ledger((dues(1, 5000),))

    message = refusal(lambda: append_entry(ledger, expense(2, 1000)))

    assert message == (
        "entry 2: paying 10.00 from the treasury would take the treasury account to -10.00; "
        "it holds 0.00 (R9-f: only money the account holds can be spent)"
    )


def test_transfer_beyond_kitty_is_refused():
    """R9-e: only money in the kitty can be added to the treasury."""
    message = refusal(lambda: Ledger((kitty_in(1, 100), transfer(2, 101))))

    assert message == (
        "entry 2: transferring 1.01 to the treasury would take the kitty account to -0.01; "
        "it holds 1.00 (R9-e: only money the account holds can be spent)"
    )


def test_kitty_spend_without_reason_code_is_refused():
    """R9-d: a kitty spend records why: a coin mech failure or bonus credits."""
    message = refusal(lambda: LedgerEntry(1, DAY, "kitty_spend", "kitty", 100))

    assert message == (
        "entry 1: a kitty_spend entry needs a reason code, one of coin_mech_failure, "
        "bonus_credits (R9-d); got None"
    )


def test_treasury_expense_with_unknown_reason_is_refused():
    """R9-f: expense reasons are playoff games, trophies, parties, prizes or other."""
    message = refusal(lambda: expense(1, 100, reason="beer"))

    assert message == (
        "entry 1: a treasury_expense entry needs a reason code, one of playoff_games, "
        "trophies, parties, prizes, other (R9-f); got 'beer'"
    )


def test_treasury_expense_other_without_note_is_refused():
    """R9-f: "other league expenses" must say what they paid for."""
    message = refusal(lambda: expense(1, 100, reason="other", note="  "))

    assert message == (
        "entry 1: an 'other' treasury expense needs a note saying what it paid for (R9-f)"
    )


def test_entry_reason_on_kind_without_reasons_is_refused():
    message = refusal(
        lambda: LedgerEntry(1, DAY, "dues_paid", "dues", 100, player="ann", reason="trophies")
    )

    assert message == "entry 1: a dues_paid entry takes no reason code, got 'trophies'"


def test_entry_wrong_account_for_kind_is_refused():
    """R9-c: kitty payments go to the kitty, not to the dues account."""
    message = refusal(lambda: LedgerEntry(1, DAY, "kitty_in", "dues", 100))

    assert (
        message == "entry 1: a kitty_in entry cannot use the 'dues' account; allowed: kitty (R9-c)"
    )


def test_entry_unknown_kind_is_refused():
    message = refusal(lambda: LedgerEntry(1, DAY, "loan", "kitty", 100))  # type: ignore[arg-type]

    assert message.startswith("entry 1: unknown kind 'loan'; allowed: dues_paid, kitty_in")


@pytest.mark.parametrize(
    ("amount", "expected"),
    [
        (12.5, "entry 1's amount must be a whole number of cents (an int), got 12.5"),
        (
            Decimal("12"),
            "entry 1's amount must be a whole number of cents (an int), got Decimal('12')",
        ),
        (True, "entry 1's amount must be a whole number of cents (an int), got True"),
        (
            0,
            "entry 1's amount must be a positive number of cents, got 0: the entry's kind gives "
            "its direction, and a correction is a reversal",
        ),
        (
            -100,
            "entry 1's amount must be a positive number of cents, got -100: the entry's kind "
            "gives its direction, and a correction is a reversal",
        ),
    ],
)
def test_entry_amount_not_positive_int_cents_is_refused(amount, expected):
    """Money is whole cents: floats, decimals, zero and negatives are refused (§9)."""
    assert refusal(lambda: kitty_in(1, amount)) == expected


def test_entry_date_not_a_date_is_refused():
    message = refusal(lambda: LedgerEntry(1, "2024-03-05", "kitty_in", "kitty", 100))  # type: ignore[arg-type]

    assert message == "entry 1: date must be a datetime.date, got '2024-03-05'"


def test_entry_reverses_on_non_reversal_is_refused():
    message = refusal(lambda: LedgerEntry(2, DAY, "kitty_in", "kitty", 100, reverses=1))

    assert message == "entry 2: only a reversal may name an entry to reverse, not a kitty_in entry"


def test_ledger_duplicate_id_is_refused():
    message = refusal(lambda: Ledger((kitty_in(1, 100), kitty_in(1, 200))))

    assert message == "entry 1 is already in the ledger: ids are unique"


def test_ledger_non_entry_is_refused():
    message = refusal(lambda: Ledger(("kitty 100",)))  # type: ignore[arg-type]

    assert message == "a ledger holds LedgerEntry values, got 'kitty 100'"


def test_money_formats_cents_with_separators_and_sign():
    assert (money(1234550), money(5), money(-250)) == ("12,345.50", "0.05", "-2.50")


# --- Reversals ------------------------------------------------------------------------------


def test_reversal_restores_prior_balances():
    """R9-e: a correction is a reversing entry; the balance is again the sum before it."""
    before = Ledger((dues(1, 4000), kitty_in(2, 500), transfer(3, 200)))

    reversed_ = append_entry(before, reversal_of(before, 3, new_id=4, on=LATER))

    assert balances(reversed_) == Balances(dues=4000, kitty=500, treasury=0)


def test_reversal_keeps_both_entries_in_the_ledger():
    """§9: money is append-only; the reversed entry stays, with the entry that undoes it."""
    before = Ledger((kitty_in(1, 500),))

    after = append_entry(before, reversal_of(before, 1, new_id=2, on=DAY, note="typo"))

    assert [(e.entry_id, e.kind, e.reverses) for e in after.entries] == [
        (1, "kitty_in", None),
        (2, "reversal", 1),
    ]


def test_reversal_twice_is_refused():
    ledger = Ledger((kitty_in(1, 500),))
    once = append_entry(ledger, reversal_of(ledger, 1, new_id=2, on=DAY))

    message = refusal(lambda: append_entry(once, reversal_of(once, 1, new_id=3, on=DAY)))

    assert message == "entry 3 reverses entry 1, already reversed by entry 2"


def test_reversal_of_reversal_is_refused():
    ledger = Ledger((kitty_in(1, 500),))
    once = append_entry(ledger, reversal_of(ledger, 1, new_id=2, on=DAY))
    hand_made = LedgerEntry(3, DAY, "reversal", "kitty", 500, reverses=2)

    messages = (
        refusal(lambda: reversal_of(once, 2, new_id=3, on=DAY)),
        refusal(lambda: append_entry(once, hand_made)),
    )

    assert messages == (
        "entry 2 is itself a reversal and cannot be reversed: append the correct entry instead",
        "entry 3 reverses entry 2, which is itself a reversal: append the correct entry instead",
    )


def test_reversal_of_unknown_entry_is_refused():
    ledger = Ledger((kitty_in(1, 500),))
    hand_made = LedgerEntry(2, DAY, "reversal", "kitty", 500, reverses=9)

    messages = (
        refusal(lambda: reversal_of(ledger, 9, new_id=2, on=DAY)),
        refusal(lambda: append_entry(ledger, hand_made)),
    )

    assert messages == (
        "no ledger entry 9",
        "entry 2 reverses entry 9, which is not in the ledger (an entry can only reverse an "
        "earlier one)",
    )


def test_reversal_with_other_amount_is_refused():
    ledger = Ledger((kitty_in(1, 500),))
    partial = LedgerEntry(2, DAY, "reversal", "kitty", 200, reverses=1)

    message = refusal(lambda: append_entry(ledger, partial))

    assert message == (
        "entry 2 must reverse all of entry 1: 5.00 in kitty, got 2.00 in kitty; to correct "
        "an amount, reverse it and append the right one"
    )


def test_reversal_dated_before_original_is_refused():
    ledger = Ledger((kitty_in(1, 500, on=LATER),))

    message = refusal(lambda: append_entry(ledger, reversal_of(ledger, 1, new_id=2, on=DAY)))

    assert message == "entry 2 is dated 2024-03-05, before the entry 1 it reverses (2024-03-12)"


def test_reversal_of_spent_income_is_refused():
    """R9-d: undoing a kitty payment the kitty already spent would overdraw it."""
    ledger = Ledger((kitty_in(1, 500), kitty_spend(2, 400)))

    message = refusal(lambda: append_entry(ledger, reversal_of(ledger, 1, new_id=3, on=DAY)))

    assert message == (
        "entry 3: reversing entry 1 would take the kitty account to -4.00; it holds 1.00 "
        "(§9: only money the account holds can be spent)"
    )


# --- Dues owed (R9-a, A47) ------------------------------------------------------------------


def test_dues_status_per_season_by_default():
    """R9-a, A47: dues are owed once per season by every player, whatever he played."""
    ledger = Ledger((dues(1, 4000, "ann"), dues(2, 1500, "bob")))

    result = dues_status(ledger, dues_amount=4000, meets_played={"ann": 3, "bob": 1, "cal": 0})

    assert result == {
        "ann": DuesStatus(owed=4000, paid=4000),
        "bob": DuesStatus(owed=4000, paid=1500),
        "cal": DuesStatus(owed=4000, paid=0),
    }
    assert [result[p].outstanding for p in ("ann", "bob", "cal")] == [0, 2500, 4000]


def test_dues_status_per_meet_counts_meets_played():
    """R9-a, A47: with dues_period "meet", a player owes the amount for each meet he played."""
    ruleset = Ruleset(dues_period="meet")
    ledger = Ledger((dues(1, 1500, "ann"), dues(2, 2000, "bob")))

    result = dues_status(
        ledger, dues_amount=500, meets_played={"ann": 3, "bob": 2}, ruleset=ruleset
    )

    assert [(s.owed, s.paid, s.outstanding, s.ahead) for s in result.values()] == [
        (1500, 1500, 0, 0),
        (1000, 2000, 0, 1000),
    ]


def test_dues_status_counts_reversed_payment_as_unpaid():
    """R9-a: a reversed dues payment no longer counts as paid."""
    ledger = Ledger((dues(1, 4000, "ann"), dues(2, 4000, "ann")))
    ledger = append_entry(ledger, reversal_of(ledger, 2, new_id=3, on=DAY, note="paid twice"))

    result = dues_status(ledger, dues_amount=4000, meets_played={"ann": 1})

    assert result == {"ann": DuesStatus(owed=4000, paid=4000)}


def test_dues_status_payment_from_unlisted_player_is_refused():
    ledger = Ledger((dues(1, 4000, "zed"),))

    message = refusal(lambda: dues_status(ledger, dues_amount=4000, meets_played={"ann": 1}))

    assert message == (
        "entry 1 records dues from zed, who is not among the season's players in meets_played"
    )


@pytest.mark.parametrize("amount", [-1, 40.0, True])
def test_dues_status_bad_amount_is_refused(amount):
    message = refusal(lambda: dues_status(Ledger(), dues_amount=amount, meets_played={}))

    assert message == f"dues_amount must be a whole number of cents, 0 or more, got {amount!r}"


# --- Invariants (Hypothesis) ----------------------------------------------------------------

INCOME_KINDS = ("dues_paid", "kitty_in", "interference_charge", "restart_charge")
OUTGO_KINDS = ("kitty_spend", "transfer_kitty", "transfer_dues", "treasury_expense")
PLAYERS = ("ann", "bob", "cal")


def make_entry(entry_id, kind, amount, player):
    """One entry of a kind named by the strategies below."""
    if kind == "dues_paid":
        return LedgerEntry(entry_id, DAY, "dues_paid", "dues", amount, player=player)
    if kind == "kitty_in":
        return LedgerEntry(entry_id, DAY, "kitty_in", "kitty", amount, player=player)
    if kind == "interference_charge":
        return LedgerEntry(
            entry_id, DAY, kind, "kitty", amount, player=player, reason="replayed_game"
        )
    if kind == "restart_charge":
        return LedgerEntry(entry_id, DAY, kind, "kitty", amount, player=player)
    if kind == "kitty_spend":
        return kitty_spend(entry_id, amount)
    if kind == "transfer_kitty":
        return transfer(entry_id, amount, "kitty")
    if kind == "transfer_dues":
        return transfer(entry_id, amount, "dues")
    return expense(entry_id, amount, "prizes")


# What each kind does to the treasury's holdings, stated independently of the module.
HOLDINGS_SIGN = {
    "dues_paid": 1,
    "kitty_in": 1,
    "interference_charge": 1,
    "restart_charge": 1,
    "kitty_spend": -1,
    "transfer_to_treasury": 0,
    "treasury_expense": -1,
}

operations = st.lists(
    st.tuples(
        st.sampled_from(INCOME_KINDS + OUTGO_KINDS + ("reversal",)),
        st.integers(min_value=1, max_value=100_000),
        st.sampled_from(PLAYERS),
        st.integers(min_value=0, max_value=1_000),
    ),
    max_size=40,
)


def valid_ledger(ops):
    """Append each operation that the ledger accepts; refusals (overdrafts) are skipped."""
    ledger = Ledger()
    for number, (kind, amount, player, pick) in enumerate(ops, start=1):
        if kind == "reversal":
            candidates = [e.entry_id for e in ledger.entries if e.kind != "reversal"]
            if not candidates:
                continue
            target = candidates[pick % len(candidates)]
            try:
                entry = reversal_of(ledger, target, new_id=number, on=DAY)
            except RuleError:
                continue
        else:
            entry = make_entry(number, kind, amount, player)
        try:
            ledger = append_entry(ledger, entry)
        except RuleError:
            continue
    return ledger


@given(operations)
def test_ledger_balances_sum_of_accounts_equals_sum_of_signed_entries(ops):
    """§9, R9-e: the holdings are the signed sum of every entry, and no account is negative."""
    ledger = valid_ledger(ops)
    by_id = {e.entry_id: e for e in ledger.entries}

    def signed(entry):
        if entry.kind == "reversal":
            return -signed(by_id[entry.reverses])
        return HOLDINGS_SIGN[entry.kind] * entry.amount

    result = balances(ledger)

    assert result.total == sum(signed(e) for e in ledger.entries)
    assert min(result.dues, result.kitty, result.treasury) >= 0


@given(operations, st.integers(min_value=0, max_value=1_000))
def test_ledger_reversing_an_entry_restores_balances_without_it(ops, pick):
    """§9: a reversal undoes its entry exactly; refused only if it would overdraw (R9-d, R9-f)."""
    ledger = valid_ledger(ops)
    candidates = [
        e.entry_id
        for e in ledger.entries
        if e.kind != "reversal" and all(r.reverses != e.entry_id for r in ledger.entries)
    ]
    if not candidates:
        return
    target = candidates[pick % len(candidates)]
    entry = reversal_of(ledger, target, new_id=10_000, on=DAY)
    expected = _balances_without(ledger, target)

    if min(expected.dues, expected.kitty, expected.treasury) < 0:
        with pytest.raises(RuleError):
            append_entry(ledger, entry)
    else:
        assert balances(append_entry(ledger, entry)) == expected


@given(
    operations,
    st.sampled_from(INCOME_KINDS + OUTGO_KINDS),
    st.integers(min_value=1, max_value=100_000),
    st.sampled_from(PLAYERS),
)
def test_ledger_entry_then_its_reversal_restores_prior_balances(ops, kind, amount, player):
    """§9: appending an entry and then its reversal leaves every balance exactly as before."""
    before = valid_ledger(ops)
    try:
        with_entry = append_entry(before, make_entry(10_000, kind, amount, player))
    except RuleError:
        return  # an overdraft: nothing was appended, so there is nothing to reverse

    after = append_entry(with_entry, reversal_of(with_entry, 10_000, new_id=10_001, on=DAY))

    assert balances(after) == balances(before)


def _signed(entry, ledger):
    """R9-e, written out independently: what one entry adds to each account."""
    if entry.kind == "reversal":
        original = next(e for e in ledger.entries if e.entry_id == entry.reverses)
        return {a: -c for a, c in _signed(original, ledger).items()}
    if entry.kind == "transfer_to_treasury":
        return {entry.account: -entry.amount, "treasury": entry.amount}
    if entry.kind in ("kitty_spend", "treasury_expense"):
        return {entry.account: -entry.amount}
    return {entry.account: entry.amount}


def _balances_without(ledger, entry_id):
    """Account sums of every entry but one, computed entry by entry."""
    sums = {"dues": 0, "kitty": 0, "treasury": 0}
    for entry in ledger.entries:
        if entry.entry_id != entry_id:
            for account, cents in _signed(entry, ledger).items():
                sums[account] += cents
    return Balances(**sums)


@given(
    st.lists(
        st.tuples(st.sampled_from(INCOME_KINDS), st.integers(1, 100_000), st.sampled_from(PLAYERS)),
        max_size=30,
    ),
    st.randoms(use_true_random=False),
)
def test_ledger_income_in_any_order_gives_same_balances(incomes, rng):
    """§9: balances are sums, so appending the same entries in another order changes nothing."""
    entries = [make_entry(n, kind, amount, p) for n, (kind, amount, p) in enumerate(incomes, 1)]
    shuffled = list(entries)
    rng.shuffle(shuffled)

    assert balances(Ledger(tuple(shuffled))) == balances(Ledger(tuple(entries)))


@given(
    st.lists(
        st.tuples(
            st.sampled_from(INCOME_KINDS + OUTGO_KINDS),
            st.integers(1, 1_000),
            st.sampled_from(PLAYERS),
        ),
        max_size=30,
    ),
    st.randoms(use_true_random=False),
)
def test_ledger_funded_entries_in_any_order_give_same_balances(tail, rng):
    """R9-d, R9-e, R9-f: once the accounts are funded, any order of spends and income agrees."""
    # Each tail entry is at most 1,000 cents, so 30 of them never exhaust these funds.
    funding = [dues(1, 200_000), transfer(2, 100_000, "dues"), kitty_in(3, 100_000)]
    entries = [make_entry(n, kind, amount, p) for n, (kind, amount, p) in enumerate(tail, 4)]
    shuffled = list(entries)
    rng.shuffle(shuffled)

    assert balances(Ledger(tuple(funding + shuffled))) == balances(Ledger(tuple(funding + entries)))


def test_balances_of_names_one_account():
    """R9-e: each account's balance is shown on its own as well as in the holdings."""
    result = balances(Ledger((dues(1, 4000), kitty_in(2, 300), transfer(3, 100))))

    assert [result.of(a) for a in ("dues", "kitty", "treasury")] == [4000, 200, 100]
