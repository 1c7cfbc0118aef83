"""Forfeits and late arrivals (§2.3, §2.4, §2.5): a forfeit of a game, a late join, the LO's
designation of a late entrant's forfeits, and the rulings an involved official makes (A55)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.services.forfeits import (
    designate_forfeit_non_countable,
    designate_late_join_forfeits,
    record_forfeit,
    record_late_join,
)
from flipwell.league.services.scores.entry import submit_scores
from flipwell.rules.season import fold_season
from tests import factories as f
from tests.league.league_night import game
from tests.league.league_night import play as play_game

pytestmark = pytest.mark.django_db


# --- forfeits and late joins -----------------------------------------------------------------


def test_record_forfeit_non_countable_needs_a_reason(night, meet):
    """R2.4-g: a non-countable forfeit is the LO's designation, with a reason."""
    with pytest.raises(ValidationError) as caught:
        record_forfeit(
            game=game(meet, 1, 1), player=night.players[0], countable=False, actor=night.user
        )

    assert caught.value.message_dict["note"] == [
        "A non-countable forfeit (R2.4-g) needs a reason: say why the official decided it."
    ]
    assert m.Forfeit.objects.count() == 0


def test_record_forfeit_non_countable_is_a_ruling_and_not_counted(night, meet):
    """R2.4-g, R2.4-h: the designated forfeit does not count toward §2.5."""
    a = night.players
    record_forfeit(
        game=game(meet, 1, 1), player=a[0], countable=False, note="Family emergency",
        actor=night.user,
    )  # fmt: skip
    play_game(game(meet, 1, 1), {a[1]: 100, a[2]: 50, a[0]: None, a[3]: 10})

    standing = fold_season(season_facts(night.season)).players[str(a[0].pk)]
    assert (standing.forfeits, standing.countable_forfeits) == (1, 0)
    assert m.Ruling.objects.get().kind == "forfeit_not_countable"


def test_record_forfeit_then_a_score_for_him_refused(night, meet):
    """R2.4-a: a player who forfeited the game has no score on it."""
    a = night.players
    record_forfeit(game=game(meet, 1, 1), player=a[0], actor=night.user)

    with pytest.raises(ValidationError) as caught:
        submit_scores(
            game=game(meet, 1, 1), scores={a[0]: 5, a[1]: 4, a[2]: 3, a[3]: 2},
            entered_by=a[1], idempotency_key="k",
        )  # fmt: skip

    assert caught.value.message_dict["scores"] == [
        f"{a[0]} forfeited this game (recorded): leave the score empty (R2.4-a)."
    ]


def test_record_forfeit_by_a_stranger_permission_denied(night, meet):
    with pytest.raises(PermissionDenied):
        record_forfeit(game=game(meet, 1, 1), player=night.players[0], actor=f.UserFactory())


def test_record_late_join_that_cannot_join_is_a_late_forfeit(night, meet):
    """R2.3-a, A60: the last player already started ball 1: he forfeits this game."""
    arrival = record_late_join(
        game=game(meet, 1, 1), player=night.players[3], machine_allows_joining=True,
        last_player_not_past_ball_1=False, actor=night.user,
    )  # fmt: skip

    assert (arrival.decision.may_join, arrival.decision.forfeit) == (False, True)
    forfeit = m.Forfeit.objects.get()
    assert arrival.row == forfeit
    assert (forfeit.player, forfeit.reason) == (night.players[3], "late")
    assert m.LateJoin.objects.count() == 0


def test_record_late_join_joins_and_plays_last(night, meet):
    """R2.3-a, R5.2-c: the late joiner plays last in the game he joins."""
    from flipwell.league.selectors.meet_board.board import meet_board

    arrival = record_late_join(
        game=game(meet, 1, 1), player=night.players[0], machine_allows_joining=True,
        last_player_not_past_ball_1=True, actor=night.user,
    )  # fmt: skip

    board = meet_board(meet).groups[0]
    a = night.players
    assert board.play_order == (a[1].pk, a[2].pk, a[3].pk, a[0].pk)
    assert arrival.row == m.LateJoin.objects.get()
    assert arrival.row.player == a[0]


# --- late joiners' forfeits (R2.4-g, R2.4-h, A46) --------------------------------------------


def test_designate_late_join_forfeits_non_countable_is_a_ruling(night):
    """R2.4-g, A46: the LO marks a late entrant's forfeits non-countable, all together."""
    late = f.SeasonEntryFactory(season=night.season, joined_at_meet=3)

    entry = designate_late_join_forfeits(
        season=night.season, player=late.player, countable=False, reason="Joined mid-season",
        actor=night.user,
    )  # fmt: skip

    assert entry.late_join_forfeits_countable is False
    assert season_facts(night.season).late_join_non_countable == frozenset({str(late.player.pk)})
    assert m.Ruling.objects.get().kind == "late_join_forfeits_not_countable"


def test_designate_late_join_forfeits_of_a_first_meet_entrant_refused(night):
    with pytest.raises(ValidationError, match="no late-join forfeits"):
        designate_late_join_forfeits(
            season=night.season, player=night.players[0], countable=False, reason="Why not",
            actor=night.user,
        )  # fmt: skip


def test_designate_late_join_forfeits_countable_against_the_ruleset_refused(night):
    """A46: a season whose readings make every late-join forfeit non-countable."""
    night.season.ruleset_overrides = {"late_join_forfeits_countable": False}
    night.season.save()
    late = f.SeasonEntryFactory(season=night.season, joined_at_meet=2)

    with pytest.raises(ValidationError) as caught:
        designate_late_join_forfeits(
            season=night.season, player=late.player, countable=True, reason="He asked",
            actor=night.user,
        )  # fmt: skip

    assert list(caught.value.message_dict) == ["countable"]


# --- rulings by an involved official (R1.1-a, A55) -------------------------------------------


def test_ruling_by_official_playing_in_the_group_is_flagged(night, meet):
    """R1.1-a, A55: an official who plays in the affected group may rule; it is flagged."""
    a = night.players
    night.official.player = a[1]  # the official plays in group 1
    night.official.save()

    record_forfeit(
        game=game(meet, 1, 1), player=a[0], countable=False, note="Car broke down",
        actor=night.user,
    )  # fmt: skip

    assert m.Ruling.objects.get().official_involved is True


def test_ruling_by_official_outside_the_group_is_not_flagged(night, meet):
    """R1.1-a: an official of another group is uninvolved."""
    a = night.players
    night.official.player = a[7]  # plays in group 2
    night.official.save()

    record_forfeit(
        game=game(meet, 1, 1), player=a[0], countable=False, note="Car broke down",
        actor=night.user,
    )  # fmt: skip

    assert m.Ruling.objects.get().official_involved is False


def test_designate_forfeit_non_countable_on_a_recorded_forfeit(night, meet):
    """issue 27 §3, R2.4-g: a countable forfeit an official recorded is later designated
    non-countable, with a ruling; a second designation is refused."""
    g = game(meet, 1, 1)
    record_forfeit(game=g, player=night.players[3], actor=night.user)

    forfeit = designate_forfeit_non_countable(
        game=g, player=night.players[3], reason="Hospital", actor=night.user
    )

    assert (forfeit.countable, m.Ruling.objects.get().kind) == (False, "forfeit_not_countable")
    with pytest.raises(ValidationError) as caught:
        designate_forfeit_non_countable(
            game=g, player=night.players[3], reason="Again", actor=night.user
        )
    assert caught.value.message_dict["player"] == [
        f"{night.players[3]}'s forfeit of this game is not countable."
    ]


def test_designate_forfeit_non_countable_without_a_forfeit_refused(night, meet):
    """issue 27 §3: a player who did not forfeit the game has nothing to designate."""
    with pytest.raises(ValidationError) as caught:
        designate_forfeit_non_countable(
            game=game(meet, 1, 1), player=night.players[0], reason="Why", actor=night.user
        )

    assert caught.value.message_dict["player"] == [
        f"{night.players[0]} did not forfeit game 1 of this group."
    ]
