"""A player absent for the rest of the match (R2.4-a): the fold derives his forfeit of every
later game of the match from the one recorded fact, whatever a later sheet says (issue 33)."""

from fractions import Fraction

import pytest

from flipwell.rules import Entrant, RuleError
from flipwell.rules.game_lines import pending_game_lines
from flipwell.rules.match import GameFacts, MatchFacts
from flipwell.rules.match_scoring import match_as_played, score_match
from flipwell.rules.season import fold_season
from flipwell.rules.season_values import MeetFacts, SeasonFacts
from flipwell.rules.selection import THE_LO, PlayedGame, machine_picker
from flipwell.rules.sheet_roles import who_may_confirm

PLAYERS = ("ann", "ben", "cat", "dan")
SCORES = (400, 300, 200, 100)


def _game(scores=SCORES, **kwargs):
    return GameFacts(machine="TZ", scores=dict(zip(PLAYERS, scores, strict=True)), **kwargs)


def _match(games=4, absent_from=None):
    return MatchFacts(
        players=PLAYERS, games=tuple(_game() for _ in range(games)), absent_from=absent_from or {}
    )


def test_absent_for_the_rest_of_the_match_forfeits_every_later_game():
    """R2.4-a, R2.4-b, R2.4-c: absent from game 2, ann's scores in games 2-4 (a sheet that
    took them anyway) are not hers: 0 points, and each game is scored among the three left."""
    result = score_match(_match(absent_from={"ann": 2}))

    ann = result.players["ann"]
    assert ann.game_points[1:] == (0, 0, 0)
    assert (ann.games_played, ann.forfeits, ann.countable_forfeits) == (1, 3, 3)
    assert [g.forfeits for g in result.games] == [{}, {"ann": True}, {"ann": True}, {"ann": True}]
    # 3-player scale for ben, cat, dan (R2.4-c): 300 > 200 + 100? no, the bonus is dan's.
    assert result.games[1].result.points == {"ann": 0, "ben": 7, "cat": 4, "dan": 2}


def test_absent_from_game_1_is_an_all_night_forfeit():
    """R2.4-a, R2.4-d: absent from game 1, he has no recorded score in any game."""
    result = score_match(_match(absent_from={"dan": 1}))

    assert result.players["dan"].absent is True
    assert result.players["dan"].forfeits == 4


def test_absence_forfeit_made_non_countable_by_the_lo_does_not_count():
    """R2.4-g, R2.4-h: the LO may designate one of the derived forfeits not countable."""
    games = (_game(), _game(), _game(non_countable=frozenset({"ann"})), _game())
    result = score_match(MatchFacts(players=PLAYERS, games=games, absent_from={"ann": 2}))

    assert (result.players["ann"].forfeits, result.players["ann"].countable_forfeits) == (3, 2)


def test_absence_explained_names_the_rule():
    """R2.4-a: the explanation says why he has no points in a later game."""
    result = score_match(_match(games=2, absent_from={"ann": 2}))

    game_2 = [line for line in result.explanation("ann") if line.startswith("Game 2")]
    assert game_2 == [
        "Game 2 (TZ): ann is absent for the rest of the match: forfeits this game [R2.4-a]",
        "Game 2 (TZ): ann forfeited this game: 0 points [R2.4-b]",
    ]


def test_match_as_played_leaves_earlier_games_and_is_idempotent():
    """R2.4-a: games before the absence stand; applying it twice changes nothing."""
    played = match_as_played(_match(games=3, absent_from={"cat": 3}))

    assert [g.scores["cat"] for g in played.games] == [200, 200, None]
    assert match_as_played(played) == played


def test_absence_of_a_player_outside_the_group_refused():
    with pytest.raises(RuleError, match="eve recorded absent for the rest of the match"):
        _match(absent_from={"eve": 2})


def test_absence_from_a_game_outside_the_match_refused():
    with pytest.raises(RuleError, match="ann is recorded absent from game 5"):
        _match(absent_from={"ann": 5})


def test_absences_count_toward_forfeiting_the_season():
    """R2.5-a, R2.4-h: three meets absent from game 1 and one absent from game 2 make 15
    countable forfeits: his season is forfeited at the fourth meet's game 4 (the 12th forfeit)
    and he leaves the ladder; his scores on those sheets never count."""
    entrants = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate(PLAYERS, 1))
    meets = []
    for number, first in enumerate((1, 1, 2, 1), start=1):
        ladder = fold_season(SeasonFacts(entrants=entrants, meets=tuple(meets))).ladder
        match = MatchFacts(
            players=tuple(ladder),
            games=tuple(
                GameFacts(machine=f"M{n}", scores=dict(zip(ladder, SCORES, strict=True)))
                for n in range(4)
            ),
            absent_from={"ann": first},
        )
        meets.append(MeetFacts(number=number, groups=(match,)))

    result = fold_season(SeasonFacts(entrants=entrants, meets=tuple(meets)))

    ann = result.players["ann"]
    assert (ann.countable_forfeits, ann.season_forfeited_at, ann.season_forfeited_game) == (
        12,
        4,
        1,
    )
    assert ann.nights[2].game_points[1:] == (0, 0, 0)
    assert "ann" not in result.ladder


def test_absence_in_a_season_fold_scores_later_games_among_the_others():
    """R2.4-a, R2.4-c, R3.3-g: in a folded season too, his later games are his forfeits: 7
    points from game 1 (no bonus: 400 < 300 + 200), and with 3 forfeits no match bonus."""
    entrants = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate(PLAYERS, 1))
    meet = MeetFacts(number=1, groups=(_match(absent_from={"ann": 2}),))

    result = fold_season(SeasonFacts(entrants=entrants, meets=(meet,)))

    ann = result.players["ann"]
    assert (ann.league_points, ann.forfeits, ann.countable_forfeits) == (Fraction(7), 3, 3)


def test_absent_last_place_finisher_does_not_pick_the_next_machine():
    """R5-c, A21, A67: dan finished last in game 1 and left: cat, the lowest finisher still
    there, picks game 2's machine."""
    games = [PlayedGame(machine="m1", order=PLAYERS, selector=None)]

    assert machine_picker(games) == "dan"
    assert machine_picker(games, absent=["dan"]) == "cat"


def test_every_finisher_absent_leaves_the_pick_to_the_official():
    """A66, A67: nobody who played the previous game is still there: the LO picks."""
    games = [PlayedGame(machine="m1", order=("ann", "ben"), selector=None)]

    assert machine_picker(games, absent=["ann", "ben"]) is THE_LO


def test_absent_player_never_confirms_a_sheet():
    """R3-a, R2.4-a: a player gone for the rest of the match is not there to check a sheet,
    even when the sheet (wrongly) gives him a score or nobody else played."""
    sheet = {"ann": 400, "ben": 300, "cat": None, "dan": 100}

    assert who_may_confirm(group=PLAYERS, entered_by="ann", sheet=sheet, absent=["dan"]) == ("ben",)
    lone = {"ann": 400, "ben": None, "cat": None, "dan": None}
    assert who_may_confirm(group=PLAYERS, entered_by="ann", sheet=lone, absent=["dan"]) == (
        "ben",
        "cat",
    )


def test_game_lines_say_an_absent_players_score_does_not_count():
    """R2.4-a: a score a later sheet holds for him anyway counts as none, and his line says
    why; a game confirmed with the match's absence keeps it (`with_game_confirmed`)."""
    entrants = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate(PLAYERS, 1))
    facts = SeasonFacts(
        entrants=entrants, meets=(MeetFacts(number=1, groups=(_match(1, {"dan": 2}),)),)
    )

    lines = pending_game_lines(facts, meet=1, players=PLAYERS, game=_game())

    dan = next(line for line in lines if line.player == "dan")
    assert (dan.score, dan.entered, dan.points) == (None, 100, 0)
    assert [(a.kind, a.rule) for a in dan.adjustments] == [("forfeited", "R2.4-a")]
