"""A season folded on from a prefix: the closed meets folded once, later meets on top.

The invariant: `fold_from(prefix, later).result` equals `fold_season` of the same facts, for
every prefix of the season's leading closed meets, after the prefix went through pickle (as
it is stored), under every ruleset (R3-e: a fold is a pure function of the facts).
"""

import pickle
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, Entrant, RuleError, Ruleset, group_sizes
from flipwell.rules.game_lines import pending_game_lines
from flipwell.rules.grouping import split_into_groups
from flipwell.rules.match import GameFacts, MatchFacts
from flipwell.rules.season import fold_season
from flipwell.rules.season_prefix import (
    SeasonPrefix,
    fold_from,
    fold_with_prefix,
    season_start,
)
from flipwell.rules.season_values import MeetFacts, SeasonFacts
from flipwell.seasonfile import load_season

_, GOLDEN_FACTS = load_season(Path(__file__).parents[1] / "data" / "golden_season.json")
GOLDEN_RULESETS = {
    "fwpl_v1": FWPL_V1,
    "rescore_others": replace(FWPL_V1, third_offense_rescore_others=True),
    "wipe_on_forfeit": replace(
        FWPL_V1,
        season_forfeit_keeps_points=False,
        forfeit_credit_basis="per_game_times_4",
        late_join_forfeits_use_credit=True,
        late_join_forfeits_countable=False,
    ),
}
RULESETS = {
    **GOLDEN_RULESETS,
    "full_fifth_game": replace(
        FWPL_V1, match_bonus_awards="full_fifth_game", match_bonus_ge_applies_to="all_groups"
    ),
    "three_forfeits": replace(FWPL_V1, season_forfeit_limit=3),
}


def _prefixes(facts: SeasonFacts, ruleset: Ruleset) -> list[SeasonPrefix]:
    """The prefix after each leading closed meet (0, 1, 2...), each through pickle: the
    first of no meet, each next one the last one's carried over one more closed meet (as
    closing a meet stores it)."""
    found = [season_start(facts, ruleset=ruleset)]
    while found[-1].through < len(facts.meets) and facts.meets[found[-1].through].closed:
        last = found[-1]
        prefix = fold_from(last, facts.meets[last.through : last.through + 1], ruleset=ruleset)
        assert prefix.prefix is not None
        assert prefix.prefix.through == last.through + 1
        found.append(pickle.loads(pickle.dumps(prefix.prefix, protocol=pickle.HIGHEST_PROTOCOL)))
    return found


def _check_every_prefix(facts: SeasonFacts, ruleset: Ruleset) -> None:
    whole = fold_season(facts, ruleset=ruleset)
    for prefix in _prefixes(facts, ruleset):
        folded = fold_from(prefix, facts.meets[prefix.through :], ruleset=ruleset)
        assert folded.result == whole, prefix.through
        assert repr(folded.result) == repr(whole)


@pytest.mark.parametrize("name", sorted(GOLDEN_RULESETS))
def test_golden_season_from_every_prefix_equals_the_whole_fold(name):
    """R3-e: the golden season (penalties, compensatory games, forfeits) folded on from each
    of its prefixes is the whole season's fold."""
    _check_every_prefix(GOLDEN_FACTS, GOLDEN_RULESETS[name])


def test_golden_season_with_an_open_last_meet():
    """The open meet (provisional nights, R3.3-b) folded on the closed meets' prefix."""
    meets = (*GOLDEN_FACTS.meets[:-1], replace(GOLDEN_FACTS.meets[-1], closed=False))
    facts = replace(GOLDEN_FACTS, meets=meets)
    _check_every_prefix(facts, FWPL_V1)
    folded = fold_with_prefix(facts)
    assert folded.prefix is not None
    assert folded.prefix.through == len(meets) - 1


def test_prefix_covers_the_leading_closed_meets_and_is_kept_until_more_close():
    closed = fold_with_prefix(GOLDEN_FACTS)
    assert closed.prefix is not None
    assert closed.prefix.through == len(GOLDEN_FACTS.meets)
    start = season_start(GOLDEN_FACTS)
    opened = replace(GOLDEN_FACTS.meets[0], closed=False)
    assert fold_from(start, (opened, *GOLDEN_FACTS.meets[1:])).prefix is start


def test_a_prefix_of_another_ruleset_is_folded_whole():
    """A ruleset change refolds every meet under the new one."""
    prefix = fold_with_prefix(replace(GOLDEN_FACTS, meets=GOLDEN_FACTS.meets[:3])).prefix
    assert prefix is not None
    other = GOLDEN_RULESETS["wipe_on_forfeit"]
    folded = fold_from(prefix, GOLDEN_FACTS.meets[3:], ruleset=other)
    assert folded.result == fold_season(GOLDEN_FACTS, ruleset=other)
    assert folded.prefix is not None
    assert folded.prefix.ruleset == other


def test_later_meets_must_follow_the_prefix():
    prefix = fold_with_prefix(replace(GOLDEN_FACTS, meets=GOLDEN_FACTS.meets[:2])).prefix
    assert prefix is not None
    with pytest.raises(RuleError, match="numbered 1, 2, 3"):
        fold_from(prefix, GOLDEN_FACTS.meets[3:])


def test_folding_on_leaves_the_prefix_unchanged():
    prefix = fold_with_prefix(replace(GOLDEN_FACTS, meets=GOLDEN_FACTS.meets[:2])).prefix
    assert prefix is not None
    before = pickle.dumps(prefix)
    fold_from(prefix, GOLDEN_FACTS.meets[2:])
    assert pickle.dumps(prefix) == before


# --- Hypothesis: random seasons of six players, the last meets possibly open ---------------

PLAYERS = "abcdef"
ENTRANTS = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate(PLAYERS, 1))


@st.composite
def seasons(draw: st.DrawFn) -> tuple[list, int, Ruleset]:
    """Meets as plain data (groups cut from the ladder while folding): per game each player's
    score or None (a forfeit, some not countable); how many meets are closed; a ruleset."""
    meets = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        games = []
        for _ in range(draw(st.sampled_from([8, 6]))):  # an open meet may stop mid-match
            scores = draw(
                st.lists(
                    st.one_of(st.none(), st.integers(min_value=1, max_value=10**7)),
                    min_size=4,
                    max_size=4,
                )
            )
            games.append((scores, draw(st.booleans())))
        meets.append(games)
    closed = draw(st.integers(min_value=0, max_value=len(meets)))
    return meets, closed, draw(st.sampled_from(list(RULESETS.values())))


def _game(players, scores, countable: bool) -> GameFacts:
    recorded = {  # distinct scores: no tie needs a playoff order
        p: None if s is None else s * 3 + i
        for i, (p, s) in enumerate(zip(players, scores, strict=False))  # the first scores
    }
    forfeited = frozenset(p for p, s in recorded.items() if s is None)
    return GameFacts(
        machine="M", scores=recorded, non_countable=frozenset() if countable else forfeited
    )


def _facts(meets: list, closed: int, ruleset: Ruleset) -> SeasonFacts:
    """The season, each meet's groups cut from the ladder (R4.2-b; fewer once players are
    out): RuleError for a ladder that cannot be cut (5 players, A16)."""
    folded: list[MeetFacts] = []
    for number, games in enumerate(meets, start=1):
        season = SeasonFacts(entrants=ENTRANTS, meets=tuple(folded))
        ladder = fold_season(season, ruleset=ruleset).ladder if folded else PLAYERS
        cut = split_into_groups(list(ladder), group_sizes(len(ladder), ruleset=ruleset))
        groups = tuple(
            MatchFacts(
                players=tuple(players),
                games=tuple(_game(players, *g) for g in games[4 * index : 4 * index + 4]),
            )
            for index, players in enumerate(cut)
        )
        folded.append(MeetFacts(number=number, groups=groups, closed=number <= closed))
    return SeasonFacts(entrants=ENTRANTS, meets=tuple(folded))


@settings(max_examples=30, deadline=None)
@given(seasons())
def test_fold_from_every_prefix_equals_the_whole_fold(season):
    """R3-e: a prefix of the closed meets and the later meets folded on it give exactly the
    whole season's fold (forfeits, credits, season forfeits, open meets)."""
    meets, closed, ruleset = season
    try:
        facts = _facts(meets, closed, ruleset)
    except RuleError:
        return  # refused while built (a closed meet with an unfinished match): nothing to compare
    _check_every_prefix(facts, ruleset)


@settings(max_examples=30, deadline=None)
@given(seasons(), st.lists(st.integers(min_value=1, max_value=10**7), min_size=4, max_size=4))
def test_a_pending_sheet_folded_on_every_prefix_is_the_whole_folds(season, sheet):
    """R3-a, R3-e: the lines a sheet waiting for confirmation will get (what its sender and
    confirmer read) are the same folded on the stored prefix of the closed meets as folded
    whole: a sheet at meet 40 costs tonight's meet only, not the season."""
    meets, closed, ruleset = season
    try:
        facts = _facts(meets, closed, ruleset)
    except RuleError:
        return
    tonight = facts.meets[-1]
    unfinished = [m for m in tonight.groups if len(m.games) < 4]
    if tonight.closed or not unfinished:
        return  # no sheet can wait for confirmation
    players = unfinished[0].players
    game = _game(players, sheet, countable=True)
    try:
        whole = pending_game_lines(
            facts, meet=tonight.number, players=players, game=game, ruleset=ruleset
        )
    except RuleError:
        return  # a sheet the rules refuse, on a prefix as whole (tested in test_game_lines)
    for prefix in _prefixes(facts, ruleset):
        on_prefix = pending_game_lines(
            facts,
            meet=tonight.number,
            players=players,
            game=game,
            ruleset=ruleset,
            prefix=prefix,
        )
        assert on_prefix == whole, prefix.through
