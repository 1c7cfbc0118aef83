"""The tie orders of a corrected sheet (§3, R3.2-i, R3-e, A15): only the counted sheet's count."""

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league.adapters.season_facts import counted_tie_orders, season_facts
from flipwell.league.services.corrections.answer import respond_to_correction
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.season_files import import_season_file
from flipwell.rules.season import fold_season
from tests.golden import golden_data
from tests.league.league_night import game
from tests.league.league_night import play as play_game

pytestmark = pytest.mark.django_db

GOLDEN = golden_data()


def _points(night, player):
    return fold_season(season_facts(night.season)).players[str(player.pk)].nights[-1].game_points


# --- tie orders of the counted sheet (R3.2-i, R3-e, A15) -------------------------------------


def _answer_all(request, players):
    outcome = None
    for player in players:
        if not request.responses.filter(player=player).exists():
            outcome = respond_to_correction(request=request, player=player, agrees=True).outcome
    return outcome


def test_correction_that_makes_a_two_way_tie_three_way_applies(night, meet):
    """R3.2-i, R3-e: a correction changes which players tie; the corrected sheet's own order
    counts, not the one recorded with the first sheet."""
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 100, a[1]: 50, a[2]: 50, a[3]: 10}, tie_order=[[a[1], a[2]]])

    request = request_correction(
        game=first, scores={a[3]: 50}, requested_by=a[3], reason="Misread the display",
        tie_order=[[a[3], a[1], a[2]]],
    )  # fmt: skip
    outcome = _answer_all(request, a[:4])

    assert outcome.status == "applied"
    # 7/5/3/1; 100 is not above 50 + 50 (3rd gets the bonus), 50 not above 50 + 50 (4th).
    assert [_points(night, p) for p in a[:4]] == [(7,), (4,), (2,), (5,)]
    assert list(counted_tie_orders([first.pk]).values()) == [((a[3].pk, a[1].pk, a[2].pk),)]


def test_correction_carries_the_order_of_a_tie_it_leaves_alone(night, meet):
    """R3.2-i: the corrected sheet keeps the recorded playoff order of players still tied."""
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 100, a[1]: 50, a[2]: 50, a[3]: 10}, tie_order=[[a[2], a[1]]])

    request = request_correction(
        game=first, scores={a[0]: 200}, requested_by=a[0], reason="Misread the display"
    )
    outcome = _answer_all(request, a[:4])

    assert outcome.status == "applied"
    assert [_points(night, p) for p in a[:4]] == [(8,), (3,), (5,), (2,)]
    assert list(counted_tie_orders([first.pk]).values()) == [((a[2].pk, a[1].pk),)]


def test_pending_correction_tie_order_does_not_count(night, meet):
    """Only the counted (highest confirmed) sheet's tie orders are facts."""
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 100, a[1]: 60, a[2]: 50, a[3]: 10})

    request_correction(
        game=first, scores={a[2]: 60}, requested_by=a[2], reason="Misread",
        tie_order=[[a[2], a[1]]],
    )  # fmt: skip

    assert counted_tie_orders([first.pk]) == {}
    assert _points(night, a[1]) == (5,)


def test_imported_tie_orders_without_a_version_still_count(official):
    """Orders stored without a sheet version (imported seasons) are the fallback."""
    season = import_season_file(
        league=official.league, name="Winter 2026", data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7), actor=official.user,
    )  # fmt: skip
    tied = m.TieOrder.objects.filter(game__group__meet__season=season, submission__isnull=True)
    game_ids = sorted(set(tied.values_list("game_id", flat=True)))

    orders = counted_tie_orders(game_ids)

    assert sorted(orders) == game_ids
