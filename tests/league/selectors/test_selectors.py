"""Selectors: standings and race, next ladder, a player's history, the maintenance sheet."""

import datetime
import random
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.selectors.machines import maintenance_sheet
from flipwell.league.selectors.standings import (
    ladder,
    player_history,
    standings,
    start_proposal,
)
from flipwell.league.services.season_files import import_season_file
from flipwell.rules import group_sizes
from flipwell.rules.grouping import split_into_groups
from flipwell.rules.season import fold_season
from flipwell.seasonfile import season_from_dict
from tests import factories as f
from tests.golden import golden_data
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db

GOLDEN = golden_data()


def _import(official, data, name="Winter 2026"):
    return import_season_file(
        league=official.league,
        name=name,
        data=data,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )


def generated_season(players, meets, seed=48):
    """A season file like bench/bench_rules.py's: groups from each ladder, seeded scores."""
    rng = random.Random(seed)
    entrants = [
        {"player": f"p{i:02d}", "first_name": f"P{i}", "last_name": "Player", "ifpa_rank": i + 1}
        for i in range(players)
    ]
    skill = {e["player"]: rng.uniform(1, 10) for e in entrants}
    data = {"entrants": entrants, "meets": [], "number_of_meets": 10}
    for number in range(1, meets + 1):
        order = (
            fold_season(season_from_dict(data)).ladder
            if data["meets"]
            else [e["player"] for e in entrants]
        )
        groups = split_into_groups(list(order), group_sizes(len(order)))
        data["meets"].append(
            {
                "number": number,
                "groups": [
                    {
                        "players": g,
                        "games": [
                            {
                                "machine": f"M{k}",
                                "scores": {
                                    p: int(skill[p] * 1e5 * rng.lognormvariate(0, 0.7)) * 10 + j
                                    for j, p in enumerate(g)
                                },
                            }
                            for k in range(4)
                        ],
                    }
                    for g in groups
                ],
            }
        )
    return data


def test_standings_query_count_is_the_same_at_8_and_48_players(official):
    small = _import(official, generated_season(8, 2), name="Small")
    large = _import(official, generated_season(48, 2), name="Large")

    with CaptureQueriesContext(connection) as few:
        small_table = standings(small)
    with CaptureQueriesContext(connection) as many:
        large_table = standings(large)

    assert len(few) == len(many)
    assert (len(small_table.lines), len(large_table.lines)) == (8, 48)


def test_golden_standings_lines(official):
    """R3.3-a, A14, A37: exact points, forfeits, the season forfeit kept in the table."""
    table = standings(_import(official, GOLDEN))

    first, ned, gus = table.lines[0], table.lines[10], table.lines[21]
    assert (first.rank, first.player.name, first.league_points) == (1, "Cal Brooks", 214)
    assert (ned.player.name, ned.league_points) == ("Ned Park", Fraction(359, 2))
    assert (gus.player.name, gus.season_forfeited_at, gus.eligible) == ("Gus Hale", 8, False)
    assert gus.race_status is None
    assert first.points_after_meet[-1] == first.league_points
    assert len(first.points_after_meet) == 10


def test_golden_playoff_line_and_race_after_the_last_meet(official):
    """A05: 21 eligible players, 12 qualify (A01); with no meets left the race is decided
    except at the line, where only strictly more points clinch (R6.1-e)."""
    table = standings(_import(official, GOLDEN))

    assert (table.meets_left, table.playoff_qualifiers) == (0, 12)
    assert [line.player.name.split()[0] for line in table.above_line()][-1] == "Rae"
    by_name = {line.player.name.split()[0]: line for line in table.lines}
    assert (by_name["Cal"].race_status, by_name["Cal"].points_to_clinch) == ("clinched", 0)
    assert by_name["Rae"].race_status == "clinched"
    assert by_name["Kim"].race_status == "eliminated"


def test_race_with_meets_left_keeps_players_alive(official):
    """§6.1 race: with 7 meets left nobody below the top can be eliminated yet."""
    season = _import(official, {**GOLDEN, "meets": GOLDEN["meets"][:3], "number_of_meets": 10})

    table = standings(season)

    assert table.meets_left == 7
    assert {line.race_status for line in table.lines if line.eligible} == {"alive"}
    assert all(line.points_to_clinch > 0 for line in table.lines if line.eligible)


def test_ladder_for_the_next_meet_leaves_out_announced_absentees(official):
    """R3.1-d, R4.2-b: 21 players on the ladder; Cal announced absent, 20 make 5 groups of 4."""
    season = _import(official, {**GOLDEN, "number_of_meets": 11})
    meet = f.MeetFactory(season=season, number=11)
    cal = m.Player.objects.get(first_name="Cal")
    f.AnnouncedAbsenceFactory(meet=meet, player=cal)

    next_meet = ladder(season)

    assert next_meet.meet_number == 11
    assert [line.player.name for line in next_meet.ladder[:2]] == ["Cal Brooks", "Fay Evans"]
    assert len(next_meet.ladder) == 21  # Gus forfeited the season (R2.5-b)
    assert [p.name for p in next_meet.announced_absent] == ["Cal Brooks"]
    assert [len(g) for g in next_meet.groups] == [4, 4, 4, 4, 4]
    assert next_meet.groups[0][0].player.name == "Fay Evans"
    assert next_meet.problem == ""


def test_player_history_explains_every_point(official):
    season = _import(official, GOLDEN)
    cal = m.Player.objects.get(first_name="Cal")

    history = player_history(season, cal)

    assert history.league_points == 214
    assert len(history.meets) == 10
    first = history.meets[0]
    assert len(first.games) == 4
    assert sum(g.points for g in first.games) + first.match_bonus == first.league_points
    assert all(g.explanation for g in first.games)
    assert all("[R3.2-" in line for g in first.games for line in g.explanation)
    assert history.meets[-1].total_after == 214


def test_player_history_shows_the_all_night_credit(official):
    """R2.4-d: Mia's announced absence at meet 2 earns half her average night."""
    season = _import(official, GOLDEN)
    mia = m.Player.objects.get(first_name="Mia")

    night = player_history(season, mia).meets[1]

    assert (night.status, night.games) == ("absent_announced", ())
    assert night.credit == player_history(season, mia).meets[0].league_points / 2


def test_maintenance_sheet_lists_malfunctions_and_notes_per_machine():
    """R7.3-u: a per-machine malfunction log for site management."""
    malfunction = f.MalfunctionFactory(kind="major", reason_code="forced_tilt_stuck_ball", ball=2)
    machine = malfunction.game.machine
    f.MaintenanceNoteFactory(machine=machine, text="Replaced the left flipper coil.")
    f.MachineFactory(league=machine.league, title="Zzz Quiet Machine")

    sheet = maintenance_sheet(machine.league)

    by_title = {s.title: s for s in sheet}
    lines = by_title[machine.title].lines
    assert by_title[machine.title].malfunctions == 1
    assert [line.what for line in lines] == ["malfunction", "note"]
    assert "Major malfunction (Forced tilt to free a stuck ball)" in lines[0].text
    assert by_title["Zzz Quiet Machine"].lines == ()


def test_start_proposal_groups_the_players_present_in_ladder_order():
    """§4.1, R4.1-d, R3.1-d: starting meet 1 of 7 entrants, one of whom announced an absence,
    proposes the six others in two groups of three, in ladder order, over at most 2 groups."""
    night = night_.build_night(players=7)
    meet = f.MeetFactory(season=night.season, number=1)
    away = night.players[2]
    f.AnnouncedAbsenceFactory(meet=meet, player=away)

    proposal = start_proposal(meet)

    assert [line.player.id for line in proposal.present] == [
        p.pk for p in night.players if p != away
    ]
    assert (proposal.group_numbers, proposal.group_count) == ([1, 1, 1, 2, 2, 2], 2)
