"""Two seasons of one person's games, with the numbers worked out by hand (issue #13 part 2),
shared by tests/rules/test_stats.py and tests/rules/test_rating.py.

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

from flipwell.rules import (
    Entrant,
    FoldedSeason,
    GameFacts,
    MatchFacts,
    MeetFacts,
    SeasonFacts,
    fold_season,
)

MM, AFM, TZ = "Medieval Madness", "Attack from Mars", "Twilight Zone"
PERSON_OF = {"5": "1"}


def _entrants(keys):
    return tuple(Entrant(k, f"First{k}", f"Last{k}", rank) for rank, k in enumerate(keys, 1))


def _game(machine, scores, **kwargs):
    return GameFacts(machine=machine, scores=scores, **kwargs)


def two_seasons() -> list[FoldedSeason]:
    """The two seasons of this module's docstring, folded."""
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
