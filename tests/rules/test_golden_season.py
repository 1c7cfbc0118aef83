"""The golden season (tests/data/golden_season.json): 22 players, 10 meets, every special case.

The standings are checked line by line against the file; the special cases are checked again
from the raw facts with the arithmetic written out, so a regression in the fold cannot hide
behind a regenerated file.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from flipwell.rules import Finish, game_points, match_bonus_points, reduced_score
from flipwell.rules.season import fold_season
from flipwell.rules.season_ladder import next_groups
from flipwell.seasonfile import load_season

GOLDEN = Path(__file__).parents[1] / "data" / "golden_season.json"
RAW = json.loads(GOLDEN.read_text())
_, FACTS = load_season(GOLDEN)
RESULT = fold_season(FACTS)


def _group(meet: int, player: str) -> dict:
    return next(g for g in RAW["meets"][meet - 1]["groups"] if player in g["players"])


def _night(player: str, meet: int):
    return next(n for n in RESULT.players[player].nights if n.meet == meet)


@pytest.mark.parametrize("expected", RAW["expected_standings"], ids=lambda e: e["player"])
def test_golden_standings_line_by_line(expected):
    """R3.3-a, R2.4-d, R2.5-a, R4.3-c: every standings line as recorded in the file."""
    standings = RESULT.standings()
    line = standings[expected["rank"] - 1]

    assert {
        "rank": expected["rank"],
        "player": line.player,
        "league_points": str(line.league_points),
        "games_played": line.games_played,
        "forfeits": line.forfeits,
        "countable_forfeits": line.countable_forfeits,
        "offenses": line.offenses,
        "credit_used_at": line.credit_used_at,
        "season_forfeited_at": line.season_forfeited_at,
    } == expected


def test_golden_every_meet_groups_match_the_ladder():
    """R4.2-a, R4.2-b, R3.1-d: recorded groups are the ladder cut by the §4.1 table."""
    for meet in RESULT.meets:
        recorded = tuple(tuple(g["players"]) for g in RAW["meets"][meet.number - 1]["groups"])
        assert recorded == meet.expected_groups


def test_golden_week_one_ladder_is_ifpa_then_alphabetical():
    """R4.3-a, R4.3-b: ranked by IFPA, then unranked by last name (Abbott, de Wit, ...)."""
    ladder = RESULT.meets[0].ladder
    ranked = ["bea", "cal", "dee", "eli", "fay", "gus", "hal", "ivy", "jon", "kim", "mia"]
    assert list(ladder[:11]) == ranked
    # Unranked by casefolded last name: abbott, de wit, ueda, vance, young, zane.
    assert list(ladder[15:]) == ["wes", "tia", "rae", "sam", "uma", "vic"]


def test_golden_announced_absence_credit_is_half_of_first_night():
    """R2.4-d, A14: Mia's meet-2 credit is 50% of her only earlier night."""
    assert _night("mia", 2).credit == _night("mia", 1).league_points / 2
    assert _night("mia", 9).credit == 0  # R2.4-e: her second all-night forfeit earns nothing


def test_golden_unannounced_absence_keeps_slot():
    """R3.1-e, R2.4-a: Ned sits in his meet-3 group, forfeits 4 games, earns the credit."""
    ned = _night("ned", 3)
    average = (_night("ned", 1).league_points + _night("ned", 2).league_points) / 2
    assert (ned.status, ned.forfeits, ned.credit) == ("absent_unannounced", 4, average / 2)


def test_golden_tie_uses_recorded_playoff_order():
    """R3.2-i, A15: the tied pair of meet 3 is ordered by the recorded one-ball playoff."""
    game = RAW["meets"][2]["groups"][0]["games"][1]
    ((b, a),) = game["tie_order"]
    points = game_points(game["scores"], tie_order=game["tie_order"])
    assert game["scores"][a] == game["scores"][b]
    assert points[b] > points[a]


def test_golden_late_entrant_forfeits_are_not_countable():
    """R2.4-f, R2.4-g: Zoe joined at meet 4: 12 forfeits, none countable, no credit."""
    zoe = RESULT.players["zoe"]
    assert (zoe.forfeits, zoe.countable_forfeits, zoe.season_forfeited_at) == (12, 0, None)
    assert [n.status for n in zoe.nights[:3]] == ["not_joined"] * 3
    assert "zoe" not in RESULT.meets[2].ladder
    assert "zoe" in RESULT.meets[3].ladder


def test_golden_tardy_player_forfeits_first_game():
    """R2.3-a, R2.4-a: Omar arrived after game 1 of meet 5 began."""
    omar = _night("omar", 5)
    assert (omar.game_points[0], omar.forfeits, omar.games_played) == (0, 1, 3)


def test_golden_compensatory_game_adds_to_original():
    """R7.3-k, R7.3-m: Bea's game 3 of meet 5 is 212,340 + 1,080,500 = 1,292,840."""
    meet = RESULT.meets[4]
    match = next(m for m in meet.matches if "bea" in m.players)
    assert match.games[2].final_scores["bea"] == 1_292_840


def test_golden_reduction_is_a_quarter_off():
    """R8.1-b, A35: Cal's meet-6 game 4 score is reduced by 25%, rounded down."""
    shown = _group(6, "cal")["games"][3]["scores"]["cal"]
    match = next(m for m in RESULT.meets[5].matches if "cal" in m.players)
    assert match.games[3].final_scores["cal"] == reduced_score(shown) == shown * 3 // 4


def test_golden_deathsave_scores_zero_and_ranks_last():
    """R8.7-a, A13: Dee's meet-6 game 2 counts as a zero score, ranked last."""
    match = next(m for m in RESULT.meets[5].matches if "dee" in m.players)
    game = match.games[1]
    assert game.final_scores["dee"] == 0
    assert game.result.order[-1] == "dee"


def test_golden_first_offense_forfeits_current_game():
    """R8.5-c, A26: Eli's interference during game 3 of meet 7 forfeits game 3; the others
    are scored on the 3-player scale (13 points)."""
    match = next(m for m in RESULT.meets[6].matches if "eli" in m.players)
    assert RESULT.meets[6].penalties == {"eli": (3,)}
    assert match.games[2].result.points["eli"] == 0
    assert sum(match.games[2].result.points.values()) == 13


def test_golden_second_offense_between_games_hits_best_game():
    """R8.5-b, R8.5-d: Eli's second offense, after game 2 of meet 8, hits his better game."""
    group = _group(8, "eli")
    points = [
        game_points(g["scores"], tie_order=g.get("tie_order", ()))["eli"]
        for g in group["games"][:2]
    ]
    target = 2 if points[1] >= points[0] else 1
    assert RESULT.meets[7].penalties == {"eli": (target,)}
    assert RESULT.players["eli"].offenses == 2


def test_golden_three_absences_forfeit_the_season():
    """R2.5-a, R2.5-b, A37: Gus's absences at meets 6-8 make 12 countable forfeits."""
    gus = RESULT.players["gus"]
    average = Fraction(sum(_night("gus", m).league_points for m in range(1, 6)), 5)
    assert (gus.countable_forfeits, gus.season_forfeited_at) == (12, 8)
    assert _night("gus", 6).credit == average / 2
    assert (
        gus.league_points == sum(_night("gus", m).league_points for m in range(1, 6)) + average / 2
    )
    assert "gus" not in RESULT.meets[8].ladder


def test_golden_zero_zero_tie_needs_recorded_order():
    """A15: two deathsaves tie at zero; the recorded order decides."""
    group = RAW["meets"][8]["groups"][-1]
    ((y, x),) = group["games"][0]["tie_order"]
    match = RESULT.meets[8].matches[-1]
    order = match.games[0].result.order
    assert order.index(y) < order.index(x)
    assert match.games[0].final_scores[x] == match.games[0].final_scores[y] == 0


def test_golden_next_groups_come_from_final_ladder():
    """R3.1-a, R4.1-b: 21 active players (Gus out) make 4 4 4 3 3 3."""
    groups = next_groups(RESULT)
    assert [len(g) for g in groups] == [4, 4, 4, 3, 3, 3]
    assert Fraction(RESULT.players["ned"].league_points).denominator == 2


def _final_score(game: dict, player: str) -> int | None:
    """§7.3 addition, §8.1 reduction and §8.2/§8.7 zero, applied by hand from the raw file."""
    score = game["scores"][player]
    if score is None:
        return None
    comp = game.get("compensatory", {}).get(player)
    if comp:
        score += comp["new"] - comp.get("leading_subtracted", 0) - comp.get("state_subtracted", 0)
    if player in game.get("reduced", ()):
        score = score * 3 // 4
    if player in game.get("zeroed", {}):
        score = 0
    return score


def test_golden_plain_players_match_an_independent_oracle():
    """R3.2-a..h, R3.3-a..g: for every player with no credit, late entry or penalty in his
    groups, season points = Σ game_points + Σ match_bonus_points over the raw file, computed
    here without fold_season."""
    special = {"mia", "ned", "gus", "zoe", "eli"}
    penalized_groups = {(m["number"], v["player"]) for m in RAW["meets"] for v in m["violations"]}
    oracle: dict[str, int] = {}
    for meet in RAW["meets"]:
        for group in meet["groups"]:
            if any((meet["number"], p) in penalized_groups for p in group["players"]):
                special.update(group["players"])  # a penalty re-scores the whole group
            finishes: dict[str, list[Finish | None]] = {p: [] for p in group["players"]}
            for game in group["games"]:
                scores = {p: _final_score(game, p) for p in group["players"]}
                points = game_points(scores, tie_order=game.get("tie_order", ()))
                tie_rank = {q: i for o in game.get("tie_order", ()) for i, q in enumerate(o)}
                present = [p for p in group["players"] if scores[p] is not None]
                ranked = sorted(present, key=lambda p: (-scores[p], tie_rank.get(p, 0)))
                for p in group["players"]:
                    finishes[p].append(
                        None if scores[p] is None else Finish(points[p], ranked.index(p) + 1)
                    )
                    oracle[p] = oracle.get(p, 0) + points[p]
            bonus = match_bonus_points(finishes, ladder_order=group["players"])
            for p, amount in bonus.items():
                oracle[p] += amount

    folded = {s.player: s.league_points for s in RESULT.standings()}
    plain = sorted(set(folded) - special)
    assert len(plain) >= 12
    assert {p: Fraction(oracle[p]) for p in plain} == {p: folded[p] for p in plain}
