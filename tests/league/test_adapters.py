"""Adapters: stored facts -> flipwell.rules values; the golden season survives the round trip."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import ruleset_for
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.services.corrections.answer import respond_to_correction
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.season_files import import_season_file
from flipwell.rules import FWPL_V1, AppliedCorrection, RuleError, ruleset_from_overrides
from flipwell.rules.ruleset import InterferenceDefaults
from flipwell.rules.season import fold_season
from tests import factories as f
from tests.golden import golden_data
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db

GOLDEN = golden_data()


def _import(official, data, name="Winter 2026", **kwargs):
    return import_season_file(
        league=official.league,
        name=name,
        data=data,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
        **kwargs,
    )


def test_golden_season_round_trips_through_the_database(official):
    """Every golden standings line is reproduced from the stored facts."""
    season = _import(official, GOLDEN)
    names = {
        str(e.player_id): (e.player.first_name, e.player.last_name)
        for e in season.entries.select_related("player")
    }
    by_name = {(e["first_name"], e["last_name"]): e["player"] for e in GOLDEN["entrants"]}

    standings = fold_season(season_facts(season)).standings()

    got = [
        (by_name[names[s.player]], str(s.league_points), s.forfeits, s.countable_forfeits)
        for s in standings
    ]
    expected = [
        (e["player"], e["league_points"], e["forfeits"], e["countable_forfeits"])
        for e in GOLDEN["expected_standings"]
    ]
    assert got == expected


def test_season_facts_query_count_does_not_grow_with_the_season(official):
    small = {**GOLDEN, "meets": GOLDEN["meets"][:1]}
    one_meet = _import(official, small, name="Short")
    ten_meets = _import(official, GOLDEN)

    with CaptureQueriesContext(connection) as few:
        season_facts(one_meet)
    with CaptureQueriesContext(connection) as many:
        season_facts(ten_meets)

    # with the applied corrections (issue 27 §4) and absences for the match (issue 33)
    assert len(few) == len(many) <= 14


def test_open_meet_is_provisional(official):
    """An open meet's grouped players are in progress; an announced absentee's credit is
    already certain, since she cannot play that night (R2.4-d, R3.1-d)."""
    season = _import(official, {**GOLDEN, "meets": GOLDEN["meets"][:2]}, open_last_meet=True)
    mia = m.Player.objects.get(first_name="Mia", last_name="Lopez")
    bea = m.Player.objects.get(first_name="Bea", last_name="Adams")

    players = fold_season(season_facts(season)).players

    mia_night, bea_night = players[str(mia.pk)].nights[1], players[str(bea.pk)].nights[1]
    assert (mia_night.status, mia_night.credit) == (
        "absent_announced",
        players[str(mia.pk)].nights[0].league_points / 2,
    )
    assert bea_night.status == "in_progress"


def test_unconfirmed_scores_are_not_facts_yet(official):
    season = _import(official, {**GOLDEN, "meets": GOLDEN["meets"][:1]})
    game = m.Game.objects.filter(group__meet__season=season).order_by("id").first()
    m.ScoreSubmission.objects.filter(game=game).update(confirmed_by=None, confirmed_at=None)

    facts = season_facts(season)

    assert sum(len(g.games) for g in facts.meets[0].groups) == 6 * 4 - 1


def test_import_refuses_a_file_the_rules_cannot_score(official):
    broken = {
        **GOLDEN,
        "meets": [{**GOLDEN["meets"][0], "groups": GOLDEN["meets"][0]["groups"][1:]}],
    }

    with pytest.raises(ValidationError, match="is in no group and not announced absent"):
        _import(official, broken)
    assert m.Season.objects.count() == 0


def test_ruleset_from_overrides_builds_tuples_and_interference_defaults():
    ruleset = ruleset_from_overrides(
        {
            "match_bonus_tiebreak": ["most_firsts", "ladder_position"],
            "interference_default_choice": {"opponents_ball": "replay_game"},
        }
    )

    assert ruleset.match_bonus_tiebreak == ("most_firsts", "ladder_position")
    assert ruleset.interference_default_choice == InterferenceDefaults(opponents_ball="replay_game")


def test_ruleset_from_overrides_refuses_unknown_setting():
    with pytest.raises(RuleError, match="unknown ruleset setting match_bonus"):
        ruleset_from_overrides({"match_bonus": 3})


def test_ruleset_for_league_without_overrides_is_fwpl_v1():
    assert ruleset_for(f.LeagueFactory(ruleset_overrides={})) == FWPL_V1


def test_violation_kinds_match_the_rules():
    from flipwell.rules.violations import VIOLATION_KINDS

    assert sorted(m.Violation.Kind.values) == sorted(VIOLATION_KINDS)


def test_import_refuses_a_season_name_already_used(official):
    _import(official, {**GOLDEN, "meets": GOLDEN["meets"][:1]})

    with pytest.raises(ValidationError, match="already exists"):
        _import(official, {**GOLDEN, "meets": GOLDEN["meets"][:1]})


def test_season_facts_carry_an_applied_correction_and_who_agreed():
    """issue 27 §4, R3-d: the game's facts name the old and new score and the agreeing players;
    a refused correction is no fact (the score sheet stands)."""
    night = night_.build_night(players=4)
    meet = night_.start(night)
    a = night.players
    first = night_.game(meet, 1, 1)
    night_.play(first, {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})
    refused = request_correction(game=first, scores={a[3]: 900}, requested_by=a[3], reason="No")
    respond_to_correction(request=refused, player=a[0], agrees=False)
    applied = request_correction(game=first, scores={a[1]: 3_000}, requested_by=a[1], reason="0")
    for player in (a[0], a[2], a[3]):
        respond_to_correction(request=applied, player=player, agrees=True)

    (game,) = season_facts(night.season).meets[0].groups[0].games

    keys = [str(p.pk) for p in a]
    assert game.corrections == (
        AppliedCorrection(keys[1], 300, 3_000, (keys[1], keys[0], keys[2], keys[3])),
    )
