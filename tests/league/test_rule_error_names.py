"""Rules errors about players reach the user with the players' names, never their database ids.

A player key is a Player's id as a string; a structured `RuleError` keeps it apart from its
template, and the services' edge (`rules_edge`, `with_names`) writes each player by name. Each
test drives one refusal through a service or through that edge with real players' keys.
"""

import re
from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.services._edge import rules_edge
from flipwell.league.services.malfunctions.compensatory import request_compensatory_game
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.rules import RuleError
from flipwell.rules.match_bonus import match_bonus_points
from flipwell.rules.scoring import game_points
from flipwell.rules.season import fold_season
from flipwell.rules.season_ladder import next_groups
from flipwell.rules.season_values import SeasonFacts
from flipwell.rules.values import Finish
from tests.league.league_night import build_night, game
from tests.league.league_night import play as play_game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def high_ids_night():
    # Ids above any number the messages hold (game 1, 4 players...), so a bare id stands out.
    m.Player.objects.bulk_create(
        m.Player(first_name="Filler", last_name=f"{i}") for i in range(150)
    )
    return build_night(players=8)


def _message(caught: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(caught.value.messages)


def _names_without_ids(message: str, *players: m.Player) -> None:
    """Each player appears by name and none by his id (a bare number in the message)."""
    for player in players:
        assert f"{player.first_name} {player.last_name}" in message
        assert not re.search(rf"\b{player.pk}\b", message), message


def _key(player: m.Player) -> str:
    return player_key(player.pk)


def _refused(call, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    """The message of the ValidationError the edge makes of the rules' refusal."""
    with pytest.raises(ValidationError) as caught, rules_edge(code="rules_refused"):
        call(*args, **kwargs)
    return _message(caught)


def test_compensatory_game_refused_after_one_major_names_the_player(high_ids_night):
    """R7.3-k through the service: "First Last has 1 major ...", not "12 has 1 major ..."."""
    g = game(start_night(high_ids_night), 1, 1)
    player = high_ids_night.players[0]
    report_malfunction(game=g, player=player, ball=1, reason_code="forced_tilt_stuck_ball",
                       actor=high_ids_night.user)  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        request_compensatory_game(game=g, player=player, actor=high_ids_night.user)

    _names_without_ids(_message(caught), player)


def test_tie_order_missing_a_tied_player_names_the_players(high_ids_night):
    """R3.2-i, A15 through score entry: every tied player is written by name."""
    g = game(start_night(high_ids_night), 1, 1)
    a = list(g.group.members.order_by("position").values_list("player", flat=True))
    players = [m.Player.objects.get(pk=pk) for pk in a]

    with pytest.raises(ValidationError) as caught:
        play_game(g, {players[0]: 100, players[1]: 100, players[2]: 100, players[3]: 5},
                  tie_order=[[players[0], players[1]]])  # fmt: skip

    _names_without_ids(_message(caught), *players[:3])


def test_tie_order_of_one_player_names_him(high_ids_night):
    """R3.2-i: a tie order needs two players; its one player is named."""
    a, b, c = high_ids_night.players[:3]
    scores = {_key(a): 300, _key(b): 200, _key(c): 100}

    _names_without_ids(_refused(game_points, scores, tie_order=[[_key(a)]]), a)


def test_tie_order_of_different_scores_names_the_players(high_ids_night):
    """R3.2-i: an order grouping unequal scores names its players."""
    a, b, c = high_ids_night.players[:3]
    scores = {_key(a): 300, _key(b): 200, _key(c): 100}

    _names_without_ids(_refused(game_points, scores, tie_order=[[_key(a), _key(c)]]), a, c)


def test_negative_machine_score_names_the_player(high_ids_night):
    """R3.2-a, check_score: "First Last's machine score must be ..."."""
    a, b = high_ids_night.players[:2]

    message = _refused(game_points, {_key(a): -5, _key(b): 10})

    _names_without_ids(message, a)


def test_match_bonus_results_without_ladder_position_names_the_players(high_ids_night):
    """A12, scoring._check_results: the players missing from the ladder order are named."""
    a, b, c = high_ids_night.players[:3]
    results = {_key(p): [Finish(place=1, points=7)] for p in (a, b, c)}

    message = _refused(match_bonus_points, results, ladder_order=[_key(a)])

    _names_without_ids(message, b, c)


def test_match_bonus_bad_place_names_the_player(high_ids_night):
    """scoring._check_results: a place outside 1 to 4 names its player."""
    a, b = high_ids_night.players[:2]
    results = {_key(a): [Finish(place=9, points=7)], _key(b): [Finish(place=1, points=7)]}

    message = _refused(match_bonus_points, results, ladder_order=[_key(a), _key(b)])

    _names_without_ids(message, a)


def test_absence_of_a_player_off_the_ladder_names_him(high_ids_night):
    """R3.1-a: only a player on the ladder can be announced absent."""
    result = fold_season(season_facts(high_ids_night.season))
    stranger = m.Player.objects.create(first_name="Wanda", last_name="Stranger")

    message = _refused(next_groups, result, announced_absences=[_key(stranger)])

    _names_without_ids(message, stranger)


def test_joined_at_of_a_non_entrant_names_him(high_ids_night):
    """R2.4-g: a late join is recorded for an entrant only."""
    stranger = m.Player.objects.create(first_name="Wanda", last_name="Stranger")
    facts = season_facts(high_ids_night.season)
    facts = replace(facts, joined_at={_key(stranger): 2})

    _names_without_ids(_refused(fold_season, facts), stranger)


def test_joining_meet_below_one_names_the_player(high_ids_night):
    """R2.4-g: a joining meet is 1 or later; the message names the entrant."""
    a = high_ids_night.players[0]
    facts: SeasonFacts = replace(season_facts(high_ids_night.season), joined_at={_key(a): 0})

    _names_without_ids(_refused(fold_season, facts), a)


def test_recorded_groups_unlike_the_ladder_name_the_players(high_ids_night):
    """R4.1-d: groups that differ from the ladder's without an LO reason are listed by name."""
    start_night(high_ids_night)
    facts = season_facts(high_ids_night.season)
    meet = facts.meets[0]
    first, second = meet.groups[:2]
    swapped = (
        replace(first, players=(second.players[0], *first.players[1:])),
        replace(second, players=(first.players[0], *second.players[1:])),
        *meet.groups[2:],
    )
    facts = replace(facts, meets=(replace(meet, groups=swapped), *facts.meets[1:]))

    message = _refused(fold_season, facts)

    assert "differ from the ladder's" in message
    _names_without_ids(message, *high_ids_night.players)


def test_unstructured_rule_error_keeps_its_text():
    with pytest.raises(ValidationError) as caught, rules_edge(code="rules_refused"):
        raise RuleError("no playable machine left")

    assert _message(caught) == "No playable machine left."
