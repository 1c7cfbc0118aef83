"""Every machine of the meet for a group's next game: allowed, or refused with a stable code
(§5: R5-d, R5-e, R5-f, R5-g, R4-b, R7.3-r; A22, A53), and the refusal of a choice is that
machine's (issue 34 §1: one truth for the list and the refusal)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, THE_LO, RuleError, Ruleset
from flipwell.rules.machine_choices import (
    REFUSAL_RULES,
    MachineState,
    check_machine_choice,
    machine_choices,
    selectable_machines,
)
from flipwell.rules.selection import NextPick, PlayedGame, next_pick


def free(machine: str, balls: int = 3) -> MachineState:
    return MachineState(machine=machine, balls_per_game=balls)


def busy(machine: str, group: int, ball: int, balls: int = 3) -> MachineState:
    return MachineState(machine=machine, balls_per_game=balls, in_use_by=group, current_ball=ball)


def broken(machine: str) -> MachineState:
    return MachineState(machine=machine, unplayable=True)


def reasons(states, **kwargs) -> dict[str, str]:
    return {r.machine: r.code for r in machine_choices(states, **kwargs).refused}


def test_machine_choices_every_free_unplayed_machine_allowed():
    # R5-d, R5-e: free and not played tonight.
    choices = machine_choices([free("A"), free("B")], group=1)

    assert (choices.allowed.machines, choices.refused) == (("A", "B"), ())


def test_machine_choices_unplayable_refused_as_unplayable():
    # R7.3-r
    choices = machine_choices([free("A"), broken("B")], group=1)

    (refused,) = choices.refused
    assert (refused.machine, refused.code, refused.rules) == ("B", "unplayable", ("R7.3-r",))
    assert refused.text == "out of service (declared unplayable)"


def test_machine_choices_played_machine_refused_while_an_unplayed_one_is_left():
    # R5-e, R4-b, A22, A53
    choices = machine_choices([free("A"), free("B")], group=2, played=["A"])

    (refused,) = choices.refused
    assert (refused.code, refused.rules) == ("already_played", ("R5-e", "R4-b"))
    assert refused.text == (
        "already played by this group tonight, and a machine it has not played is left"
    )


def test_machine_choices_played_machine_allowed_when_no_unplayed_one_is_left():
    # A22, A53: a repeat only when unavoidable (B is unplayable).
    choices = machine_choices([free("A"), broken("B")], group=2, played=["A"])

    assert choices.allowed.machines == ("A",)
    assert choices.allowed.repeats is True
    assert reasons([free("A"), broken("B")], group=2, played=["A"]) == {"B": "unplayable"}


def test_machine_choices_in_use_refused_with_the_group_playing_it():
    # R5-d: group 3 is on ball 1 of 3.
    choices = machine_choices([free("A"), busy("B", group=3, ball=1)], group=1)

    (refused,) = choices.refused
    assert (refused.code, refused.rules) == ("in_use", ("R5-d",))
    assert refused.text == "group 3 is playing it and is not on its final ball yet"


def test_machine_choices_in_use_on_its_final_ball_allowed():
    # R5-d, A22: ball 3 of 3 is the final ball.
    choices = machine_choices([free("A"), busy("B", group=3, ball=3)], group=1)

    assert choices.allowed.machines == ("A", "B")


def test_machine_choices_in_use_literal_reading_names_ball_3():
    # A22's literal reading
    states = [free("A"), busy("B", group=3, ball=2, balls=5)]

    (refused,) = machine_choices(
        states, group=1, ruleset=Ruleset(ball3_means="literal_ball_3")
    ).refused

    assert refused.text == "group 3 is playing it and is not on ball 3 yet"


def test_machine_choices_claimed_refused():
    # R5-g: group 3 already waits for B.
    states = [free("A"), MachineState("B", in_use_by=2, current_ball=3, claimed_by=(3,))]

    (refused,) = machine_choices(states, group=1).refused

    assert (refused.code, refused.text, refused.rules) == (
        "claimed",
        "group 3 is already waiting for it",
        ("R5-g",),
    )


def test_machine_choices_fallback_allows_the_machines_in_use():
    # R5-f: nothing free is left, so the in-use restriction is lifted.
    choices = machine_choices([busy("A", group=2, ball=1), broken("B")], group=1)

    assert (choices.allowed.machines, choices.allowed.fallback) == (("A",), True)
    assert reasons([busy("A", group=2, ball=1), broken("B")], group=1) == {"B": "unplayable"}


def test_machine_choices_no_playable_machine_refuses_every_one():
    # R7.3-r: the list still answers (the LO must designate a machine).
    choices = machine_choices([broken("A"), broken("B")], group=1)

    assert choices.allowed.machines == ()
    assert choices.allowed.fallback is False
    assert [r.code for r in choices.refused] == ["unplayable", "unplayable"]


def test_machine_choices_refused_in_the_states_order():
    states = [busy("C", group=3, ball=1), free("A"), broken("B"), free("D")]

    choices = machine_choices(states, group=1, played=["D"])

    assert [(r.machine, r.code) for r in choices.refused] == [
        ("C", "in_use"),
        ("B", "unplayable"),
        ("D", "already_played"),
    ]


def test_check_machine_choice_refusal_is_the_lists():
    # R5-d: the refusal's message is the listed refusal's, and names the allowed ones.
    states = [free("A"), busy("B", group=3, ball=1)]
    (refused,) = machine_choices(states, group=1).refused

    with pytest.raises(RuleError) as error:
        check_machine_choice("B", states, group=1)

    assert str(error.value) == f"{refused.message}; allowed: A"


def test_refusal_rules_name_a_rule_for_every_code():
    assert set(REFUSAL_RULES) == {"unplayable", "already_played", "claimed", "in_use"}


GAME_1 = PlayedGame(machine="A", order=("p1", "p2", "p3", "p4"))


def test_next_pick_last_place_of_the_previous_game_picks():
    # R5-c, A21
    pick = next_pick([GAME_1], meet_open=True, stored=1, in_play=False)

    assert pick == NextPick("p4", None, "last place among those who played game 1", ("R5-c", "A21"))


def test_next_pick_skips_a_late_joiner_after_his_first_game():
    # R5.2-d, A24: p4 joined late in game 1, so p3 picks.
    pick = next_pick([GAME_1], meet_open=True, stored=1, in_play=False, late=["p4"])

    assert pick.picker == "p3"


def test_next_pick_skips_a_player_gone_for_the_rest_of_the_match():
    # A67, R2.4-a
    pick = next_pick([GAME_1], meet_open=True, stored=1, in_play=False, absent=["p4"])

    assert pick.picker == "p3"


def test_next_pick_when_nobody_played_the_official_chooses():
    # A66: every player forfeited game 1.
    nobody = PlayedGame(machine="A", order=())

    pick = next_pick([nobody], meet_open=True, stored=1, in_play=False)

    assert (pick.picker, pick.reason, pick.rules) == (THE_LO, None, ("R5-c", "A66"))


@pytest.mark.parametrize(
    ("facts", "reason", "rules"),
    [
        ({"meet_open": False, "stored": 1, "in_play": False}, "meet_not_open", ()),
        ({"meet_open": True, "stored": 0, "in_play": False}, "first_game_drawn", ("R5-a",)),
        ({"meet_open": True, "stored": 4, "in_play": False}, "match_complete", ("R4-b",)),
        ({"meet_open": True, "stored": 2, "in_play": True}, "game_not_confirmed", ("R5-c",)),
        (
            {"meet_open": True, "stored": 1, "in_play": False, "waiting": True},
            "waiting_for_compensatory",
            ("R7.3-p",),
        ),
    ],
)
def test_next_pick_nobody_picks_and_says_why(facts, reason, rules):
    # R5-a, R4-b, R5-c, R7.3-p: in the order a pick is checked.
    pick = next_pick([GAME_1], **facts)

    assert (pick.picker, pick.reason, pick.rules) == (None, reason, rules)
    assert pick.text


state_lists = st.lists(
    st.builds(
        lambda name, balls, use, ball, down, claims: MachineState(
            machine=name,
            balls_per_game=balls,
            in_use_by=None if down or use is None else use,
            current_ball=None if down or use is None else min(ball, balls),
            unplayable=down,
            claimed_by=tuple(claims),
        ),
        name=st.sampled_from([f"M{i}" for i in range(8)]),
        balls=st.sampled_from([3, 5]),
        use=st.none() | st.integers(1, 4),
        ball=st.integers(1, 5),
        down=st.booleans(),
        claims=st.lists(st.integers(1, 4), max_size=2, unique=True),
    ),
    min_size=1,
    max_size=8,
    unique_by=lambda s: s.machine,
)
rulesets = st.sampled_from(
    [
        FWPL_V1,
        Ruleset(ball3_means="literal_ball_3"),
        Ruleset(fallback_allows_repeat="always"),
    ]
)


@given(states=state_lists, group=st.integers(1, 4), ruleset=rulesets, data=st.data())
def test_a_choice_is_accepted_exactly_when_the_list_allows_it(states, group, ruleset, data):
    # R5-d..g, R4-b, R7.3-r: every machine is allowed or refused, once; the choice check
    # accepts exactly the allowed ones and refuses the others with the listed refusal.
    played = data.draw(st.lists(st.sampled_from([s.machine for s in states]), unique=True))
    kwargs = {"group": group, "played": played, "ruleset": ruleset}

    choices = machine_choices(states, **kwargs)

    allowed = choices.allowed.machines
    refused = {r.machine: r for r in choices.refused}
    assert sorted([*allowed, *refused]) == sorted(s.machine for s in states)
    assert not set(allowed) & set(refused)
    for r in refused.values():
        assert r.rules == REFUSAL_RULES[r.code]
    if allowed:
        assert selectable_machines(states, **kwargs) == choices.allowed
    for machine in allowed:
        assert check_machine_choice(machine, states, **kwargs) == choices.allowed
    for machine, refusal in refused.items():
        with pytest.raises(RuleError) as error:
            check_machine_choice(machine, states, **kwargs)
        if allowed:  # else no playable machine at all: the LO designates one (R7.3-r)
            assert str(error.value).startswith(refusal.message)
