"""Folding with and without explanations: the same numbers, lines only when asked.

`fold_season(facts)` gives the numbers alone; `fold_season(facts, explain=True)` adds every
point's `PointLine` (R3.2, R3.3, §2.4, §7.3, §8), written by the same awards that decide the
points. Everything but the lines must be identical between the two.
"""

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, Entrant, RuleError, Ruleset
from flipwell.rules.match import GameFacts, MatchFacts, MatchResult
from flipwell.rules.season import fold_season, scores_adjusted_at
from flipwell.rules.season_values import MeetFacts, SeasonFacts, SeasonResult
from flipwell.seasonfile import load_season

GOLDEN = Path(__file__).parents[1] / "data" / "golden_season.json"
_, GOLDEN_FACTS = load_season(GOLDEN)
GOLDEN_RULESETS = {
    "fwpl_v1": FWPL_V1,
    "rescore_others": replace(FWPL_V1, third_offense_rescore_others=True),
    "wipe_on_forfeit": replace(
        FWPL_V1,
        season_forfeit_keeps_points=False,
        forfeit_credit_basis="per_game_times_4",
        late_join_forfeits_use_credit=True,
    ),
}
RULESETS = {
    **GOLDEN_RULESETS,
    "full_fifth_game": replace(
        FWPL_V1, match_bonus_awards="full_fifth_game", match_bonus_ge_applies_to="all_groups"
    ),
}


def _without_lines(result: SeasonResult) -> SeasonResult:
    """The result with every explanation line removed, all numbers kept."""
    return replace(
        result, meets=tuple(replace(m, matches=tuple(map(_match, m.matches))) for m in result.meets)
    )


def _match(match: MatchResult) -> MatchResult:
    games = tuple(replace(g, lines=(), result=replace(g.result, lines=())) for g in match.games)
    return replace(match, games=games, bonus=replace(match.bonus, lines=()))


def _lines(result: SeasonResult) -> int:
    return sum(
        len(g.lines) + len(g.result.lines) + len(m.bonus.lines)
        for meet in result.meets
        for m in meet.matches
        for g in m.games
    )


@pytest.mark.parametrize("ruleset", GOLDEN_RULESETS.values(), ids=GOLDEN_RULESETS.keys())
def test_golden_fold_numbers_identical_with_and_without_explanations(ruleset):
    """R3-e: the numbers of a fold never depend on whether its reasons were written."""
    numbers = fold_season(GOLDEN_FACTS, ruleset=ruleset)
    explained = fold_season(GOLDEN_FACTS, ruleset=ruleset, explain=True)

    assert numbers == _without_lines(explained)
    assert repr(numbers) == repr(_without_lines(explained))  # byte for byte, key order too


def test_golden_fold_without_explain_writes_no_line():
    result = fold_season(GOLDEN_FACTS)
    match = result.meets[0].matches[0]

    assert _lines(result) == 0
    assert match.explanation(next(iter(match.players))) == []


def test_golden_explained_lines_add_up_to_every_point():
    """R3.2, R3.3: each game's lines give exactly its points; the bonus lines the match bonus."""
    result = fold_season(GOLDEN_FACTS, explain=True)

    assert _lines(result) > 0
    for meet in result.meets:
        for match in meet.matches:
            for game in match.games:
                for player, points in game.result.points.items():
                    given_ = sum(x.points for x in game.result.lines if x.player == player)
                    assert (meet.number, game.number, player, given_) == (
                        meet.number,
                        game.number,
                        player,
                        points,
                    )
            for player, bonus in match.bonus.points.items():
                assert sum(x.points for x in match.bonus.lines if x.player == player) == bonus


def test_golden_explanation_names_the_rule_of_every_point():
    """R3.2-f: the winner of a 4-player game is told which comparison gave his bonus point."""
    result = fold_season(GOLDEN_FACTS, explain=True)
    match = result.meets[0].matches[0]
    winner = match.games[0].result.order[0]

    lines = match.explanation(winner)

    assert lines[0].startswith("Game 1 (")
    assert lines[0].endswith("[R3.2-e]")
    assert any("[R3.2-f]" in line for line in lines)


# --- Hypothesis: random seasons of six players ---------------------------------------------

PLAYERS = "abcdef"
ENTRANTS = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate(PLAYERS, 1))


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list[dict], Ruleset]:
    """Meets as plain data (the groups are cut from the ladder while folding): per game each
    player's score, or None (a forfeit), and at most one adjustment per game."""
    meets = []
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        games = []
        for _ in range(8):  # two groups of three, four games each
            scores = draw(
                st.lists(
                    st.one_of(st.none(), st.integers(min_value=1, max_value=10**7)),
                    min_size=3,
                    max_size=3,
                )
            )
            adjust = draw(st.sampled_from([None, "reduced", "deathsave", "non_countable"]))
            games.append((scores, adjust, draw(st.integers(min_value=0, max_value=2))))
        meets.append(games)
    ruleset = draw(st.sampled_from(list(RULESETS.values())))
    return meets, ruleset


def _game(players, scores, adjust, who) -> GameFacts:
    # Distinct scores in each game (`* 3 + i`), so that no tie needs a playoff order.
    recorded = {
        p: None if s is None else s * 3 + i
        for i, (p, s) in enumerate(zip(players, scores, strict=True))
    }
    target = players[who]
    if adjust == "non_countable" and recorded[target] is None:
        return GameFacts(machine="M", scores=recorded, non_countable=frozenset({target}))
    if adjust == "reduced" and recorded[target] is not None:
        return GameFacts(machine="M", scores=recorded, reduced=frozenset({target}))
    if adjust == "deathsave" and recorded[target] is not None:
        return GameFacts(machine="M", scores=recorded, zeroed={target: "deathsave"})
    return GameFacts(machine="M", scores=recorded)


def _facts(meets: list, ruleset: Ruleset) -> SeasonFacts:
    folded: list[MeetFacts] = []
    for number, games in enumerate(meets, start=1):
        season = SeasonFacts(entrants=ENTRANTS, meets=tuple(folded))
        ladder = fold_season(season, ruleset=ruleset).ladder if folded else PLAYERS
        groups = tuple(
            MatchFacts(
                players=tuple(players),
                games=tuple(_game(players, *games[4 * index + g]) for g in range(4)),
            )
            for index, players in enumerate((ladder[:3], ladder[3:]))
        )
        folded.append(MeetFacts(number=number, groups=groups))
    return SeasonFacts(entrants=ENTRANTS, meets=tuple(folded))


def _fold(facts: SeasonFacts, ruleset: Ruleset, *, explain: bool) -> SeasonResult | str:
    try:
        return fold_season(facts, ruleset=ruleset, explain=explain)
    except RuleError as error:
        return f"RuleError: {error}"


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_fold_numbers_identical_with_and_without_explanations(season):
    """R3-e: explain=True only adds lines; the numbers (or the refusal) are the same."""
    meets, ruleset = season
    try:
        facts = _facts(meets, ruleset)
    except RuleError:
        event("refused while built")
        return  # a season the fold refuses while it is being built: nothing to compare

    numbers = _fold(facts, ruleset, explain=False)
    explained = _fold(facts, ruleset, explain=True)

    event("refused" if isinstance(explained, str) else "folded")
    if isinstance(explained, str):
        assert numbers == explained
    else:
        assert repr(numbers) == repr(_without_lines(explained))


def _adjustment_lines(result: SeasonResult, meet: int) -> int:
    """The lines of meet `meet`'s games written before their points: why a ranking score is
    not the score entered (compensatory game, reduction, zero score, penalty)."""
    return sum(
        len(g.lines) - len(g.result.lines) for m in result.meets[meet - 1].matches for g in m.games
    )


def _check_adjusted_at(facts: SeasonFacts, ruleset: Ruleset) -> list[bool]:
    """For every meet: where `scores_adjusted_at` says no, the numbers fold's games equal the
    explained fold's (stripped of lines) and have no adjustment line; where it says yes, the
    explained fold has one. The answers, meet by meet."""
    numbers = fold_season(facts, ruleset=ruleset)
    explained = fold_season(facts, ruleset=ruleset, explain=True)
    answers = []
    for number in range(1, len(facts.meets) + 1):
        adjusted = scores_adjusted_at(facts, numbers, number)
        assert adjusted == (_adjustment_lines(explained, number) > 0), number
        stripped = _without_lines(explained).meets[number - 1]
        assert repr(numbers.meets[number - 1]) == repr(stripped)
        answers.append(adjusted)
    return answers


@pytest.mark.parametrize("name", sorted(GOLDEN_RULESETS))
def test_golden_scores_adjusted_at_meets_with_adjustments_and_penalties(name):
    """R7.3-m, R8.1-b, R8.2-a, R8.5-c: the golden season's adjusted meets (a compensatory
    game, a reduction, zero scores, the penalties of meets 7 and 8) and only those."""
    answers = _check_adjusted_at(GOLDEN_FACTS, GOLDEN_RULESETS[name])
    assert answers[6:8] == [True, True]  # a §8.5 penalty at each
    assert 0 < sum(answers) < len(answers)


@settings(max_examples=60, deadline=None)
@given(seasons())
def test_scores_adjusted_at_exactly_where_explained_games_say_why(season):
    """R8.1-b, R8.2-a: a meet the numbers fold serves a board for (`scores_adjusted_at`
    false) is one whose explained games have no reason to give beyond their points."""
    meets, ruleset = season
    try:
        facts = _facts(meets, ruleset)
        answers = _check_adjusted_at(facts, ruleset)
    except RuleError:
        event("refused")
        return
    event("some meet adjusted" if any(answers) else "no meet adjusted")


def test_scores_adjusted_at_a_meet_not_played():
    """A meet number outside the season has nothing adjusted."""
    result = fold_season(GOLDEN_FACTS)
    assert not scores_adjusted_at(GOLDEN_FACTS, result, 0)
    assert not scores_adjusted_at(GOLDEN_FACTS, result, len(GOLDEN_FACTS.meets) + 1)
