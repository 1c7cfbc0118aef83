"""A person's statistics across seasons, against numbers worked out by hand (issue #13 part 2):
the two seasons of tests/rules/two_seasons.py."""

from fractions import Fraction

from flipwell.rules import (
    HeadToHead,
    HighScore,
    MachineRecord,
    high_scores,
    person_stats,
)
from flipwell.rules.stats import best_and_worst
from tests.rules.two_seasons import AFM, MM, PERSON_OF, TZ, two_seasons


def test_person_stats_head_to_head_counts_games_both_placed_in():
    stats = person_stats(two_seasons(), person="1", person_of=PERSON_OF)

    assert stats.head_to_head == (
        HeadToHead("3", games=5, won=3, lost=2),
        HeadToHead("2", games=4, won=2, lost=2),
        HeadToHead("4", games=4, won=3, lost=1),
    )


def test_person_stats_machines_average_place_and_best_score_that_stood():
    stats = person_stats(two_seasons(), person="1", person_of=PERSON_OF)

    assert stats.machines == (
        MachineRecord(AFM, games=1, average_place=Fraction(4), best_score=100),
        MachineRecord(MM, games=3, average_place=Fraction(4, 3), best_score=400),
        MachineRecord(TZ, games=1, average_place=Fraction(2), best_score=None),
    )


def test_person_stats_attendance_and_points_per_meet_combine_both_rows():
    stats = person_stats(two_seasons(), person="1", person_of=PERSON_OF)

    first, second = stats.seasons
    assert (first.season, first.meets_held, first.meets_attended) == (1, 1, 1)
    assert (first.points_at_meets, first.league_points, first.games_played) == (23, 23, 4)
    assert (second.season, second.meets_held, second.meets_attended) == (2, 2, 1)
    assert (second.points_at_meets, second.games_played) == (5, 1)
    assert (stats.meets_held, stats.meets_attended, stats.games_played) == (3, 2, 5)
    assert stats.points_per_meet == Fraction(14)


def test_person_stats_of_someone_who_never_played_are_empty():
    stats = person_stats(two_seasons(), person="9", person_of=PERSON_OF)

    assert (stats.seasons, stats.head_to_head, stats.machines) == ((), (), ())
    assert stats.points_per_meet is None


def test_high_scores_leave_out_reduced_scores_and_name_the_person():
    scores = high_scores(two_seasons(), person_of=PERSON_OF)

    assert scores[MM] == (
        HighScore(MM, 400, "1", season=1, meet=1, game=1),
        HighScore(MM, 300, "2", season=1, meet=1, game=1),
        HighScore(MM, 200, "3", season=1, meet=1, game=1),
    )
    assert [(h.score, h.player) for h in scores[TZ]] == [(450, "2"), (100, "3"), (90, "4")]
    assert [(h.score, h.player) for h in scores[AFM]] == [(400, "2"), (300, "3"), (200, "4")]


def test_best_and_worst_machines_by_average_place_with_enough_games():
    records = [
        MachineRecord("A", 3, Fraction(3, 2), None),
        MachineRecord("B", 1, Fraction(1), None),  # one game: says little
        MachineRecord("C", 4, Fraction(3), None),
        MachineRecord("D", 2, Fraction(3, 2), None),
    ]

    best, worst = best_and_worst(records)

    assert best is not None
    assert best.machine == "A"  # equal average place with D: more games
    assert worst is not None
    assert worst.machine == "C"
    assert best_and_worst(records[1:2]) == (None, None)
    assert best_and_worst(records[:1]) == (records[0], None)
