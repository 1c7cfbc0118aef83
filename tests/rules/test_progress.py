"""A season's progress: meets played, the open meet's provisional numbers, meets left.

issue 26 §4: while meet 4 of a 10-meet season was open, the standings said 4 played and 7 left
(the open meet counted in both), and a player's statistics showed his league points with the
open meet beside points per meet without it. Six players a..f; every game a > b > c and
d > e > f, so each night gives 33 / 16 / 4 (R3.2, R3.3) in either group.
"""

import pytest

from flipwell.rules import (
    Entrant,
    FoldedSeason,
    GameFacts,
    MatchFacts,
    MeetFacts,
    RuleError,
    SeasonFacts,
    SeasonProgress,
    fold_season,
    person_stats,
    provisional_points,
    season_progress,
)

ENTRANTS = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate("abcdef", 1))
SCORES = [9000, 3000, 2000, 1000]
SEVEN = (*ENTRANTS, Entrant("g", "G", "Player", 7))


def _match(players, games=4):
    return MatchFacts(
        players=tuple(players),
        games=tuple(
            GameFacts(machine=f"M{n}", scores={p: SCORES[i] for i, p in enumerate(players)})
            for n in range(games)
        ),
    )


def _season(closed, *, open_games=None, absent=frozenset(), entrants=ENTRANTS):
    """`closed` closed meets, then (with open_games) an open meet with that many games."""
    meets: list[MeetFacts] = []
    for number in range(1, closed + 1 + (open_games is not None)):
        ladder = (
            fold_season(SeasonFacts(entrants=entrants, meets=tuple(meets))).ladder
            if meets
            else tuple(e.player for e in entrants)
        )
        is_open = number > closed
        present = [p for p in ladder if not (is_open and p in absent)]
        cut = len(present) - len(present) // 2  # 7: 4 + 3, 6: 3 + 3 (R4.1-b)
        games = open_games if is_open else 4
        meets.append(
            MeetFacts(
                number=number,
                groups=(_match(present[:cut], games), _match(present[cut:], games)),
                announced_absences=absent if is_open else frozenset(),
                closed=not is_open,
            )
        )
    return SeasonFacts(entrants=entrants, meets=tuple(meets))


def test_season_progress_open_meet_counts_as_left_not_played():
    """issue 26 §4, R2-a: 3 closed, meet 4 open in a 10-meet season: 3 played, 7 left (the
    open meet among them), 10 in all."""
    progress = season_progress(_season(3, open_games=2), number_of_meets=10)

    assert progress == SeasonProgress(meets=10, played=3, open_meet=4)
    assert (progress.left, progress.played + progress.left, progress.provisional) == (7, 10, True)


def test_season_progress_without_open_meet_is_final():
    """R2-a: 4 closed meets of 10: 4 played, 6 left, nothing provisional."""
    progress = season_progress(_season(4), number_of_meets=10)

    assert (progress.played, progress.left, progress.open_meet, progress.provisional) == (
        4,
        6,
        None,
        False,
    )


def test_season_progress_refuses_an_open_meet_before_a_closed_one():
    """§2: meets are played in order; an open meet is the last one recorded."""
    facts = _season(2)
    facts = SeasonFacts(
        entrants=facts.entrants,
        meets=(MeetFacts(number=1, groups=facts.meets[0].groups, closed=False), facts.meets[1]),
    )

    with pytest.raises(RuleError, match="at most the next one is open"):
        season_progress(facts, number_of_meets=10)


def test_provisional_points_are_the_open_meets():
    """issue 26 §4, A19: a has 33 at each of 3 closed meets and 8 + 8 after 2 games of the open
    meet (no match bonus before game 4, R3.3-b): 115, of which 16 provisional."""
    facts = _season(3, open_games=2)
    standing = fold_season(facts).players["a"]

    progress = season_progress(facts, number_of_meets=10)

    assert (standing.league_points, provisional_points(standing, progress)) == (115, 16)


def test_person_stats_leave_the_open_meet_out_of_meets_held_and_say_so():
    """issue 26 §4: 115 league points beside 3 meets held must add up: 99 earned at the 3
    meets held (33 a meet) and 16 provisional from meet 4, which is no meet held yet."""
    facts = _season(3, open_games=2)

    stats = person_stats([FoldedSeason(1, facts, fold_season(facts))], person="a", person_of={})

    line = stats.seasons[0]
    assert (line.meets_held, line.league_points, line.provisional_points, line.open_meet) == (
        3,
        115,
        16,
        4,
    )
    assert line.league_points - line.provisional_points == 3 * line.points_per_meet


def test_person_stats_announced_absence_at_the_open_meet_is_no_meet_held():
    """issue 26 §4, R2-b: g (7 players), announced absent from the open meet, has held 3
    meets (not 4); the open night's credit (R2.4-d) is provisional too."""
    facts = _season(3, open_games=2, absent=frozenset({"g"}), entrants=SEVEN)

    stats = person_stats([FoldedSeason(1, facts, fold_season(facts))], person="g", person_of={})

    line = stats.seasons[0]
    credit = fold_season(facts).players["g"].nights[3].credit
    assert (line.meets_held, line.meets_attended) == (3, 3)
    assert (line.provisional_points, credit > 0) == (credit, True)
