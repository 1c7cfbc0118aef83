"""Why the bracket went the way it did, in one sentence each (issue 27 §2): equal totals in a
match (R6.5-a, R6.5-b, A40), no-shows (R6.6-c, R6.6-d, A42), seed ties settled by a
single-ball playoff (R6.1-e) and withdrawals before the playoffs (R6.6-b)."""

from __future__ import annotations

from fractions import Fraction

from flipwell.rules import (
    PlayoffGame,
    PlayoffMatchRecord,
    match_notes,
    playoff_match_state,
    playoff_qualification,
    seed_playoff_notes,
    withdrawal_notes,
)
from flipwell.rules.values import PlayoffCandidate

NAMES = {"a": "Ann", "b": "Bea", "c": "Cal", "d": "Dee"}
MACHINES = {"1": "Attack from Mars", "2": "Medieval Madness", "3": "Twilight Zone", "9": "Elvira"}


def game(machine: str, *order: str) -> PlayoffGame:
    return PlayoffGame(machine, order=order)


def notes_for(match: str, record: PlayoffMatchRecord, players: str = "abcd") -> tuple[str, ...]:
    state = playoff_match_state(tuple(players), record, match=match)
    return match_notes(state, record, names=NAMES, machines=MACHINES)


# The demo's semifinal: 7, 6, 6, 2 (Bea and Cal tied at the cut).
SIX_SIX = (
    game("1", "a", "b", "c", "d"),
    game("2", "b", "a", "c", "d"),
    game("3", "c", "d", "a", "b"),
)


def test_match_notes_tie_at_the_cut_names_the_tiebreaker_winner_r6_5_a():
    """R6.5-a: "6 against 6" at the cut says who won the tiebreaker game, where, and that
    the winner goes through (the demo's semifinal showed no reason)."""
    record = PlayoffMatchRecord(games=SIX_SIX, tiebreakers=(game("9", "c", "b"),))

    notes = notes_for("SF1", record)

    assert notes == (
        "Bea and Cal tied on 6 points; Cal won the tiebreaker game on Elvira and goes "
        "through [R6.5-a]",
    )


def test_match_notes_open_tie_says_a_drawn_machine_decides_r6_5_b():
    """R6.5-b: while the tie waits, the sentence says what the tiebreaker game will decide."""
    record = PlayoffMatchRecord(games=SIX_SIX)

    notes = notes_for("SF1", record)

    assert notes == (
        "Bea and Cal tied on 6 points; a tiebreaker game on a machine drawn at random "
        "decides who goes through [R6.5-b]",
    )


def test_match_notes_tie_deciding_nothing_needs_no_tiebreaker_a40():
    """A40: 10-7-2-2 in a semifinal: the two on 2 points are both out, no tiebreaker game."""
    games = (
        game("1", "a", "b", "c", "d"),
        game("2", "a", "d", "b", "c"),
        game("3", "b", "a", "c", "d"),
    )
    record = PlayoffMatchRecord(games=games)

    notes = notes_for("SF2", record)

    assert notes == (
        "Cal and Dee tied on 2 points; both are out, so no tiebreaker game was needed [A40]",
    )


def test_match_notes_without_ties_or_no_shows_say_nothing_r6_3_c():
    """R6.3-c: clear totals need no sentence."""
    games = tuple(game(m, "a", "b", "c", "d") for m in "123")

    assert notes_for("SF1", PlayoffMatchRecord(games=games)) == ()


def test_match_notes_final_tie_names_the_place_won_r6_5_a():
    """R6.5-a, R6.3-e: a tie in the final decides places."""
    record = PlayoffMatchRecord(games=SIX_SIX, tiebreakers=(game("9", "b", "c"),))

    notes = notes_for("F", record)

    assert notes == (
        "Bea and Cal tied on 6 points; Bea won the tiebreaker game on Elvira and places "
        "2nd [R6.5-a]",
    )


def test_match_notes_three_way_tie_in_a_three_player_round_r6_6_d():
    """R6.6-d, R6.5-a: a no-show leaves a 4-2-1 round; 7-7-7 is broken by one game of three,
    and the no-show is explained first."""
    games = (game("1", "a", "b", "c"), game("2", "b", "c", "a"), game("3", "c", "a", "b"))
    record = PlayoffMatchRecord(absent=("d",), games=games, tiebreakers=(game("9", "b", "a", "c"),))

    notes = notes_for("SF1", record)

    assert notes == (
        "Dee was not there at the start of the semifinal and is out; the other three play for "
        "4, 2 and 1 points a game and only one of them goes out [R6.6-d]",
        "Ann, Bea and Cal tied on 7 points; the tiebreaker game on Elvira went Bea, Ann, Cal, "
        "so Bea and Ann go through [R6.5-a]",
    )


def test_match_notes_two_no_shows_let_the_others_through_a42_3():
    """A42.3: two no-shows in a semifinal: both present players go through."""
    record = PlayoffMatchRecord(absent=("b", "d"))

    notes = notes_for("SF1", record)

    assert notes == (
        "Bea and Dee were not there at the start of the semifinal and are out; Ann and Cal "
        "go through without playing [A42.3]",
    )


def test_match_notes_no_show_in_the_final_is_placed_last_a42_1():
    """A42.1: a no-show in the final is placed after everyone who played."""
    record = PlayoffMatchRecord(absent=("a",))

    assert notes_for("F", record) == (
        "Ann was not there at the start of the final, so is placed after everyone who "
        "played [A42.1]",
    )


def test_match_notes_leave_an_unknown_tiebreaker_machine_unnamed_r6_5_b():
    """R6.5-b: a tiebreaker recorded without its machine is still explained."""
    record = PlayoffMatchRecord(games=SIX_SIX, tiebreakers=(game("drawn machine", "b", "c"),))

    assert notes_for("SF1", record) == (
        "Bea and Cal tied on 6 points; Bea won the tiebreaker game and goes through [R6.5-a]",
    )


def test_match_notes_of_a_match_in_progress_are_empty_r6_3_c():
    """R6.3-c: equal totals after one or two games decide nothing yet."""
    record = PlayoffMatchRecord(games=SIX_SIX[:2])

    assert notes_for("SF1", record) == ()


# --- seeds -------------------------------------------------------------------------------


def field(**points: int) -> list[PlayoffCandidate]:
    """Twelve players p01..p12 on falling points, with overrides."""
    keys = [f"p{i:02}" for i in range(1, 13)]
    return [PlayoffCandidate(p, points.get(p, 1000 - 10 * i)) for i, p in enumerate(keys)]


LADDER = [f"p{i:02}" for i in range(1, 13)]


def test_seed_playoff_notes_tie_at_the_cut_r6_1_e():
    """R6.1-e: a tie across the cut says who won the single-ball playoff, on which machine,
    the seed won and that the other does not qualify."""
    candidates = field(p08=925, p09=925)
    qualification = playoff_qualification(
        candidates, previous_ladder=LADDER, settled=[["p09", "p08"]]
    )
    points = {c.player: Fraction(c.points) for c in candidates}

    notes = seed_playoff_notes(
        [["p09", "p08"]],
        points=points,
        seedings=qualification.seedings,
        names={"p08": "Hal", "p09": "Ivy"},
        machines=["Medieval Madness"],
    )

    assert notes == (
        "Ivy and Hal tied on 925 season points; Ivy won the single-ball playoff on Medieval "
        "Madness and is seed 8; Hal does not qualify [R6.1-e]",
    )


def test_seed_playoff_notes_three_way_tie_lists_each_seed_r6_1_e():
    """R6.1-e, A39: a three-way seeding tie lists every player's seed in the playoff's order."""
    candidates = field(p02=990, p03=990, p04=990)
    settled = [["p04", "p02", "p03"]]
    qualification = playoff_qualification(candidates, previous_ladder=LADDER, settled=settled)

    notes = seed_playoff_notes(
        settled,
        points={c.player: Fraction(c.points) for c in candidates},
        seedings=qualification.seedings,
    )

    assert notes == (
        "p04, p02 and p03 tied on 990 season points; the single-ball playoff put them in this "
        "order: p04 (seed 2), p02 (seed 3), p03 (seed 4) [R6.1-e]",
    )


def test_withdrawal_notes_name_who_withdrew_and_who_qualified_r6_6_b():
    """R6.6-b: everyone below moves up and the best player below the cut qualifies."""
    qualification = playoff_qualification(field(), previous_ladder=LADDER, withdrawn=["p03"])

    notes = withdrawal_notes(qualification, names={"p03": "Cal", "p09": "Ivy"})

    assert qualification.withdrew == ("p03",)
    assert qualification.stepped_in == ("p09",)
    assert notes == (
        "Cal said before the playoffs that they could not come; everyone seeded below moved "
        "up one spot and Ivy, next below the cut, qualified [R6.6-b]",
    )


def test_withdrawal_notes_without_withdrawals_say_nothing_r6_6_b():
    """R6.6-b: no withdrawal, no sentence."""
    assert withdrawal_notes(playoff_qualification(field(), previous_ladder=LADDER)) == ()
