"""Malfunctions, compensatory games and unplayable machines (§7.3, §7.4, §7.7, §7.8, §8.4)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.compensatory_games import (
    CompensatoryGame,
    OpenGame,
    check_next_game_may_start,
    compensatory_balls,
    compensatory_entitled,
    compensatory_score,
    major_count,
    request_compensatory_game,
)
from flipwell.rules.errors import RuleError
from flipwell.rules.game_ending_malfunctions import catastrophic_event, ends_the_game, next_turns
from flipwell.rules.malfunctions import (
    GAME_ENDING_REASONS,
    REASON_RULINGS,
    REFUSED_SERIOUS,
    AnnouncedProblem,
    Malfunction,
    MalfunctionReport,
    MalfunctionRuling,
    automatically_unplayable,
    check_recordable,
    rule_malfunction,
)
from flipwell.rules.ruleset import Ruleset
from tests.refusals import refusal

MM = "Medieval Madness"


def report(reason, **kw):
    return MalfunctionReport(player="ann", machine=MM, turn=kw.pop("turn", 2), reason=reason, **kw)


# --- compensatory score (R7.3-m, R7.3-n, R7.3-o, A33) ---


def test_compensatory_score_adds_new_game_to_original():
    """R7.3-m: final = original displayed score + the new game's displayed score."""
    assert compensatory_score(1_200_000, 800_000) == 2_000_000


def test_compensatory_score_subtracts_leading_balls_and_state_points():
    """R7.3-n, R7.3-o: plunged leading balls' score and state-setting points are subtracted."""
    final = compensatory_score(
        1_000_000, 900_000, leading_subtracted=50_000, state_subtracted=30_000
    )

    assert final == 1_820_000


def test_compensatory_score_clamps_at_zero_by_default():
    """A33: the final score never goes below 0."""
    assert compensatory_score(10, 5, leading_subtracted=40) == 0


def test_compensatory_score_without_clamp_refuses_negative():
    """A33 alternative: without the clamp an over-large subtraction is refused, not hidden."""
    with pytest.raises(RuleError, match=r"exceed .*\(R7.3-n, R7.3-o\)"):
        compensatory_score(
            10, 5, leading_subtracted=40, ruleset=Ruleset(compensatory_clamp_at_zero=False)
        )


def test_compensatory_score_negative_input_refused():
    with pytest.raises(RuleError, match="original score must be a non-negative integer"):
        compensatory_score(-1, 5)


@given(
    original=st.integers(0, 10**13),
    new=st.integers(0, 10**13),
    leading=st.integers(0, 10**13),
    state=st.integers(0, 10**13),
)
def test_compensatory_score_never_negative(original, new, leading, state):
    """A33, R7.3-n: whatever is subtracted, the final score is at least 0."""
    final = compensatory_score(original, new, leading_subtracted=leading, state_subtracted=state)

    assert final >= 0
    assert final == max(0, original + new - leading - state)


@given(original=st.integers(0, 10**15), new=st.integers(0, 10**15))
def test_compensatory_score_is_sum_when_nothing_subtracted(original, new):
    """R7.3-m: with nothing subtracted, the final score is exactly original + new."""
    assert compensatory_score(original, new) == original + new


# --- classifying a reported malfunction ---


@pytest.mark.parametrize(
    "reason",
    ["forced_tilt_stuck_ball", "turn_ended_with_balls_in_play", "launched_without_player"],
)
def test_rule_malfunction_listed_majors(reason):
    """R7.3-e, R7.3-a: the rulebook's examples of major malfunctions are serious."""
    ruling = rule_malfunction(report(reason))

    assert ruling.kind == "major"
    assert ruling.malfunction == Malfunction("ann", 2, "major")


@pytest.mark.parametrize(
    ("reason", "rule"),
    [
        ("unnecessary_tilt_stuck_ball", "R7.3-f"),
        ("multiball_ended_early", "R7.3-f"),
        ("airball_drain", "R7.3-f"),
        ("kickback_failed", "R7.3-f"),
        ("ball_saver_failed", "R7.3-f"),
        ("tilted_by_another_player", "R7.3-f"),
        ("one_ball_multiball", "R7.4-e"),
        ("stuck_ball_during_multiball", "R7.4-e"),
        ("distraction", "R7.7-a"),
        ("non_league_player", "R7.8-a"),
    ],
)
def test_rule_malfunction_listed_non_serious_never_compensated(reason, rule):
    """R7.3-f, R7.4-e, R7.7-a, R7.8-a, R7.3-a: not serious, no malfunction recorded."""
    ruling = rule_malfunction(report(reason))

    assert (ruling.kind, ruling.rule, ruling.malfunction) == ("not_serious", rule, None)


def test_rule_malfunction_distraction_cannot_be_ruled_major():
    """R7.7-a: there is no compensation path for a distraction, even by the LO."""
    with pytest.raises(RuleError, match=r"always not serious \(R7.7-a\)"):
        rule_malfunction(report("distraction"), lo_kind="major")


def test_rule_malfunction_non_league_player_cannot_be_ruled_major():
    """R7.8-a: a non-league customer playing the ball is a distraction, never compensated."""
    with pytest.raises(RuleError, match=r"\(R7.8-a\)"):
        rule_malfunction(report("non_league_player"), lo_kind="major")


def test_rule_malfunction_slam_tilt_before_launch_is_catastrophic():
    """R8.4-c, R7.3-h: a slam tilt denying a ball not yet in play is catastrophic."""
    ruling = rule_malfunction(report("slam_tilt", ball_in_play=False))

    assert (ruling.kind, ruling.rule) == ("catastrophic", "R8.4-c")
    assert ruling.malfunction == Malfunction("ann", 2, "catastrophic")


def test_rule_malfunction_power_loss_with_ball_in_play_is_major():
    """R7.3-i: for the ball already in play a catastrophic event is a major malfunction."""
    ruling = rule_malfunction(report("power_loss", ball_in_play=True))

    assert (ruling.kind, ruling.rule) == ("major", "R7.3-i")


def test_rule_malfunction_one_handed_ball_is_not_serious():
    """R7.1-d, R7.3-b: a stuck one-handed extra ball is never a major malfunction."""
    ruling = rule_malfunction(report("forced_tilt_stuck_ball", one_handed_ball=True))

    assert ruling == MalfunctionRuling(
        "not_serious", "R7.1-d", "a one-handed (unallowable) extra ball is never compensated", None
    )


def test_rule_malfunction_major_on_one_handed_ball_refused():
    """R7.1-d: the form refuses "major" when the ball was an unallowable extra ball."""
    with pytest.raises(RuleError, match=r"cannot be a major malfunction: .*\(R7.1-d\)"):
        rule_malfunction(report("other", one_handed_ball=True), lo_kind="major")


def test_rule_malfunction_announced_problem_is_not_major():
    """R7.3-g: a problem the LO announced before play is not a major even if a ball is lost."""
    announced = [AnnouncedProblem(machine="medieval  madness", problem="Left flipper weak")]

    ruling = rule_malfunction(
        report("turn_ended_with_balls_in_play", problem="left flipper weak"), announced=announced
    )

    assert (ruling.kind, ruling.rule, ruling.malfunction) == ("not_serious", "R7.3-g", None)


def test_rule_malfunction_announced_problem_on_other_machine_still_major():
    """R7.3-g applies only to the machine the LO named."""
    announced = [AnnouncedProblem(machine="Twilight Zone", problem="left flipper weak")]

    ruling = rule_malfunction(
        report("turn_ended_with_balls_in_play", problem="left flipper weak"), announced=announced
    )

    assert ruling.kind == "major"


def test_rule_malfunction_announced_problem_refuses_lo_major():
    """R7.3-g: a major matching an announced problem is refused."""
    announced = [AnnouncedProblem(machine=MM, problem="ball search ejects")]

    with pytest.raises(RuleError, match=r"\(R7.3-g\)"):
        rule_malfunction(
            report("other", problem="ball search ejects"), announced=announced, lo_kind="major"
        )


def test_rule_malfunction_other_needs_lo_ruling():
    """R7.3-d: a case outside the examples is the LO's to decide."""
    with pytest.raises(RuleError, match="needs the LO's ruling"):
        rule_malfunction(report("other"))


def test_rule_malfunction_other_with_lo_ruling():
    """R7.3-d, R7.3-j: the LO's ruling decides the kind."""
    ruling = rule_malfunction(report("other"), lo_kind="catastrophic")

    assert ruling.malfunction == Malfunction("ann", 2, "catastrophic")


def test_rule_malfunction_positive_unavoidable_stops_game():
    """R7.4-a: an unavoidable positive malfunction stops the game."""
    ruling = rule_malfunction(report("unfair_advantage_unavoidable"))

    assert (ruling.kind, ruling.rule, ruling.malfunction) == ("positive", "R7.4-a", None)


def test_rule_malfunction_positive_avoidable_is_reported_and_avoided():
    """R7.4-b: an avoidable positive malfunction is reported to the LO and avoided."""
    ruling = rule_malfunction(report("unfair_advantage_avoidable"))

    assert (ruling.kind, ruling.rule, ruling.malfunction) == ("positive", "R7.4-b", None)


def test_rule_malfunction_accidental_slam_tilt_in_play_is_major_for_that_ball():
    """R8.4-b, R8.4-c, R7.3-i: an accidental slam tilt is still a malfunction, major for the
    ball in play."""
    ruling = rule_malfunction(report("slam_tilt", ball_in_play=True))

    assert ruling.malfunction == Malfunction("ann", 2, "major")


def test_rule_malfunction_unknown_reason_refused():
    with pytest.raises(RuleError, match="unknown malfunction reason 'gremlins'"):
        rule_malfunction(report("gremlins"))


# --- catastrophic events (R7.3-h, R7.3-i, A32, R8.4-c) ---


def test_catastrophic_event_current_ball_major_later_balls_catastrophic():
    """R7.3-i, A32: the player on the ball gets a major, his unlaunched balls are catastrophic."""
    result = catastrophic_event(
        current_player="ann",
        ball_in_play=True,
        next_turn={"ann": 2, "bob": 2},
        balls_per_game=3,
    )

    assert result == (
        Malfunction("ann", 2, "major"),
        Malfunction("ann", 3, "catastrophic"),
        Malfunction("bob", 2, "catastrophic"),
        Malfunction("bob", 3, "catastrophic"),
    )


def test_catastrophic_event_no_compensation_option_leaves_one_major():
    """A32 alternative: the literal reading gives the current player only his major."""
    result = catastrophic_event(
        current_player="ann",
        ball_in_play=True,
        next_turn={"ann": 2},
        balls_per_game=3,
        ruleset=Ruleset(current_player_remaining_balls="no_compensation"),
    )

    assert result == (Malfunction("ann", 2, "major"),)


def test_catastrophic_event_collected_allowable_extra_ball_is_owed():
    """R7.3-l: a collected allowable extra ball never launched is affected; one-handed ones not."""
    result = catastrophic_event(
        current_player="bob",
        ball_in_play=False,
        next_turn={"ann": 3, "bob": 3},
        balls_per_game=3,
        extra_balls_collected={"ann": 2},
    )

    assert result == (
        Malfunction("ann", 3, "catastrophic"),
        Malfunction("ann", 4, "catastrophic"),
        Malfunction("bob", 3, "catastrophic"),
    )


def test_catastrophic_event_intentional_slammer_gets_nothing():
    """R8.4-a, R8.4-c, A32: the victims of a slam tilt are compensated, the slammer is not."""
    result = catastrophic_event(
        current_player="ann",
        ball_in_play=True,
        next_turn={"ann": 3, "bob": 3},
        balls_per_game=3,
        slammer="ann",
    )

    assert result == (Malfunction("bob", 3, "catastrophic"),)


def test_catastrophic_event_finished_player_gets_nothing():
    """R7.3-h: a player whose balls are all played was denied nothing."""
    result = catastrophic_event(
        current_player="bob", ball_in_play=True, next_turn={"ann": 4, "bob": 3}, balls_per_game=3
    )

    assert result == (Malfunction("bob", 3, "major"),)


def test_catastrophic_event_turn_beyond_balls_refused():
    with pytest.raises(RuleError, match="beyond their 3 balls"):
        catastrophic_event(
            current_player="ann", ball_in_play=True, next_turn={"ann": 5}, balls_per_game=3
        )


# --- entitlement and the compensatory game (R7.3-c, R7.3-k, R7.3-l, RA-b) ---


def test_major_count_multiball_counts_once():
    """R7.3-c: majors during one multiball turn count once."""
    malfunctions = [Malfunction("ann", 2, "major"), Malfunction("ann", 2, "major")]

    assert major_count(malfunctions, player="ann") == 1
    assert compensatory_entitled(malfunctions, player="ann") is False


def test_compensatory_entitled_two_majors():
    """R7.3-k: two major malfunctions to a player give a compensatory game."""
    malfunctions = [Malfunction("ann", 1, "major"), Malfunction("ann", 3, "major")]

    assert compensatory_entitled(malfunctions, player="ann") is True


def test_compensatory_entitled_one_catastrophic():
    """R7.3-k: one catastrophic malfunction is enough."""
    assert compensatory_entitled([Malfunction("ann", 3, "catastrophic")], player="ann") is True


def test_compensatory_entitled_counts_per_player():
    """A51, R7.3-k: one major each to two players entitles neither."""
    malfunctions = [Malfunction("ann", 1, "major"), Malfunction("bob", 1, "major")]

    assert compensatory_entitled(malfunctions, player="ann") is False
    assert compensatory_entitled(malfunctions, player="bob") is False


def test_compensatory_balls_counts_affected_turns():
    """R7.3-l: balls ended early by majors plus balls never launched."""
    malfunctions = [
        Malfunction("ann", 1, "major"),
        Malfunction("ann", 2, "major"),
        Malfunction("ann", 3, "catastrophic"),
        Malfunction("bob", 3, "catastrophic"),
    ]

    assert compensatory_balls(malfunctions, player="ann") == 3


def test_request_compensatory_game_at_trigger_granted():
    """R7.3-k, R7.3-l, RA-b: requested at the second major, before play continues."""
    malfunctions = [Malfunction("ann", 1, "major"), Malfunction("ann", 2, "major")]

    game = request_compensatory_game(malfunctions, player="ann", play_continued=False)

    assert game == CompensatoryGame("ann", 2)


def test_request_compensatory_game_after_play_continued_refused():
    """RA-b, A31: a request after play continued is too late by default."""
    malfunctions = [Malfunction("ann", 1, "major"), Malfunction("ann", 2, "major")]

    with pytest.raises(RuleError, match=r"too late.*\(RA-b, A31\)"):
        request_compensatory_game(malfunctions, player="ann", play_continued=True)


def test_request_compensatory_game_before_next_game_option():
    """A31 alternative: the request is accepted until the group's next game starts."""
    malfunctions = [Malfunction("ann", 3, "catastrophic")]
    ruleset = Ruleset(compensatory_request_deadline="before_next_game")

    granted = request_compensatory_game(
        malfunctions, player="ann", play_continued=True, ruleset=ruleset
    )

    assert granted == CompensatoryGame("ann", 1)
    with pytest.raises(RuleError, match="before the group's next game starts"):
        request_compensatory_game(
            malfunctions,
            player="ann",
            play_continued=True,
            next_game_started=True,
            ruleset=ruleset,
        )


def test_request_compensatory_game_one_major_refused():
    """R7.3-k: one major malfunction gives no compensatory game."""
    with pytest.raises(RuleError, match=r"1 major .*\(R7.3-k\)"):
        request_compensatory_game(
            [Malfunction("ann", 1, "major")], player="ann", play_continued=False
        )


def test_check_next_game_may_start_waits_for_compensatory_game():
    """R7.3-p: the group waits for an open compensatory game."""
    with pytest.raises(RuleError, match=r"ann's compensatory game is not finished \(R7.3-p\)"):
        check_next_game_may_start([OpenGame("ann", "compensatory")])


def test_check_next_game_may_start_waits_for_replay():
    """R8.2-f: the group waits for a victim's replayed game."""
    with pytest.raises(RuleError, match=r"\(R8.2-f\)"):
        check_next_game_may_start([OpenGame("bob", "replay")])


def test_check_next_game_may_start_nothing_open():
    """R7.3-p: with nothing open the next game may start."""
    assert check_next_game_may_start([]) is None


# --- unplayable machines and failures (R7.3-r, R7.3-s, R7.3-t, A34) ---


def test_automatically_unplayable_when_every_first_ball_majors():
    """R7.3-r: every player's first ball ended in a major: the machine is unplayable."""
    malfunctions = [Malfunction(p, 1, "major") for p in ("ann", "bob", "cy")]

    assert automatically_unplayable(malfunctions, players=["ann", "bob", "cy"]) is True


def test_automatically_unplayable_not_when_one_first_ball_was_fine():
    """R7.3-r: one player's first ball without a major keeps the machine in play."""
    malfunctions = [Malfunction(p, 1, "major") for p in ("ann", "bob")]

    assert automatically_unplayable(malfunctions, players=["ann", "bob", "cy"]) is False


def test_automatically_unplayable_when_play_cannot_continue():
    """R7.3-r: play that cannot continue for any reason makes the machine unplayable."""
    assert automatically_unplayable([], players=["ann"], play_cannot_continue=True) is True


def test_game_ending_reasons_are_the_rulebooks_catastrophic_events():
    """issue 27 §3, R7.3-h, R8.4-c: total failure or reset, power loss, fire and slam tilt end
    the game; "other" is the LO's ruling on one ball (R7.3-j)."""
    listed = {r for r, (kind, _, _) in REASON_RULINGS.items() if kind == "catastrophic"}

    assert (GAME_ENDING_REASONS, ends_the_game("other")) == (listed, False)


def test_next_turns_players_before_the_current_one_are_a_ball_ahead():
    """issue 27 §3, R7.3-h: B stopped on ball 2: A (before him) is next on 3, C and D on 2."""
    assert next_turns(["A", "B", "C", "D"], current_player="B", turn=2) == {
        "A": 3,
        "B": 2,
        "C": 2,
        "D": 2,
    }


def test_next_turns_current_player_outside_the_order_refused():
    with pytest.raises(RuleError, match="not in the game's play order"):
        next_turns(["A", "B"], current_player="C", turn=1)


# --- a malfunction refused as one (R7.1-d, R7.3-g) ---


def test_check_recordable_refuses_a_one_handed_extra_ball_r7_1_d():
    ruling = rule_malfunction(report("forced_tilt_stuck_ball", one_handed_ball=True))
    with pytest.raises(RuleError, match=r"cannot be recorded as a malfunction: .*\(R7\.1-d\)"):
        check_recordable(ruling)


def test_check_recordable_refuses_an_announced_problem_r7_3_g():
    ruling = rule_malfunction(
        report("turn_ended_with_balls_in_play", problem="left flipper weak"),
        announced=[AnnouncedProblem(MM, "Left flipper  WEAK")],
    )
    with pytest.raises(RuleError, match=r"\(R7\.3-g\)\. To note it on the maintenance sheet"):
        check_recordable(ruling)


def test_check_recordable_accepts_a_not_serious_ruling_of_the_official_r7_3_d():
    ruling = rule_malfunction(report("other", one_handed_ball=True), lo_kind="not_serious")

    assert refusal(lambda: check_recordable(ruling), RuleError) is None


def test_check_recordable_accepts_a_serious_malfunction_r7_3_e():
    ruling = rule_malfunction(report("forced_tilt_stuck_ball"))
    assert ruling.kind != "not_serious"
    check_recordable(ruling)


@pytest.mark.parametrize("rule", REFUSED_SERIOUS)
def test_check_recordable_refuses_only_not_serious_rulings_under_the_refusing_rules(rule):
    """R7.1-d, R7.3-g: the same rule on a serious ruling is no refusal."""
    with pytest.raises(RuleError):
        check_recordable(MalfunctionRuling("not_serious", rule, "why", None))
    check_recordable(MalfunctionRuling("not_serious", "R7.3-a", "why", None))
