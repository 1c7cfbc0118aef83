"""Folding with a season's scored matches (`ScoredMatches`, issue #10) gives the fold without.

R3-e: folding is a pure function of the facts, so a match whose facts, penalties, ruleset and
`explain` are those of the previous fold is reused, and a changed one is scored again. Each
test folds the golden season (violations, absences, tie orders, a late entrant) with a memo
and without, and compares the two.
"""

import threading
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, Compensatory, RuleError, Ruleset, ScoredMatches
from flipwell.rules.season import fold_season
from flipwell.rules.season_values import SeasonFacts, SeasonResult, ViolationFacts
from flipwell.rules.violations import Violation
from flipwell.seasonfile import load_season

GOLDEN = Path(__file__).parents[1] / "data" / "golden_season.json"
RULESETS = {
    "fwpl_v1": FWPL_V1,
    "rescore_others": replace(FWPL_V1, third_offense_rescore_others=True),
    "full_fifth_game": replace(
        FWPL_V1, match_bonus_awards="full_fifth_game", match_bonus_ge_applies_to="all_groups"
    ),
}
LAST = 9  # the golden season's last meet (index): changing it moves no later ladder


def _golden() -> SeasonFacts:
    """Fresh facts objects each time, as a server loads them: only equal, never identical."""
    return load_season(GOLDEN)[1]


def _as_recorded(facts: SeasonFacts) -> SeasonFacts:
    """Every meet's groups taken as recorded (an LO override, R4.1-d): an earlier change of
    points may then move later ladders without refusing the season."""
    meets = tuple(replace(m, group_override="as recorded") for m in facts.meets)
    return replace(facts, meets=meets)


def _with_score(
    facts: SeasonFacts, meet: int, group: int, game: int, player: int, score: int | None
) -> SeasonFacts:
    """The facts with one player's machine score (None: a forfeit, R2.4-b) replaced."""
    meets = list(facts.meets)
    match = meets[meet].groups[group % len(meets[meet].groups)]
    games = list(match.games)
    who = match.players[player % len(match.players)]
    games[game] = replace(games[game], scores={**games[game].scores, who: score})
    groups = tuple(
        replace(match, games=tuple(games)) if g is match else g for g in meets[meet].groups
    )
    meets[meet] = replace(meets[meet], groups=groups)
    return replace(facts, meets=tuple(meets))


def _with_violation(facts: SeasonFacts, meet: int, group: int, current_game: int) -> SeasonFacts:
    """The facts with a serious violation (interference, §8.3) by a group's first player in
    game `current_game`: R8.5-c, his first offense forfeits that game."""
    meets = list(facts.meets)
    player = meets[meet].groups[group % len(meets[meet].groups)].players[0]
    violation = ViolationFacts(Violation(player, "interference"), current_game=current_game)
    meets[meet] = replace(meets[meet], violations=(*meets[meet].violations, violation))
    return replace(facts, meets=tuple(meets))


def _fold(
    facts: SeasonFacts, ruleset: Ruleset, explain: bool, scored: ScoredMatches | None = None
) -> str:
    """The fold written out in full (every number, line and key order), or its refusal."""
    try:
        return repr(fold_season(facts, ruleset=ruleset, explain=explain, scored=scored))
    except RuleError as error:
        return f"RuleError: {error}"


def _matches(result: SeasonResult) -> list[object]:
    return [match for meet in result.meets for match in meet.matches]


def _changes() -> list[tuple[str, SeasonFacts, Ruleset, bool]]:
    """A league night's sequence of writes, each folded after the one before."""
    golden = _golden()
    score = _with_score(golden, LAST, 0, 1, 0, 1_234_560)
    forfeit = _with_score(score, LAST, 1, 3, 2, None)
    earlier = _with_score(_as_recorded(forfeit), 2, 0, 0, 1, 10)  # later ladders move
    violation = _with_violation(earlier, LAST, 2, current_game=2)
    return [
        ("golden", golden, FWPL_V1, False),
        ("one score", score, FWPL_V1, False),
        ("a forfeit", forfeit, FWPL_V1, False),
        ("an earlier meet's score", earlier, FWPL_V1, False),
        ("a violation's penalty", violation, FWPL_V1, False),
        ("another ruleset", violation, RULESETS["full_fifth_game"], False),
        ("explained", violation, RULESETS["full_fifth_game"], True),
        ("numbers again", violation, FWPL_V1, False),
        ("the change undone", _golden(), FWPL_V1, False),
    ]


def test_scored_fold_equals_fold_without_through_a_night_of_changes():
    """R3-e: after each change, the fold with the previous fold's matches is the fold anew."""
    scored = ScoredMatches()

    for what, facts, ruleset, explain in _changes():
        assert (what, _fold(facts, ruleset, explain, scored)) == (
            what,
            _fold(facts, ruleset, explain),
        )


def test_scored_fold_reuses_unchanged_matches_and_rescores_a_changed_score():
    """R3-e, R3.2-e: one changed score re-scores its match; every other match is reused."""
    scored = ScoredMatches()
    before = fold_season(_golden(), scored=scored)
    changed = _with_score(_golden(), LAST, 0, 1, 0, 1_234_560)

    after = fold_season(changed, scored=scored)

    changed_match = 58 - len(before.meets[LAST].matches)  # the last meet's first group
    reused = [a is b for a, b in zip(_matches(after), _matches(before), strict=True)]
    assert reused == [i != changed_match for i in range(58)]
    assert after == fold_season(changed)


def test_scored_fold_rescores_a_match_whose_penalty_changed():
    """R8.5-c: equal match facts with a new penalty are scored again, not served stale."""
    scored = ScoredMatches()
    before = fold_season(_golden(), scored=scored)
    penalized = _with_violation(_golden(), LAST, 0, current_game=2)

    after = fold_season(penalized, scored=scored)

    first = len(_matches(before)) - len(before.meets[LAST].matches)
    assert _matches(after)[first] is not _matches(before)[first]
    assert after == fold_season(penalized)
    assert after.meets[LAST].penalties != {}


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=RULESETS.keys())
def test_scored_fold_under_another_ruleset_reuses_nothing(ruleset):
    """A08, A36: a ruleset change may change every match, so none is reused (R3-e)."""
    golden = _as_recorded(_golden())  # another ruleset may give other ladders (A18)
    scored = ScoredMatches()
    before = fold_season(
        golden, ruleset=replace(FWPL_V1, single_player_game_points=8), scored=scored
    )

    after = fold_season(golden, ruleset=ruleset, scored=scored)

    assert after == fold_season(golden, ruleset=ruleset)
    assert [a is b for a, b in zip(_matches(after), _matches(before), strict=True)] == [False] * 58


def test_scored_fold_explained_after_numbers_writes_every_line():
    """R3-e: a memo of numbers-only matches never answers an explained fold (no lines)."""
    scored = ScoredMatches()
    fold_season(_golden(), scored=scored)

    explained = fold_season(_golden(), explain=True, scored=scored)

    assert explained == fold_season(_golden(), explain=True)
    assert explained.meets[0].matches[0].games[0].result.lines != ()


def test_scored_matches_keep_only_the_latest_folds():
    """A memo holds one season's matches: those its latest fold scored or reused."""
    scored = ScoredMatches()
    golden = _golden()
    fold_season(golden, scored=scored)
    whole = scored.size

    fold_season(replace(golden, meets=golden.meets[:3]), scored=scored)

    assert (whole, scored.size) == (58, sum(len(m.groups) for m in golden.meets[:3]))


def test_scored_matches_kept_after_a_refused_fold_are_the_last_good_ones():
    """A fold the rules refuse (A27: a penalty in a game the match does not have) keeps the
    previous fold's matches; the next fold is still the fold anew."""
    scored = ScoredMatches()
    fold_season(_golden(), scored=scored)
    refused = _with_violation(_golden(), LAST, 0, current_game=9)

    with pytest.raises(RuleError):
        fold_season(refused, scored=scored)

    assert scored.size == 58
    assert _fold(_golden(), FWPL_V1, False, scored) == _fold(_golden(), FWPL_V1, False)


def test_scored_fold_refuses_a_compensatory_amount_that_is_not_an_int():
    """R7.3-m: 1.0 == 1, yet a compensatory game of 1.0 points is refused, memo or not."""
    golden = _golden()
    match = golden.meets[LAST].groups[0]
    player = match.players[0]

    def compensated(new: object) -> SeasonFacts:
        game = replace(match.games[0], compensatory={player: Compensatory(new=new)})  # type: ignore[arg-type]
        groups = (replace(match, games=(game, *match.games[1:])), *golden.meets[LAST].groups[1:])
        meets = (*golden.meets[:LAST], replace(golden.meets[LAST], groups=groups))
        return replace(golden, meets=meets)

    scored = ScoredMatches()
    fold_season(compensated(1000), scored=scored)

    assert _fold(compensated(1000.0), FWPL_V1, False, scored) == _fold(
        compensated(1000.0), FWPL_V1, False
    )
    assert _fold(compensated(1000.0), FWPL_V1, False).startswith("RuleError")


def test_scored_fold_shared_by_threads_gives_each_its_own_fold():
    """Folds of two versions of a season at once, sharing one memo: each result is its own
    facts' fold (an entry may be lost, never returned for other facts)."""
    versions = [_golden(), _with_score(_golden(), LAST, 0, 1, 0, 1_234_560)]
    expected = [_fold(v, FWPL_V1, False) for v in versions]
    scored = ScoredMatches()
    wrong: list[int] = []

    def fold_often(index: int) -> None:
        for _ in range(6):
            if _fold(versions[index], FWPL_V1, False, scored) != expected[index]:
                wrong.append(index)

    threads = [threading.Thread(target=fold_often, args=(i % 2,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert wrong == []


# --- Hypothesis: random sequences of writes to the golden season ---------------------------

_score_change = st.tuples(
    st.just("score"),
    st.integers(min_value=0, max_value=LAST),  # meet
    st.integers(min_value=0, max_value=5),  # group
    st.integers(min_value=0, max_value=3),  # game
    st.integers(min_value=0, max_value=3),  # player
    st.one_of(st.none(), st.integers(min_value=0, max_value=10**7)),
)
_violation = st.tuples(
    st.just("violation"),
    st.integers(min_value=0, max_value=LAST),
    st.integers(min_value=0, max_value=5),
    st.integers(min_value=1, max_value=4),
)
_steps = st.lists(
    st.tuples(
        st.one_of(_score_change, _violation, st.none()),
        st.sampled_from(sorted(RULESETS)),
        st.booleans(),
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=20, deadline=None)
@given(_steps)
def test_scored_fold_equals_fold_without_after_any_writes(steps):
    """R3-e: whatever the writes (scores, forfeits, penalties), ruleset and kind, a fold
    with the previous folds' matches is the fold anew: the same numbers, lines or refusal."""
    facts = _as_recorded(_golden())
    scored = ScoredMatches()
    fold_season(facts, scored=scored)

    for change, ruleset, explain in steps:
        if change is not None and change[0] == "score":
            facts = _with_score(facts, *change[1:])
        elif change is not None:
            facts = _with_violation(facts, change[1], change[2], current_game=change[3])
        folded = _fold(facts, RULESETS[ruleset], explain, scored)
        event("refused" if folded.startswith("RuleError") else "folded")

        assert folded == _fold(facts, RULESETS[ruleset], explain)
