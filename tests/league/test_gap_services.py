"""The league-data services that fill the last gaps: machine replacement (§5.1), victims'
remedies and charges (§8.2, §8.3, §8.6), positive malfunctions (§7.4), late joiners'
forfeits (§2.4), playoff tardiness (§6.6) and the tie orders of corrected sheets (§3, R3.2-i)."""

import datetime
import json
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.adapters import counted_tie_orders, season_facts
from flipwell.league.services.corrections import request_correction, respond_to_correction
from flipwell.league.services.forfeits import designate_late_join_forfeits, record_forfeit
from flipwell.league.services.malfunctions import (
    record_positive_malfunction_replay,
    record_replay_scores,
)
from flipwell.league.services.meet_machines import replace_machine
from flipwell.league.services.meets import close_meet
from flipwell.league.services.playoff_matches import (
    playoff_start,
    record_no_show,
    record_playoff_lateness_notice,
)
from flipwell.league.services.playoffs import qualify_for_playoffs, record_seed_playoff
from flipwell.league.services.season_files import import_season_file
from flipwell.league.services.violations import (
    record_game_restart,
    record_victim_remedy,
    record_violation,
)
from flipwell.rules.season import fold_season
from tests import factories as f
from tests.league.league_night import build_night, free_machine, game, next_game
from tests.league.league_night import play as play_game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db

GOLDEN = json.loads((Path(__file__).parents[1] / "data" / "golden_season.json").read_text())


@pytest.fixture
def night():
    return build_night(players=8)


@pytest.fixture
def meet(night):
    return start_night(night)


def _points(night, player):
    return fold_season(season_facts(night.season)).players[str(player.pk)].nights[-1].game_points


def _declared_unplayable(meet, machine):
    return m.MachineDeclaration.objects.filter(
        meet=meet, machine=machine, kind=m.MachineDeclaration.Kind.UNPLAYABLE
    ).exists()


# --- replace_machine (R5.1-a, R7.3-r, R7.3-s, A23) -------------------------------------------


def test_replace_machine_drawn_game_is_drawn_again_with_its_seed_recorded(night, meet):
    """R5.1-a, A23: a randomly assigned game 1 gets a random replacement, seed recorded."""
    first = game(meet, 1, 1)
    old = first.machine

    replaced = replace_machine(game=first, reason="Flipper coil burnt", seed=11, actor=night.user)

    row = replaced.replacement
    assert (row.by, row.seed, row.chosen_by, row.old_machine) == ("random", 11, None, old)
    assert replaced.game.machine_id == row.new_machine_id != old.pk
    assert row.new_machine_id in replaced.options
    assert _declared_unplayable(meet, old)
    assert m.Ruling.objects.count() == 0


def test_replace_machine_the_selector_chooses_under_section_5(night, meet):
    """R5.1-a: the player who selected the broken machine picks its replacement."""
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    second = next_game(meet, 1, a[3])
    choice = free_machine(meet, 1)

    replaced = replace_machine(
        game=second, machine=choice, chosen_by=a[3], reason="Stuck ball", actor=night.user
    )

    assert (replaced.replacement.by, replaced.game.machine) == ("selector", choice)
    assert replaced.game.chosen_by == a[3]


def test_replace_machine_by_another_player_refused(night, meet):
    """R5.1-a: only whoever selected the machine chooses the replacement."""
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    second = next_game(meet, 1, a[3])

    with pytest.raises(ValidationError) as caught:
        replace_machine(
            game=second, machine=free_machine(meet, 1), chosen_by=a[0], reason="Stuck ball",
            actor=night.user,
        )  # fmt: skip

    assert "chooses its replacement (R5.1-a, A23)" in caught.value.message_dict["chosen_by"][0]


def test_replace_machine_selector_may_not_repeat_a_machine_played_tonight(night, meet):
    """R5-e, R4-b: the selector's replacement follows the §5 constraints."""
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    second = next_game(meet, 1, a[3])

    with pytest.raises(ValidationError) as caught:
        replace_machine(
            game=second, machine=first.machine, chosen_by=a[3], reason="Stuck ball",
            actor=night.user,
        )  # fmt: skip

    assert "cannot replace" in caught.value.message_dict["machine"][0]


def test_replace_machine_lo_designation_is_a_ruling(night, meet):
    """R7.3-s, A23: the LO may designate the machine instead, a logged decision."""
    first = game(meet, 1, 1)
    other = free_machine(meet, 1)

    replaced = replace_machine(
        game=first, machine=other, reason="Power loss; quickest to move", actor=night.user
    )

    assert (replaced.replacement.by, replaced.game.machine) == ("lo", other)
    ruling = m.Ruling.objects.get()
    assert (ruling.kind, ruling.reason) == (
        "replacement_machine_designated",
        "Power loss; quickest to move",
    )


def test_replace_machine_without_reason_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        replace_machine(game=game(meet, 1, 1), reason="  ", seed=1, actor=night.user)

    assert list(caught.value.message_dict) == ["reason"]
    assert m.MachineReplacement.objects.count() == 0


def test_replace_machine_of_a_confirmed_game_refused(night, meet):
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})

    with pytest.raises(ValidationError, match="has confirmed scores"):
        replace_machine(game=game(meet, 1, 1), reason="Broken", seed=1, actor=night.user)


# --- victims' remedies and charges (§8.2, §8.3, R8.3-d, R8.6-c, R8.6-d, A29) ----------------


def _violation(night, meet, kind):
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    record_violation(
        meet=meet, player=a[1], kind=kind, game=game(meet, 1, 1), reason="Seen by the LO",
        actor=night.user,
    )  # fmt: skip
    return m.Violation.objects.get()


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


# --- positive malfunctions (R7.4-a, R7.4-c, A58) ---------------------------------------------


def test_discarded_score_leaves_the_game_incomplete_until_replayed(night, meet):
    """R7.4-c, A58: the discarded game gives nobody points until the replay is recorded."""
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    assert _points(night, a[0]) == (8,)

    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Bear Kick switch failed", actor=night.user
    )

    assert _points(night, a[0]) == ()
    assert _points(night, a[1]) == ()
    assert m.Ruling.objects.get().kind == "positive_malfunction_replay"

    replay = record_replay_scores(
        game=first, scores={a[0]: 40}, entered_by=a[0], confirmed_by=a[1], actor=night.user
    )

    assert replay.submission.version == 2
    # 50, 40, 30, 10: 7/5/3/1; 50 is not above 40 + 30, 40 not above 30 + 10.
    assert [_points(night, p) for p in a[:4]] == [(5,), (7,), (4,), (2,)]


def test_discarded_score_keeps_the_entered_sheet(night, meet):
    """The discarded score is a fact beside the sheet, which stays as it was entered."""
    a = night.players
    first = game(meet, 1, 1)
    sheet = play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})

    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair advantage", actor=night.user
    )

    assert dict(sheet.lines.values_list("player_id", "machine_score"))[a[0].pk] == 900
    assert list(m.DiscardedScore.objects.values_list("player_id", "version")) == [(a[0].pk, 1)]


def test_discard_of_a_player_without_a_score_refused(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: None, a[3]: 10})

    with pytest.raises(ValidationError, match="has no completed score"):
        record_positive_malfunction_replay(
            game=first, discard_scores_of=[a[2]], reason="Unfair", actor=night.user
        )


def test_replay_scores_must_be_exactly_the_discarded_players(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair", actor=night.user
    )

    with pytest.raises(ValidationError, match="exactly"):
        record_replay_scores(
            game=first, scores={a[1]: 40}, entered_by=a[0], confirmed_by=a[1], actor=night.user
        )


def test_correction_of_a_discarded_game_refused(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair", actor=night.user
    )

    with pytest.raises(ValidationError, match="record the replay"):
        request_correction(game=first, scores={a[1]: 60}, requested_by=a[1], reason="Misread")


def test_close_meet_waits_for_the_replay(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair", actor=night.user
    )

    with pytest.raises(ValidationError, match="waiting for a replay of discarded scores"):
        close_meet(meet=meet, actor=night.user)


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
    """A46: a league whose ruleset makes every late-join forfeit non-countable."""
    night.league.ruleset_overrides = {"late_join_forfeits_countable": False}
    night.league.save()
    late = f.SeasonEntryFactory(season=night.season, joined_at_meet=2)

    with pytest.raises(ValidationError) as caught:
        designate_late_join_forfeits(
            season=night.season, player=late.player, countable=True, reason="He asked",
            actor=night.user,
        )  # fmt: skip

    assert list(caught.value.message_dict) == ["countable"]


# --- playoff tardiness (R6.6-a, R6.6-c, A59) -------------------------------------------------


@pytest.fixture
def official():
    return f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)


def _qualified(official, date):
    season = import_season_file(
        league=official.league, name="Winter 2026", data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7), actor=official.user,
    )  # fmt: skip
    qualify_for_playoffs(season=season, date=date, actor=official.user)
    for first_names in (("Dee", "Bea"), ("Pia", "Hal")):
        order = [m.Player.objects.get(first_name=n) for n in first_names]
        record_seed_playoff(season=season, order=order, actor=official.user)
    return season


def test_playoff_lateness_notice_before_the_start_delays_the_match(official):
    """R6.6-a, §2.2, A59: a notice before the start gives the match 15 minutes' wait."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")

    lateness = record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(hours=1), actor=official.user,
    )  # fmt: skip

    assert lateness.wait_until == start + datetime.timedelta(minutes=15)
    assert m.PlayoffLatenessNotice.objects.get().player == pia


def test_playoff_lateness_notice_at_the_start_refused(official):
    """R6.6-a: the notice must come before the match start."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)

    with pytest.raises(ValidationError) as caught:
        record_playoff_lateness_notice(
            season=season, division="A", match="QF1",
            player=m.Player.objects.get(first_name="Pia"), at=start, actor=official.user,
        )  # fmt: skip

    assert "Too late" in caught.value.message_dict["at"][0]


def test_playoff_lateness_notice_for_a_player_not_in_the_match_refused(official):
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)

    with pytest.raises(ValidationError, match="does not play in QF1"):
        record_playoff_lateness_notice(
            season=season, division="A", match="QF1",
            player=m.Player.objects.get(first_name="Cal"),
            at=start - datetime.timedelta(hours=1), actor=official.user,
        )  # fmt: skip


def test_playoff_no_show_before_the_delayed_start_refused(official):
    """R6.6-a, R6.6-c: a player who gave notice is a no-show only after the wait."""
    season = _qualified(official, datetime.date(2099, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")
    record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(days=1), actor=official.user,
    )  # fmt: skip

    with pytest.raises(ValidationError, match="waits for him"):
        record_no_show(season=season, division="A", match="QF1", player=pia, actor=official.user)
    assert m.PlayoffNoShow.objects.count() == 0


def test_playoff_no_show_after_the_delayed_start_recorded(official):
    """R6.6-c: once the wait is over, he is disqualified from the match."""
    season = _qualified(official, datetime.date(2026, 3, 25))
    start = playoff_start(season.playoff_night)
    pia = m.Player.objects.get(first_name="Pia")
    record_playoff_lateness_notice(
        season=season, division="A", match="QF1", player=pia,
        at=start - datetime.timedelta(hours=1), actor=official.user,
    )  # fmt: skip

    no_show = record_no_show(
        season=season, division="A", match="QF1", player=pia, actor=official.user
    )

    assert no_show.player == pia


# --- tie orders of the counted sheet (R3.2-i, R3-e, A15) -------------------------------------


def _answer_all(request, players):
    outcome = None
    for player in players:
        if not request.responses.filter(player=player).exists():
            outcome = respond_to_correction(request=request, player=player, agrees=True)
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
