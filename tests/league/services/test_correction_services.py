"""Score corrections (§3): every player who played agrees, or the sheet stands (R3-b..R3-e)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.services.corrections.answer import respond_to_correction
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.meets.close import close_meet
from flipwell.rules.season import fold_season
from tests import factories as f
from tests.league.league_night import game
from tests.league.league_night import play as play_game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def meet_with_game_1(night):
    meet = start_night(night)
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: None, a[3]: 10})
    return meet


def _points(night, player):
    return fold_season(season_facts(night.season)).players[str(player.pk)].nights[-1].game_points


def _request(night, meet_with_game_1, **kwargs):
    a = night.players
    values = {"scores": {a[3]: 60}, "requested_by": a[3], "reason": "Misread the display"}
    values.update(kwargs)
    return request_correction(game=game(meet_with_game_1, 1, 1), **values)


def test_correction_applied_when_every_player_who_played_agrees(night, meet_with_game_1):
    """R3-c, R3-d, A45.1: the three who played agree (the forfeiter is not asked); R3-e."""
    a = night.players
    request = _request(night, meet_with_game_1)

    first = respond_to_correction(request=request, player=a[0], agrees=True)
    last = respond_to_correction(request=request, player=a[1], agrees=True)

    assert (first.outcome.status, last.outcome.status) == ("pending", "applied")
    assert (last.response.player, last.response.agrees) == (a[1], True)
    assert last.request.status == "applied"
    assert _points(night, a[3]) == (4,)  # 60 is now second of three: 7/4/1
    request.refresh_from_db()
    assert request.status == "applied"
    assert request.proposed.confirmed_by is not None


def test_correction_refused_when_one_player_disagrees(night, meet_with_game_1):
    """R3-d: "if not all players of the group concur ... the scores as written shall stand"."""
    a = night.players
    request = _request(night, meet_with_game_1)

    outcome = respond_to_correction(request=request, player=a[0], agrees=False).outcome

    assert (outcome.status, outcome.rule) == ("refused", "R3-d")
    assert _points(night, a[3]) == (1,)
    with pytest.raises(ValidationError) as caught:
        respond_to_correction(request=request, player=a[1], agrees=True)
    assert caught.value.messages == ["This correction is already decided: refused: the score "
                                     "sheet stands."]  # fmt: skip


def test_correction_answer_from_a_player_who_did_not_play_refused(night, meet_with_game_1):
    """A45.1: a player who forfeited the game has nothing to recall."""
    request = _request(night, meet_with_game_1)

    with pytest.raises(ValidationError) as caught:
        respond_to_correction(request=request, player=night.players[2], agrees=True)

    assert caught.value.message_dict["player"] == [
        f"{night.players[2]} did not play this game: only its players are asked about a "
        "correction (R3-c, A45)."
    ]


def test_correction_second_answer_refused(night, meet_with_game_1):
    request = _request(night, meet_with_game_1)

    with pytest.raises(ValidationError) as caught:
        respond_to_correction(request=request, player=night.players[3], agrees=False)

    assert caught.value.message_dict["player"] == [
        f"{night.players[3]} has already answered this correction."
    ]


def test_correction_of_a_forfeit_refused(night, meet_with_game_1):
    with pytest.raises(ValidationError) as caught:
        _request(night, meet_with_game_1, scores={night.players[2]: 40})

    assert "did not play this game (a forfeit)" in caught.value.message_dict["scores"][0]


def test_correction_to_the_recorded_score_refused(night, meet_with_game_1):
    with pytest.raises(ValidationError) as caught:
        _request(night, meet_with_game_1, scores={night.players[3]: 10})

    assert caught.value.message_dict["scores"] == [
        "These are the scores already recorded: there is nothing to correct."
    ]


def test_correction_without_reason_refused(night, meet_with_game_1):
    with pytest.raises(ValidationError) as caught:
        _request(night, meet_with_game_1, reason="")

    assert "needs a reason" in caught.value.message_dict["reason"][0]
    assert m.ScoreSubmission.objects.count() == 1


def test_correction_while_another_is_pending_refused(night, meet_with_game_1):
    _request(night, meet_with_game_1)

    with pytest.raises(ValidationError) as caught:
        _request(night, meet_with_game_1, scores={night.players[0]: 120})

    assert caught.value.messages == [
        "Game 1 of group 1 already has a correction waiting for the players' answers: settle "
        "it first."
    ]


def test_correction_of_an_unconfirmed_game_refused(night, meet_with_game_1):
    with pytest.raises(ValidationError) as caught:
        request_correction(
            game=game(meet_with_game_1, 2, 1),
            scores={night.players[4]: 1},
            requested_by=night.players[4],
            reason="Wrong",
        )  # fmt: skip

    assert caught.value.message_dict["game"] == [
        "Game 1 has no confirmed scores: enter a new sheet instead (R3-a)."
    ]


def test_correction_after_the_meet_closed_needs_an_override(night, meet_with_game_1):
    """A45.2: after the close, only with a league official's override and reason."""
    close_meet(meet=meet_with_game_1, actor=night.user, override_reason="Testing a short night")

    with pytest.raises(ValidationError) as caught:
        _request(night, meet_with_game_1)
    assert caught.value.message_dict["override_reason"][0].startswith("Meet 1 is closed")
    with pytest.raises(PermissionDenied):
        _request(night, meet_with_game_1, actor=f.UserFactory(), override_reason="Late")

    request = _request(
        night, meet_with_game_1, actor=night.user, override_reason="Photo of the display"
    )
    for player in night.players[:2]:
        outcome = respond_to_correction(request=request, player=player, agrees=True).outcome

    assert outcome.status == "applied"
    assert m.Ruling.objects.filter(kind="late_correction").count() == 1
    assert _points(night, night.players[3]) == (4,)


def test_correction_creating_a_tie_needs_the_playoff_order(night, meet_with_game_1):
    """R3.2-i: the corrected sheet must still score."""
    a = night.players

    with pytest.raises(ValidationError) as caught:
        _request(night, meet_with_game_1, scores={a[3]: 50})

    assert "Unresolved tie" in caught.value.message_dict["scores"][0]

    _request(night, meet_with_game_1, scores={a[3]: 50}, tie_order=[[a[3], a[1]]])
    for player in a[:2]:
        outcome = respond_to_correction(
            request=request_for(meet_with_game_1), player=player, agrees=True
        ).outcome
    assert outcome.status == "applied"
    assert _points(night, a[3]) == (4,)


def request_for(meet_with_game_1):
    return m.CorrectionRequest.objects.get(game__group__meet=meet_with_game_1, status="pending")


def test_correction_that_breaks_a_recorded_tie_applies(night):
    """R3-e: a tie on the confirmed sheet that a correction removes no longer orders anyone
    (the rules use a recorded tie order only while the scores are still equal, A15)."""
    meet = start_night(night)
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 50, a[3]: 10},
              tie_order=[[a[1], a[2]]])  # fmt: skip
    request = request_correction(
        game=game(meet, 1, 1), scores={a[2]: 40}, requested_by=a[2], reason="Misread"
    )
    for player in (a[0], a[1], a[3]):
        outcome = respond_to_correction(request=request, player=player, agrees=True).outcome

    assert outcome.status == "applied"
    assert _points(night, a[2]) == (3,)
