"""Score corrections (§3, R3-b, R3-c, R3-d, A45)."""

import pytest

from flipwell.rules.corrections import (
    CorrectionOutcome,
    CorrectionRequest,
    CorrectionResponse,
    LoOverride,
    correction_quorum,
    decide_correction,
)
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import Ruleset

GROUP = ["ann", "bob", "cy", "dee"]
PLAYED = ["ann", "bob", "cy"]  # dee forfeited the game
REQUEST = CorrectionRequest(
    game="meet3-g2", player="bob", recorded=1_200_000, corrected=12_000_000, requester="bob"
)


def agree(*players):
    return [CorrectionResponse(p, True) for p in players]


def test_correction_quorum_players_in_game_by_default():
    """R3-c, A45.1: the players who played the game must agree; a forfeiter is not asked."""
    assert correction_quorum(group=GROUP, played=PLAYED) == ("ann", "bob", "cy")


def test_correction_quorum_whole_group_option():
    """A45.1 alternative: every player of the group."""
    quorum = correction_quorum(
        group=GROUP, played=PLAYED, ruleset=Ruleset(correction_quorum="whole_group")
    )

    assert quorum == ("ann", "bob", "cy", "dee")


def test_correction_quorum_player_outside_group_refused():
    with pytest.raises(RuleError, match="eve played the game but is not in the group"):
        correction_quorum(group=GROUP, played=["ann", "eve"])


def test_decide_correction_all_agree_applied():
    """R3-d: if all players agree, the scoring is corrected."""
    outcome = decide_correction(REQUEST, agree("ann", "bob", "cy"), quorum=PLAYED)

    assert outcome == CorrectionOutcome(
        status="applied",
        score=12_000_000,
        quorum=("ann", "bob", "cy"),
        awaiting=(),
        disagreeing=(),
        rule="R3-d",
        reason="every player agreed: bob's score 1,200,000 → 12,000,000",
    )


def test_decide_correction_one_disagrees_sheet_stands():
    """R3-d: if not all concur, the score sheet stands."""
    responses = [*agree("ann", "bob"), CorrectionResponse("cy", False)]

    outcome = decide_correction(REQUEST, responses, quorum=PLAYED)

    assert (outcome.status, outcome.score, outcome.disagreeing) == ("refused", 1_200_000, ("cy",))


def test_decide_correction_missing_response_pending():
    """R3-c, R3-d: until everyone has answered, the sheet stands and the request is pending."""
    outcome = decide_correction(REQUEST, agree("ann", "bob"), quorum=PLAYED)

    assert (outcome.status, outcome.score, outcome.awaiting) == ("pending", 1_200_000, ("cy",))


def test_decide_correction_whole_group_needs_forfeiter_too():
    """A45.1 alternative, R3-d: with the whole-group quorum, the forfeiter's agreement counts."""
    quorum = correction_quorum(
        group=GROUP, played=PLAYED, ruleset=Ruleset(correction_quorum="whole_group")
    )

    outcome = decide_correction(REQUEST, agree("ann", "bob", "cy"), quorum=quorum)

    assert (outcome.status, outcome.awaiting) == ("pending", ("dee",))


def test_decide_correction_response_from_outsider_refused():
    """R3-c, A45: only the players asked may respond."""
    with pytest.raises(RuleError, match="dee is not among the players asked"):
        decide_correction(REQUEST, agree("ann", "bob", "cy", "dee"), quorum=PLAYED)


def test_decide_correction_two_responses_from_one_player_refused():
    """R3-c: one response per player."""
    with pytest.raises(RuleError, match="ann appears twice in the responses"):
        decide_correction(REQUEST, agree("ann", "ann", "bob", "cy"), quorum=PLAYED)


def test_decide_correction_after_meet_closed_needs_override():
    """A45.2: after the meet is closed a correction needs an LO override."""
    with pytest.raises(RuleError, match=r"meet is closed.*\(A45.2\)"):
        decide_correction(REQUEST, agree("ann", "bob", "cy"), quorum=PLAYED, meet_closed=True)


def test_decide_correction_override_without_reason_refused():
    """A45.2: the override needs a reason."""
    with pytest.raises(RuleError, match="needs a reason"):
        decide_correction(
            REQUEST,
            agree("ann", "bob", "cy"),
            quorum=PLAYED,
            meet_closed=True,
            override=LoOverride(official="lo-1", reason="  "),
        )


def test_decide_correction_after_close_with_override_still_needs_agreement():
    """A45.2, R3-d: an override admits the request, but every player must still agree."""
    override = LoOverride(official="lo-1", reason="photo of the machine shows 12M")

    applied = decide_correction(
        REQUEST, agree("ann", "bob", "cy"), quorum=PLAYED, meet_closed=True, override=override
    )
    refused = decide_correction(
        REQUEST,
        [*agree("ann", "bob"), CorrectionResponse("cy", False)],
        quorum=PLAYED,
        meet_closed=True,
        override=override,
    )

    assert (applied.status, refused.status) == ("applied", "refused")


def test_decide_correction_unchanged_score_refused():
    """R3-b: a request must claim a different score."""
    same = CorrectionRequest(game="g", player="bob", recorded=5, corrected=5, requester="bob")

    with pytest.raises(RuleError, match="nothing to correct"):
        decide_correction(same, agree("ann", "bob", "cy"), quorum=PLAYED)


def test_decide_correction_player_not_in_quorum_refused():
    request = CorrectionRequest(game="g", player="dee", recorded=1, corrected=2, requester="dee")

    with pytest.raises(RuleError, match="dee is not among the players asked"):
        decide_correction(request, agree("ann", "bob", "cy"), quorum=PLAYED)
