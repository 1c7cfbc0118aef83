"""A season cut short (R2-a, A68): the fold reads the number of meets from the facts, so the
playoff race's meets left, clinched and eliminated follow a cut (R6.1-d), eligibility stays
A05's, and the §2.5 limit stays a count (R2.5-a, A68.2)."""

from dataclasses import replace

import pytest

from flipwell.rules import (
    Entrant,
    GameFacts,
    MatchFacts,
    MeetFacts,
    RuleError,
    Ruleset,
    SeasonFacts,
    check_season_cut,
    fold_season,
    next_groups,
    race_places,
    season_cut,
    season_progress,
    season_race,
)


def entrants(count):
    return tuple(Entrant(f"p{i:02}", f"P{i}", "Player", i) for i in range(1, count + 1))


def play_meet(facts, number, *, closed=True):
    """Meet `number` in the ladder's groups (R4.2-b), every game won in ladder order."""
    result = fold_season(facts)
    matches = tuple(
        MatchFacts(
            players=tuple(group),
            games=tuple(
                GameFacts(
                    machine=f"M{n}",
                    scores={p: 1000 * (len(group) - i) for i, p in enumerate(group)},
                )
                for n in range(1, 5)
            ),
        )
        for group in next_groups(result, announced_absences=[])
    )
    return replace(facts, meets=(*facts.meets, MeetFacts(number, matches, closed=closed)))


def season(players, *, meets, played, late=(), open_meet=False):
    """`players` entrants, `late` of them joining at meet `played + 2` (no game yet, their
    forfeits before it not countable), the season set to `meets` meets with `played` closed
    (and one more open with `open_meet`)."""
    facts = SeasonFacts(
        entrants=entrants(players),
        meets=(),
        joined_at=dict.fromkeys(late, played + 2),
        late_join_non_countable=frozenset(late),  # R2.4-g: not out of the season for them
        number_of_meets=meets,
    )
    for number in range(1, played + 1):
        facts = play_meet(facts, number)
    if open_meet:
        facts = play_meet(facts, played + 1, closed=False)
    return facts


def test_season_progress_reads_the_number_of_meets_from_the_facts():
    """R2-a: played + left is the season's number of meets, as its facts say."""
    facts = season(8, meets=10, played=3)

    assert season_progress(facts).left == 7
    assert season_progress(replace(facts, number_of_meets=3)).left == 0
    assert season_progress(replace(facts, number_of_meets=None)).left == 0  # as recorded


def test_season_cut_to_the_meets_played_ends_the_race():
    """R6.1-d, A68: ten players after 3 of 8 meets, two late joiners yet to play. Cut to 3, no
    meet is left: the late joiners can no longer become eligible (A05), and the top eight of
    ten clinch (§6.1 table: q = 8), the last two are eliminated."""
    facts = season(12, meets=8, played=3, late=("p11", "p12"))

    cut = season_cut(facts, number_of_meets=3)

    assert (cut.meets_before, cut.meets_after, cut.played) == (8, 3, 3)
    assert (cut.meets_left_before, cut.meets_left_after, cut.ends_season) == (5, 0, True)
    assert (cut.qualifiers_before, cut.qualifiers_after) == (8, 8)
    after = {p.player: (p.eligibility, p.status) for p in cut.places}
    assert after["p11"] == after["p12"] == ("not_eligible", None)
    assert sorted(s for _, s in after.values() if s is not None).count("clinched") == 8
    changed = {c.player: (c.before.eligibility, c.after.eligibility) for c in cut.changes}
    assert changed["p11"] == ("may_become_eligible", "not_eligible")
    assert {c.before.status for c in cut.changes if c.before.eligibility == "eligible"} == {"alive"}


def test_season_cut_places_match_the_race_of_the_season_cut():
    """A68: the preview's places are the race of the season folded with the new number."""
    facts = season(10, meets=8, played=3)
    cut = replace(facts, number_of_meets=4)
    race = season_race(cut, fold_season(cut))

    places = race_places(cut, fold_season(cut), ruleset=Ruleset())

    assert {p.player: p.status for p in places} == {s.player: s.status for s in race.standings}
    assert race.meets_left == 1


def test_season_cut_changes_no_point_and_keeps_the_forfeit_limit():
    """R2.5-a, A68.2: the fold of the season cut has the same standings, forfeits and season
    forfeits: the limit counts forfeits, not a share of the season."""
    facts = season(9, meets=12, played=4)

    before = fold_season(facts)
    after = fold_season(replace(facts, number_of_meets=4))

    assert after.players == before.players
    assert Ruleset().season_cut_forfeit_limit == "unchanged"


def test_check_season_cut_counts_an_open_meet_as_started():
    """A68.1: a meet with its groups drawn is played out or closed unfinished, never undone:
    the season keeps at least it."""
    facts = season(8, meets=6, played=2, open_meet=True)

    with pytest.raises(RuleError, match="meet 3 has started"):
        check_season_cut(facts, number_of_meets=2)
    assert check_season_cut(facts, number_of_meets=3) == 3
    assert season_cut(facts, number_of_meets=3).ends_season


def test_check_season_cut_only_lowers_the_number():
    """R2-a: cutting a season short gives it fewer meets than it has."""
    facts = season(8, meets=6, played=2)

    with pytest.raises(RuleError, match="has 6 meets"):
        check_season_cut(facts, number_of_meets=6)
    with pytest.raises(RuleError, match="has 6 meets"):
        check_season_cut(facts, number_of_meets=9)


def test_season_cut_that_leaves_no_playoff_line_follows_the_reading():
    """§1, A03, A68.3: four players have played, three joiners have not. With meets left the
    field may reach six or seven (a playoff line); cut to the meets played it stays at four:
    allowed by default (no line, the LO decides), refused under the other reading."""
    facts = season(7, meets=6, played=2, late=("p05", "p06", "p07"))

    cut = season_cut(facts, number_of_meets=2)

    assert (cut.qualifiers_before, cut.qualifiers_after) == (6, None)
    with pytest.raises(RuleError, match="no playoff line"):
        season_cut(facts, number_of_meets=2, ruleset=Ruleset(season_cut_small_playoffs="refused"))


def test_season_cut_before_a_late_entrant_joins_leaves_no_game_to_play():
    """A05, A68: an entrant joining at meet 5 may still become eligible in a season of eight
    meets; cut to four, he never joins, so he cannot, though a meet is left."""
    facts = season(10, meets=8, played=3, late=("p10",))

    cut = season_cut(facts, number_of_meets=4)

    late = next(c for c in cut.changes if c.player == "p10")
    assert (late.before.eligibility, late.after.eligibility) == (
        "may_become_eligible",
        "not_eligible",
    )
    assert cut.meets_left_after == 1
