"""The playoff race while a meet is being played (issue 33 §1): "clinched" and "eliminated" are
certain under the provisional facts, whatever the games still to play give (§6.1 playoff
eligibility, R6.1-d, R6.1-e, R6.2-a, R3.3-b, A05)."""

import math
from dataclasses import replace
from fractions import Fraction
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flipwell.rules import (
    FWPL_V1,
    Entrant,
    MeetFacts,
    RuleError,
    Ruleset,
    SeasonFacts,
    fold_season,
    next_groups,
)
from flipwell.rules import race as race_module
from flipwell.rules.match import GameFacts, MatchFacts
from flipwell.rules.playoffs import playoff_qualifier_count
from flipwell.rules.race import (
    MAX_MEET_POINTS,
    RaceChance,
    playoff_eligible,
    race_of,
    season_race,
)

# --- An ending of the season, and whether it contradicts a verdict ---------------------------


def contradictions(race, totals, eligible, ruleset, *, field_size):
    """The verdicts of `race` that one ending contradicts (R6.1-d, R6.1-e, R6.2-a, §1).

    totals: every player's final league points; eligible: the players eligible at the end.
    An ending under six eligible players has no playoff line (the LO decides the format, §1,
    A03): it contradicts any verdict but the elimination of a player who is not eligible.
    """
    size = len(eligible) if ruleset.playoff_league_size == "eligible_players" else field_size
    try:
        q = min(playoff_qualifier_count(size, ruleset=ruleset), len(eligible))
    except RuleError:
        q = None
    wrong = []
    for standing in race.standings:
        player, status = standing.player, standing.status
        if status == "alive" or (status == "eliminated" and player not in eligible):
            continue
        if q is None:
            wrong.append((player, status, "no playoff line"))
            continue
        mine = totals[player]
        rivals = [totals[p] for p in eligible if p != player]
        if status == "clinched" and (
            player not in eligible or sum(1 for v in rivals if v >= mine) >= q
        ):
            wrong.append((player, status, mine, sorted(rivals, reverse=True), q))
        if status == "eliminated" and sum(1 for v in rivals if v > mine) < q:
            wrong.append((player, status, mine, sorted(rivals, reverse=True), q))
    return wrong


# --- The race's own arithmetic, on any field -------------------------------------------------

rulesets = st.sampled_from(
    [
        FWPL_V1,
        Ruleset(playoff_small_league="top_four_final"),
        Ruleset(playoff_cut_rule="sentence_round_down"),
        Ruleset(playoff_league_size="all_entrants"),
    ]
)


@st.composite
def fields(draw):
    """Eligible players, pending ones (no game yet, one to play) and barred ones, each with
    his points now and the most he may still earn."""
    points = st.integers(0, 200).map(Fraction)
    still = st.sampled_from([0, 1, 9, 17, 33, 66, 99]).map(Fraction)
    kinds = st.lists(st.sampled_from(["eligible", "pending", "barred"]), min_size=1, max_size=20)
    chances = []
    for i, kind in enumerate(draw(kinds)):
        chances.append(
            RaceChance(
                f"p{i:02}",
                draw(points) if kind == "eligible" else Fraction(0),
                draw(still),
                kind == "eligible",
                kind == "pending",
            )
        )
    return chances, draw(rulesets)


def endings(race, chances, rng):
    """A random ending and, for each verdict, the ending that tests it hardest."""
    low = {c.player: c.points for c in chances}
    high = {c.player: c.points + c.still_to_earn for c in chances}
    sure = {c.player for c in chances if c.eligible}
    pending = [c.player for c in chances if c.may_become_eligible and not c.eligible]
    share = {p: Fraction(rng.randint(0, 4), 4) for p in low}
    yield (
        {p: low[p] + share[p] * (high[p] - low[p]) for p in low},
        sure | {p for p in pending if rng.random() < 0.5},
    )
    for standing in race.standings:
        him = standing.player
        others = [p for p in pending if p != him]
        for joined in range(len(others) + 1):
            if standing.status == "clinched":  # he earns nothing, the strongest rivals join
                totals = {p: high[p] for p in high} | {him: low[him]}
                best_first = sorted(others, key=lambda p: -high[p])
                yield totals, sure | set(best_first[:joined])
            if standing.status == "eliminated":  # he earns all, the weakest rivals join
                totals = {p: low[p] for p in low} | {him: high[him]}
                weakest = sorted(others, key=lambda p: low[p])
                yield totals, sure | set(weakest[:joined]) | {him}


@given(fields(), st.randoms(use_true_random=False))
def test_race_of_verdicts_hold_in_every_ending(case, rng):
    """§6.1 playoff eligibility, R6.1-d, R6.1-e, R6.2-a: no ending of the season contradicts
    a "clinched" or an "eliminated", pending players joining the field or not (A05)."""
    chances, ruleset = case
    try:
        race = race_of(chances, meets_left=1, ruleset=ruleset)
    except RuleError:
        return  # no ending has six eligible players (§1): no race
    for totals, eligible in endings(race, chances, rng):
        assert contradictions(race, totals, eligible, ruleset, field_size=len(chances)) == []


@given(fields())
def test_race_of_never_clinches_a_pending_player(case):
    """A05: a player with no game played may play none, so he has clinched nothing yet."""
    chances, ruleset = case
    try:
        race = race_of(chances, meets_left=1, ruleset=ruleset)
    except RuleError:
        return
    pending = {c.player for c in chances if not c.eligible and c.may_become_eligible}

    assert [
        s.player for s in race.standings if s.player in pending and s.status == "clinched"
    ] == []
    assert {s.player for s in race.standings if not s.eligible} == pending


# --- A season folded meet by meet, stopped during a meet, and every way it may end -----------


def entrants(count):
    return tuple(Entrant(f"p{i:02}", f"P{i}", "Player", i) for i in range(1, count + 1))


def game(number, players, order, no_shows=()):
    """One game: players score by `order` (first is best); no-shows forfeit (§2.4)."""
    rank = {p: i for i, p in enumerate(order)}
    return GameFacts(
        machine=f"M{number}",
        scores={p: None if p in no_shows else 1000 * (len(order) - rank[p]) for p in players},
    )


def play_meet(facts, number, *, absent, orders, no_shows=frozenset(), games=None, closed=True):
    """Meet `number` with the ladder's groups (R4.2-b) and `games[i]` games of group i played
    in `orders(group, game)` order (all four by default)."""
    result = fold_season(facts)
    present = [p for p in result.ladder if p not in absent]
    groups, override = groups_of(result, absent)
    assert sorted(p for g in groups for p in g) == sorted(present)
    matches = []
    for i, group in enumerate(groups):
        count = 4 if games is None else games[i]
        played = tuple(
            game(n, group, orders(group, n), [p for p in group if p in no_shows])
            for n in range(1, count + 1)
        )
        matches.append(MatchFacts(players=tuple(group), games=played))
    absences = frozenset(p for p in absent if p in result.ladder)
    meet = MeetFacts(
        number, tuple(matches), announced_absences=absences, closed=closed, group_override=override
    )
    return replace(facts, meets=(*facts.meets, meet))


def groups_of(result, absent):
    """The ladder's groups (R4.2-b); an LO's fours and a smaller last group where the rules
    cannot split the players present (R4.1-d)."""
    absent = [p for p in absent if p in result.ladder]
    try:
        return next_groups(result, announced_absences=absent), None
    except RuleError:
        present = [p for p in result.ladder if p not in absent]
        return [present[i : i + 4] for i in range(0, len(present), 4)], "too few for threes"


@st.composite
def open_meets(draw):
    """A season of 2..5 meets stopped during meet k + 1 (k closed): some groups finished, some
    still playing. *Ghosts* missed every closed meet (announced absences): at the open meet
    some are in a group (with no game played yet, or forfeiting so far), some absent again."""
    count = draw(st.integers(6, 12))
    meets = draw(st.integers(2, 5))
    closed = draw(st.integers(0, meets - 1))
    players = [e.player for e in entrants(count)]
    ghosts = set(draw(st.lists(st.sampled_from(players), max_size=4, unique=True)))
    orders_rng = Random(draw(st.integers(0, 2**16)))

    def shuffled(group, _number):
        order = list(group)
        orders_rng.shuffle(order)
        return order

    facts = SeasonFacts(entrants=entrants(count), meets=())
    for number in range(1, closed + 1):
        facts = play_meet(facts, number, absent=ghosts, orders=shuffled)
    away = set(draw(st.lists(st.sampled_from(sorted(ghosts) or players), max_size=2)))
    away &= ghosts
    groups, _override = groups_of(fold_season(facts), away)
    games = [draw(st.integers(0, 4)) for _ in groups]
    no_shows = ghosts - away if draw(st.booleans()) else frozenset()
    facts = play_meet(
        facts,
        closed + 1,
        absent=away,
        orders=shuffled,
        no_shows=no_shows,
        games=games,
        closed=False,
    )
    return facts, meets, ghosts, away


def finish(facts, meets, *, orders, no_shows, away):
    """Every way the season may end: the open meet's games left played in `orders` order, the
    meet closed, then every meet left; `no_shows` keep forfeiting tonight and stay away
    after, `away` (absent tonight) too."""
    open_meet = facts.meets[-1]
    matches = []
    for match in open_meet.groups:
        played = list(match.games)
        for n in range(len(played) + 1, 5):
            no_show = [p for p in match.players if p in no_shows]
            played.append(game(n, match.players, orders(match.players, n), no_show))
        matches.append(MatchFacts(players=match.players, games=tuple(played)))
    done = replace(open_meet, groups=tuple(matches), closed=True)
    facts = replace(facts, meets=(*facts.meets[:-1], done))
    for number in range(done.number + 1, meets + 1):
        facts = play_meet(facts, number, absent=no_shows | away, orders=orders)
    return fold_season(facts)


def fixed_order(first=(), last=(), *, seed):
    """Game orders: `first` wins every game, `last` loses every game, the rest shuffled."""
    rng = Random(seed)

    def orders(group, _number):
        middle = [p for p in group if p not in first and p not in last]
        rng.shuffle(middle)
        return [*[p for p in first if p in group], *middle, *[p for p in last if p in group]]

    return orders


@settings(max_examples=60)
@given(open_meets(), st.integers(0, 2**16), st.data())
def test_season_race_verdicts_hold_however_the_open_meet_and_the_season_end(case, seed, data):
    """§6.1 playoff eligibility (A05), R6.1-d, R6.1-e, R6.2-a, R3.3-b: during a meet, no
    player is clinched or eliminated if some completion of the meet being played (its groups'
    games left going any way) and of the meets left contradicts it; a player whose group still
    plays tonight is never out of the race for not having played yet."""
    facts, meets, ghosts, away = case
    result = fold_season(facts)
    try:
        race = season_race(facts, result, number_of_meets=meets)
    except RuleError:
        return  # never six eligible players (§1): no race
    tonight = {p for m in facts.meets[-1].groups if len(m.games) < 4 for p in m.players}
    for player in tonight:
        if result.players[player].active:
            assert race.find(player) is not None

    claimed = [s.player for s in race.standings if s.status != "alive"]
    checked = (
        data.draw(st.lists(st.sampled_from(claimed), max_size=3, unique=True)) if claimed else []
    )
    plays = data.draw(st.sets(st.sampled_from(sorted(ghosts)))) if ghosts else set()
    ways = [fixed_order(seed=seed)]
    for player in checked:
        if race.status(player) == "clinched":
            ways.append(fixed_order(last=[player], seed=seed))
        else:
            ways.append(fixed_order(first=[player], seed=seed))
    for orders in ways:
        # A pending ghost may play no game at all; a player with a game played keeps playing
        # (a season forfeit is a change of the field the race does not foresee, module words).
        pending = {g for g in ghosts - away - plays if result.players[g].games_played == 0}
        for no_shows in (frozenset(pending), frozenset()):
            final = finish(facts, meets, orders=orders, no_shows=no_shows, away=away)
            totals = {p: s.league_points for p, s in final.players.items()}
            eligible = {s.player for s in final.standings() if playoff_eligible(s)}
            shown = len(final.standings())
            assert contradictions(race, totals, eligible, FWPL_V1, field_size=shown) == []


# --- The night ---------------------------------------------------------------------


def test_season_race_meet_one_with_a_group_still_playing_clinches_nobody():
    """issue 33 §1: meet 1 of 6, ten players, groups 1 and 2 finished, group 3 one game in.
    The seven who finished were all "clinched" (q = 7 of 7 eligible) and group 3 "not
    eligible"; with ten eligible at the end q is 8 and five meets are left (R6.1-d, A05)."""
    players = [e.player for e in entrants(10)]

    def ladder_order(group, _number):
        return list(group)

    facts = play_meet(
        SeasonFacts(entrants=entrants(10), meets=()),
        1,
        absent=set(),
        orders=ladder_order,
        games=[4, 4, 1],
        closed=False,
    )
    result = fold_season(facts)

    race = season_race(facts, result, number_of_meets=6)

    assert {s.status for s in race.standings} == {"alive"}
    assert [s.player for s in race.standings if not s.eligible] == []
    assert sorted(s.player for s in race.standings) == players


def test_season_race_last_meet_a_finished_group_is_final():
    """R3.3-b: once his match is finished a player's night is final, so with no meet after
    tonight the race is decided for him by the groups still playing."""
    facts = SeasonFacts(entrants=entrants(8), meets=())

    def ladder_order(group, _number):
        return list(group)

    facts = play_meet(facts, 1, absent=set(), orders=ladder_order)
    facts = play_meet(facts, 2, absent=set(), orders=ladder_order, games=[4, 2], closed=False)
    result = fold_season(facts)

    race = season_race(facts, result, number_of_meets=2)

    # Eight eligible players: all eight qualify (§6.1 table), whatever tonight gives.
    assert {s.status for s in race.standings} == {"clinched"}
    finished = result.meets[1].matches[0].players
    assert {s.best_possible - s.points for s in race.standings if s.player in finished} == {0}


@pytest.mark.parametrize("games", [0, 1, 3])
def test_season_race_unfinished_match_may_still_give_its_games_and_match_bonus(games):
    """R3.2, R3.3-b: a player of an unfinished match may still earn 8 a game left and the
    match bonus point; one with no score tonight up to the meet maximum (§2.4 credit)."""
    facts = play_meet(
        SeasonFacts(entrants=entrants(8), meets=()),
        1,
        absent=set(),
        orders=lambda group, _n: list(group),
        games=[4, games],
        closed=False,
    )
    result = fold_season(facts)

    race = season_race(facts, result, number_of_meets=1)

    group_two = fold_season(facts).meets[0].matches[1].players
    still = {s.player: s.best_possible - s.points for s in race.standings}
    expected = (4 - games) * 8 + 1 if games else MAX_MEET_POINTS
    assert {still[p] for p in group_two} == {Fraction(expected)}


def test_race_of_field_that_may_end_under_six_claims_nothing():
    """§1: five eligible players and two who may play: an ending with five has no playoff
    line, so nobody is clinched or eliminated yet."""
    chances = [RaceChance(f"e{i}", Fraction(100 - i), Fraction(0), True) for i in range(5)]
    chances += [RaceChance(f"n{i}", Fraction(0), Fraction(33), False, True) for i in range(2)]

    race = race_of(chances, meets_left=1)

    assert {s.status for s in race.standings} == {"alive"}
    assert race.qualifiers == 6


def test_race_of_pending_player_out_of_reach_is_eliminated():
    """R6.1-d, A05: eight eligible players above 33 and one who may play the last meet for at
    most 33: if he plays, nine are eligible and q is 8 (§6.1 table), all above him."""
    chances = [RaceChance(f"e{i}", Fraction(100 + i), Fraction(0), True) for i in range(8)]
    chances.append(RaceChance("late", Fraction(0), Fraction(33), False, True))

    race = race_of(chances, meets_left=1)

    assert race.find("late") == race.standing("late")
    assert (race.status("late"), race.standing("late").eligible) == ("eliminated", False)
    assert {s.status for s in race.standings if s.eligible} == {"clinched"}


# --- The race's arithmetic against the plain reading it was sped up from ---------------------


def plain_standing(him, ranked, lines, pending):
    """A player's standing as `race._standing` read before it sorted the field once
    (every rival's best possible summed and sorted again for each player)."""
    points, best = him.points, him.points + him.still_to_earn
    joins = 0 if him.eligible else 1
    sure = [c for c in ranked if c.eligible and c.player != him.player]
    maybe = [c for c in pending if c.player != him.player]
    sure_best = sorted((c.points + c.still_to_earn for c in sure), reverse=True)
    maybe_best = sorted((c.points + c.still_to_earn for c in maybe), reverse=True)
    above = sum(1 for c in sure if c.points > best)
    maybe_above = sum(1 for c in maybe if c.points > best)
    certain, eliminated, most_joined = True, True, {}
    for joined in range(len(maybe) + 1):
        q = lines[joins + joined]
        if q is None:
            certain = False
            continue
        most_joined[q] = joined
        if above + max(0, joined - (len(maybe) - maybe_above)) < q:
            eliminated = False
    clinch_line = max(
        (race_module._qth(sure_best, maybe_best[:joined], q) for q, joined in most_joined.items()),
        key=lambda line: Fraction(-1) if line is None else line,
        default=None,
    )
    reached = clinch_line is None or points > clinch_line
    if certain and him.eligible and reached:
        return ("clinched", clinch_line, 0)
    if certain and eliminated:
        return ("eliminated", clinch_line, None)
    needed = None if clinch_line is None or reached else math.floor(clinch_line - points) + 1
    return ("alive", clinch_line, needed)


@st.composite
def fractional_fields(draw):
    """`fields` with points in halves and thirds (the §2.4 credit, a penalty), ties likely."""
    chances, ruleset = draw(fields())
    part = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(2, 3)])
    return [replace(c, points=c.points + draw(part)) if c.eligible else c for c in chances], ruleset


@settings(max_examples=300)
@given(fractional_fields())
def test_race_of_agrees_with_the_plain_reading_for_every_player(case):
    """§6.1, R6.1-d, R6.1-e: sorting the field once per race (a third of a 48-player standings
    page's render before) changes no player's status, clinch line or points to clinch."""
    chances, ruleset = case
    try:
        race = race_of(chances, meets_left=1, ruleset=ruleset)
    except RuleError:
        return
    eligible = [c for c in chances if c.eligible]
    pending = [c for c in chances if not c.eligible and c.may_become_eligible]
    lines = []
    for joined in range(len(pending) + 1):
        count = len(eligible) + joined
        size = count if ruleset.playoff_league_size == "eligible_players" else len(chances)
        try:
            lines.append(min(playoff_qualifier_count(size, ruleset=ruleset), count))
        except RuleError:
            lines.append(None)
    ranked = sorted([*eligible, *pending], key=lambda c: -c.points)
    by_player = {c.player: c for c in ranked}

    for standing in race.standings:
        found = (standing.status, standing.clinch_line, standing.points_to_clinch)
        plain = plain_standing(by_player[standing.player], ranked, lines, pending)
        assert (standing.player, found) == (standing.player, plain)
