"""The single-night playoffs: §6 and the "5.3" play order (R6.*, R5.3-*; A01-A06, A39-A44, A54)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.errors import RuleError
from flipwell.rules.playoff_bracket import PlayoffBracketState, playoff_bracket_state
from flipwell.rules.playoff_machines import (
    check_playoff_machine,
    delayed_match_start,
    draw_playoff_machine,
    draw_tiebreaker_machine,
    playoff_machine_chooser,
    playoff_play_order,
    selectable_playoff_machines,
    tardiness_notice_valid,
)
from flipwell.rules.playoff_matches import (
    PlayoffGame,
    PlayoffMatchRecord,
    PlayoffMatchState,
    playoff_match_state,
)
from flipwell.rules.playoff_seeding import (
    PlayoffSeeding,
    apply_withdrawals,
    check_playoff_cut,
    playoff_qualification,
)
from flipwell.rules.playoffs import (
    divisions_for_qualifiers,
    papa_points,
    playoff_divisions,
    playoff_first_round,
    playoff_qualifier_count,
)
from flipwell.rules.ruleset import Ruleset
from flipwell.rules.values import PlayoffCandidate, PlayoffDivision

MACHINES = ["AFM", "Attack", "Medieval", "Twilight", "Scared"]


def players(count: int) -> list[str]:
    return [f"p{i:02}" for i in range(1, count + 1)]


def standings(count: int, **points: int | Fraction) -> list[PlayoffCandidate]:
    """`count` players p01.. on strictly falling points, with any overrides by name."""
    return [PlayoffCandidate(p, points.get(p, 1000 - 10 * i)) for i, p in enumerate(players(count))]


def game(machine: str, *order: str) -> PlayoffGame:
    return PlayoffGame(machine, order=order)


# --- Divisions and the cut (§6.1, §6.2) ------------------------------------------------------

SECTION_6_1_TABLE = {
    **{n: [n] for n in (6, 7)},  # A03: all play, seeds 7 (and 8) vacant
    **{n: [8] for n in range(8, 17)},  # R6.1-f (16 -> 8, A02)
    **{n: [12] for n in range(17, 25)},  # R6.1-g
    **{n: [8, 8] for n in range(25, 33)},  # R6.1-h
    **{n: [8, 12] for n in range(33, 41)},  # R6.1-i
    **{n: [12, 12] for n in range(41, 49)},  # R6.1-j
}


@pytest.mark.parametrize("n", range(6, 49))
def test_playoff_divisions_match_section_6_1_literally(n):
    """R6.1-b, R6.1-f, R6.1-g, R6.1-h, R6.1-i, R6.1-j: the division table for 6..48 players."""
    divisions = playoff_divisions(n)

    assert [d.size for d in divisions] == SECTION_6_1_TABLE[n]
    assert [d.name for d in divisions] == ["A", "B"][: len(divisions)]
    assert [d.bracket for d in divisions] == [max(8, s) for s in SECTION_6_1_TABLE[n]]


def test_playoff_divisions_rank_bands_are_consecutive():
    """R6.1-i: 33..40 players, A = top 8 and B = the next 12."""
    assert playoff_divisions(36) == [PlayoffDivision("A", 1, 8, 8), PlayoffDivision("B", 9, 20, 12)]


@pytest.mark.parametrize(
    ("low", "high", "sizes"),
    [(49, 56, [8, 8, 12]), (57, 64, [8, 12, 12]), (65, 72, [12, 12, 12]), (73, 80, [8, 8, 12, 12])],
)
def test_playoff_divisions_over_48_follow_a04_examples(low, high, sizes):
    """A04: q = 4·⌈n/8⌉ split into ⌈q/12⌉ divisions of 8 and 12, the twelves lowest."""
    assert {
        n: [d.size for d in playoff_divisions(n)] for n in range(low, high + 1)
    } == dict.fromkeys(range(low, high + 1), sizes)


def test_playoff_divisions_over_48_refused_under_lo_decision():
    """A04 alternative: beyond the table the LO sets the divisions."""
    with pytest.raises(RuleError, match=r"beyond the §6\.1 table"):
        playoff_divisions(49, ruleset=Ruleset(playoff_divisions_over_48="lo_decision"))


@given(st.integers(min_value=9, max_value=200))
def test_playoff_qualifiers_are_half_or_more_in_brackets_of_8_and_12(n):
    """R6.2-b, R6.1-c (A01 default): ≥ ⌈n/2⌉ qualify, a multiple of 4, every division 8 or 12."""
    divisions = playoff_divisions(n)
    qualifiers = playoff_qualifier_count(n)

    assert sum(d.size for d in divisions) == qualifiers
    assert qualifiers >= -(-n // 2)
    assert qualifiers % 4 == 0
    assert {d.size for d in divisions} <= {8, 12}


def test_playoff_cut_sentence_round_down_alternative():
    """R6.1-c read literally (A01 option b): 20 players -> 8, 12 players -> a final of 4."""
    ruleset = Ruleset(playoff_cut_rule="sentence_round_down")

    assert playoff_qualifier_count(20, ruleset=ruleset) == 8
    assert playoff_divisions(12, ruleset=ruleset) == [PlayoffDivision("A", 1, 4, 4)]


def test_playoff_16_players_can_qualify_12():
    """A02 alternative: 16 players read as the "between 16 and 24" row."""
    divisions = playoff_divisions(16, ruleset=Ruleset(playoff_16_players_qualify=12))

    assert divisions == [PlayoffDivision("A", 1, 12, 12)]


def test_playoff_small_league_top_four_final():
    """A03 alternative: 6 to 8 players send their top 4 to a single final."""
    ruleset = Ruleset(playoff_small_league="top_four_final")

    assert playoff_divisions(7, ruleset=ruleset) == [PlayoffDivision("A", 1, 4, 4)]
    assert playoff_first_round(4) == [[1, 2, 3, 4]]


def test_playoff_qualifier_count_refuses_fewer_than_six_players():
    """§1, A03: fewer than six players needs an LO decision."""
    with pytest.raises(RuleError, match="minimum of 6"):
        playoff_qualifier_count(5)


def test_playoff_first_round_groups():
    """R6.3-h (8: 1-4-5-8, 2-3-6-7) and R6.3-i (12: 5-8-9-12, 6-7-10-11)."""
    assert playoff_first_round(8) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert playoff_first_round(12) == [[5, 8, 9, 12], [6, 7, 10, 11]]


def test_check_playoff_cut_refuses_under_half():
    """R6.2-b, A06: an LO cut of 8 in a league of 20 qualifies only 40%."""
    with pytest.raises(RuleError, match=r"at least 10 must qualify \(R6.2-b\)"):
        check_playoff_cut(8, league_size=20)


def test_check_playoff_cut_refuses_a_cut_that_forms_no_brackets():
    """R6.2-b, A06: an override must still form brackets of 8 and 12."""
    with pytest.raises(RuleError, match="multiple of 4"):
        check_playoff_cut(13, league_size=20)


def test_check_playoff_cut_accepts_half_or_more():
    """R6.2-b: 16 of 20 is allowed, and splits as two divisions of 8."""
    assert check_playoff_cut(16, league_size=20) == 16
    assert [d.size for d in divisions_for_qualifiers(16)] == [8, 8]


# --- Qualification and seeds (§6.1, §6.2) ---------------------------------------------------


def test_playoff_qualification_seeds_by_season_points():
    """R6.1-d, R6.2-a: the highest season totals qualify, best first, whatever the input order."""
    field = list(reversed(standings(10)))

    result = playoff_qualification(field, previous_ladder=players(10))

    assert result.seedings == (PlayoffSeeding(PlayoffDivision("A", 1, 8, 8), tuple(players(8))),)
    assert result.reserves == ("p09", "p10")


def test_playoff_qualification_leaves_out_ineligible_players():
    """A05, A37: a season-forfeited player neither qualifies nor counts toward league size."""
    field = [PlayoffCandidate("gone", 5000, eligible=False), *standings(16)]

    result = playoff_qualification(field, previous_ladder=players(16))

    assert result.league_size == 16
    assert result.seedings[0].players == tuple(players(8))


def test_playoff_qualification_all_entrants_counts_ineligible_players():
    """A05 alternative: 17 entrants make 12 qualifiers even though one is ineligible."""
    field = [PlayoffCandidate("gone", 5000, eligible=False), *standings(16)]

    result = playoff_qualification(
        field, previous_ladder=players(16), ruleset=Ruleset(playoff_league_size="all_entrants")
    )

    assert result.cut == 12
    assert result.seedings[0].players == tuple(players(12))


def test_playoff_qualification_reports_a_tie_across_the_cut():
    """R6.1-e, A39: p08 and p09 tie at the cut; no seeds are guessed."""
    field = standings(12, p08=925, p09=925)

    result = playoff_qualification(field, previous_ladder=players(12))

    assert [(t.players, t.line) for t in result.ties] == [(("p08", "p09"), "cut")]
    assert result.seedings == ()
    assert result.ties[0].message == (
        "p08 and p09 are tied at 925 points across the playoff cut: settle by a single-ball "
        "playoff on a random machine (R6.1-e)"
    )


def test_playoff_qualification_reports_a_tie_across_a_division_line():
    """R6.1-e: in a 26-player league ranks 8 and 9 tie across the A/B line."""
    field = standings(26, p08=925, p09=925)

    result = playoff_qualification(field, previous_ladder=players(26))

    assert [(t.players, t.line) for t in result.ties] == [(("p08", "p09"), "division")]


def test_playoff_qualification_reports_a_seeding_tie_by_default():
    """A39 default: a tie among qualifiers is settled by single-ball play too."""
    field = standings(10, p02=985, p03=985)

    result = playoff_qualification(field, previous_ladder=players(10))

    assert [(t.players, t.line, t.points) for t in result.ties] == [
        (("p02", "p03"), "seeding", 985)
    ]


def test_playoff_qualification_ignores_ties_among_reserves():
    """A39: a tie wholly below the cut decides nothing."""
    field = standings(12, p10=905, p11=905)

    result = playoff_qualification(field, previous_ladder=players(12))

    assert result.ties == ()
    assert result.reserves == ("p09", "p10", "p11", "p12")


def test_playoff_qualification_uses_the_recorded_single_ball_playoff():
    """R6.1-e: the recorded order (winner first) settles the tie at the cut."""
    field = standings(12, p08=925, p09=925)

    result = playoff_qualification(field, previous_ladder=players(12), settled=[["p09", "p08"]])

    assert result.seedings[0].seeds[7] == "p09"
    assert result.reserves[0] == "p08"


def test_playoff_qualification_refuses_an_incomplete_single_ball_order():
    """R6.1-e: every player tied at those points plays the single ball."""
    field = standings(12, p07=930, p08=930, p09=930)

    with pytest.raises(RuleError, match="must list every player tied at 930 points"):
        playoff_qualification(field, previous_ladder=players(12), settled=[["p09", "p08"]])


def test_playoff_qualification_refuses_an_order_of_unequal_points():
    """R6.1-e: a single-ball order only settles a real tie."""
    with pytest.raises(RuleError, match="groups players whose season points differ"):
        playoff_qualification(standings(12), previous_ladder=players(12), settled=[["p01", "p02"]])


def test_playoff_qualification_previous_ladder_alternative():
    """A39 alternative: the previous ladder orders equal points; nothing is left to play."""
    field = standings(12, p08=925, p09=925)
    ladder = ["p09", *[p for p in players(12) if p != "p09"]]
    ruleset = Ruleset(playoff_seed_tiebreak="previous_ladder_position")

    result = playoff_qualification(field, previous_ladder=ladder, ruleset=ruleset)

    assert result.ties == ()
    assert result.seedings[0].seeds[7] == "p09"


def test_playoff_qualification_keeps_fractional_points_exact():
    """R6.1-d, A14.2: a 39/2 credit beats 19 and loses to 20."""
    field = [
        *standings(8),
        PlayoffCandidate("half", Fraction(39, 2)),
        PlayoffCandidate("low", 19),
        PlayoffCandidate("high", 20),
    ]

    result = playoff_qualification(field, previous_ladder=[])

    assert result.reserves == ("high", "half", "low")


def test_playoff_qualification_with_an_lo_cut():
    """R6.2-b, A06: an LO cut of 12 for 20 players is allowed; 8 is refused."""
    field = standings(20)

    result = playoff_qualification(field, previous_ladder=players(20), cut=12)

    assert result.seedings[0].players == tuple(players(12))
    with pytest.raises(RuleError, match=r"R6\.2-b"):
        playoff_qualification(field, previous_ladder=players(20), cut=8)


def test_playoff_qualification_six_players_leave_seeds_vacant():
    """A03 default: 6 players, one 8-bracket, seeds 7 and 8 vacant."""
    result = playoff_qualification(standings(6), previous_ladder=players(6))

    assert result.seedings[0].seeds == (*players(6), None, None)


# --- Withdrawals before the playoffs (§6.6) --------------------------------------------------


def test_withdrawal_moves_everyone_up_across_divisions():
    """R6.6-b, A41 default: B's top seed moves up into A, the first reserve enters B."""
    field = standings(26)

    result = playoff_qualification(field, previous_ladder=players(26), withdrawn=["p03"])

    (a, b) = result.seedings
    assert a.players == ("p01", "p02", "p04", "p05", "p06", "p07", "p08", "p09")
    assert b.players == tuple(players(17)[9:])
    assert result.reserves == tuple(players(26)[17:])


def test_withdrawal_within_division_alternative():
    """A41 alternative: only A moves up and the highest-ranked non-qualifier takes A's seed 8."""
    field = standings(26)

    result = playoff_qualification(
        field,
        previous_ladder=players(26),
        withdrawn=["p03"],
        ruleset=Ruleset(withdrawal_shift="within_division"),
    )

    (a, b) = result.seedings
    assert a.players == ("p01", "p02", "p04", "p05", "p06", "p07", "p08", "p17")
    assert b.players == tuple(players(16)[8:])


def test_withdrawal_passes_over_a_reserve_who_also_declined():
    """R6.6-b, A41: if the reached player also declined, go on down the list."""
    result = playoff_qualification(
        standings(12), previous_ladder=players(12), withdrawn=["p01", "p09"]
    )

    assert result.seedings[0].players == (*players(8)[1:], "p10")
    assert result.reserves == ("p11", "p12")


def test_withdrawal_without_reserves_leaves_the_lowest_seed_vacant():
    """R6.6-b, A42.4: with no one left to qualify the bottom seed is vacant."""
    result = playoff_qualification(standings(8), previous_ladder=players(8), withdrawn=["p02"])

    assert result.seedings[0].seeds == ("p01", "p03", "p04", "p05", "p06", "p07", "p08", None)


def test_withdrawal_of_an_unknown_player_is_refused():
    """R6.6-b: only a player of the standings can withdraw."""
    with pytest.raises(RuleError, match="withdrawn player zed is not in the season standings"):
        playoff_qualification(standings(8), previous_ladder=players(8), withdrawn=["zed"])


def test_withdrawal_tie_reached_by_the_shift_must_be_settled():
    """R6.1-e, R6.6-b: a withdrawal pulls in a reserve tied with the next one."""
    field = standings(12, p09=915, p10=915)

    result = playoff_qualification(field, previous_ladder=players(12), withdrawn=["p01"])

    assert [(t.players, t.line) for t in result.ties] == [(("p09", "p10"), "cut")]


@given(
    st.sampled_from([(25, [8, 8]), (36, [8, 12]), (44, [12, 12]), (10, [8]), (20, [12])]),
    st.sets(st.integers(min_value=1, max_value=44)),
    st.sampled_from(["across_divisions", "within_division"]),
)
def test_withdrawals_keep_seeds_contiguous(shape, picks, shift):
    """R6.6-b, A41: after withdrawals every division's seeds are filled from 1 with no gaps."""
    n, sizes = shape
    roster = players(n)
    qualifiers = sum(sizes)
    divisions = divisions_for_qualifiers(qualifiers)
    seedings = [
        PlayoffSeeding(
            d, tuple(roster[d.first_rank - 1 : d.last_rank]) + (None,) * (d.bracket - d.size)
        )
        for d in divisions
    ]
    withdrawn = {roster[i - 1] for i in picks if i <= n}

    result = apply_withdrawals(
        seedings,
        reserves=roster[qualifiers:],
        withdrawn=withdrawn,
        ruleset=Ruleset(withdrawal_shift=shift),
    )

    seeded = [p for s in result for p in s.players]
    for s in result:
        filled = len(s.players)
        assert s.seeds[:filled] == s.players
        assert set(s.seeds[filled:]) <= {None}
    assert set(seeded).isdisjoint(withdrawn)
    assert len(seeded) == min(qualifiers, n - len(withdrawn))
    if shift == "across_divisions":
        assert seeded == [p for p in roster if p not in withdrawn][:qualifiers]


# --- PAPA points and one match (§6.3) --------------------------------------------------------


def test_papa_points_by_players():
    """R6.3-a (4-2-1-0), R6.6-d (3 players 4-2-1), A42.3 (2 players 4-2)."""
    assert papa_points(["a", "b", "c", "d"]) == {"a": 4, "b": 2, "c": 1, "d": 0}
    assert papa_points(["a", "b", "c"]) == {"a": 4, "b": 2, "c": 1}
    assert papa_points(["a", "b"]) == {"a": 4, "b": 2}


def test_papa_points_give_no_bonus_for_a_crushing_score():
    """R6.3-b: a winner far above 2nd + 3rd still gets exactly 4, unlike R3.2-f."""
    record = PlayoffMatchRecord(
        games=(PlayoffGame("AFM", scores={"a": 10**9, "b": 3, "c": 2, "d": 1}),)
    )

    state = playoff_match_state(["a", "b", "c", "d"], record, match="SF1")

    assert dict(state.totals) == {"a": 4, "b": 2, "c": 1, "d": 0}


@given(
    st.sampled_from([["a", "b", "c", "d"], ["a", "b", "c"]]).flatmap(
        lambda ps: st.tuples(st.just(ps), st.lists(st.permutations(ps), min_size=3, max_size=3))
    )
)
def test_papa_totals_of_a_match_are_always_21(case):
    """R6.3-c, R6.6-d: three games of 4-2-1-0 or 4-2-1 always total 21."""
    seeds, orders = case
    games = tuple(game(m, *o) for m, o in zip(MACHINES, orders, strict=False))
    absent = ("d",) if len(seeds) == 3 else ()

    state = playoff_match_state(
        ["a", "b", "c", "d"], PlayoffMatchRecord(absent=absent, games=games), match="SF1"
    )

    assert sum(state.totals.values()) == 21


def test_semifinal_top_two_advance_bottom_two_eliminated():
    """R6.3-c, R6.3-d: after three games the top 2 totals advance."""
    record = PlayoffMatchRecord(
        games=(
            game("AFM", "c", "a", "b", "d"),
            game("Attack", "a", "c", "d", "b"),
            game("Medieval", "c", "d", "a", "b"),
        )
    )

    state = playoff_match_state(["a", "b", "c", "d"], record, match="SF1")

    assert dict(state.totals) == {"a": 7, "b": 1, "c": 10, "d": 3}
    assert (state.status, state.advancing, state.eliminated) == ("complete", ("c", "a"), ("d", "b"))


def test_match_game_one_play_order_is_by_seed_and_machine_is_drawn():
    """R5.3-a, A43, R6.4-b: game 1 plays in original seed order on a random machine."""
    state = playoff_match_state(["s1", "s4", "s5", "s8"], match="SF1")

    assert (state.status, state.next_game, state.needed) == ("ready", 1, "the result of game 1")
    assert (state.play_order, state.machine_chooser) == (("s1", "s4", "s5", "s8"), None)


def test_match_later_games_play_in_previous_results_order_and_loser_picks():
    """R5.3-b, R6.4-c: game 2 plays in game 1's finishing order; game 1's last place picks."""
    record = PlayoffMatchRecord(games=(game("AFM", "s5", "s1", "s8", "s4"),))

    state = playoff_match_state(["s1", "s4", "s5", "s8"], record, match="SF1")

    assert (state.next_game, state.play_order, state.machine_chooser) == (
        2,
        ("s5", "s1", "s8", "s4"),
        "s4",
    )


def test_match_refuses_a_fourth_game():
    """R6.3-c: a playoff match is three games."""
    record = PlayoffMatchRecord(games=tuple(game(m, "a", "b", "c", "d") for m in MACHINES[:4]))

    with pytest.raises(RuleError, match=r"a playoff match is 3 \(R6.3-c\)"):
        playoff_match_state(["a", "b", "c", "d"], record, match="SF1")


def test_match_refuses_a_repeated_machine():
    """A44, R6.4-a: no machine twice within one match."""
    record = PlayoffMatchRecord(
        games=(game("AFM", "a", "b", "c", "d"), game("AFM", "a", "b", "c", "d"))
    )

    with pytest.raises(RuleError, match="machine AFM is played twice in SF1"):
        playoff_match_state(["a", "b", "c", "d"], record, match="SF1")


def test_match_game_from_scores_uses_the_one_ball_playoff_order():
    """A54, R3.2-i: equal machine scores are ordered by the recorded one-ball playoff."""
    scored = PlayoffGame(
        "AFM", scores={"a": 50, "b": 90, "c": 50, "d": 10}, tie_order=(("c", "a"),)
    )

    assert scored.finishing_order() == ("b", "c", "a", "d")


def test_match_game_from_scores_refuses_an_unordered_tie():
    """A54: a machine-score tie with no recorded one-ball playoff cannot be scored."""
    scored = PlayoffGame("AFM", scores={"a": 50, "b": 90, "c": 50, "d": 10})

    with pytest.raises(RuleError, match="unresolved tie between a and c"):
        playoff_match_state(["a", "b", "c", "d"], PlayoffMatchRecord(games=(scored,)), match="SF1")


def test_final_places_first_to_fourth_by_totals():
    """R6.3-e: the final's three-game totals place 1st to 4th."""
    record = PlayoffMatchRecord(
        games=(
            game("AFM", "d", "c", "b", "a"),
            game("Attack", "d", "b", "c", "a"),
            game("Medieval", "c", "d", "a", "b"),
        )
    )

    state = playoff_match_state(["a", "b", "c", "d"], record, match="F")

    assert state.placing == ("d", "c", "b", "a")


# --- Ties in playoff results (§6.5) ----------------------------------------------------------


def games_of(*orders: str) -> tuple[PlayoffGame, ...]:
    """Games on distinct machines from finishing orders written as strings ('abcd')."""
    return tuple(game(m, *o) for m, o in zip(MACHINES, orders, strict=False))


SEEDS = ["a", "b", "c", "d"]
TIE_FOR_SECOND = games_of("abcd", "abdc", "cdba")  # a 8, b 5, c 5, d 3
TIE_FOR_FIRST = games_of("abdc", "bdac", "cabd")  # a 7, b 7, c 4, d 3
TIE_FOR_THIRD = games_of("abcd", "bacd", "dcab")  # a 7, b 6, c 4, d 4
THREE_WAY_FOR_SECOND = games_of("abcd", "abcd", "dcab")  # a 9, b 4, c 4, d 4


def test_tie_across_advancement_needs_a_tiebreaker():
    """R6.5-a, A40: b and c tie on 5 for the last advancing place."""
    state = playoff_match_state(SEEDS, PlayoffMatchRecord(games=TIE_FOR_SECOND), match="SF1")

    assert dict(state.totals) == {"a": 8, "b": 5, "c": 5, "d": 3}
    assert (state.status, state.needed, state.tied) == (
        "tiebreaker_needed",
        "tiebreaker needed between b and c",
        (("b", "c"),),
    )
    assert (state.play_order, state.machine_chooser) == (("b", "c"), None)  # R6.5-b: drawn


def test_tiebreaker_order_decides_who_advances():
    """R6.5-a: the tiebreaker game's winner takes the advancing place."""
    record = PlayoffMatchRecord(games=TIE_FOR_SECOND, tiebreakers=(game("Scared", "c", "b"),))

    state = playoff_match_state(SEEDS, record, match="SF1")

    assert (state.status, state.advancing, state.eliminated) == ("complete", ("a", "c"), ("b", "d"))


def test_tie_for_first_in_a_semifinal_is_not_broken():
    """A40 default: a tie for 1st in a semifinal decides nothing; both advance."""
    state = playoff_match_state(SEEDS, PlayoffMatchRecord(games=TIE_FOR_FIRST), match="SF1")

    assert dict(state.totals) == {"a": 7, "b": 7, "c": 4, "d": 3}
    assert (state.status, state.advancing, state.eliminated) == ("complete", ("a", "b"), ("c", "d"))


def test_tie_for_third_in_a_semifinal_is_not_broken():
    """A40 default: both tied players are eliminated whatever their order."""
    state = playoff_match_state(SEEDS, PlayoffMatchRecord(games=TIE_FOR_THIRD), match="SF2")

    assert (state.status, state.advancing) == ("complete", ("a", "b"))


def test_tiebreaker_game_always_breaks_every_tie():
    """A40 alternative: the tie for 1st in a semifinal is played off too."""
    ruleset = Ruleset(playoff_tie_method="tiebreaker_game_always")

    state = playoff_match_state(
        SEEDS, PlayoffMatchRecord(games=TIE_FOR_FIRST), match="SF1", ruleset=ruleset
    )

    assert (state.status, state.tied) == ("tiebreaker_needed", (("a", "b"),))


def test_tie_for_first_in_the_final_needs_a_tiebreaker():
    """R6.5-a, R6.3-e: in the final every tie decides a place."""
    state = playoff_match_state(SEEDS, PlayoffMatchRecord(games=TIE_FOR_FIRST), match="F")

    assert state.needed == "tiebreaker needed between a and b"


def test_final_tiebreaker_orders_the_tied_players():
    """R6.5-a, R6.3-e: the final's tiebreaker decides 1st and 2nd."""
    record = PlayoffMatchRecord(games=TIE_FOR_FIRST, tiebreakers=(game("AFM", "b", "a"),))

    state = playoff_match_state(SEEDS, record, match="F")

    assert state.placing == ("b", "a", "c", "d")


def test_three_way_tie_across_advancement():
    """R6.5-a: b, c and d tie on 4 for 2nd; one tiebreaker among the three; its winner advances."""
    pending = playoff_match_state(
        SEEDS, PlayoffMatchRecord(games=THREE_WAY_FOR_SECOND), match="SF1"
    )
    record = PlayoffMatchRecord(
        games=THREE_WAY_FOR_SECOND, tiebreakers=(game("AFM", "d", "b", "c"),)
    )

    state = playoff_match_state(SEEDS, record, match="SF1")

    assert pending.needed == "tiebreaker needed between b, c and d"
    assert (state.advancing, state.eliminated) == (("a", "d"), ("b", "c"))


def test_three_way_tie_in_a_three_player_round():
    """R6.5-a, A40: 7-7-7 is possible when one player is a no-show."""
    record = PlayoffMatchRecord(absent=("d",), games=games_of("abc", "bca", "cab"))

    state = playoff_match_state(SEEDS, record, match="SF1")

    assert dict(state.totals) == {"a": 7, "b": 7, "c": 7}
    assert state.needed == "tiebreaker needed between a, b and c"


def test_tiebreaker_for_a_tie_that_does_not_exist_is_refused():
    """R6.5-a: a tiebreaker must be among exactly the tied players."""
    record = PlayoffMatchRecord(games=TIE_FOR_SECOND, tiebreakers=(game("AFM", "a", "b"),))

    with pytest.raises(RuleError, match="does not match a tie that needs breaking"):
        playoff_match_state(SEEDS, record, match="SF1")


def test_tiebreaker_before_the_three_games_is_refused():
    """R6.5-a, R6.3-c: ties exist only once the three games are in."""
    record = PlayoffMatchRecord(games=TIE_FOR_SECOND[:2], tiebreakers=(game("AFM", "b", "c"),))

    with pytest.raises(RuleError, match="cannot have a tiebreaker before its 3 games"):
        playoff_match_state(SEEDS, record, match="SF1")


# --- No-shows (§6.6) --------------------------------------------------------------------------


def test_no_show_cannot_appear_in_a_game():
    """R6.6-c: a player absent at the match start is disqualified from the match."""
    record = PlayoffMatchRecord(absent=("d",), games=(game("AFM", "a", "b", "c", "d"),))

    with pytest.raises(RuleError, match="lists d, who is not a present player"):
        playoff_match_state(SEEDS, record, match="SF1")


def test_no_show_makes_a_three_player_round_with_one_eliminated():
    """R6.6-c, R6.6-d: 4-2-1 per game, two advance, one of the three is eliminated."""
    record = PlayoffMatchRecord(absent=("b",), games=games_of("acd", "cad", "adc"))

    state = playoff_match_state(SEEDS, record, match="SF1")

    assert dict(state.totals) == {"a": 10, "c": 7, "d": 4}
    assert (state.advancing, state.eliminated) == (("a", "c"), ("d", "b"))


def test_two_no_shows_in_a_semifinal_both_advance_without_play():
    """A42.3: two present players both advance, so nothing needs playing."""
    state = playoff_match_state(SEEDS, PlayoffMatchRecord(absent=("a", "d")), match="SF1")

    assert (state.status, state.advancing, state.eliminated) == ("complete", ("b", "c"), ("a", "d"))


def test_two_player_final_is_scored_four_two():
    """A42.3: a 2-player round is 4-2 per game; totals 18 over three games."""
    record = PlayoffMatchRecord(absent=("a", "b"), games=games_of("cd", "dc", "cd"))

    state = playoff_match_state(SEEDS, record, match="F")

    assert dict(state.totals) == {"c": 10, "d": 8}
    assert state.placing == ("c", "d", "a", "b")


def test_no_show_in_the_final_is_placed_last():
    """A42.1, R6.6-d: the final is a 3-player round and the no-show is 4th."""
    record = PlayoffMatchRecord(absent=("a",), games=games_of("bcd", "cbd", "bdc"))

    state = playoff_match_state(SEEDS, record, match="F")

    assert state.placing == ("b", "c", "d", "a")


def test_no_show_must_be_a_player_of_the_match():
    """R6.6-c: only the match's own players can be recorded as no-shows."""
    with pytest.raises(RuleError, match="no-show zed is not a player of SF1"):
        playoff_match_state(SEEDS, PlayoffMatchRecord(absent=("zed",)), match="SF1")


# --- Machines (§6.4) and tardiness (§6.6) -----------------------------------------------------


def test_selectable_machines_follow_section_5_constraints():
    """R6.4-a, A44: not played in this match, not busy, not unplayable."""
    allowed = selectable_playoff_machines(
        MACHINES, played=["AFM"], busy=["Attack"], unplayable=["Scared"]
    )

    assert allowed == ["Medieval", "Twilight"]


def test_selectable_machines_lift_the_busy_rule_when_nothing_is_free():
    """R6.4-a, R5-f: with every unplayed machine busy, a busy one may be chosen."""
    allowed = selectable_playoff_machines(
        MACHINES, played=["AFM", "Attack"], busy=["Medieval", "Twilight", "Scared"]
    )

    assert allowed == ["Medieval", "Twilight", "Scared"]


def test_selectable_machines_repeat_only_when_no_unplayed_machine_is_playable():
    """R6.4-a, A22: a played machine returns only when every unplayed one is unplayable."""
    allowed = selectable_playoff_machines(
        MACHINES[:3], played=["AFM", "Attack"], unplayable=["Medieval"]
    )

    assert allowed == ["AFM", "Attack"]


def test_check_playoff_machine_names_the_reason():
    """R6.4-a, A44: a chooser's pick of an unplayable or already-played machine is refused."""
    with pytest.raises(RuleError, match=r"machine Scared is unplayable \(R7.3-r\)"):
        check_playoff_machine("Scared", machines=MACHINES, unplayable=["Scared"])
    with pytest.raises(RuleError, match=r"AFM was already played in this match \(A44\)"):
        check_playoff_machine("AFM", machines=MACHINES, played=["AFM"])
    assert check_playoff_machine("Twilight", machines=MACHINES, played=["AFM"]) == "Twilight"


def test_draw_playoff_machine_is_reproducible_and_random():
    """R6.4-b: the first machine is random; the same seed draws the same machine."""
    draws = {draw_playoff_machine(MACHINES, seed=s) for s in range(50)}

    assert draw_playoff_machine(MACHINES, seed=7) == draw_playoff_machine(
        list(reversed(MACHINES)), seed=7
    )
    assert draws == set(MACHINES)


@given(st.integers(), st.sets(st.sampled_from(MACHINES), max_size=4))
def test_draw_playoff_machine_never_draws_an_unplayable_machine(seed, unplayable):
    """R6.4-a, R6.4-b: a draw picks among playable machines only."""
    drawn = draw_playoff_machine(MACHINES, seed=seed, unplayable=unplayable)

    assert drawn not in unplayable


def test_draw_tiebreaker_machine_may_repeat_a_match_machine():
    """R6.5-b, A44: tiebreaker machines come from every playable machine."""
    draws = {
        draw_tiebreaker_machine(["AFM", "Attack"], seed=s, unplayable=["Attack"]) for s in range(5)
    }

    assert draws == {"AFM"}


def test_playoff_machine_chooser_is_the_loser():
    """R6.4-c: the last place of a game picks the next machine (3rd of a 3-player round)."""
    assert playoff_machine_chooser(["a", "b", "c", "d"]) == "d"
    assert playoff_machine_chooser(["a", "b", "c"]) == "c"


def test_playoff_play_order_game_one_by_seed_then_by_results():
    """R5.3-a, R5.3-b: seeds first, then the previous game's finishing order."""
    assert playoff_play_order(["s1", "s4", "s5"]) == ["s1", "s4", "s5"]
    assert playoff_play_order(["s1", "s4", "s5"], ["s5", "s1", "s4"]) == ["s5", "s1", "s4"]


START = datetime(2025, 3, 4, 19, 0, tzinfo=UTC)


def test_tardiness_notice_before_start_delays_the_match_fifteen_minutes():
    """R6.6-a, §2.2: a notice before the match start gives up to 15 minutes."""
    notice = START - timedelta(minutes=1)

    assert tardiness_notice_valid(notice_at=notice, start=START) is True
    assert delayed_match_start(start=START, notice_at=notice) == START + timedelta(minutes=15)


def test_tardiness_notice_at_start_is_too_late():
    """R6.6-a, A59: a notice at or after the start gives no delay."""
    assert tardiness_notice_valid(notice_at=START, start=START) is False
    assert delayed_match_start(start=START, notice_at=START) == START


def test_tardiness_wait_follows_the_ruleset():
    """R6.6-a: the wait is `announced_tardiness_wait_minutes`."""
    ruleset = Ruleset(announced_tardiness_wait_minutes=10)

    delayed = delayed_match_start(
        start=START, notice_at=START - timedelta(hours=1), ruleset=ruleset
    )

    assert delayed == START + timedelta(minutes=10)


def test_tardiness_refuses_mixed_naive_and_aware_times():
    """R6.6-a: times must be comparable."""
    with pytest.raises(RuleError, match="timezone-aware or all naive"):
        tardiness_notice_valid(notice_at=datetime(2025, 3, 4, 18, 0), start=START)


# --- A whole division (§6.3) -----------------------------------------------------------------


def seeding_of(count: int, bracket: int) -> PlayoffSeeding:
    roster = [f"s{i}" for i in range(1, count + 1)]
    return PlayoffSeeding(
        PlayoffDivision("A", 1, count, bracket), (*roster, *([None] * (bracket - count)))
    )


def by_seed(*seeds: int) -> str:
    return " ".join(f"s{s}" for s in seeds)


def played(*orders: str) -> PlayoffMatchRecord:
    """A match record from three finishing orders of seed names ('s1 s4 s5 s8')."""
    return PlayoffMatchRecord(
        games=tuple(game(m, *o.split()) for m, o in zip(MACHINES, orders, strict=False))
    )


def test_bracket_of_eight_starts_with_two_semifinals():
    """R6.3-h, R6.3-d: SF1 = seeds 1, 4, 5, 8; SF2 = 2, 3, 6, 7; the final waits for both."""
    state = playoff_bracket_state(seeding_of(8, 8))

    assert [(m.match, m.status, m.players) for m in state.matches] == [
        ("SF1", "ready", ("s1", "s4", "s5", "s8")),
        ("SF2", "ready", ("s2", "s3", "s6", "s7")),
        ("F", "waiting", ()),
    ]
    assert state.needed == (
        "SF1: the result of game 1",
        "SF2: the result of game 1",
        "F: the top 2 of SF1 and of SF2",
    )


def test_bracket_of_eight_runs_to_final_places():
    """R6.3-d, R6.3-e, R6.3-f: semifinal winners meet in a final scored afresh."""
    results = {
        "SF1": played(by_seed(5, 1, 8, 4), by_seed(5, 1, 4, 8), by_seed(1, 5, 4, 8)),
        "SF2": played(by_seed(2, 3, 6, 7), by_seed(2, 3, 7, 6), by_seed(3, 2, 6, 7)),
        "F": played(by_seed(3, 1, 2, 5), by_seed(1, 3, 5, 2), by_seed(3, 2, 1, 5)),
    }

    state = playoff_bracket_state(seeding_of(8, 8), results=results)
    final = state.match("F")

    assert final.players == ("s1", "s2", "s3", "s5")  # A43: listed by original seed
    assert dict(final.totals) == {"s1": 7, "s2": 3, "s3": 10, "s5": 1}  # R6.3-f: no carry-over
    assert state.complete is True
    assert dict(state.places) == {
        "s3": 1,
        "s1": 2,
        "s2": 3,
        "s5": 4,
        "s4": 5,
        "s8": 5,
        "s6": 5,
        "s7": 5,
    }


def test_bracket_of_twelve_gives_seeds_one_to_four_a_bye():
    """R6.3-g, R6.3-i, R6.3-j: quarterfinals first; SF1 = seeds 1 and 4 + the top 2 of QF1."""
    results = {"QF1": played(by_seed(12, 9, 5, 8), by_seed(9, 12, 8, 5), by_seed(12, 9, 5, 8))}

    state = playoff_bracket_state(seeding_of(12, 12), results=results)

    assert [(m.match, m.status, m.players) for m in state.matches] == [
        ("QF1", "complete", ("s5", "s8", "s9", "s12")),
        ("QF2", "ready", ("s6", "s7", "s10", "s11")),
        ("SF1", "ready", ("s1", "s4", "s9", "s12")),
        ("SF2", "waiting", ("s2", "s3")),
        ("F", "waiting", ()),
    ]
    assert state.match("SF1").play_order == ("s1", "s4", "s9", "s12")  # R5.3-a, A43


def test_bracket_of_twelve_places_quarterfinal_losers_ninth():
    """R6.3-g: everyone gets a place; the eliminated share their round's place."""
    results = {
        "QF1": played(by_seed(5, 8, 9, 12), by_seed(5, 8, 9, 12), by_seed(5, 8, 9, 12)),
        "QF2": played(by_seed(6, 7, 10, 11), by_seed(6, 7, 10, 11), by_seed(6, 7, 10, 11)),
        "SF1": played(by_seed(1, 4, 5, 8), by_seed(1, 4, 5, 8), by_seed(1, 4, 5, 8)),
        "SF2": played(by_seed(2, 3, 6, 7), by_seed(2, 3, 6, 7), by_seed(2, 3, 6, 7)),
        "F": played(by_seed(1, 2, 3, 4), by_seed(1, 2, 3, 4), by_seed(1, 2, 3, 4)),
    }

    state = playoff_bracket_state(seeding_of(12, 12), results=results)

    assert sorted(state.places.values()) == [1, 2, 3, 4, 5, 5, 5, 5, 9, 9, 9, 9]
    assert [state.places[f"s{i}"] for i in (9, 12, 5, 8)] == [9, 9, 5, 5]


def test_bracket_with_vacant_seeds_plays_three_player_semifinals():
    """A03, A42.4, R6.6-d: 6 players leave seeds 7 and 8 vacant; each semifinal is 4-2-1."""
    results = {
        "SF1": played(by_seed(5, 1, 4), by_seed(1, 5, 4), by_seed(4, 1, 5)),
        "SF2": played(by_seed(6, 2, 3), by_seed(2, 6, 3), by_seed(3, 2, 6)),
        "F": played(by_seed(1, 2, 5, 6), by_seed(1, 2, 5, 6), by_seed(1, 2, 5, 6)),
    }

    state = playoff_bracket_state(seeding_of(6, 8), results=results)

    assert state.match("SF1").players == ("s1", "s4", "s5")
    assert dict(state.match("SF1").totals) == {"s1": 8, "s4": 6, "s5": 7}
    assert state.match("SF1").eliminated == ("s4",)
    assert dict(state.places) == {"s1": 1, "s2": 2, "s5": 3, "s6": 4, "s4": 5, "s3": 5}


def test_bracket_places_a_semifinal_no_show_after_those_who_played():
    """R6.6-c, A42: the no-show is eliminated and placed below the round's other losers."""
    results = {
        "SF1": PlayoffMatchRecord(
            absent=("s8",), games=played(by_seed(1, 4, 5), by_seed(1, 4, 5), by_seed(1, 4, 5)).games
        ),
        "SF2": played(by_seed(2, 3, 6, 7), by_seed(2, 3, 6, 7), by_seed(2, 3, 6, 7)),
        "F": played(by_seed(1, 2, 3, 4), by_seed(1, 2, 3, 4), by_seed(1, 2, 3, 4)),
    }

    state = playoff_bracket_state(seeding_of(8, 8), results=results)

    assert [state.places[p] for p in ("s5", "s6", "s7", "s8")] == [5, 5, 5, 8]


def test_bracket_refuses_a_record_for_a_match_still_waiting():
    """R6.3-d: the final's players are unknown until both semifinals are complete."""
    results = {"F": played(by_seed(1, 2, 3, 4), by_seed(1, 2, 3, 4), by_seed(1, 2, 3, 4))}

    with pytest.raises(RuleError, match="F has a record, but its players are not known"):
        playoff_bracket_state(seeding_of(8, 8), results=results)


def test_bracket_of_four_is_a_final_only():
    """A03 "top_four_final": the top 4 play the final and nothing else."""
    state = playoff_bracket_state(seeding_of(4, 4))

    assert [(m.match, m.players) for m in state.matches] == [("F", ("s1", "s2", "s3", "s4"))]


def _play_out(
    seeding: PlayoffSeeding, data: st.DataObject
) -> tuple[PlayoffBracketState, dict[str, PlayoffMatchRecord]]:
    """Play a bracket to the end with random finishing orders and tiebreakers."""
    results: dict[str, PlayoffMatchRecord] = {}
    state = playoff_bracket_state(seeding, results=results)
    while not state.complete:
        match: PlayoffMatchState = state.playable[0]
        record = results.get(match.match, PlayoffMatchRecord())
        if match.status == "ready":
            order = data.draw(st.permutations(match.play_order))
            record = PlayoffMatchRecord(
                games=(*record.games, game(MACHINES[len(record.games)], *order))
            )
        else:
            order = data.draw(st.permutations(match.tied[0]))
            record = PlayoffMatchRecord(
                games=record.games, tiebreakers=(*record.tiebreakers, game("AFM", *order))
            )
        results[match.match] = record
        state = playoff_bracket_state(seeding, results=results)
    return state, results


@given(st.sampled_from([(8, 8), (12, 12), (6, 8), (7, 8)]), st.data())
def test_every_seeded_player_gets_one_place(shape, data):
    """R6.3-c, R6.3-e, R6.5-a: any run gives places 1-4 once each and 21 points per match."""
    seeding = seeding_of(*shape)

    state, _ = _play_out(seeding, data)

    assert set(state.places) == set(seeding.players)
    assert sorted(state.places.values())[:4] == [1, 2, 3, 4]
    assert all(sum(m.totals.values()) == 21 for m in state.matches if len(m.totals) >= 3)


def test_playoff_game_refuses_a_missing_machine_score():
    """R6.3-a, R6.6-c: a playoff game has no forfeits; every listed player needs a score."""
    scored = PlayoffGame("AFM", scores={"a": 50, "b": None})

    with pytest.raises(RuleError, match="b's machine score must be a non-negative integer"):
        scored.finishing_order()


def test_playoff_match_refuses_an_unknown_match_id():
    """R6.3-d: matches are QF1, QF2, SF1, SF2 and F."""
    with pytest.raises(RuleError, match="unknown playoff match 'SF3'"):
        playoff_match_state(SEEDS, match="SF3")
