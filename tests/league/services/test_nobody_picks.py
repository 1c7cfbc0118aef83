"""A group nobody can continue (issue 27 §3): when every player of a group forfeited a game,
nobody may pick the next machine (R5-c), so the LO chooses or draws it (A66); and a whole
group's absence is recorded for every remaining game of its match at once (R2.4-a, §2.5)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.selectors.standings import standings
from flipwell.league.services.match_absences import record_match_absence
from flipwell.league.services.meet_machines.next_machine import (
    choose_next_machine,
    official_chooses_next_machine,
)
from flipwell.league.services.meets.close import close_meet
from tests import factories as f
from tests.league.league_night import (
    build_night,
    free_machine,
    game,
    group,
    next_game,
    play,
    start,
)

pytestmark = pytest.mark.django_db


def _nobody_played_game_1(night, meet):
    """Group 1 all late for game 1: its confirmed sheet has every score empty (R2.4-a)."""
    a = night.players
    play(game(meet, 1, 1), {a[0]: None, a[1]: None, a[2]: None, a[3]: None})


def test_official_chooses_next_machine_when_nobody_played():
    """issue 27 §3, R5-c, A66: nobody played game 1, so the LO chooses game 2's machine."""
    night = build_night()
    meet = start(night)
    _nobody_played_game_1(night, meet)
    machine = free_machine(meet, 1)

    chosen = official_chooses_next_machine(group=group(meet, 1), machine=machine, actor=night.user)

    assert (chosen.game.number, chosen.game.machine, chosen.game.chosen_by) == (2, machine, None)
    event = m.AuditEvent.objects.get(action="game.machine_chosen")
    assert (event.data["by_official"], event.data["drawn"]) == (True, False)


def test_official_draws_next_machine_when_nobody_played():
    """issue 27 §3, A66: the LO draws it at random among the allowed machines, seed recorded."""
    night = build_night()
    meet = start(night)
    _nobody_played_game_1(night, meet)

    drawn = official_chooses_next_machine(
        group=group(meet, 1), machine=None, seed=5, actor=night.user
    )

    first = game(meet, 1, 1).machine
    in_use = game(meet, 2, 1).machine
    assert drawn.game.machine not in (first, in_use)  # R5-e, R5-d
    event = m.AuditEvent.objects.get(action="game.machine_chosen")
    assert (event.data["drawn"], event.data["seed"]) == (True, 5)


def test_player_pick_when_nobody_played_says_the_official_chooses():
    """issue 27 §3, A66: today's "nobody can pick" dead end names the official instead."""
    night = build_night()
    meet = start(night)
    _nobody_played_game_1(night, meet)

    with pytest.raises(ValidationError) as caught:
        choose_next_machine(
            group=group(meet, 1), machine=free_machine(meet, 1), chosen_by=night.players[3]
        )

    assert caught.value.messages == [
        "Nobody played game 1 of group 1, so no player picks the machine for game 2: the "
        "official chooses or draws it (R5-c, A66)."
    ]


def test_official_chooses_next_machine_while_a_player_may_pick_refused():
    """A66: the LO chooses only when nobody may; R5-c names the 4th place otherwise."""
    night = build_night()
    meet = start(night)
    a = night.players
    play(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})

    with pytest.raises(ValidationError) as caught:
        official_chooses_next_machine(group=group(meet, 1), machine=None, actor=night.user)

    assert caught.value.messages[0].startswith(f"{a[3]} picks the machine for game 2 of group 1")
    assert not m.Game.objects.filter(group=group(meet, 1), number=2).exists()


def test_official_chooses_next_machine_by_a_player_account_refused():
    night = build_night()
    meet = start(night)
    _nobody_played_game_1(night, meet)

    with pytest.raises(PermissionDenied):
        official_chooses_next_machine(group=group(meet, 1), machine=None, actor=f.UserFactory())


def test_record_match_absence_of_a_whole_group_forfeits_all_four_games():
    """issue 27 §3, R2.4-a, §2.5, A66: a whole group absent without notice gets 4 countable
    forfeits each, its games drawn by the LO, in one audit event; the meet can then close."""
    night = build_night()
    meet = start(night)
    absent = night.players[:4]

    recorded = record_match_absence(group=group(meet, 1), players=absent, seed=3, actor=night.user)

    assert [g.number for g in recorded.games] == [1, 2, 3, 4]
    assert len({g.machine_id for g in recorded.games}) == 4  # R4-b: four different machines
    assert recorded.forfeits == 16
    absences = m.MatchAbsence.objects.filter(group=group(meet, 1))
    assert sorted(absences.values_list("player_id", "from_game")) == [(p.pk, 1) for p in absent]
    assert m.AuditEvent.objects.filter(action="match.absence_recorded").count() == 1
    lines = {line.player.id: line for line in standings(night.season).lines}
    assert [lines[p.pk].countable_forfeits for p in absent] == [4, 4, 4, 4]


def test_record_match_absence_after_game_1_forfeits_the_remaining_three():
    """issue 27 §3: all late for game 1, then absent for good: games 2 to 4 are forfeited."""
    night = build_night()
    meet = start(night)
    _nobody_played_game_1(night, meet)
    absent = night.players[:4]

    recorded = record_match_absence(group=group(meet, 1), players=absent, actor=night.user)

    assert [g.number for g in recorded.games] == [2, 3, 4]
    lines = {line.player.id: line for line in standings(night.season).lines}
    assert [lines[p.pk].forfeits for p in absent] == [4, 4, 4, 4]


def test_record_match_absence_of_some_players_forfeits_the_started_game():
    """R2.4-a: the players who remain pick the next machines; the started game is forfeited."""
    night = build_night()
    meet = start(night)
    absent = night.players[2:4]

    recorded = record_match_absence(group=group(meet, 1), players=absent, actor=night.user)

    assert [g.number for g in recorded.games] == [1]
    absences = m.MatchAbsence.objects.values_list("player_id", "from_game")
    assert sorted(absences) == [(p.pk, 1) for p in absent]
    assert not m.ScoreSubmission.objects.filter(game__group=group(meet, 1)).exists()


def test_record_match_absence_of_a_player_outside_the_group_refused():
    night = build_night()
    meet = start(night)

    with pytest.raises(ValidationError) as caught:
        record_match_absence(group=group(meet, 1), players=[night.players[5]], actor=night.user)

    assert caught.value.message_dict["players"] == [
        f"{night.players[5]} is not in group 1 of meet 1."
    ]
    assert not m.MatchAbsence.objects.exists()


def test_record_match_absence_of_a_whole_group_lets_the_meet_close():
    """issue 27 §3: the night closes without an override once the other group has played."""
    night = build_night()
    meet = start(night)
    a = night.players
    record_match_absence(group=group(meet, 1), players=a[:4], actor=night.user)
    scores = {a[4]: 100, a[5]: 50, a[6]: 30, a[7]: 10}
    play(game(meet, 2, 1), scores)
    for _ in range(3):
        play(next_game(meet, 2, a[7]), scores)

    closed = close_meet(meet=meet, actor=night.user)

    assert closed.meet.status == m.Meet.Status.CLOSED
