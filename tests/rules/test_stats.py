"""A person's statistics across seasons, against numbers worked out by hand (issue #13 part 2).

Two seasons. Player "1" entered season 1; the same person entered season 2 as player "5"
(two rows an official merged), so `PERSON_OF` maps "5" to "1".

Season 1, meet 1 (closed), group 1 2 3 4:
- game 1 Medieval Madness 400 / 300 / 200 / 100: places 1 2 3 4.
- game 2 Attack from Mars 100 / 400 / 300 / 200: player 1 is 4th.
- game 3 Medieval Madness 50 / forfeit / 20 / 10: player 1 is 1st of 3 (2 has no place).
- game 4 Twilight Zone 500 reduced 25% (R8.1-b) to 375 / 450 / 100 / 90: player 1 is 2nd;
  the 500 did not stand, so it is no best score and no high score.
  Game points of player 1: 7 + (1 + 1 bonus, R3.2-g) + (7 + 1 bonus, R3.2-d) + (5 + 1, R3.2-g)
  = 23; no match bonus (23 < 19 + 17, R3.3-d). League points at the meet: 23.
Season 2, meet 1 (closed), group 5 2 3 6, one game, Medieval Madness 150 / 100 / 200 / forfeit:
  order 3 5 2: 4 points to "5", and the second match bonus (4 >= 2 + 0, R3.3-e): 5.
Season 2, meet 2 (closed): "5" announced absent (held, not attended); group 3 2 6 plays.

Person "1": 3 meets held, 2 attended, (23 + 5) / 2 = 14 points per meet attended.
Head-to-head: vs 2: 4 games, 2 won (s1 g1, s2), 2 lost (s1 g2, g4; s1 g3 not: a forfeit);
vs 3: 5 games, 3 won, 2 lost (s1 g2, s2); vs 4: 4 games, 3 won, 1 lost (s1 g2).
Machines: Medieval Madness 3 games, places 1 1 2 (average 4/3), best 400; Attack from Mars
1 game, 4th, best 100; Twilight Zone 1 game, 2nd, no best score (reduced).
"""

from fractions import Fraction

from flipwell.rules import (
    Entrant,
    FoldedSeason,
    GameFacts,
    HeadToHead,
    HighScore,
    MachineRecord,
    MatchFacts,
    MeetFacts,
    SeasonFacts,
    fold_season,
    high_scores,
    person_stats,
)
from flipwell.rules.stats import best_and_worst

MM, AFM, TZ = "Medieval Madness", "Attack from Mars", "Twilight Zone"
PERSON_OF = {"5": "1"}


def _entrants(keys):
    return tuple(Entrant(k, f"First{k}", f"Last{k}", rank) for rank, k in enumerate(keys, 1))


def _game(machine, scores, **kwargs):
    return GameFacts(machine=machine, scores=scores, **kwargs)


def _seasons():
    first = SeasonFacts(
        entrants=_entrants("1234"),
        meets=(
            MeetFacts(
                number=1,
                groups=(
                    MatchFacts(
                        players=tuple("1234"),
                        games=(
                            _game(MM, {"1": 400, "2": 300, "3": 200, "4": 100}),
                            _game(AFM, {"1": 100, "2": 400, "3": 300, "4": 200}),
                            _game(MM, {"1": 50, "2": None, "3": 20, "4": 10}),
                            _game(
                                TZ,
                                {"1": 500, "2": 450, "3": 100, "4": 90},
                                reduced=frozenset({"1"}),
                            ),
                        ),
                    ),
                ),
            ),
        ),
    )
    second = SeasonFacts(
        entrants=_entrants("5236"),
        meets=(
            MeetFacts(
                number=1,
                groups=(
                    MatchFacts(
                        players=tuple("5236"),
                        games=(_game(MM, {"5": 150, "2": 100, "3": 200, "6": None}),),
                    ),
                ),
            ),
            MeetFacts(
                number=2,
                groups=(
                    MatchFacts(
                        players=tuple("326"), games=(_game(AFM, {"3": 10, "2": 20, "6": 30}),)
                    ),
                ),
                announced_absences=frozenset({"5"}),
            ),
        ),
    )
    pairs = ((1, first), (2, second))
    return [FoldedSeason(key, facts, fold_season(facts)) for key, facts in pairs]


def test_person_stats_head_to_head_counts_games_both_placed_in():
    stats = person_stats(_seasons(), person="1", person_of=PERSON_OF)

    assert stats.head_to_head == (
        HeadToHead("3", games=5, won=3, lost=2),
        HeadToHead("2", games=4, won=2, lost=2),
        HeadToHead("4", games=4, won=3, lost=1),
    )


def test_person_stats_machines_average_place_and_best_score_that_stood():
    stats = person_stats(_seasons(), person="1", person_of=PERSON_OF)

    assert stats.machines == (
        MachineRecord(AFM, games=1, average_place=Fraction(4), best_score=100),
        MachineRecord(MM, games=3, average_place=Fraction(4, 3), best_score=400),
        MachineRecord(TZ, games=1, average_place=Fraction(2), best_score=None),
    )


def test_person_stats_attendance_and_points_per_meet_combine_both_rows():
    stats = person_stats(_seasons(), person="1", person_of=PERSON_OF)

    first, second = stats.seasons
    assert (first.season, first.meets_held, first.meets_attended) == (1, 1, 1)
    assert (first.points_at_meets, first.league_points, first.games_played) == (23, 23, 4)
    assert (second.season, second.meets_held, second.meets_attended) == (2, 2, 1)
    assert (second.points_at_meets, second.games_played) == (5, 1)
    assert (stats.meets_held, stats.meets_attended, stats.games_played) == (3, 2, 5)
    assert stats.points_per_meet == Fraction(14)


def test_person_stats_of_someone_who_never_played_are_empty():
    stats = person_stats(_seasons(), person="9", person_of=PERSON_OF)

    assert (stats.seasons, stats.head_to_head, stats.machines) == ((), (), ())
    assert stats.points_per_meet is None


def test_high_scores_leave_out_reduced_scores_and_name_the_person():
    scores = high_scores(_seasons(), person_of=PERSON_OF)

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
