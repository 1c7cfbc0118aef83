"""A player absent for the rest of the match (issue 33 §1, R2.4-a): one recorded fact, from
which every later game of the match is his forfeit (countable, §2.5). His score is refused on
those games' sheets, he neither enters nor confirms them, picks no machine and has no turn."""

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.selectors.console import meet_forfeits
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.standings import standings
from flipwell.league.services import ConflictError
from flipwell.league.services.forfeits import designate_forfeit_non_countable
from flipwell.league.services.match_absences import record_match_absence, withdraw_match_absence
from flipwell.league.services.meet_machines.next_machine import choose_next_machine
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from tests.league.league_night import build_night, free_machine, game, group, next_game, play, start

pytestmark = pytest.mark.django_db


def _night_with_dan_gone_after_game_1():
    """Group 1 (a0..a3) plays game 1, a3 (dan) last; then dan leaves: absent from game 2."""
    night = build_night()
    meet = start(night)
    a = night.players
    play(game(meet, 1, 1), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})
    record_match_absence(group=group(meet, 1), players=[a[3]], actor=night.user)
    return night, meet, a


def test_absence_recorded_between_games_starts_at_the_next_game():
    """R2.4-a: game 1 confirmed, game 2 not begun: the absence covers games 2 to 4 (today
    it is refused: "nothing is left to forfeit")."""
    _night, meet, a = _night_with_dan_gone_after_game_1()

    absence = m.MatchAbsence.objects.get(group=group(meet, 1))

    assert (absence.player, absence.from_game) == (a[3], 2)


def test_absent_player_score_on_a_later_game_refused_naming_him():
    """R2.4-a: game 2's sheet takes no score for dan (today it took one)."""
    _night, meet, a = _night_with_dan_gone_after_game_1()
    game_2 = next_game(meet, 1, a[2])

    with pytest.raises(ValidationError) as caught:
        submit_scores(
            game=game_2,
            scores={a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 900},
            entered_by=a[0],
            idempotency_key="dan-gone",
        )

    assert caught.value.message_dict["scores"] == [
        f"{a[3]} is absent for the rest of the match (recorded from game 2): game 2 is their "
        "forfeit, so their score stays empty (R2.4-a)."
    ]
    assert not m.ScoreSubmission.objects.filter(game=game_2).exists()


def test_absence_recorded_during_game_1_refuses_his_score_on_game_2():
    """issue 33 §1, R2.4-a: recorded while game 1 is played, the absence is not the game in
    play's forfeit only: game 2's sheet refuses his score too (today it took it, and he
    ended a night with league points from games 2-4)."""
    night = build_night()
    meet = start(night)
    a = night.players
    record_match_absence(group=group(meet, 1), players=[a[3]], actor=night.user)
    play(game(meet, 1, 1), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None})
    game_2 = next_game(meet, 1, a[2])

    with pytest.raises(ValidationError) as caught:
        submit_scores(
            game=game_2,
            scores={a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 900},
            entered_by=a[0],
            idempotency_key="dan-back",
        )

    assert caught.value.message_dict["scores"] == [
        f"{a[3]} is absent for the rest of the match (recorded from game 1): game 2 is their "
        "forfeit, so their score stays empty (R2.4-a)."
    ]


def test_absent_player_neither_enters_nor_confirms_a_later_sheet():
    """R3-a, R2.4-a: he is not at the machine."""
    _night, meet, a = _night_with_dan_gone_after_game_1()
    game_2 = next_game(meet, 1, a[2])
    sheet = {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None}

    with pytest.raises(ValidationError) as entering:
        submit_scores(game=game_2, scores=sheet, entered_by=a[3], idempotency_key="by-dan")
    entered = submit_scores(game=game_2, scores=sheet, entered_by=a[0], idempotency_key="ok")
    with pytest.raises(ValidationError) as confirming:
        confirm_scores(submission=entered.submission, confirmed_by=a[3])

    assert list(entering.value.message_dict) == ["entered_by"]
    assert list(confirming.value.message_dict) == ["confirmed_by"]


def test_absent_last_place_finisher_does_not_pick_and_has_no_turn():
    """R5-c, A21, A67: dan finished game 1 last and left: cat (last among those still
    there) picks game 2's machine; dan has no place in its play order (R5.2-b)."""
    _night, meet, a = _night_with_dan_gone_after_game_1()
    board = next(g for g in meet_board(meet).groups if g.number == 1)

    assert board.next_picker == a[2].pk
    assert board.play_order == (a[0].pk, a[1].pk, a[2].pk)
    with pytest.raises(ValidationError):
        choose_next_machine(group=group(meet, 1), machine=free_machine(meet, 1), chosen_by=a[3])
    chosen = choose_next_machine(
        group=group(meet, 1), machine=free_machine(meet, 1), chosen_by=a[2]
    )
    assert chosen.play_order == (a[0].pk, a[1].pk, a[2].pk)


def test_absent_player_forfeits_every_later_game_of_the_night():
    """R2.4-a, R2.4-b, R2.4-h, R3.3-g: dan ends the night with game 1's point only, three
    countable forfeits, and each later game is listed on the Forfeits page."""
    night, meet, a = _night_with_dan_gone_after_game_1()
    picker = a[2]
    for _ in range(3):
        played = next_game(meet, 1, picker)
        play(played, {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None})

    line = next(x for x in standings(night.season).lines if x.player.id == a[3].pk)
    listed = [(f.game.number, f.countable) for f in meet_forfeits(meet) if f.player == a[3]]

    assert (line.league_points, line.forfeits, line.countable_forfeits) == (2, 3, 3)
    assert listed == [(2, True), (3, True), (4, True)]


def test_absence_recorded_during_a_game_forfeits_it_and_every_later_one():
    """R2.4-a: recorded while game 1 is in play, the absence starts there."""
    night = build_night()
    meet = start(night)
    a = night.players

    recorded = record_match_absence(group=group(meet, 1), players=[a[1]], actor=night.user)
    play(game(meet, 1, 1), {a[0]: 400, a[2]: 300, a[3]: 200, a[1]: None})

    assert (recorded.from_game, recorded.forfeits, [g.number for g in recorded.games]) == (
        1,
        4,
        [1],
    )
    assert [(f.game.number, f.player) for f in meet_forfeits(meet)] == [(1, a[1])]


def test_absence_from_the_game_after_the_one_in_play():
    """R2.4-a: he finished the game in play and left: the LO records him absent from the next
    game; the game in play still takes his score."""
    night = build_night()
    meet = start(night)
    a = night.players

    record_match_absence(group=group(meet, 1), players=[a[1]], actor=night.user, from_game=2)
    play(game(meet, 1, 1), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})

    assert meet_forfeits(meet) == ()


def test_absence_from_a_confirmed_game_refused():
    """R3-b: a confirmed game changes only by a correction."""
    night, meet, a = _night_with_dan_gone_after_game_1()

    with pytest.raises(ValidationError) as caught:
        record_match_absence(group=group(meet, 1), players=[a[2]], actor=night.user, from_game=1)

    assert caught.value.message_dict["from_game"] == [
        "Choose a game from 2 to 4: game 1 has confirmed scores (a correction changes those)."
    ]


def test_absence_recorded_twice_refused():
    night, meet, a = _night_with_dan_gone_after_game_1()

    with pytest.raises(ConflictError) as caught:
        record_match_absence(group=group(meet, 1), players=[a[3]], actor=night.user)

    assert caught.value.message_dict["players"] == [
        f"{a[3]} is already recorded absent for the rest of the match (from game 2)."
    ]


def test_forfeit_of_an_absent_player_made_non_countable():
    """R2.4-g: the LO makes one of the derived forfeits non-countable (a game not yet
    confirmed): it no longer counts toward the season forfeit (§2.5)."""
    night, meet, a = _night_with_dan_gone_after_game_1()
    game_2 = next_game(meet, 1, a[2])

    designate_forfeit_non_countable(
        game=game_2, player=a[3], reason="Family emergency", actor=night.user
    )
    play(game_2, {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None})

    line = next(x for x in standings(night.season).lines if x.player.id == a[3].pk)
    assert (line.forfeits, line.countable_forfeits) == (1, 0)


def test_absence_withdrawn_gives_the_player_back_the_game_in_play():
    """R2.4-a: recorded by mistake, the LO withdraws it with a reason: game 2 takes his score
    again, game 1 (confirmed before) is unchanged; one audit event says why."""
    night, meet, a = _night_with_dan_gone_after_game_1()
    game_2 = next_game(meet, 1, a[2])

    withdraw_match_absence(
        group=group(meet, 1), player=a[3], reason="Wrong player ticked", actor=night.user
    )
    play(game_2, {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 900})

    assert not m.MatchAbsence.objects.exists()
    event = m.AuditEvent.objects.get(action="match.absence_withdrawn")
    assert event.data == {"player": a[3].pk, "from_game": 2, "reason": "Wrong player ticked"}
    line = next(x for x in standings(night.season).lines if x.player.id == a[3].pk)
    assert (line.forfeits, line.countable_forfeits) == (0, 0)


def test_absence_withdrawal_without_a_reason_or_absence_refused():
    night, meet, a = _night_with_dan_gone_after_game_1()

    with pytest.raises(ValidationError) as no_reason:
        withdraw_match_absence(group=group(meet, 1), player=a[3], reason=" ", actor=night.user)
    with pytest.raises(ValidationError) as not_absent:
        withdraw_match_absence(group=group(meet, 1), player=a[2], reason="x", actor=night.user)

    assert list(no_reason.value.message_dict) == ["reason"]
    assert not_absent.value.message_dict["player"] == [
        f"{a[2]} is not recorded absent for the rest of the match."
    ]
    assert m.MatchAbsence.objects.count() == 1


def test_absence_of_a_whole_group_not_withdrawn_one_player_at_a_time():
    """R2.4-a, A66: its games were stored as played by nobody."""
    night = build_night()
    meet = start(night)
    record_match_absence(group=group(meet, 1), players=night.players[:4], actor=night.user)

    with pytest.raises(ValidationError) as caught:
        withdraw_match_absence(
            group=group(meet, 1), player=night.players[0], reason="x", actor=night.user
        )

    assert caught.value.message_dict["player"][0].startswith("Group 1 was recorded absent")


def test_absence_recorded_over_an_entered_sheet_refuses_its_confirmation():
    """R2.4-a, R3-a: game 1's sheet was entered with Ben's score when the LO records him
    absent from game 1: that sheet is not confirmed (it names him); the group enters it
    again without his score, or the LO records him absent from game 2 instead."""
    night = build_night()
    meet = start(night)
    a = night.players
    entered = submit_scores(
        game=game(meet, 1, 1),
        scores={a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100},
        entered_by=a[0],
        idempotency_key="before",
    )
    record_match_absence(group=group(meet, 1), players=[a[1]], actor=night.user)

    with pytest.raises(ValidationError) as caught:
        confirm_scores(submission=entered.submission, confirmed_by=a[2])

    assert caught.value.message_dict["scores"] == [
        f"{a[1]} is absent for the rest of the match (recorded from game 1): game 1 is their "
        "forfeit, so their score stays empty (R2.4-a)."
    ]


def test_rest_of_a_group_leaving_after_one_player_completes_the_match_as_nobody_played():
    """R2.4-a, A66: dan left after game 1; after game 2 the three others leave too: the whole
    group is gone, so games 3 and 4 are stored as played by nobody and the match is over."""
    night, meet, a = _night_with_dan_gone_after_game_1()
    play(next_game(meet, 1, a[2]), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None})

    recorded = record_match_absence(group=group(meet, 1), players=a[:3], seed=4, actor=night.user)

    assert ([g.number for g in recorded.games], recorded.forfeits) == ([3, 4], 6)
    line = next(x for x in standings(night.season).lines if x.player.id == a[3].pk)
    assert (line.forfeits, line.countable_forfeits) == (3, 3)
    board = next(g for g in meet_board(meet).groups if g.number == 1)
    assert board.finished
