"""Folding a season: ladders, credits, late entrants, season forfeits, offenses."""

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, Entrant, RuleError, Ruleset
from flipwell.rules.match import GameFacts, MatchFacts
from flipwell.rules.season import fold_season, may_play_game
from flipwell.rules.season_ladder import next_groups
from flipwell.rules.season_values import MeetFacts, SeasonFacts, ViolationFacts
from flipwell.rules.violations import Violation

# Six players: IFPA ranks put a..f in order, so week 1 groups are (a b c) and (d e f).
ENTRANTS = tuple(Entrant(p, p.upper(), "Player", rank) for rank, p in enumerate("abcdef", 1))
BEST_FIRST = [9000, 3000, 2000, 1000]
# In a 3-player group every game gives 7+1 / 4 / 1 (9000 > 3000 + 2000): totals 32 / 16 / 4.


def _match(players, scores=None, forfeit=()):
    """A match whose players finish in the listed order in every game, unless told otherwise."""
    scores = scores or {p: BEST_FIRST[i] for i, p in enumerate(players)}
    games = tuple(
        GameFacts(
            machine=f"M{n}",
            scores={p: (None if p in forfeit else s) for p, s in scores.items()},
        )
        for n in range(4)
    )
    return MatchFacts(players=tuple(players), games=games)


def _season(*meets, **kwargs):
    return SeasonFacts(entrants=kwargs.pop("entrants", ENTRANTS), meets=tuple(meets), **kwargs)


def _meet(number, *groups, **kwargs):
    return MeetFacts(number=number, groups=tuple(groups), **kwargs)


def test_week_one_groups_follow_ifpa_ladder():
    """R3.1-b, R4.3-a, R4.2-b: week 1 from IFPA ranks, cut 3 + 3 (R4.1-b)."""
    result = fold_season(_season(_meet(1, _match("abc"), _match("def"))))

    assert result.meets[0].ladder == tuple("abcdef")
    assert result.meets[0].expected_groups == (tuple("abc"), tuple("def"))


def test_later_ladder_follows_season_points():
    """R4.3-c, R3.1-b: after meet 1, d (winner of group 2) passes b and c."""
    # Group 1: a 7+1 x4 = 32 (+ match bonus: 32 > 16+4: a), b 4x4 = 16, c 1x4 = 4.
    # Group 2 identical: d 33, e 16, f 4.
    result = fold_season(_season(_meet(1, _match("abc"), _match("def"))))

    points = {p: s.league_points for p, s in result.players.items()}
    assert points == {"a": 33, "b": 16, "c": 4, "d": 33, "e": 16, "f": 4}
    assert result.ladder == tuple("adbecf")  # equal points keep the previous order (A18)


def test_recorded_groups_must_match_ladder_without_override():
    """R4.1-d: other groupings need an LO reason."""
    season = _season(_meet(1, _match("abd"), _match("cef")))

    with pytest.raises(RuleError, match="an LO override needs a reason"):
        fold_season(season)


def test_group_override_with_reason_is_accepted():
    """R4.1-d: the LO may group differently, with a reason."""
    season = _season(_meet(1, _match("abd"), _match("cef"), group_override="machine layout"))

    assert fold_season(season).meets[0].expected_groups == (tuple("abc"), tuple("def"))


def test_announced_absence_leaves_groups_and_earns_credit():
    """R3.1-d, R2.4-d: announced absentees are not grouped; the first all-night forfeit earns
    50% of the average night so far."""
    # Seven players (4 + 3), so that six remain to be grouped 3 + 3 when b is absent.
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", 7))
    meet1 = _meet(1, _match("abcd"), _match("efg"))
    season1 = fold_season(_season(meet1, entrants=entrants))
    b_night = season1.players["b"].league_points
    ladder = [p for p in season1.ladder if p != "b"]
    meet2 = _meet(2, _match(ladder[:3]), _match(ladder[3:]), announced_absences=frozenset({"b"}))

    result = fold_season(_season(meet1, meet2, entrants=entrants))

    night = result.players["b"].nights[1]
    assert (night.status, night.forfeits, night.credit) == ("absent_announced", 4, b_night / 2)
    assert result.players["b"].credit_used_at == 2


def test_unannounced_absentee_keeps_slot_and_forfeits():
    """R3.1-e, R2.4-a, R2.4-b: he stays in his group, forfeits every game, earns the credit."""
    meet1 = _meet(1, _match("abc"), _match("def"))
    first = fold_season(_season(meet1))
    order = first.ladder
    meet2 = _meet(2, _match(order[:3], forfeit={"b"}), _match(order[3:]))

    result = fold_season(_season(meet1, meet2))

    b = result.players["b"]
    assert (b.nights[1].status, b.forfeits, b.countable_forfeits) == ("absent_unannounced", 4, 4)
    assert b.nights[1].credit == Fraction(16, 2)  # meet 1 night: 16


def test_second_all_night_forfeit_earns_nothing():
    """R2.4-e, A14.3: only the first all-night forfeit of the season earns the credit."""
    meets = [_meet(1, _match("abc"), _match("def"))]
    for number in (2, 3):
        ladder = fold_season(_season(*meets)).ladder
        meets.append(
            _meet(number, _match(ladder[:3], forfeit={"b"}), _match(ladder[3:], forfeit={"b"}))
        )

    result = fold_season(_season(*meets))

    assert [n.credit for n in result.players["b"].nights] == [0, 8, 0]


def test_every_full_night_alternative_credits_each_absence():
    """A14.3 alternative forfeit_credit_scope="every_full_night"."""
    ruleset = Ruleset(forfeit_credit_scope="every_full_night")
    meets = [_meet(1, _match("abc"), _match("def"))]
    for number in (2, 3):
        ladder = fold_season(_season(*meets), ruleset=ruleset).ladder
        meets.append(
            _meet(number, _match(ladder[:3], forfeit={"b"}), _match(ladder[3:], forfeit={"b"}))
        )

    result = fold_season(_season(*meets), ruleset=ruleset)

    assert [n.credit for n in result.players["b"].nights] == [0, 8, 8]


def test_first_night_absence_earns_zero_and_uses_credit():
    """A14.4: no earlier night gives 0, and that night is his credit night."""
    meet1 = _meet(1, _match("abc", forfeit={"b"}), _match("def"))

    result = fold_season(_season(meet1))

    assert (result.players["b"].nights[0].credit, result.players["b"].credit_used_at) == (0, 1)


def test_absence_after_zero_credit_night_earns_nothing():
    """A14.4, R2.4-e: after a zero-credit first night, a later all-night forfeit earns 0."""
    meets = [_meet(1, _match("abc", forfeit={"b"}), _match("def"))]
    for number, forfeit in ((2, set()), (3, {"b"})):
        ladder = fold_season(_season(*meets)).ladder
        meets.append(
            _meet(number, _match(ladder[:3], forfeit=forfeit), _match(ladder[3:], forfeit=forfeit))
        )

    result = fold_season(_season(*meets))

    assert [n.credit for n in result.players["b"].nights] == [0, 0, 0]


def test_zero_credit_not_used_alternative_keeps_credit():
    """A14.4 alternative zero_credit_without_history_uses_credit=False: a later absence earns."""
    ruleset = Ruleset(zero_credit_without_history_uses_credit=False)
    meets = [_meet(1, _match("abc", forfeit={"b"}), _match("def"))]
    for number, forfeit in ((2, set()), (3, {"b"})):
        ladder = fold_season(_season(*meets), ruleset=ruleset).ladder
        meets.append(
            _meet(number, _match(ladder[:3], forfeit=forfeit), _match(ladder[3:], forfeit=forfeit))
        )

    result = fold_season(_season(*meets), ruleset=ruleset)

    b = result.players["b"]
    assert (b.nights[0].credit, b.credit_used_at) == (0, 3)
    assert b.nights[2].credit > 0


def test_late_entrant_accumulates_forfeits_for_missed_meets():
    """R2.4-f, A46: a player joining at meet 2 forfeits meet 1's four games, countable."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", None))
    meet1 = _meet(1, _match("abc"), _match("def"))
    ladder = fold_season(_season(meet1, entrants=entrants, joined_at={"g": 2})).ladder
    meet2 = _meet(2, _match(ladder[:4]), _match(ladder[4:]))

    result = fold_season(_season(meet1, meet2, entrants=entrants, joined_at={"g": 2}))

    g = result.players["g"]
    assert ladder[-1] == "g"  # a newcomer enters below equal points (A18.4)
    assert (g.nights[0].status, g.forfeits, g.countable_forfeits) == ("not_joined", 4, 4)
    assert g.nights[0].credit == 0  # late-join forfeits earn no credit (A14.5)


def test_late_entrant_forfeits_made_non_countable_by_lo():
    """R2.4-g: the LO may designate late-join forfeits as not countable."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", None))
    season = _season(
        _meet(1, _match("abc"), _match("def")),
        entrants=entrants,
        joined_at={"g": 2},
        late_join_non_countable=frozenset({"g"}),
    )

    assert fold_season(season).players["g"].countable_forfeits == 0


def _eleven_forfeits_then(last_meet_match):
    """g (rank 7) plays meet 1, is absent at meets 2-3 (8 forfeits), forfeits games 1-3 of
    meet 4 (11); meet 5 gives g's group the match `last_meet_match(players)`."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", 7))

    def grouped(number, make, **kwargs):
        ladder = fold_season(_season(*meets, entrants=entrants)).ladder
        present = [p for p in ladder if p not in kwargs.get("announced_absences", ())]
        cut = 4 if len(present) == 7 else 3
        matches = [
            make(tuple(g)) if "g" in g else _match(g) for g in (present[:cut], present[cut:])
        ]
        return _meet(number, *matches, **kwargs)

    meets = []
    meets.append(grouped(1, _match))
    for number in (2, 3):
        meets.append(grouped(number, _match, announced_absences=frozenset({"g"})))
    meets.append(grouped(4, lambda ps: _games(ps, {"g": [None, None, None, 5]})))
    meets.append(grouped(5, last_meet_match))
    return _season(*meets, entrants=entrants)


def _games(players, overrides):
    """A match in ladder order, best first each game, with per-game scores for some players."""
    base = {p: BEST_FIRST[i] for i, p in enumerate(players)}
    return MatchFacts(
        players=players,
        games=tuple(
            GameFacts(
                machine=f"M{n}",
                scores={p: overrides[p][n] if p in overrides else s for p, s in base.items()},
            )
            for n in range(4)
        ),
    )


def test_twelfth_forfeit_mid_night_ends_his_season_at_once():
    """A65, R2.5-a, R2.5-b: his game-1 forfeit at meet 5 is his 12th countable one: his scores
    in games 2-4 are not counted, are no further countable forfeits, and the games are scored
    among the players who remain (R2.4-c)."""
    season = _eleven_forfeits_then(lambda ps: _games(ps, {"g": [None, 9999, 9999, 9999]}))

    result = fold_season(season)

    g = result.players["g"]
    assert (g.countable_forfeits, g.season_forfeited_at, g.season_forfeited_game) == (12, 5, 1)
    assert g.nights[-1].game_points == (0, 0, 0, 0)
    match = next(m for m in result.meets[4].matches if "g" in m.players)
    others = [p for p in match.players if p != "g"]
    # Games 2-4 are scored among the others, exactly as game 1 which he forfeited.
    assert [match.players[p].game_points for p in others] == [(7, 7, 7, 7), (2, 2, 2, 2)]
    assert "g" not in result.ladder


def test_may_play_game_refuses_games_after_the_twelfth_forfeit():
    """A65, R2.5-b: game 1 (the 12th forfeit) stands; games 2-4 and later meets are refused."""
    season = _eleven_forfeits_then(lambda ps: _games(ps, {"g": [None, None, None, None]}))
    g = fold_season(season).players["g"]

    allowed = [may_play_game(g, meet=5, game=n) for n in (1, 2, 3, 4)]

    assert (allowed, may_play_game(g, meet=6, game=1)) == ([True, False, False, False], False)


def test_may_play_game_before_a_season_forfeit_is_allowed():
    """R2.5-a: below 12 countable forfeits a player plays on."""
    season = _eleven_forfeits_then(_match)
    g = fold_season(season).players["g"]

    assert (g.countable_forfeits, may_play_game(g, meet=6, game=2)) == (11, True)


def test_announced_absence_on_the_night_of_the_twelfth_counts_to_twelve():
    """issue 26 §4, A65, R2.5-a: g forfeits 2 games at meet 1, then is announced absent at
    meets 2-4: 2 + 4 + 4 = 10, and at meet 4 his second forfeit is the 12th. His count stops
    there, as game by game (it said 14): the night keeps its 4 forfeits, 2 of them countable."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", 7))
    meets = [_meet(1, _match("abcd"), _games(("e", "f", "g"), {"g": [None, None, 5, 5]}))]
    for number in (2, 3, 4):
        ladder = [p for p in fold_season(_season(*meets, entrants=entrants)).ladder if p != "g"]
        meets.append(
            _meet(
                number,
                _match(ladder[:3]),
                _match(ladder[3:]),
                announced_absences=frozenset({"g"}),
            )
        )

    g = fold_season(_season(*meets, entrants=entrants)).players["g"]

    assert (g.countable_forfeits, g.season_forfeited_at) == (12, 4)
    assert (g.nights[-1].forfeits, g.nights[-1].countable_forfeits) == (4, 2)


def test_twelve_countable_forfeits_forfeit_the_season():
    """R2.5-a, R2.5-b, A37: the 12th countable forfeit forfeits the season; his points stay,
    and he leaves the ladder."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", 7))
    meets = [_meet(1, _match("abcd"), _match("efg"))]
    for number in (2, 3, 4):
        ladder = fold_season(_season(*meets, entrants=entrants)).ladder
        present = [p for p in ladder if p != "g"]
        meets.append(
            _meet(
                number,
                _match(present[:3]),
                _match(present[3:]),
                announced_absences=frozenset({"g"}),
            )
        )

    result = fold_season(_season(*meets, entrants=entrants))

    g = result.players["g"]
    assert (g.countable_forfeits, g.season_forfeited_at) == (12, 4)
    assert g.league_points > 0
    assert "g" not in result.ladder
    assert "g" in [s.player for s in result.standings()]


def test_season_forfeited_player_cannot_play_again():
    """R2.5-b: score entry for a season-forfeited player is refused."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", 7))
    meets = [_meet(1, _match("abcd"), _match("efg"))]
    for number in (2, 3, 4):
        ladder = [p for p in fold_season(_season(*meets, entrants=entrants)).ladder if p != "g"]
        meets.append(
            _meet(
                number,
                _match(ladder[:3]),
                _match(ladder[3:]),
                announced_absences=frozenset({"g"}),
            )
        )
    ladder = fold_season(_season(*meets, entrants=entrants)).ladder
    meets.append(_meet(5, _match([*ladder[:3], "g"]), _match(ladder[3:])))

    with pytest.raises(RuleError, match="g may not play"):
        fold_season(_season(*meets, entrants=entrants))


def test_players_missing_from_groups_are_refused():
    """R3.1-e: a player in no group must be announced absent."""
    with pytest.raises(RuleError, match="f is in no group and not announced absent"):
        fold_season(_season(_meet(1, _match("abc"), _match("de"))))


def test_players_missing_from_groups_error_renders_them_by_the_names_given():
    """R3.1-e: the refusal keeps the players it names as keys, for a front end to name."""
    with pytest.raises(RuleError) as caught:
        fold_season(_season(_meet(1, _match("abc"))))

    assert caught.value.render({"d": "Dee Cruz", "e": "Eli Dunn", "f": "Fay Evans"}) == (
        "meet 1: Dee Cruz, Eli Dunn, Fay Evans is in no group and not announced absent "
        "(an unannounced absentee keeps their group slot and forfeits, R3.1-e)"
    )


def _v(kind, *, current_game=None, games_completed=0, **flags):
    """Player a's violation of this kind, with its timing (A27)."""
    return ViolationFacts(
        Violation("a", kind, **flags), current_game=current_game, games_completed=games_completed
    )


def _violation_season(*violations_by_meet, ruleset=FWPL_V1):
    meets = []
    for number, violations in enumerate(violations_by_meet, start=1):
        ladder = fold_season(_season(*meets), ruleset=ruleset).ladder if meets else "abcdef"
        meets.append(_meet(number, _match(ladder[:3]), _match(ladder[3:]), violations=violations))
    return fold_season(_season(*meets), ruleset=ruleset)


def test_serious_violation_forfeits_current_game():
    """R8.5-c, R8.3-e: a first offense forfeits the game in progress."""
    result = _violation_season((_v("interference", current_game=2),))

    night = result.players["a"].nights[0]
    assert night.game_points == (8, 0, 8, 8)
    assert (result.players["a"].offenses, result.meets[0].penalties) == (1, {"a": (2,)})


def test_penalty_between_games_hits_best_completed_game():
    """R8.5-d, A27: highest league points among completed games, the last of equals."""
    result = _violation_season((_v("interference", games_completed=3),))

    assert result.meets[0].penalties == {"a": (3,)}


def test_penalty_before_first_game_hits_next_game():
    """A27.2: before the match starts, the penalty falls on his next game."""
    result = _violation_season((_v("interference", games_completed=0),))

    assert result.meets[0].penalties == {"a": (1,)}


def test_deathsave_is_not_a_serious_violation():
    """R8.7-c: a deathsave or bangback adds no offense."""
    result = _violation_season((_v("deathsave_or_bangback"),))

    assert (result.players["a"].offenses, result.meets[0].penalties) == (0, {})


def test_opponents_ball_marked_not_serious_by_lo():
    """A28: the LO may mark an accidental opponent's-ball violation as not serious."""
    result = _violation_season((_v("opponents_ball", lo_marked_not_serious=True),))

    assert result.players["a"].offenses == 0


def test_offenses_are_cumulative_and_third_forfeits_season():
    """R8.5-b, R8.5-e, A36: the third offense wipes his scores and suspends him."""
    result = _violation_season(
        (_v("interference", current_game=1),),
        (_v("interference", current_game=1),),
        (_v("interference", current_game=1),),
    )

    a = result.players["a"]
    assert (a.offenses, a.suspended_at, a.league_points) == (3, 3, 0)
    assert "a" not in result.ladder
    assert "a" not in [s.player for s in result.standings()]


def test_violence_is_an_automatic_third_offense():
    """R8.5-f: violence suspends at once, whatever the count."""
    result = _violation_season((_v("violence"),))

    assert (result.players["a"].offenses, result.players["a"].suspended_at) == (3, 1)


def test_third_offense_rescore_others_alternative():
    """A36 alternative: the others are re-scored as if he had forfeited."""
    ruleset = Ruleset(third_offense_rescore_others=True)
    result = _violation_season((_v("violence"),), ruleset=ruleset)

    # Group a b c without a: b beats c in 2-player games: 7 (3000 > 3 x 2000? no: bonus to c).
    assert result.players["b"].nights[0].game_points == (7, 7, 7, 7)


def test_next_groups_drop_announced_absentees():
    """R3.1-d, R3.1-c, R4.1-a: the next groups come from the ladder without them."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", 7))
    result = fold_season(_season(_meet(1, _match("abcd"), _match("efg")), entrants=entrants))

    groups = next_groups(result, announced_absences=["g"])

    assert [len(g) for g in groups] == [3, 3]
    assert "g" not in [p for g in groups for p in g]


def test_next_groups_refuse_unknown_absentee():
    result = fold_season(_season(_meet(1, _match("abc"), _match("def"))))

    with pytest.raises(RuleError, match="zed cannot be absent"):
        next_groups(result, announced_absences=["zed"])


def test_meets_must_be_numbered_in_order():
    with pytest.raises(RuleError, match="numbered 1, 2, 3"):
        fold_season(_season(_meet(2, _match("abc"), _match("def"))))


@settings(max_examples=40)
@given(
    st.lists(
        st.lists(st.integers(min_value=0, max_value=10**9), min_size=24, max_size=24),
        min_size=1,
        max_size=3,  # an absentee reaches 12 countable forfeits at meet 3 (R2.5-a)
    ),
    st.sets(st.sampled_from("abcdef"), max_size=2),
)
def test_standings_equal_sum_of_nights(meet_scores, absentees):
    """R3.3-a, R3-e: a season's league points are exactly the sum of its nights."""
    meets = []
    for number, raw in enumerate(meet_scores, start=1):
        ladder = fold_season(_season(*meets)).ladder if meets else "abcdef"
        groups = []
        for index, players in enumerate((ladder[:3], ladder[3:])):
            games = tuple(
                GameFacts(
                    machine=f"M{g}",
                    scores={
                        p: (None if p in absentees else raw[12 * index + 3 * g + i] * 7 + i)
                        for i, p in enumerate(players)
                    },
                )
                for g in range(4)
            )
            groups.append(MatchFacts(players=tuple(players), games=games))
        meets.append(_meet(number, *groups))

    result = fold_season(_season(*meets))

    for standing in result.players.values():
        assert standing.league_points == sum(n.league_points for n in standing.nights)
        assert standing.forfeits == sum(n.forfeits for n in standing.nights)


def test_open_meet_is_provisional_no_credit_no_partial_bonus():
    """R3.3-b: match bonus only after all four games; R2.4-d: the credit only for a night that
    is over. While meet 2 is open, b's forfeits so far earn nothing and a 2-game match has no
    match bonus yet."""
    meet1 = _meet(1, _match("abc"), _match("def"))
    order = fold_season(_season(meet1)).ladder
    first_two = _match(order[:3], forfeit={"b"})
    partial = MatchFacts(players=first_two.players, games=first_two.games[:2])
    meet2 = MeetFacts(number=2, groups=(partial, _match(order[3:])), closed=False)

    result = fold_season(_season(meet1, meet2))

    b_night, a_night = result.players["b"].nights[1], result.players["a"].nights[1]
    assert (b_night.status, b_night.credit, b_night.forfeits) == ("in_progress", 0, 2)
    # Group a d b without b: a 9000 vs d 3000; 9000 > 3 x 3000? no: bonus to d, a keeps 7.
    assert (a_night.game_points, a_night.match_bonus) == ((7, 7), 0)


def test_meet_with_no_game_yet_scores_nothing():
    """R3.3-b: a group that has not played a game has no fifth game either."""
    meet1 = MeetFacts(
        number=1,
        groups=(MatchFacts(tuple("abc"), ()), MatchFacts(tuple("def"), ())),
        closed=False,
    )

    result = fold_season(_season(meet1))

    assert {p: s.league_points for p, s in result.players.items()} == dict.fromkeys("abcdef", 0)


def test_penalty_forfeit_never_earns_the_all_night_credit():
    """R2.4-d, R8.5-c, A26: b played game 1 and forfeited the rest; his penalty forfeits game 1
    too, but a night he played is not an all-night forfeit, so no 50% credit."""
    meet1 = _meet(1, _match("abc"), _match("def"))
    order = fold_season(_season(meet1)).ladder  # a d b e c f
    group = _match(order[:3])
    games = tuple(
        replace(g, scores={**g.scores, "b": None}) if n else g for n, g in enumerate(group.games)
    )
    violation = ViolationFacts(Violation("b", "interference"), games_completed=1)
    meet2 = _meet(2, MatchFacts(group.players, games), _match(order[3:]), violations=(violation,))

    night = fold_season(_season(meet1, meet2)).players["b"].nights[1]

    assert (night.status, night.credit, night.game_points) == ("played", 0, (0, 0, 0, 0))


def test_two_offenses_at_one_meet_forfeit_two_games():
    """R8.5-b, R8.5-c: a first and a second offense each forfeit their game."""
    result = _violation_season(
        (_v("interference", current_game=1), _v("interference", current_game=3))
    )

    a = result.players["a"]
    assert result.meets[0].penalties == {"a": (1, 3)}
    assert (a.nights[0].game_points, a.countable_forfeits) == ((0, 8, 0, 8), 2)


def test_third_offense_rescore_others_keeps_the_ladders_as_played():
    """A36 alternative with A45.3: re-scoring after a meet-2 suspension keeps the groups that
    were drawn (no 'recorded groups differ' error) and re-scores meet 1 without him."""
    ruleset = Ruleset(third_offense_rescore_others=True)
    result = _violation_season((), (_v("violence"),), ruleset=ruleset)

    assert result.players["a"].suspended_at == 2
    # Meet 1 group a b c re-scored without a: b beats c (3000 > 3 x 2000? no: bonus to c).
    assert result.players["b"].nights[0].game_points == (7, 7, 7, 7)


def test_late_join_forfeits_use_credit_alternative():
    """A14.5 alternative: a night before joining uses up his one credit."""
    entrants = (*ENTRANTS, Entrant("g", "G", "Player", None))
    ruleset = Ruleset(late_join_forfeits_use_credit=True)
    season = _season(_meet(1, _match("abc"), _match("def")), entrants=entrants, joined_at={"g": 2})

    assert fold_season(season, ruleset=ruleset).players["g"].credit_used_at == 1
    assert fold_season(season).players["g"].credit_used_at is None


def test_violation_in_unrecorded_game_of_open_meet_waits_for_the_game():
    """R8.5-c: at an open meet, a penalty on the game in progress (not yet recorded) counts the
    offense now and forfeits the game once its scores are in."""
    two_games = _match("abc")
    partial = MatchFacts(players=two_games.players, games=two_games.games[:2])
    violation = _v("interference", current_game=3)
    meet = MeetFacts(
        number=1, groups=(partial, _match("def")), violations=(violation,), closed=False
    )

    result = fold_season(_season(meet))

    assert (result.players["a"].offenses, result.meets[0].penalties) == (1, {})
    assert result.players["a"].nights[0].game_points == (8, 8)


def test_violation_in_missing_game_of_closed_meet_is_refused():
    partial = MatchFacts(players=tuple("abc"), games=_match("abc").games[:2])
    meet = MeetFacts(
        number=1, groups=(partial, _match("def")), violations=(_v("interference", current_game=3),)
    )

    with pytest.raises(RuleError, match="game 3 is not in a match of 2 games"):
        fold_season(_season(meet))
