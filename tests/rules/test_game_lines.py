"""Game lines: each player's line of a game as the fold scored it (issue 33): the score that
counts, the score entered, each adjustment between them, place and points."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from flipwell.rules import (
    FWPL_V1,
    Entrant,
    RuleError,
    fold_season,
    meet_game_lines,
    pending_game_lines,
)
from flipwell.rules.match import Compensatory, GameFacts, MatchFacts
from flipwell.rules.season_values import MeetFacts, SeasonFacts, ViolationFacts
from flipwell.rules.violations import Violation

ENTRANTS = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate("abcd", 1))


def _season(*games, closed=False, violations=()):
    match = MatchFacts(players=tuple("abcd"), games=tuple(games))
    meet = MeetFacts(number=1, groups=(match,), violations=tuple(violations), closed=closed)
    return SeasonFacts(entrants=ENTRANTS, meets=(meet,))


def _lines(facts, ruleset=FWPL_V1):
    result = fold_season(facts, ruleset=ruleset)
    return meet_game_lines(facts, result, 1, ruleset=ruleset)[frozenset("abcd")]


def _game(**kwargs):
    scores = {"a": 18_100_000, "b": 20_000_000, "c": 5_000_000, "d": 4_000_000}
    return GameFacts(machine="M1", scores={**scores, **kwargs.pop("scores", {})}, **kwargs)


def test_game_line_compensatory_game_counts_the_sum():
    """R7.3-m: 18,100,000 + 14,600,000 = 32,700,000 counts, first."""
    game = _game(compensatory={"a": Compensatory(14_600_000)})

    (lines,) = _lines(_season(game))

    a = lines[0]
    assert (a.score, a.entered, a.place, a.points) == (32_700_000, 18_100_000, 1, 8)
    assert [(x.kind, x.amount, x.rule) for x in a.adjustments] == [
        ("compensatory", 14_600_000, "R7.3-m")
    ]
    assert a.adjustments[0].render("Erin") == "Erin's compensatory game: 14,600,000 added"


def test_game_line_subtracted_points_are_their_own_adjustment():
    """R7.3-n, R7.3-o: the official's subtractions are named apart, with their amount."""
    game = _game(compensatory={"a": Compensatory(1_000_000, leading_subtracted=300_000)})

    a = _lines(_season(game))[0][0]

    assert a.score == 18_800_000
    assert [(x.kind, x.amount) for x in a.adjustments] == [
        ("compensatory", 1_000_000),
        ("subtracted", -300_000),
    ]
    assert a.rule_ids == ("R7.3-m", "R7.3-n")


def test_game_line_zeroed_score_counts_zero():
    """R8.2-a: an opponent's ball: the entered 20,000,000 counts as zero, last."""
    b = _lines(_season(_game(zeroed={"b": "opponents_ball"})))[0][1]

    assert (b.score, b.entered, b.place) == (0, 20_000_000, 4)
    assert [(x.kind, x.amount, x.rule) for x in b.adjustments] == [
        ("zeroed", -20_000_000, "R8.2-a")
    ]
    assert "R8" not in b.adjustments[0].render("Bo")


def test_game_line_reduced_after_the_compensatory_game():
    """A33, R8.1-b: the 25% reduction applies to the sum."""
    game = _game(compensatory={"d": Compensatory(4_000_000)}, reduced=frozenset("d"))

    d = _lines(_season(game))[0][3]

    assert d.score == 6_000_000
    assert [(x.kind, x.amount) for x in d.adjustments] == [
        ("compensatory", 4_000_000),
        ("reduced", -2_000_000),
    ]


def test_game_line_forfeit_has_no_score_and_says_so():
    """R2.4-b: a forfeit: no score, no place, 0 points."""
    c = _lines(_season(_game(scores={"c": None})))[0][2]

    assert (c.score, c.entered, c.place, c.points) == (None, None, None, 0)
    assert [x.kind for x in c.adjustments] == ["forfeited"]


def test_game_line_penalty_counts_the_score_as_the_game_scores_it():
    """R8.5-c, A26: a serious violation during game 1 falls on it: with the rulebook's
    reading the game is his forfeit, re-scored without him."""
    violation = ViolationFacts(Violation("b", "interference"), current_game=1, games_completed=1)
    facts = _season(_game(), violations=[violation])

    b = _lines(facts)[0][1]

    assert FWPL_V1.serious_violation_penalty == "forfeit"
    assert (b.score, b.entered, b.place, b.points) == (None, 20_000_000, None, 0)
    assert [(x.kind, x.amount, x.rule) for x in b.adjustments] == [("penalty", None, "R8.5-c")]


def test_game_line_penalty_as_zero_score():
    """A26 (b): the zero-score reading: his score counts as 0."""
    ruleset = replace(FWPL_V1, serious_violation_penalty="zero_score")
    violation = ViolationFacts(Violation("b", "interference"), current_game=1, games_completed=1)

    b = _lines(_season(_game(), violations=[violation]), ruleset)[0][1]

    assert (b.score, b.place) == (0, 4)
    assert [(x.kind, x.amount) for x in b.adjustments] == [("penalty", -20_000_000)]


def test_pending_game_lines_count_a_compensatory_game_before_confirmation():
    """R3-a, R7.3-m: the sheet waiting for confirmation scores as the fold will score it."""
    first = _game()
    facts = _season(first)
    pending = _game(scores={"a": 1_000_000}, compensatory={"a": Compensatory(14_600_000)})

    lines = pending_game_lines(facts, meet=1, players=tuple("abcd"), game=pending)

    assert [(x.player, x.score, x.points) for x in lines][:2] == [
        ("a", 15_600_000, 6),
        ("b", 20_000_000, 7),
    ]
    assert _lines(_season(first, pending))[1] == lines


scores = st.one_of(st.none(), st.integers(min_value=0, max_value=10**13))


@settings(max_examples=60, deadline=None)
@given(
    sheet=st.fixed_dictionaries(dict.fromkeys("abcd", scores)),
    new=st.integers(min_value=0, max_value=10**12),
    zero=st.booleans(),
)
def test_game_lines_agree_with_the_fold(sheet, new, zero):
    """Every line's place and points are the fold's; a compensatory or zeroed score is the
    fold's final score (R3.2, R7.3-m, R8.2-a)."""
    played = [p for p, s in sheet.items() if s is not None]
    if len(played) > len({sheet[p] for p in played}) or not played:
        return  # ties need a tie order; nobody played: not a game to score here
    game = GameFacts(
        machine="M1",
        scores=sheet,
        compensatory={played[0]: Compensatory(new)},
        zeroed={played[-1]: "opponents_ball"} if zero and len(played) > 1 else {},
    )
    facts = _season(game)
    try:
        result = fold_season(facts)
    except RuleError:  # a zero score may tie two players with no tie order (R3.2-i)
        return
    (lines,) = meet_game_lines(facts, result, 1)[frozenset("abcd")]
    outcome = result.meets[0].matches[0].games[0]

    assert {x.player: x.score for x in lines} == dict(outcome.final_scores)
    assert {x.player: x.points for x in lines} == dict(outcome.result.points)
    assert [x.player for x in sorted(lines, key=lambda x: x.place or 9) if x.place] == list(
        outcome.result.order
    )
