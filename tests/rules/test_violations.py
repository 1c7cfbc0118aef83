"""Illegal actions and penalties (§8.1-§8.8, A26-A29, A35, A36, A38, A49)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.errors import RuleError
from flipwell.rules.game_counts import check_restart_needed, game_count_outcome, restart_charge
from flipwell.rules.ruleset import InterferenceDefaults, Ruleset
from flipwell.rules.violation_penalties import (
    PenaltyDecision,
    check_game_confirmed,
    check_ruled_seriousness,
    penalty_decision,
    penalty_game,
)
from flipwell.rules.violation_remedies import (
    VictimRemedy,
    interference_remedy,
    opponents_ball_remedy,
    victim_remedy,
    violator_charge,
)
from flipwell.rules.violations import Violation, reduced_score, ruled_accidental, violation_effect
from tests.refusals import refusal

# --- §8.1 own unallowable extra ball ---


def test_reduced_score_floor_by_default():
    """R8.1-b, A35: 25% off, rounded down."""
    assert reduced_score(1_000_003) == 750_002


def test_reduced_score_half_up_option():
    """A35 alternative: rounded half up."""
    assert reduced_score(1_000_002, ruleset=Ruleset(score_reduction_rounding="half_up")) == 750_002
    assert reduced_score(2, ruleset=Ruleset(score_reduction_rounding="half_up")) == 2


@given(a=st.integers(0, 10**15), b=st.integers(0, 10**15))
def test_reduced_score_monotonic_and_never_above_score(a, b):
    """R8.1-b: a higher score never reduces below a lower one, and never rises."""
    low, high = sorted((a, b))
    for ruleset in (Ruleset(), Ruleset(score_reduction_rounding="half_up")):
        assert reduced_score(low, ruleset=ruleset) <= reduced_score(high, ruleset=ruleset)
        assert reduced_score(high, ruleset=ruleset) <= high
        assert reduced_score(high, ruleset=ruleset) >= 0


def test_violation_effect_own_extra_ball_before_last_plunges_next_ball():
    """R8.1-a: before his last allowable ball he plunges his next allowable ball."""
    effect = violation_effect(Violation("ann", "own_unallowable_extra_ball"))

    assert (effect.plunge_next_allowable_ball, effect.reduce_final_score) == (True, False)
    assert effect.serious is False


def test_violation_flag_on_wrong_kind_refused():
    with pytest.raises(RuleError, match="last_allowable_ball applies only"):
        Violation("ann", "interference", last_allowable_ball=True)


def test_violation_unknown_kind_refused():
    with pytest.raises(RuleError, match="unknown violation 'biting'"):
        Violation("ann", "biting")  # type: ignore[arg-type]


# --- §8.2 opponent's ball ---


def test_violation_effect_opponents_ball_lo_marked_not_serious():
    """A28: the LO may mark an accidental wrong-ball play not serious; the zero stands."""
    effect = violation_effect(Violation("bob", "opponents_ball", lo_marked_not_serious=True))

    assert (effect.machine_score_zero, effect.serious) == (True, False)


def test_violation_effect_opponents_ball_not_serious_setting():
    """A28 alternative: a league may rule wrong-ball play never serious."""
    effect = violation_effect(
        Violation("bob", "opponents_ball"),
        ruleset=Ruleset(opponents_ball_is_serious_violation=False),
    )

    assert effect.serious is False


def test_opponents_ball_remedy_unallowable_ball_no_balls_left_no_compensation():
    """R8.2-b: an unallowable extra ball and no allowable balls left: no compensation."""
    remedy = opponents_ball_remedy(unallowable_ball=True, allowable_balls_left=False)

    assert remedy == VictimRemedy(None, 0, False, False, ("R8.2-b",), "no compensation")


def test_opponents_ball_remedy_replay_refused_when_no_compensation():
    """R8.2-b: the victim cannot choose a replay when no compensation is due."""
    with pytest.raises(RuleError, match=r"\(R8.2-b\)"):
        opponents_ball_remedy(
            unallowable_ball=True, allowable_balls_left=False, announced="replay_game"
        )


def test_opponents_ball_remedy_unallowable_ball_with_balls_left_compensated():
    """R8.2-b, R8.2-c: with allowable balls left the victim still chooses."""
    remedy = opponents_ball_remedy(
        unallowable_ball=True, allowable_balls_left=True, announced="drain_and_extra_ball"
    )

    assert (remedy.choice, remedy.additional_balls) == ("drain_and_extra_ball", 1)


def test_opponents_ball_remedy_no_announcement_continues_without_extra():
    """R8.2-d, A29: no decision announced: continue, no other compensation."""
    remedy = opponents_ball_remedy(unallowable_ball=False, allowable_balls_left=True)

    assert (remedy.choice, remedy.additional_balls, remedy.presumed) == (
        "continue_no_extra",
        0,
        True,
    )


def test_opponents_ball_remedy_default_choice_follows_ruleset():
    """A29: the presumed choice is a Ruleset setting."""
    ruleset = Ruleset(
        interference_default_choice=InterferenceDefaults(opponents_ball="drain_and_extra_ball")
    )

    remedy = opponents_ball_remedy(
        unallowable_ball=False, allowable_balls_left=True, ruleset=ruleset
    )

    assert remedy.additional_balls == 1


def test_opponents_ball_remedy_replay_group_waits():
    """R8.2-e, R8.2-f, A49: a replay is the victim's alone and the group waits."""
    remedy = opponents_ball_remedy(
        unallowable_ball=False, allowable_balls_left=True, announced="replay_game"
    )

    assert remedy.replay is True
    assert remedy.rules == ("R8.2-c", "R8.2-e", "R8.2-f", "A49")


def test_opponents_ball_remedy_plus_one_ball_is_not_an_option():
    """R8.2-c: 'continue plus one ball' is the §8.3 option, not §8.2's."""
    with pytest.raises(RuleError, match="not an option after an opponent played the ball"):
        opponents_ball_remedy(
            unallowable_ball=False, allowable_balls_left=True, announced="continue_plus_one_ball"
        )


# --- §8.3 interference, §8.4 slam tilts ---


def test_interference_remedy_no_announcement_continue_plus_one_ball():
    """R8.3-c, A29: the victim is presumed to continue, with one additional ball."""
    remedy = interference_remedy(caused_loss=True)

    assert (remedy.choice, remedy.additional_balls, remedy.presumed) == (
        "continue_plus_one_ball",
        1,
        True,
    )
    assert remedy.rules == ("R8.3-c", "A29")


def test_interference_remedy_replay_announced():
    """R8.3-b: the victim may replay the whole game."""
    remedy = interference_remedy(caused_loss=True, announced="replay_game")

    assert remedy.replay is True


def test_interference_remedy_without_loss_gives_nothing():
    """R8.3-b: compensation only when the interference caused a drain or loss of turn."""
    remedy = interference_remedy(caused_loss=False)

    assert (remedy.choice, remedy.additional_balls, remedy.replay) == (None, 0, False)


def test_violator_charge_buy_in_ball():
    """R8.3-d: the interfering player pays for the buy-in ball, even with credits on."""
    remedy = interference_remedy(caused_loss=True)

    assert violator_charge(remedy, game_price=100, ball_price=50) == 50


def test_violator_charge_replay():
    """R8.3-d: the interfering player pays for the replayed game."""
    remedy = interference_remedy(caused_loss=True, announced="replay_game")

    assert violator_charge(remedy, game_price=100, ball_price=50) == 100


def test_violator_charge_earned_extra_ball_costs_nothing():
    """R8.3-d: an earned, normally unallowable extra ball used as compensation is free."""
    remedy = interference_remedy(caused_loss=True)

    assert violator_charge(remedy, game_price=100, ball_price=50, earned_extra_ball_used=True) == 0


def test_violation_effect_interference_is_serious():
    """R8.3-e: interference is a serious violation."""
    effect = violation_effect(Violation("bob", "interference"))

    assert (effect.serious, effect.machine_score_zero) == (True, False)


def test_violation_effect_intentional_slam_tilt_is_interference_and_catastrophic():
    """R8.4-a, R8.4-c: an intentional slam tilt is interference and a catastrophic malfunction."""
    effect = violation_effect(Violation("bob", "intentional_slam_tilt"))

    assert (effect.serious, effect.catastrophic_malfunction) == (True, True)
    assert effect.rules == ("R8.4-a", "R8.4-c", "R8.3-e")


# --- §8.6 wrong number of games ---


def test_game_count_outcome_too_many_plunged():
    """R8.6-a: too many games: the extra games' balls are plunged."""
    assert game_count_outcome(games_started=4, players=3) == "plunge_extra_games"


def test_game_count_outcome_too_few_started_more():
    """R8.6-b: too few: start more games if possible."""
    assert game_count_outcome(games_started=2, players=3) == "start_more_games"


def test_game_count_outcome_unfixable_voids_and_restarts():
    """R8.6-c: if the count cannot be fixed, all scores are void and the game restarts."""
    outcome = game_count_outcome(games_started=2, players=3, more_games_possible=False)

    assert outcome == "void_and_restart"


def test_game_count_outcome_correct():
    assert game_count_outcome(games_started=3, players=3) == "correct"


def test_restart_charge_is_every_players_game():
    """R8.6-d, R8.6-c: the responsible player pays the restart for all players."""
    assert restart_charge(players=4, game_price=75) == 300


# --- §8.7 deathsaves, §8.8 cheating ---


def test_violation_effect_deathsave_zero_and_plunge_not_serious():
    """R8.7-a, R8.7-c: machine score zero, remaining balls plunged, not a serious violation."""
    effect = violation_effect(Violation("cy", "deathsave_or_bangback"))

    assert (effect.machine_score_zero, effect.plunge_remaining_balls, effect.serious) == (
        True,
        True,
        False,
    )


def test_penalty_decision_deathsave_no_offense():
    """R8.7-c: a deathsave adds no offense to the season count."""
    decision = penalty_decision(Violation("cy", "deathsave_or_bangback"), prior_offenses=1)

    assert (decision.offense, decision.effect) == (None, "none")


def test_penalty_decision_deathsave_slam_tilt_is_serious():
    """R8.7-c, R8.4-a: a deathsave that slam-tilts is interference, a serious violation."""
    violation = Violation("cy", "deathsave_or_bangback", slam_tilted=True)

    decision = penalty_decision(violation, prior_offenses=0, current_game=2)

    assert (decision.offense, decision.effect, decision.game) == (1, "game_forfeit", 2)


def test_penalty_decision_cheating_suspends_immediately():
    """R8.8-a, A38: cheating is an immediate suspension, treated as a third offense."""
    decision = penalty_decision(Violation("dee", "cheating"), prior_offenses=0)

    assert (decision.offense, decision.effect, decision.suspended) == (3, "season_forfeit", True)


# --- §8.5 offense escalation ---


def test_penalty_decision_first_offense_forfeits_current_game():
    """R8.5-b, R8.5-c, A26: 1st offense: forfeit the current game, countable by default."""
    decision = penalty_decision(Violation("bob", "interference"), prior_offenses=0, current_game=3)

    assert decision == PenaltyDecision(
        violator="bob",
        offense=1,
        effect="game_forfeit",
        target="current_game",
        game=3,
        game_penalty="forfeit",
        countable_forfeit=True,
        scores_wiped=False,
        suspended=False,
        rescore_others=False,
        rules=("R8.3-e", "R8.5-b", "R8.5-c", "R8.5-d", "A26", "A27"),
        reason="offense 1: forfeit of game 3 with a machine score of zero",
    )


def test_penalty_decision_zero_score_semantics_not_countable():
    """A26 alternative: "zero_score" keeps him ranked; it is not a countable forfeit."""
    ruleset = Ruleset(serious_violation_penalty="zero_score")

    decision = penalty_decision(
        Violation("bob", "interference"), prior_offenses=1, current_game=1, ruleset=ruleset
    )

    assert (decision.offense, decision.game_penalty, decision.countable_forfeit) == (
        2,
        "zero_score",
        False,
    )


def test_penalty_decision_between_games_hits_best_game_last_of_equals():
    """R8.5-d, A27: no current game: the game with his highest league points, the last of equals."""
    decision = penalty_decision(
        Violation("bob", "interference"), prior_offenses=0, points_by_game=[8, 3, 8, None]
    )

    assert (decision.target, decision.game) == ("best_completed_game", 3)


def test_penalty_game_current_game_wins():
    """R8.5-c: a game in progress is the penalty game."""
    assert penalty_game([9, 1], current_game=3) == 3


def test_penalty_decision_before_first_game_next_game():
    """A27.2: before his first game, the penalty falls on the next game he plays."""
    decision = penalty_decision(Violation("bob", "interference"), prior_offenses=0)

    assert (decision.target, decision.game) == ("next_game", None)


def test_penalty_decision_before_first_game_lo_decision_option():
    """A27 alternative: the LO chooses the game."""
    ruleset = Ruleset(penalty_target_before_first_game="lo_decision")

    decision = penalty_decision(Violation("bob", "interference"), prior_offenses=0, ruleset=ruleset)

    assert decision.target == "lo_decision"


def test_penalty_decision_third_offense_season_forfeit():
    """R8.5-e, A36: 3rd offense: season forfeited, scores wiped, suspended, no rescoring."""
    decision = penalty_decision(Violation("bob", "interference"), prior_offenses=2, current_game=1)

    assert (decision.offense, decision.effect, decision.game) == (3, "season_forfeit", None)
    assert (decision.scores_wiped, decision.suspended, decision.rescore_others) == (
        True,
        True,
        False,
    )


def test_penalty_decision_third_offense_rescore_option():
    """A36 alternative: other players re-scored as if he had forfeited."""
    ruleset = Ruleset(third_offense_rescore_others=True)

    decision = penalty_decision(Violation("bob", "interference"), prior_offenses=2, ruleset=ruleset)

    assert decision.rescore_others is True


@pytest.mark.parametrize("kind", ["violence", "vandalism"])
def test_penalty_decision_violence_or_vandalism_automatic_third_offense(kind):
    """R8.5-f: violence or vandalism is an automatic third offense, whatever the count."""
    decision = penalty_decision(Violation("bob", kind), prior_offenses=0, current_game=2)

    assert (decision.offense, decision.effect, decision.suspended) == (3, "season_forfeit", True)
    assert decision.rules[-1] == "R8.5-f"


def test_penalty_decision_opponents_ball_serious_by_default():
    """A28, R8.2-a: playing an opponent's ball counts as an offense by default."""
    decision = penalty_decision(
        Violation("bob", "opponents_ball"), prior_offenses=0, current_game=4
    )

    assert (decision.offense, decision.game) == (1, 4)


def test_penalty_decision_opponents_ball_marked_not_serious_no_offense():
    """A28: the LO's "not serious" mark means no offense."""
    violation = Violation("bob", "opponents_ball", lo_marked_not_serious=True)

    assert penalty_decision(violation, prior_offenses=0, current_game=4).offense is None


def test_penalty_decision_negative_prior_refused():
    with pytest.raises(RuleError, match="prior serious violations"):
        penalty_decision(Violation("bob", "interference"), prior_offenses=-1)


@given(
    kinds=st.lists(
        st.sampled_from(
            [
                "interference",
                "intentional_slam_tilt",
                "detrimental_conduct",
                "deathsave_or_bangback",
            ]
        ),
        max_size=8,
    )
)
def test_penalty_decision_offenses_escalate_per_season(kinds):
    """R8.5-b, R8.5-c, R8.5-e: the k-th serious violation is offense k; 1-2 forfeit a game,
    3 and later forfeit the season; not-serious ones (R8.7-c) leave the count alone."""
    decisions, prior = [], 0
    for kind in kinds:
        decisions.append(penalty_decision(Violation("bob", kind), prior_offenses=prior))
        prior = decisions[-1].offense or prior

    serious = [d for d in decisions if d.offense is not None]
    assert [d.offense for d in serious] == list(range(1, len(serious) + 1))
    assert [d.effect for d in serious] == [
        "game_forfeit" if k <= 2 else "season_forfeit" for k in range(1, len(serious) + 1)
    ]
    assert len(serious) == sum(k != "deathsave_or_bangback" for k in kinds)


@given(prior=st.integers(0, 6))
def test_penalty_decision_violence_is_at_least_third(prior):
    """R8.5-f: an automatic third offense whatever the prior count."""
    decision = penalty_decision(Violation("bob", "violence"), prior_offenses=prior)

    assert decision.offense == max(prior + 1, 3)
    assert decision.effect == "season_forfeit"


def test_penalty_decision_detrimental_conduct_is_serious():
    """R8.5-a: conduct the LO finds exceptionally detrimental is a serious violation."""
    decision = penalty_decision(
        Violation("bob", "detrimental_conduct"), prior_offenses=1, points_by_game=[3, 7]
    )

    assert (decision.offense, decision.effect, decision.game) == (2, "game_forfeit", 2)


# --- When a violation may be recorded, and the official's seriousness ruling (R8.5-c, A28) ---


def test_r8_5_c_a_violation_during_a_game_waits_for_its_confirmed_scores():
    check_game_confirmed(2, confirmed=[1, 2])
    with pytest.raises(RuleError, match="confirm game 3's scores first"):
        check_game_confirmed(3, confirmed=[1, 2])


@pytest.mark.parametrize(
    ("kind", "ruled", "accidental"),
    [
        ("opponents_ball", False, True),
        ("opponents_ball", True, False),
        ("opponents_ball", None, False),
        ("interference", False, False),
    ],
)
def test_a28_only_a_wrong_ball_play_can_be_ruled_accidental(kind, ruled, accidental):
    assert ruled_accidental(kind, ruled) is accidental


def _ruled(kind: str, ruled: bool | None) -> None:
    violation = Violation("ann", kind, lo_marked_not_serious=ruled_accidental(kind, ruled))
    decision = penalty_decision(violation, prior_offenses=0)
    check_ruled_seriousness(violation, decision, ruled_serious=ruled, label="This")


def test_a28_an_official_may_rule_a_wrong_ball_play_accidental_or_confirm_the_rules():
    rulings = [("opponents_ball", False), ("opponents_ball", True), ("interference", True),
               ("interference", None)]  # fmt: skip

    refusals = [refusal(lambda k=k, r=r: _ruled(k, r), RuleError) for k, r in rulings]

    assert refusals == [None] * 4


def test_a28_an_official_cannot_rule_otherwise_than_the_rules_for_other_violations():
    with pytest.raises(RuleError, match=r"This is always a serious violation .* accidental"):
        _ruled("interference", False)
    with pytest.raises(RuleError, match="This is never a serious violation"):
        _ruled("deathsave_or_bangback", True)


# --- Which remedy, and when a restart is needed (§8.2, §8.3, §8.6) ---


def test_victim_remedy_is_the_opponents_ball_or_the_interference_remedy():
    """R8.2-c, R8.3-b: each kind with a victim takes its own section's remedy."""
    args = {"unallowable_ball": False, "allowable_balls_left": True, "caused_loss": True}
    assert victim_remedy("opponents_ball", **args) == opponents_ball_remedy(
        unallowable_ball=False, allowable_balls_left=True
    )
    assert victim_remedy("interference", **args) == interference_remedy(caused_loss=True)


def test_victim_remedy_refuses_a_violation_without_a_victim():
    with pytest.raises(RuleError, match="no victim's remedy"):
        victim_remedy(
            "deathsave_or_bangback",
            unallowable_ball=False,
            allowable_balls_left=True,
            caused_loss=True,
        )


def test_r8_6_c_a_restart_only_when_the_count_cannot_be_fixed_on_the_machine():
    check_restart_needed(games_started=2, players=4, more_games_possible=False)
    with pytest.raises(RuleError, match=r"plunge the extra games' balls .*R8\.6-a"):
        check_restart_needed(games_started=5, players=4, more_games_possible=False)
    with pytest.raises(RuleError, match=r"start more games .*R8\.6-b"):
        check_restart_needed(games_started=2, players=4, more_games_possible=True)
    with pytest.raises(RuleError, match="the right number"):
        check_restart_needed(games_started=4, players=4, more_games_possible=False)
