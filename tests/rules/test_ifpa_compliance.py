"""The IFPA's league requirements against hand-computed seasons (IFPA league definitions,
TGP guide, endorsement fee; `flipwell.rules.ifpa_parameters` cites each page)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import (
    IFPA_DEFAULTS,
    IfpaCheckName,
    IfpaGames,
    IfpaParameters,
    IfpaSeasonFacts,
    MeetFacts,
    RuleError,
    held_meets,
    ifpa_compliance,
    ifpa_parameters,
    tgp_percent,
)

N = IfpaCheckName
FOURS = IfpaGames(games=4, players=4)


def _figures(compliance, name):
    return dict(compliance.check(name).figures)


def _eight_meets(**changes):
    """8 meets held, 5 players attending 8, 6, 4, 3 and 1 meets; 4 reach the finals."""
    facts = {
        "meets_scheduled": 8,
        "meets_held": 8,
        "meets_counted": 8,
        "attended": (8, 6, 4, 3, 1),
        "members": 5,
        "finalists": 4,
        "direct_play": True,
        "meets": (FOURS,) * 8,
        "finals": (IfpaGames(3, 4), IfpaGames(3, 4)),
    }
    return IfpaSeasonFacts(**{**facts, **changes})


def test_ifpa_compliance_passes_a_full_season_of_eight_meets():
    """8 held >= 6; 8 counted >= 4; 4 of 8 needed: 3 listed, 2 below; 5 players < 50; 4 of 5
    finalists >= 10% (1)."""
    compliance = ifpa_compliance(_eight_meets())

    assert [(c.name, c.passed) for c in compliance.checks] == [
        (N.SESSIONS_HELD, True),
        (N.SESSIONS_COUNTED, True),
        (N.ATTENDANCE, True),
        (N.DIRECT_PLAY, True),
        (N.FINALS_SHARE, True),
        (N.TGP, True),
        (N.FEE, True),
    ]
    assert compliance.passed is True
    assert _figures(compliance, N.ATTENDANCE) == {"meets needed": "4", "listed": "3", "below": "2"}
    assert _figures(compliance, N.FINALS_SHARE) == {"finalists": "4", "players": "5", "needed": "1"}


def test_ifpa_compliance_tgp_of_eight_four_player_meets_is_capped_at_100():
    """8 meets x 4 games x 2 (4-player) = 64 meaningful games; 64 x 4% = 256%, capped at 100%."""
    compliance = ifpa_compliance(_eight_meets())

    assert _figures(compliance, N.TGP) == {
        "meaningful games": "64",
        "TGP": "100%",
        "ceiling": "100%",
    }


def test_ifpa_compliance_tgp_counts_the_finals_of_post_finals_results_up_to_200():
    """64 + 2 rounds x 3 games x 2 = 76 meaningful games; 304%, capped at 200%."""
    compliance = ifpa_compliance(_eight_meets(post_finals=True))

    assert _figures(compliance, N.TGP) == {
        "meaningful games": "76",
        "TGP": "200%",
        "ceiling": "200%",
    }


def test_ifpa_compliance_tgp_of_three_three_player_meets_is_short_of_full_value():
    """3 meets x 4 games x 1.5 (3-player) = 18 meaningful games: 72%."""
    facts = _eight_meets(meets=(IfpaGames(4, 3),) * 3)

    tgp = ifpa_compliance(facts).check(N.TGP)

    assert (tgp.passed, dict(tgp.figures)["TGP"]) == (False, "72%")
    assert tgp.estimate is True


def test_ifpa_compliance_fee_is_a_dollar_for_each_listed_player():
    """3 players attend 4 of 8 meets or more: USD 3.00."""
    fee = ifpa_compliance(_eight_meets()).check(N.FEE)

    assert dict(fee.figures) == {"players": "3", "per player": "USD 1.00", "total": "USD 3.00"}


def test_ifpa_compliance_fee_uses_the_leagues_own_amount_and_currency():
    parameters = ifpa_parameters({"fee_cents_per_player": 250, "fee_currency": "EUR"})

    fee = ifpa_compliance(_eight_meets(), parameters=parameters).check(N.FEE)

    assert dict(fee.figures)["total"] == "EUR 7.50"


def test_ifpa_compliance_warns_before_the_season_when_five_meets_are_scheduled():
    """Planned: 5 meets scheduled < 6 (fails), 5 >= 4 counted (passes); 3 needed of 5."""
    facts = _eight_meets(
        meets_scheduled=5, meets_held=0, meets_counted=0, attended=(0, 0), members=2,
        finalists=2, meets=(FOURS,) * 5, planned=True,
    )  # fmt: skip

    compliance = ifpa_compliance(facts)

    assert compliance.check(N.SESSIONS_HELD).passed is False
    assert compliance.check(N.SESSIONS_HELD).explanation == (
        "5 meets scheduled; the IFPA asks for at least 6 a season: 1 short."
    )
    assert compliance.check(N.SESSIONS_COUNTED).passed is True
    assert _figures(compliance, N.ATTENDANCE) == {"meets needed": "3", "listed": "2", "below": "0"}
    assert compliance.passed is False


def test_ifpa_compliance_three_counted_meets_fail_the_counted_minimum():
    facts = _eight_meets(meets_held=3, meets_counted=3, attended=(3, 2))

    compliance = ifpa_compliance(facts)

    assert (
        compliance.check(N.SESSIONS_HELD).passed,
        compliance.check(N.SESSIONS_COUNTED).passed,
    ) == (
        False,
        False,
    )


def test_ifpa_compliance_a_league_of_fifty_must_play_head_to_head():
    """60 players >= 50 and no direct play: fails; 5 finalists < 10% of 60 (6): fails."""
    facts = _eight_meets(attended=(8,) * 60, members=60, finalists=5, direct_play=False)

    compliance = ifpa_compliance(facts)

    assert compliance.check(N.DIRECT_PLAY).passed is False
    assert compliance.check(N.FINALS_SHARE).passed is False
    assert _figures(compliance, N.FINALS_SHARE)["needed"] == "6"


def test_ifpa_compliance_a_league_of_fifty_playing_groups_passes_direct_play():
    facts = _eight_meets(attended=(8,) * 50, members=50, finalists=24)

    assert ifpa_compliance(facts).check(N.DIRECT_PLAY).passed is True


def test_ifpa_compliance_a_small_league_needs_no_direct_play():
    facts = _eight_meets(direct_play=False)

    assert ifpa_compliance(facts).check(N.DIRECT_PLAY).passed is True


def test_ifpa_compliance_finals_below_ten_percent_do_not_add_to_the_tgp():
    """21 players: 10% is 3 (2.1 rounded up); 2 finalists do not count the finals."""
    facts = _eight_meets(
        attended=(8,) * 21, members=21, finalists=2, post_finals=True, meets=(IfpaGames(1, 4),)
    )

    compliance = ifpa_compliance(facts)

    assert compliance.check(N.FINALS_SHARE).passed is False
    assert _figures(compliance, N.TGP)["meaningful games"] == "2"


def test_ifpa_compliance_every_check_cites_an_ifpa_page():
    compliance = ifpa_compliance(_eight_meets())

    assert all(c.source.url.startswith("http") and c.source.rule for c in compliance.checks)


def test_ifpa_parameters_refuse_a_number_outside_their_bounds():
    with pytest.raises(RuleError, match="min_sessions cannot be 0"):
        IfpaParameters(min_sessions=0)


def test_ifpa_parameters_refuse_an_unknown_name_and_a_bad_currency():
    with pytest.raises(RuleError, match="unknown IFPA parameter sessions"):
        ifpa_parameters({"sessions": 3})
    with pytest.raises(RuleError, match="3-letter code"):
        IfpaParameters(fee_currency="dollars")


def test_ifpa_season_facts_refuse_more_counted_than_held():
    with pytest.raises(RuleError, match="more than the 2 held"):
        _eight_meets(meets_held=2, meets_counted=3, attended=())


def test_ifpa_season_facts_refuse_more_finalists_than_members():
    with pytest.raises(RuleError, match="more than the 5 members"):
        _eight_meets(finalists=6)


games = st.builds(IfpaGames, games=st.integers(0, 6), players=st.integers(1, 4))


@given(st.lists(games, max_size=12), games)
def test_tgp_never_decreases_when_a_meet_is_added(meets, extra):
    assert tgp_percent([*meets, extra]) >= tgp_percent(meets)


@given(st.lists(games, max_size=12), st.lists(games, max_size=4))
def test_tgp_stays_within_its_ceiling(meets, finals):
    percent = tgp_percent(meets, finals)

    ceiling = 200 if finals else 100
    assert Fraction(0) <= percent <= ceiling


@given(st.lists(games, min_size=1, max_size=6))
def test_tgp_is_four_percent_a_meaningful_game_below_the_ceiling(meets):
    meaningful = sum((g.meaningful for g in meets), Fraction(0))

    assert tgp_percent(meets) == min(meaningful * 4, Fraction(100))


@given(st.integers(1, 40), st.integers(0, 40))
def test_ifpa_compliance_sessions_pass_exactly_from_six_held(held, extra):
    facts = _eight_meets(
        meets_scheduled=held + extra, meets_held=held, meets_counted=held, attended=(held,)
    )

    checks = ifpa_compliance(facts, parameters=IFPA_DEFAULTS)

    assert checks.check(N.SESSIONS_HELD).passed is (held >= 6)
    assert checks.check(N.SESSIONS_COUNTED).passed is (held >= 4)


def test_held_meets_leave_out_the_meet_being_played():
    """issue 33 §1, R2-a: held means closed; the open meet is still being played."""
    meets = (MeetFacts(1, ()), MeetFacts(2, ()), MeetFacts(3, (), closed=False))

    assert [meet.number for meet in held_meets(meets)] == [1, 2]
