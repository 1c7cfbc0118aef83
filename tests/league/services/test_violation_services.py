"""Violations (§8): penalties, victims' remedies and charges (§8.2, §8.3), game restarts (§8.6)."""

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.services.forfeits import record_forfeit
from flipwell.league.services.malfunctions.discarded_scores import (
    record_positive_malfunction_replay,
)
from flipwell.league.services.violations.penalties import record_violation
from flipwell.league.services.violations.remedies import record_victim_remedy
from flipwell.league.services.violations.restarts import record_game_restart
from flipwell.rules.season import fold_season
from tests.league.league_night import game, next_game
from tests.league.league_night import play as play_game

pytestmark = pytest.mark.django_db


def _night_points(night, player):
    standing = fold_season(season_facts(night.season)).players[str(player.pk)]
    return standing.nights[-1].game_points


# --- violations ------------------------------------------------------------------------------


def _play_group_one(night, meet, games=1):
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    for _ in range(games - 1):
        play_game(next_game(meet, 1, a[3]), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})


def test_record_violation_during_a_game_forfeits_it(night, meet):
    """R8.5-c, A26: first offense: the current game is forfeited, the others re-scored."""
    a = night.players
    _play_group_one(night, meet)

    recorded = record_violation(
        meet=meet, player=a[0], kind="interference", game=game(meet, 1, 1),
        reason="Bumped the machine on A2's ball", actor=night.user,
    )  # fmt: skip

    decision = recorded.decision
    assert recorded.violation == m.Violation.objects.get()

    assert (decision.offense, decision.effect, decision.game) == (1, "game_forfeit", 1)
    assert _night_points(night, a[0]) == (0,)
    assert _night_points(night, a[1]) == (8,)  # 3-player scale: 7 + bonus (50 > 30 + 10)


def test_record_violation_during_an_unconfirmed_game_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        record_violation(
            meet=meet, player=night.players[0], kind="interference", game=game(meet, 1, 1),
            reason="Bumped", actor=night.user,
        )  # fmt: skip

    assert caught.value.message_dict["game"][0].startswith("Confirm game 1's scores first")


def test_record_violation_not_serious_for_interference_refused(night, meet):
    """R8.3-e: interference is always serious; only a wrong-ball play may be accidental."""
    with pytest.raises(ValidationError) as caught:
        record_violation(
            meet=meet, player=night.players[0], kind="interference", serious=False,
            reason="Bumped", actor=night.user,
        )  # fmt: skip

    assert "(A28)" in caught.value.message_dict["serious"][0]
    assert m.Violation.objects.count() == 0


def test_record_violation_accidental_wrong_ball_is_a_ruling_without_penalty(night, meet):
    """A28: the LO may rule an opponent's-ball play accidental: no offense, but a zero score."""
    _play_group_one(night, meet)

    decision = record_violation(
        meet=meet, player=night.players[0], kind="opponents_ball", game=game(meet, 1, 1),
        serious=False, reason="Wrong ball by mistake", actor=night.user,
    ).decision  # fmt: skip

    assert (decision.offense, decision.effect) == (None, "none")
    assert m.Ruling.objects.get().kind == "violation_not_serious"
    assert _night_points(night, night.players[0]) == (1,)  # R8.2-a: zero score, ranked last


def test_record_violation_violence_forfeits_the_season(night, meet):
    """R8.5-f: violence is an automatic third offense: season forfeit, suspension."""
    decision = record_violation(
        meet=meet, player=night.players[0], kind="violence", reason="Shoved a player",
        actor=night.user,
    ).decision  # fmt: skip

    assert (decision.offense, decision.effect, decision.suspended) == (3, "season_forfeit", True)


def test_record_violation_games_completed_beyond_the_group_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        record_violation(
            meet=meet, player=night.players[0], kind="interference", games_completed=2,
            reason="Bumped", actor=night.user,
        )  # fmt: skip

    assert caught.value.message_dict["games_completed"] == [
        "Group 1 has completed 0 scored games; games_completed must be 0 to 0."
    ]


# --- victims' remedies and charges (§8.2, §8.3, R8.3-d, R8.6-c, R8.6-d, A29) ----------------


def _violation(night, meet, kind):
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    return record_violation(
        meet=meet, player=a[1], kind=kind, game=game(meet, 1, 1), reason="Seen by the LO",
        actor=night.user,
    ).violation  # fmt: skip


def test_victim_remedy_opponents_ball_default_is_continue_without_charge(night, meet):
    """R8.2-d, A29: no decision announced: continue, no other compensation."""
    violation = _violation(night, meet, "opponents_ball")

    recorded = record_victim_remedy(violation=violation, victim=night.players[0], actor=night.user)

    assert (recorded.remedy.choice, recorded.remedy.presumed) == ("continue_no_extra", True)
    assert recorded.charge is None
    assert recorded.row.announced == ""
    assert m.LedgerEntry.objects.count() == 0


def test_victim_remedy_replay_charges_the_violator_the_game(night, meet):
    """R8.2-c, R8.3-d: the violator pays the replayed game, in the ledger."""
    violation = _violation(night, meet, "opponents_ball")

    recorded = record_victim_remedy(
        violation=violation, victim=night.players[0], announced="replay_game",
        game_price_cents=75, actor=night.user,
    )  # fmt: skip

    entry = m.LedgerEntry.objects.get()
    assert recorded.charge == entry
    assert (entry.kind, entry.account, entry.amount_cents, entry.player, entry.reason) == (
        "charge", "kitty", 75, night.players[1], "replayed_game",
    )  # fmt: skip


def test_victim_remedy_interference_default_is_a_buy_in_ball_charged(night, meet):
    """R8.3-c, A29: presumed to continue with one additional ball, paid by the violator."""
    violation = _violation(night, meet, "interference")

    recorded = record_victim_remedy(
        violation=violation, victim=night.players[2], ball_price_cents=25, actor=night.user
    )

    assert (recorded.remedy.choice, recorded.remedy.additional_balls) == (
        "continue_plus_one_ball",
        1,
    )
    assert (recorded.charge.amount_cents, recorded.charge.reason) == (25, "buy_in_ball")


def test_victim_remedy_earned_extra_ball_costs_nothing(night, meet):
    """A30: no buy-in when the victim used an earned, normally unallowable extra ball."""
    violation = _violation(night, meet, "interference")

    recorded = record_victim_remedy(
        violation=violation, victim=night.players[2], earned_extra_ball_used=True,
        actor=night.user,
    )  # fmt: skip

    assert recorded.charge is None


def test_victim_remedy_missing_price_refused(night, meet):
    violation = _violation(night, meet, "opponents_ball")

    with pytest.raises(ValidationError) as caught:
        record_victim_remedy(
            violation=violation, victim=night.players[0], announced="replay_game",
            actor=night.user,
        )  # fmt: skip

    assert list(caught.value.message_dict) == ["game_price_cents"]
    assert m.VictimRemedy.objects.count() == 0


def test_victim_remedy_no_compensation_for_an_unallowable_ball_refuses_a_replay(night, meet):
    """R8.2-b: an unallowable extra ball with no allowable balls left: no compensation."""
    violation = _violation(night, meet, "opponents_ball")

    with pytest.raises(ValidationError) as caught:
        record_victim_remedy(
            violation=violation, victim=night.players[0], announced="replay_game",
            unallowable_ball=True, allowable_balls_left=False, game_price_cents=75,
            actor=night.user,
        )  # fmt: skip

    assert "R8.2-b" in caught.value.message_dict["announced"][0]


def test_victim_remedy_for_a_violation_without_victim_refused(night, meet):
    violation = _violation(night, meet, "deathsave_or_bangback")

    with pytest.raises(ValidationError, match="has no victim's remedy"):
        record_victim_remedy(violation=violation, victim=night.players[0], actor=night.user)


def test_victim_remedy_twice_refused(night, meet):
    violation = _violation(night, meet, "opponents_ball")
    record_victim_remedy(violation=violation, victim=night.players[0], actor=night.user)

    with pytest.raises(ValidationError, match="is recorded"):
        record_victim_remedy(violation=violation, victim=night.players[0], actor=night.user)


def test_game_restart_charges_the_responsible_player_for_all_players(night, meet):
    """R8.6-c, R8.6-d: the count cannot be fixed: restart, paid for every player."""
    a = night.players

    recorded = record_game_restart(
        game=game(meet, 1, 1), responsible=a[2], games_started=3, game_price_cents=50,
        actor=night.user,
    )  # fmt: skip

    assert (recorded.restart.players, recorded.restart.games_started) == (4, 3)
    entry = m.LedgerEntry.objects.get()
    assert (entry.amount_cents, entry.player, entry.reason, entry.account) == (
        200,
        a[2],
        "",
        "kitty",
    )


def test_game_restart_counts_only_the_players_present(night, meet):
    """A60: the players in the group are those present for that game."""
    a = night.players
    record_forfeit(game=game(meet, 1, 1), player=a[3], actor=night.user)

    recorded = record_game_restart(
        game=game(meet, 1, 1), responsible=a[0], games_started=2, game_price_cents=50,
        actor=night.user,
    )  # fmt: skip

    assert recorded.charge.amount_cents == 150


def test_game_restart_too_many_games_is_not_a_restart(night, meet):
    """R8.6-a: too many games: plunge the extras, nothing more is done."""
    with pytest.raises(ValidationError) as caught:
        record_game_restart(
            game=game(meet, 1, 1), responsible=night.players[0], games_started=5,
            game_price_cents=50, actor=night.user,
        )  # fmt: skip

    assert "R8.6-a" in caught.value.message_dict["games_started"][0]
    assert m.GameRestart.objects.count() == 0


def test_game_restart_too_few_when_more_can_start_is_not_a_restart(night, meet):
    """R8.6-b: start more games if possible, nothing more is done."""
    with pytest.raises(ValidationError, match=r"R8\.6-b"):
        record_game_restart(
            game=game(meet, 1, 1), responsible=night.players[0], games_started=3,
            more_games_possible=True, game_price_cents=50, actor=night.user,
        )  # fmt: skip


def test_record_violation_after_a_game_awaiting_its_replay_counts_it_not_completed(night, meet):
    """§8.5 with §7.4: game 1's scores were discarded by a positive malfunction, so until its
    replay the group has completed no scored game: a violation "after game 1" is refused with
    a message naming the field, not a server error (found by the season state machine)."""
    a = night.players
    _play_group_one(night, meet)
    record_positive_malfunction_replay(
        game=game(meet, 1, 1), discard_scores_of=[a[0]], reason="Ball save", actor=night.user
    )

    with pytest.raises(ValidationError) as refused:
        record_violation(
            meet=meet, player=a[0], kind="own_unallowable_extra_ball", games_completed=1,
            reason="Played an extra ball", actor=night.user,
        )  # fmt: skip

    assert list(refused.value.message_dict) == ["games_completed"]
    assert "completed 0 scored games" in refused.value.message_dict["games_completed"][0]
    assert m.Violation.objects.count() == 0
