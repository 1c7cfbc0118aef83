"""A whole match from recorded facts: adjustments, penalties, match bonus and explanations."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, AppliedCorrection, RuleError, Ruleset
from flipwell.rules.match import Compensatory, GameFacts, MatchFacts, MatchResult
from flipwell.rules.match_scoring import (
    night_places,
    score_checked_match,
    score_match,
    violation_score_changes,
)
from flipwell.rules.violations import Violation

PLAYERS = ("ann", "ben", "cat", "dan")


def _game(scores, **kwargs):
    return GameFacts(
        machine="Twilight Zone", scores=dict(zip(PLAYERS, scores, strict=True)), **kwargs
    )


def _match(*games):
    return MatchFacts(players=PLAYERS, games=tuple(games))


def test_match_explains_every_point_with_its_comparison():
    """R3.2-f, R3.2-g: the explanation quotes the scores compared."""
    match = _match(_game([1_200_000, 600_000, 450_000, 100]))

    result = score_match(match)

    assert result.explanation("ann") == [
        "Game 1 (Twilight Zone): ann finished 1st of 4: 7 points [R3.2-e]",
        "Game 1 (Twilight Zone): ann's 1,200,000 > ben + cat's 1,050,000: bonus to ann [R3.2-f]",
    ]
    assert result.explanation("dan") == [
        "Game 1 (Twilight Zone): dan finished 4th of 4: 1 point [R3.2-e]",
    ]


def test_match_night_totals_add_game_points_and_match_bonus():
    """R3.3-a, R3.3-b: four games' league points, then the fifth game on the totals."""
    games = [_game([400, 300, 200, 100]) for _ in range(4)]
    # Each game: ann 7 (400 > 300+200? no: bonus to cat), ben 5 + (300 > 300? no: bonus to
    # dan), cat 3+1, dan 1+1. Totals ann 28, ben 20, cat 16, dan 8.
    # Fifth game: 28 >= 20+16=36? no -> cat; 20 >= 16+8=24? no -> dan.
    result = score_match(_match(*games))

    totals = {p: line.night_total for p, line in result.players.items()}
    assert totals == {"ann": 28, "ben": 20, "cat": 16 + 1, "dan": 8 + 1}
    assert result.bonus.totals == {"ann": 28, "ben": 20, "cat": 16, "dan": 8}


def test_night_places_rank_the_group_by_night_total():
    """R3.3-a, A19: the night's places follow the league points of the night, the match
    bonus included: cat (16 + 1) is 3rd, dan (8 + 1) 4th."""
    result = score_match(_match(*[_game([400, 300, 200, 100]) for _ in range(4)]))

    assert night_places(result) == {"ann": 1, "ben": 2, "cat": 3, "dan": 4}


def test_night_places_equal_night_totals_share_the_better_place():
    """R3.3-a: ben has 18 game points, cat 17 and the match bonus (R3.3-d): equal night
    totals of 18 share 2nd place, and the next is 4th."""
    games = [_game([400, 300, 200, 100]) for _ in range(3)]
    result = score_match(_match(*games, _game([1000, 200, 300, 100])))
    totals = {p: line.night_total for p, line in result.players.items()}

    assert totals == {"ann": 29, "ben": 18, "cat": 17 + 1, "dan": 8 + 1}
    assert night_places(result) == {"ann": 1, "ben": 2, "cat": 2, "dan": 4}


@given(st.lists(st.permutations(PLAYERS), min_size=1, max_size=4))
def test_night_places_order_the_night_totals(orders):
    """R3.3-a: a higher night total never has a worse place; place 1 always exists; equal
    totals share a place."""
    games = [_game([1000 * (4 - order.index(p)) for p in PLAYERS]) for order in orders]
    result = score_match(_match(*games))

    places = night_places(result)

    totals = {p: line.night_total for p, line in result.players.items()}
    assert min(places.values()) == 1
    for a in PLAYERS:
        for b in PLAYERS:
            if totals[a] > totals[b]:
                assert places[a] < places[b]
            if totals[a] == totals[b]:
                assert places[a] == places[b]


def test_compensatory_game_adds_to_original_score():
    """R7.3-m: final = original + compensatory game; R7.3-n: leading balls subtracted."""
    game = _game(
        [300_000, 500_000, 200_000, 100_000],
        compensatory={"ann": Compensatory(new=400_000, leading_subtracted=50_000)},
    )

    outcome = score_match(_match(game)).games[0]

    assert outcome.final_scores["ann"] == 650_000
    assert outcome.result.order == ("ann", "ben", "cat", "dan")


def test_reduction_applies_after_the_compensatory_addition():
    """A33, R8.1-b: 25% off the final overall score, rounded down (A35)."""
    game = _game(
        [100_001, 50_000, 40_000, 30_000],
        compensatory={"ann": Compensatory(new=1)},
        reduced=frozenset({"ann"}),
    )

    outcome = score_match(_match(game)).games[0]

    assert outcome.final_scores["ann"] == 75_001  # (100_001 + 1) * 3 // 4


def test_deathsave_zero_is_ranked_not_forfeited():
    """R8.7-a, A13: a machine score of zero still takes last place and its points."""
    game = _game([900, 800, 700, 600], zeroed={"ann": "deathsave"})

    result = score_match(_match(game))

    assert result.games[0].result.order == ("ben", "cat", "dan", "ann")
    assert result.players["ann"].forfeits == 0
    assert result.games[0].result.points["ann"] == 1


def test_opponents_ball_zero_cites_its_rule():
    """R8.2-a: the violator's machine score is zero."""
    game = _game([900, 800, 700, 600], zeroed={"ben": "opponents_ball"})

    outcome = score_match(_match(game)).games[0]

    assert outcome.final_scores["ben"] == 0
    assert next(line.rule for line in outcome.lines if line.player == "ben") == "R8.2-a"


def test_penalty_forfeit_rescores_game_on_three_player_scale():
    """R8.5-c, A26: the penalty is a forfeit, the others score 7/4/1 + 1 bonus (13)."""
    game = _game([900, 800, 700, 600])

    result = score_match(_match(game), penalties={1: frozenset({"ann"})})

    points = result.games[0].result.points
    assert points == {"ann": 0, "ben": 7, "cat": 4, "dan": 2}  # 800 > 700+600? no: dan
    assert result.players["ann"].countable_forfeits == 1


def test_penalty_zero_score_alternative_keeps_him_ranked_last():
    """A26 (b): serious_violation_penalty="zero_score"."""
    game = _game([900, 800, 700, 600])
    ruleset = Ruleset(serious_violation_penalty="zero_score")

    result = score_match(_match(game), penalties={1: frozenset({"ann"})}, ruleset=ruleset)

    assert result.games[0].result.order == ("ben", "cat", "dan", "ann")
    assert result.players["ann"].forfeits == 0


def test_penalty_zero_points_others_unchanged_alternative():
    """A26 (c): he earns nothing; the others are scored as if he finished last with 0."""
    game = _game([900, 800, 700, 600])
    ruleset = Ruleset(serious_violation_penalty="zero_points_others_unchanged")

    result = score_match(_match(game), penalties={1: frozenset({"ann"})}, ruleset=ruleset)

    # Ranked ben 800, cat 700, dan 600, ann 0: 7/5/3/(1 -> 0). 800 > 700+600? no: bonus to
    # dan. 700 > 600+0? yes: bonus to cat.
    assert result.games[0].result.points == {"ann": 0, "ben": 7, "cat": 5 + 1, "dan": 3 + 1}


def test_three_forfeits_exclude_player_from_match_bonus():
    """R3.3-g: a player who forfeits three games is left out of the fifth game."""
    games = [_game([None, 300, 200, 100]) for _ in range(3)] + [_game([400, 300, 200, 100])]

    result = score_match(_match(*games))

    assert result.players["ann"].match_bonus == 0
    assert result.bonus.order == ("ben", "cat", "dan")


def test_non_countable_forfeit_is_not_counted():
    """R2.4-g, R2.4-h: forfeits count unless the LO designates otherwise."""
    game = _game([None, 300, 200, 100], non_countable=frozenset({"ann"}))

    result = score_match(_match(game))

    assert (result.players["ann"].forfeits, result.players["ann"].countable_forfeits) == (1, 0)


def test_match_refuses_score_for_player_outside_group():
    game = GameFacts(machine="TZ", scores={"ann": 1, "ben": 2, "cat": 3, "dan": 4, "eve": 5})

    with pytest.raises(RuleError, match="eve, not in this group"):
        score_match(_match(game))


def test_match_refuses_missing_entry():
    game = GameFacts(machine="TZ", scores={"ann": 1, "ben": 2, "cat": 3})

    with pytest.raises(RuleError, match="no entry for dan"):
        score_match(_match(game))


def test_match_refuses_adjusting_a_forfeit():
    game = _game([None, 2, 3, 4], reduced=frozenset({"ann"}))

    with pytest.raises(RuleError, match="ann forfeited"):
        score_match(_match(game))


def test_match_refuses_unknown_zero_reason():
    game = _game([1, 2, 3, 4], zeroed={"ann": "bad luck"})

    with pytest.raises(RuleError, match="zero score reason 'bad luck'"):
        score_match(_match(game))


def test_match_refuses_penalty_on_missing_game():
    with pytest.raises(RuleError, match="no such game"):
        score_match(_match(_game([1, 2, 3, 4])), penalties={2: frozenset({"ann"})})


scores = st.one_of(st.none(), st.integers(min_value=0, max_value=10**13))


@given(st.lists(st.tuples(scores, scores, scores, scores), min_size=4, max_size=4))
def test_match_points_add_up_per_rulebook(rows):
    """R3.2-h, R3.3-c: each game gives 18/13/9/7/0; the fifth game 2, 1 or 0 bonus points."""
    games = []
    for row in rows:
        by_score: dict[int, list[str]] = {}
        for player, score in zip(PLAYERS, row, strict=True):
            if score is not None:
                by_score.setdefault(score, []).append(player)
        ties = tuple(tuple(ps) for ps in by_score.values() if len(ps) > 1)
        games.append(_game(list(row), tie_order=ties))

    result = score_match(_match(*games))

    expected_games = sum(
        {4: 18, 3: 13, 2: 9, 1: 7, 0: 0}[sum(s is not None for s in row)] for row in rows
    )
    included = len(result.bonus.order)
    expected_bonus = {4: 2, 3: 1, 2: 1, 1: 0, 0: 0}[included]
    total = sum(line.night_total for line in result.players.values())
    assert total == expected_games + expected_bonus
    assert Fraction(total).denominator == 1


def test_reduction_rounding_setting_reaches_the_match():
    """A35 alternative through score_match: 0.75 x 10 = 7.5 rounds half up to 8, and 8 > 4 + 3
    wins the bonus (R3.2-d)."""
    game = GameFacts(
        machine="TZ", scores={"ann": 10, "ben": 4, "cat": 3}, reduced=frozenset({"ann"})
    )
    match = MatchFacts(players=("ann", "ben", "cat"), games=(game,))

    result = score_match(match, ruleset=Ruleset(score_reduction_rounding="half_up"))

    assert result.games[0].final_scores["ann"] == 8
    assert result.games[0].result.points == {"ann": 8, "ben": 4, "cat": 1}


def test_compensatory_no_clamp_setting_reaches_the_match():
    """A33 alternative through score_match: a negative final score is refused, not clamped."""
    game = _game([100, 2, 3, 4], compensatory={"ann": Compensatory(new=50, leading_subtracted=500)})

    with pytest.raises(RuleError):
        score_match(_match(game), ruleset=Ruleset(compensatory_clamp_at_zero=False))


def test_zero_score_penalty_on_a_forfeited_game_keeps_the_forfeit():
    """A26 (b): a penalty on a game he forfeited leaves the forfeit counted (§2.5)."""
    game = _game([None, 6, 1, 0])

    result = score_match(
        _match(game),
        penalties={1: frozenset({"ann"})},
        ruleset=Ruleset(serious_violation_penalty="zero_score"),
    )

    assert (result.players["ann"].forfeits, result.players["ann"].countable_forfeits) == (1, 1)


def test_violation_score_changes_reduce_and_zero_as_violation_effect_decides():
    """R8.1-b, R8.2-a, R8.7-a: a 25% reduction on his last allowable ball, a zero for an
    opponent's ball (even one the LO marked not serious) and for a deathsave."""
    violations = [
        Violation("a", "own_unallowable_extra_ball", last_allowable_ball=True),
        Violation("b", "opponents_ball", lo_marked_not_serious=True),
        Violation("c", "deathsave_or_bangback", slam_tilted=True),
    ]

    changes = violation_score_changes(violations)

    assert changes == (frozenset({"a"}), {"b": "opponents_ball", "c": "deathsave"})


def test_violation_score_changes_none_for_violations_without_score_effect():
    """R8.1-a, R8.3-e: an early one-handed extra ball (plunge the next ball) and interference
    change no machine score (the §8.5 penalty is separate)."""
    violations = [
        Violation("a", "own_unallowable_extra_ball"),
        Violation("b", "interference"),
    ]

    assert violation_score_changes(violations) == (frozenset(), {})


# --- The numbers without explanation ------------------------------------------------------

rulesets = st.sampled_from(
    [
        FWPL_V1,
        replace(FWPL_V1, match_bonus_awards="full_fifth_game"),
        replace(FWPL_V1, single_player_game_points=8),
    ]
)


def _stripped(result: MatchResult) -> MatchResult:
    """The explained result with its lines removed: the numbers alone."""
    games = tuple(replace(g, lines=(), result=replace(g.result, lines=())) for g in result.games)
    return replace(result, games=games, bonus=replace(result.bonus, lines=()))


@given(
    st.integers(min_value=2, max_value=4).flatmap(
        lambda size: st.lists(
            st.tuples(
                st.lists(
                    st.one_of(st.none(), st.integers(min_value=0, max_value=40)),
                    min_size=size,
                    max_size=size,
                ),
                st.sets(st.integers(min_value=0, max_value=size - 1), max_size=1),
            ),
            min_size=1,
            max_size=4,
        )
    ),
    rulesets,
)
def test_numbers_without_explanation_are_the_explained_numbers(rows, ruleset):
    """R3.2-a..h, R3.3-a..g, R2.4-b, R2.4-g: scored without explanation, a match gives the
    numbers (points, forfeits, bonus, each game's outcome) of the explained scoring; small
    scores make equal ones, which are refused alike when no tie order settles them."""
    players = PLAYERS[: len(rows[0][0])]
    games = tuple(
        GameFacts(
            machine="M",
            scores=dict(zip(players, scores, strict=True)),
            non_countable=frozenset(players[i] for i in chosen if scores[i] is None),
        )
        for scores, chosen in rows
    )
    match = MatchFacts(players=players, games=games)

    def scored(explain: bool) -> MatchResult | str:
        try:
            return score_checked_match(match, penalties={}, ruleset=ruleset, explain=explain)
        except RuleError as error:
            return str(error)

    numbers, explained = scored(False), scored(True)
    if isinstance(explained, str):
        assert numbers == explained  # an unordered tie (R3.2-i): refused either way
    else:
        assert isinstance(numbers, MatchResult)
        assert numbers == _stripped(explained)
        assert repr(numbers) == repr(_stripped(explained))


def test_match_explains_a_place_decided_by_the_tie_playoff():
    """issue 27 §4, R3.2-i, A15: a tied game names the tie and the one-ball playoff that
    decided each tied player's place, not only "finished 1st of 3"."""
    game = _game([1_000_000, 1_000_000, 1_000_000, 50], tie_order=(("ben", "cat", "ann"),))

    result = score_match(_match(game))

    assert result.explanation("ben")[0] == (
        "Game 1 (Twilight Zone): ben, cat and ann tied at 1,000,000: ben won the one-ball "
        "playoff, so finished 1st [R3.2-i]"
    )
    assert result.explanation("cat")[0] == (
        "Game 1 (Twilight Zone): ben, cat and ann tied at 1,000,000: cat came 2nd in the "
        "one-ball playoff, so finished 2nd [R3.2-i]"
    )
    assert result.explanation("ann")[0] == (
        "Game 1 (Twilight Zone): ben, cat and ann tied at 1,000,000: ann lost the one-ball "
        "playoff, so finished 3rd [R3.2-i]"
    )
    assert not any("R3.2-i" in line for line in result.explanation("dan"))


def test_match_explains_a_score_corrected_after_confirmation():
    """issue 27 §4, R3-c, R3-d: a corrected score names the old and new score, that it was
    corrected, and who agreed; the points are those of the corrected score only."""
    corrected = AppliedCorrection(
        player="ann",
        recorded=5_120_000,
        corrected=51_200_000,
        agreed=("ann", "ben", "cat", "dan"),
    )
    plain = _game([51_200_000, 600_000, 450_000, 100])

    result = score_match(_match(replace(plain, corrections=(corrected,))))

    assert result.explanation("ann")[0] == (
        "Game 1 (Twilight Zone): ann's score was corrected from 5,120,000 to 51,200,000 after "
        "the game was confirmed: ann, ben, cat and dan agreed [R3-d]"
    )
    assert result.players == score_match(_match(plain)).players
    assert not any("corrected" in line for line in result.explanation("ben"))


def test_match_correction_names_the_official_who_accepted_a_late_request():
    """issue 27 §4, A45.2: a correction after the meet closed also names the official."""
    corrected = AppliedCorrection(
        player="dan", recorded=None, corrected=100, agreed=("ann", "dan"), official="Olive Lo"
    )

    result = score_match(_match(_game([400, 300, 200, 100], corrections=(corrected,))))

    assert result.explanation("dan")[0] == (
        "Game 1 (Twilight Zone): dan's score was corrected from a forfeit to 100 after the "
        "game was confirmed: ann and dan agreed, and Olive Lo accepted the late request [R3-d]"
    )


def test_match_correction_naming_a_stranger_refused():
    """R3-c: only the group's players can agree to a correction of its game."""
    corrected = AppliedCorrection(player="ann", recorded=1, corrected=400, agreed=("zed",))

    with pytest.raises(RuleError, match="a score correction names zed, not in this group"):
        _match(_game([400, 300, 200, 100], corrections=(corrected,)))
