"""Score entry: submit_scores (versions, validation, idempotency) and confirm_scores (R3-a),
including two confirmations racing on PostgreSQL."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from tests.league.league_night import build_night, game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db


def _sheet(night, *scores):
    return dict(zip(night.players[:4], scores, strict=True))


def _submit(night, meet, *scores, key="k1", tie_order=(), by=0):
    return submit_scores(
        game=game(meet, 1, 1), scores=_sheet(night, *scores), tie_order=tie_order,
        entered_by=night.players[by], idempotency_key=key,
    )  # fmt: skip


def test_submit_scores_returns_the_game_points(night, meet):
    """R3.2-e, R3.2-f, R3.2-g: 7/5/3/1; 1st > 2nd+3rd and 2nd > 3rd+4th earn the bonuses."""
    submitted = _submit(night, meet, 100, 50, 30, 10)

    p = night.players
    assert submitted.points == {p[0].pk: 8, p[1].pk: 6, p[2].pk: 3, p[3].pk: 1}
    assert (submitted.submission.version, submitted.submission.confirmed_by) == (1, None)
    assert m.AuditEvent.objects.filter(action="scores.submitted").count() == 1


def test_submit_scores_with_a_forfeit_uses_the_three_player_scale(night, meet):
    """R2.4-b, R2.4-c: a None score is a forfeit; 3 scores use 7/4/1."""
    submitted = _submit(night, meet, 100, None, 30, 10)

    p = night.players
    assert submitted.points == {p[0].pk: 8, p[1].pk: 0, p[2].pk: 4, p[3].pk: 1}


def test_submit_scores_missing_a_group_member_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        submit_scores(
            game=game(meet, 1, 1), scores=dict(list(_sheet(night, 1, 2, 3, 4).items())[:3]),
            entered_by=night.players[0], idempotency_key="k",
        )  # fmt: skip

    assert caught.value.message_dict["scores"] == [
        "Every player of the group needs a score, or none if they did not play (a forfeit): "
        f"missing {night.players[3]}."
    ]
    assert m.ScoreSubmission.objects.count() == 0


def test_submit_scores_negative_score_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        _submit(night, meet, 100, -5, 30, 10)

    assert caught.value.message_dict["scores"] == [
        f"{night.players[1]}'s score must be a whole number of 0 or more, got -5."
    ]


def test_submit_scores_tie_without_playoff_order_refused(night, meet):
    """R3.2-i, A15: tied machine scores need the one-ball playoff's order."""
    with pytest.raises(ValidationError) as caught:
        _submit(night, meet, 100, 50, 50, 10)

    p = night.players
    assert caught.value.message_dict["scores"] == [
        f"Unresolved tie between {p[1]} and {p[2]} at 50: record the order of their "
        "one-ball playoff (§3.2)."
    ]


def test_submit_scores_tie_with_playoff_order_accepted(night, meet):
    p = night.players

    submitted = _submit(night, meet, 100, 50, 50, 10, tie_order=[[p[2], p[1]]])

    assert submitted.points[p[2].pk] == 5
    assert m.TieOrder.objects.get().submission == submitted.submission


def test_submit_scores_by_a_player_outside_the_group_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        _submit(night, meet, 1, 2, 3, 4, by=5)

    assert caught.value.message_dict["entered_by"] == [
        f"{night.players[5]} is not in group 1 of meet 1."
    ]


def test_submit_scores_unconfirmed_sheet_replaced_by_a_later_version(night, meet):
    first = _submit(night, meet, 100, 50, 30, 10, key="a")
    second = _submit(night, meet, 100, 50, 30, 20, key="b")

    assert (first.submission.version, second.submission.version) == (1, 2)
    with pytest.raises(ValidationError) as caught:
        confirm_scores(submission=first.submission, confirmed_by=night.players[1])
    assert caught.value.messages == [
        "Version 1 of game 1's sheet was replaced by version 2: confirm version 2."
    ]
    assert caught.value.code == "stale_version"


def test_submit_scores_retried_request_returns_the_stored_sheet(night, meet):
    first = _submit(night, meet, 100, 50, 30, 10, key="same")
    writes = (m.ScoreSubmission.objects.count(), m.AuditEvent.objects.count())

    again = _submit(night, meet, 100, 50, 30, 10, key="same")

    assert (again.submission, again.points, again.replayed) == (
        first.submission, first.points, True,
    )  # fmt: skip
    assert (m.ScoreSubmission.objects.count(), m.AuditEvent.objects.count()) == writes


def test_submit_scores_same_key_different_sheet_is_a_conflict(night, meet):
    _submit(night, meet, 100, 50, 30, 10, key="same")

    with pytest.raises(ConflictError) as caught:
        _submit(night, meet, 100, 50, 30, 11, key="same")

    assert caught.value.message_dict["idempotency_key"][0].startswith(
        "This key was already used for another score sheet"
    )
    assert m.ScoreSubmission.objects.count() == 1


def test_submit_scores_after_confirmation_refused(night, meet):
    """§3: once confirmed, the sheet changes only through a correction."""
    submitted = _submit(night, meet, 100, 50, 30, 10, key="a")
    confirm_scores(submission=submitted.submission, confirmed_by=night.players[1])

    with pytest.raises(ConflictError) as caught:
        _submit(night, meet, 100, 50, 30, 20, key="b")

    assert caught.value.messages == [
        f"Game 1 of group 1 was already confirmed by {night.players[1]} (version 1); your "
        "entry was not saved: a change now needs a correction (R3-b)."
    ]


def test_submit_scores_seen_version_older_than_the_latest_refused(night, meet):
    """An entry made on a page that showed no sheet yet, while another player entered one,
    is refused: it would replace a version its sender never saw."""
    _submit(night, meet, 100, 50, 30, 10, key="a", by=1)

    with pytest.raises(ConflictError) as caught:
        submit_scores(
            game=game(meet, 1, 1), scores=_sheet(night, 100, 50, 30, 20),
            entered_by=night.players[0], idempotency_key="b", seen_version=0,
        )  # fmt: skip

    assert caught.value.code == "stale_version"
    assert caught.value.messages == [
        f"{night.players[1]} entered game 1's scores meanwhile (version 1); your entry was not "
        "saved: check them, then confirm or fix them."
    ]
    assert list(m.ScoreSubmission.objects.values_list("version", flat=True)) == [1]


def test_submit_scores_seen_version_equal_to_the_latest_replaces_it(night, meet):
    """R3-a: an unconfirmed sheet may be fixed by a player who saw it."""
    _submit(night, meet, 100, 50, 30, 10, key="a", by=1)

    fixed = submit_scores(
        game=game(meet, 1, 1), scores=_sheet(night, 100, 50, 30, 20),
        entered_by=night.players[0], idempotency_key="b", seen_version=1,
    )  # fmt: skip

    assert fixed.submission.version == 2


def test_submit_scores_retry_after_confirmation_returns_the_stored_entry(night, meet):
    """A phone whose answer was lost resends its entry after the game was confirmed: it is
    the same entry (same key), not a stale one."""
    first = _submit(night, meet, 100, 50, 30, 10, key="a")
    confirm_scores(submission=first.submission, confirmed_by=night.players[1])

    again = submit_scores(
        game=game(meet, 1, 1), scores=_sheet(night, 100, 50, 30, 10),
        entered_by=night.players[0], idempotency_key="a", seen_version=0,
    )  # fmt: skip

    assert (again.submission, again.replayed) == (first.submission, True)


def test_confirm_scores_by_another_group_member(night, meet):
    """R3-a: one enters, another confirms."""
    submitted = _submit(night, meet, 100, 50, 30, 10)

    confirmed = confirm_scores(submission=submitted.submission, confirmed_by=night.players[2])

    assert confirmed.confirmed_by == night.players[2]
    assert confirmed.confirmed_at is not None


def test_confirm_scores_by_the_player_who_entered_them_refused(night, meet):
    """R3-a: a player cannot confirm his own entry."""
    submitted = _submit(night, meet, 100, 50, 30, 10)

    with pytest.raises(ValidationError) as caught:
        confirm_scores(submission=submitted.submission, confirmed_by=night.players[0])

    assert caught.value.message_dict["confirmed_by"] == [
        f"{night.players[0]} entered this sheet: another player of the group must confirm it "
        "(R3-a)."
    ]


def test_confirm_scores_by_a_player_of_another_group_refused(night, meet):
    submitted = _submit(night, meet, 100, 50, 30, 10)

    with pytest.raises(ValidationError) as caught:
        confirm_scores(submission=submitted.submission, confirmed_by=night.players[6])

    assert caught.value.message_dict["confirmed_by"] == [
        f"{night.players[6]} is not in group 1 of meet 1."
    ]


def test_confirm_scores_twice_is_a_conflict_naming_the_winner(night, meet):
    submitted = _submit(night, meet, 100, 50, 30, 10)
    confirm_scores(submission=submitted.submission, confirmed_by=night.players[1])

    with pytest.raises(ConflictError) as caught:
        confirm_scores(submission=submitted.submission, confirmed_by=night.players[2])

    assert f"already confirmed by {night.players[1]}" in caught.value.messages[0]


@pytest.mark.django_db(transaction=True)
def test_confirm_scores_racing_confirmations_have_one_winner():
    """Two players confirm the same sheet at the same moment: exactly one wins (R3-a)."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL: SQLite has no row locks (select_for_update) and serialises "
            "whole-database writes, so two threads cannot race a confirmation on it"
        )
    night = build_night(players=8)
    meet = start_night(night)
    submitted = _submit(night, meet, 100, 50, 30, 10)
    barrier = threading.Barrier(2)
    outcomes: dict[int, str] = {}

    def confirm(player):
        try:
            barrier.wait(timeout=10)
            confirm_scores(submission=submitted.submission, confirmed_by=player)
            outcomes[player.pk] = "confirmed"
        except ConflictError as error:
            outcomes[player.pk] = error.messages[0]
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm, args=(player,)) for player in night.players[1:3]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    winner = m.ScoreSubmission.objects.get(pk=submitted.submission.pk).confirmed_by
    loser = next(p for p in night.players[1:3] if p != winner)
    assert outcomes[winner.pk] == "confirmed"
    assert f"already confirmed by {winner}" in outcomes[loser.pk]
    assert m.AuditEvent.objects.filter(action="scores.confirmed").count() == 1
