"""Machine selection and play order at regular meets (§5, §5.1, §5.2, §4, R7.3-r).

R5-a..g, R5.1-a, R5.2-a..d, R4-b, A21..A25, A53, A61. Machine states are written out so each
test shows which machine is free, in use (group, ball of balls), unplayable or claimed.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, RuleError, Ruleset
from flipwell.rules.machine_choices import (
    MachineState,
    SelectableMachines,
    check_machine_choice,
    on_final_ball,
    selectable_machines,
)
from flipwell.rules.machine_draws import draw_first_machines, draw_machine
from flipwell.rules.machine_replacement import Replacement, replacement_machine
from flipwell.rules.play_order import play_order
from flipwell.rules.selection import THE_LO, PlayedGame, machine_picker

MACHINES = ["Attack from Mars", "Funhouse", "Medieval Madness", "Monster Bash", "Twilight Zone"]


def free(machine: str, balls: int = 3) -> MachineState:
    return MachineState(machine=machine, balls_per_game=balls)


def busy(machine: str, group: int, ball: int, balls: int = 3) -> MachineState:
    return MachineState(machine=machine, balls_per_game=balls, in_use_by=group, current_ball=ball)


def broken(machine: str) -> MachineState:
    return MachineState(machine=machine, unplayable=True)


# --- Random first machines (R5-a, A61, A16, R7.3-r) ---------------------------------------------


def test_draw_first_machines_recorded_seed_replays_pinned_draw():
    # R5-a, A61: a recorded seed must give the same draw forever, so the draw is pinned here;
    # it only uses random.Random(seed).random(), whose sequence Python guarantees.
    draw = draw_first_machines(4, MACHINES, seed=42)

    assert draw.machines == ("Funhouse", "Medieval Madness", "Twilight Zone", "Attack from Mars")
    assert draw.seed == 42
    assert draw.warnings == ()


def test_draw_first_machines_input_order_does_not_change_draw():
    # R5-a: the draw depends on the set of machines and the seed, not the list's order.
    forward = draw_first_machines(3, MACHINES, seed=9)

    backward = draw_first_machines(3, list(reversed(MACHINES)), seed=9)

    assert backward == forward


def test_draw_first_machines_seeds_give_different_draws():
    # R5-a: the assignment is random: seeds 0..19 do not all give the same draw.
    draws = {draw_first_machines(3, MACHINES, seed=s).machines for s in range(20)}

    assert len(draws) > 1


def test_draw_first_machines_skips_unplayable_machine():
    # R7.3-r, R5-a: with 4 of 5 machines playable and 4 groups, the 4 playable ones are drawn.
    draw = draw_first_machines(4, MACHINES, seed=3, unplayable=["Funhouse"])

    assert sorted(draw.machines) == [
        "Attack from Mars",
        "Medieval Madness",
        "Monster Bash",
        "Twilight Zone",
    ]


def test_draw_first_machines_more_groups_than_machines_queue_evenly_and_warn():
    # A61, A16: 5 groups on 2 machines: each machine is drawn before any repeats, so the
    # counts are 3 and 2, and 3 groups queue.
    draw = draw_first_machines(5, ["A", "B"], seed=7)

    assert sorted(draw.machines.count(m) for m in ("A", "B")) == [2, 3]
    assert set(draw.machines[:2]) == {"A", "B"}
    assert draw.warnings == (
        "5 groups but only 2 playable machines: 3 groups will queue for their first game "
        "(A16, A61)",
    )


def test_draw_first_machines_no_groups_draws_nothing():
    # R5-a: a meet with no groups draws no machines.
    draw = draw_first_machines(0, MACHINES, seed=1)

    assert draw.machines == ()


def test_draw_first_machines_every_machine_unplayable_refused():
    # R7.3-r: unplayable machines are never drawn, so there is nothing to draw from.
    with pytest.raises(RuleError, match="no playable machine for 2 groups"):
        draw_first_machines(2, ["A", "B"], seed=1, unplayable=["A", "B"])


def test_draw_first_machines_unknown_unplayable_machine_refused():
    with pytest.raises(RuleError, match=r"unplayable machine\(s\) Z are not among"):
        draw_first_machines(2, ["A", "B"], seed=1, unplayable=["Z"])


def test_draw_first_machines_unplayable_given_as_string_refused():
    with pytest.raises(RuleError, match="the unplayable machines must be a list of machines"):
        draw_first_machines(2, ["A", "B"], seed=1, unplayable="A")


@pytest.mark.parametrize("seed", [-1, True, 1.5, "42"])
def test_draw_first_machines_bad_seed_refused(seed):
    with pytest.raises(RuleError, match="random seed must be an integer"):
        draw_first_machines(2, ["A", "B"], seed=seed)


def test_draw_first_machines_duplicate_machine_refused():
    with pytest.raises(RuleError, match="A appears twice in the meet's machines"):
        draw_first_machines(1, ["A", "A"], seed=1)


machine_pools = st.lists(
    st.sampled_from([f"M{i}" for i in range(12)]), min_size=1, max_size=12, unique=True
)


@given(
    pool=machine_pools,
    groups=st.integers(0, 10),
    seed=st.integers(0, 2**64),
    data=st.data(),
)
def test_draw_first_machines_properties(pool, groups, seed, data):
    # R5-a, A61, R7.3-r: a pure function of the seed; never an unplayable machine; distinct
    # machines while there are enough; otherwise no machine twice before all once.
    down = data.draw(st.lists(st.sampled_from(pool), unique=True, max_size=len(pool) - 1))
    playable = [m for m in pool if m not in down]

    draw = draw_first_machines(groups, pool, seed=seed, unplayable=down)
    again = draw_first_machines(groups, list(reversed(pool)), seed=seed, unplayable=down)

    assert again == draw
    assert len(draw.machines) == groups
    assert set(draw.machines) <= set(playable)
    counts = [draw.machines.count(m) for m in playable]
    assert max(counts) - min(counts) <= 1
    if groups <= len(playable):
        assert len(set(draw.machines)) == groups
        assert draw.warnings == ()
    else:
        assert len(draw.warnings) == 1


# --- Who picks the next machine (R5-c, A21, R5.2-d, A24) ----------------------------------------


def test_machine_picker_four_players_fourth_place_picks():
    # R5-c: the fourth-place player of the previous game picks.
    games = [PlayedGame("Funhouse", ("A", "B", "C", "D"))]

    assert machine_picker(games) == "D"


def test_machine_picker_three_players_third_place_picks():
    # A21: a 3-player group has no 4th place: the last place (3rd) picks.
    games = [PlayedGame("Funhouse", ("C", "A", "B"))]

    assert machine_picker(games) == "B"


def test_machine_picker_forfeiter_never_picks():
    # A21, R5-c: D forfeited game 2 (he is not in its order), so 3rd of those who played picks.
    games = [
        PlayedGame("Funhouse", ("A", "B", "C", "D")),
        PlayedGame("Monster Bash", ("B", "A", "C"), selector="D"),
    ]

    assert machine_picker(games) == "C"


def test_machine_picker_two_players_after_forfeits_second_picks():
    # A21: two forfeits leave a 2-player game: 2nd of 2 picks.
    games = [PlayedGame("Funhouse", ("B", "A"))]

    assert machine_picker(games) == "A"


def test_machine_picker_late_joiner_in_first_game_passes_pick_up():
    """R5.2-d, A24: D joined game 1 late and finished last; the pick passes to C, next lowest."""
    games = [PlayedGame("Funhouse", ("A", "B", "C", "D"))]

    picker = machine_picker(games, late=["D"])

    assert picker == "C"


def test_machine_picker_late_joiner_first_game_is_game_two():
    # R5.2-d, A24: D forfeited game 1 and played game 2 as his first game: no pick after it.
    games = [
        PlayedGame("Funhouse", ("A", "B", "C")),
        PlayedGame("Monster Bash", ("A", "B", "D", "C"), selector="C"),
    ]

    picker = machine_picker(games, late=["C", "D"])

    assert picker == "C"


def test_machine_picker_late_joiner_picks_after_his_second_game():
    # A24 default scope "first_game_played": later picks are normal.
    games = [
        PlayedGame("Funhouse", ("A", "B", "C", "D")),
        PlayedGame("Monster Bash", ("A", "B", "C", "D"), selector="C"),
    ]

    picker = machine_picker(games, late=["D"])

    assert picker == "D"


def test_machine_picker_whole_night_scope_bars_late_joiner_all_night():
    # A24 alternative "whole_night": D never picks that night, so C picks after game 2.
    games = [
        PlayedGame("Funhouse", ("A", "B", "C", "D")),
        PlayedGame("Monster Bash", ("A", "B", "C", "D"), selector="C"),
    ]
    ruleset = Ruleset(late_joiner_no_pick_scope="whole_night")

    picker = machine_picker(games, late=["D"], ruleset=ruleset)

    assert picker == "C"


def test_machine_picker_every_finisher_barred_last_place_picks():
    # R5.2-d: someone must pick; when every finisher joined late in this game, last place does.
    games = [PlayedGame("Funhouse", ("A", "B"))]

    picker = machine_picker(games, late=["A", "B"])

    assert picker == "B"


def test_machine_picker_before_game_one_refused():
    # R5-a: game 1 is randomly assigned, so it has no picker.
    with pytest.raises(RuleError, match=r"game 1 has no picker: .* randomly assigned \(R5-a\)"):
        machine_picker([])


def test_machine_picker_nobody_played_is_the_lo():
    """issue 27 §3, R5-c, A66: every player forfeited game 1, so no player may pick: the LO."""
    picker = machine_picker([PlayedGame("Funhouse", ())])

    assert picker is THE_LO
    assert str(picker) == "the LO"


def test_draw_machine_is_reproducible_from_its_seed():
    """A66 (as R5-a, A61): the same seed and machines draw the same one, in any input order."""
    machines = ["Funhouse", "Medieval Madness", "Twilight Zone", "Attack from Mars"]

    drawn = {draw_machine(order, seed=11) for order in (machines, list(reversed(machines)))}

    assert len(drawn) == 1
    assert drawn <= set(machines)


def test_draw_machine_from_no_machine_refused():
    with pytest.raises(RuleError, match="no machine to draw from"):
        draw_machine([], seed=1)


def test_machine_picker_late_given_as_string_refused():
    # A bare string would silently read as its letters.
    with pytest.raises(RuleError, match="the late players must be a list of players"):
        machine_picker([PlayedGame("Funhouse", ("A", "B", "C"))], late="C")


players = st.lists(st.sampled_from("ABCD"), min_size=1, max_size=4, unique=True)


@given(orders=st.lists(players, min_size=1, max_size=4), late=st.sets(st.sampled_from("ABCD")))
def test_machine_picker_is_lowest_unbarred_player_of_the_previous_game(orders, late):
    # R5-c, A21, R5.2-d, A24: the picker played the previous game; every finisher below him
    # is a late player in his first game; he is barred himself only if everyone is.
    games = [PlayedGame(f"M{i}", tuple(order)) for i, order in enumerate(orders)]
    last = games[-1].order
    first_games = {p: next(i for i, g in enumerate(games) if p in g.order) for p in last}
    barred = {p for p in last if p in late and first_games[p] == len(games) - 1}

    picker = machine_picker(games, late=late)

    assert picker in last
    assert set(last[last.index(picker) + 1 :]) <= barred
    if picker in barred:
        assert barred == set(last)


# --- Which machines are selectable (R5-d..g, R4-b, A22, A53, R7.3-r) ---------------------------


def test_selectable_machines_excludes_machines_played_tonight():
    # R5-e: the group may not pick a machine it already played tonight.
    states = [free("A"), free("B"), free("C")]

    result = selectable_machines(states, group=1, played=["A"])

    assert result == SelectableMachines(
        machines=("B", "C"), fallback=False, repeats=False, claimed=False
    )


def test_selectable_machines_excludes_machine_in_use_before_final_ball():
    # R5-d: B is in use by group 2 on ball 2 of 3, so only A is selectable.
    states = [free("A"), busy("B", group=2, ball=2)]

    result = selectable_machines(states, group=1)

    assert result.machines == ("A",)


def test_selectable_machines_includes_machine_on_other_groups_ball_three():
    # R5-d, A22: a machine whose group is on ball 3 of 3 is selectable.
    states = [free("A"), busy("B", group=2, ball=3)]

    result = selectable_machines(states, group=1)

    assert result.machines == ("A", "B")


def test_selectable_machines_five_ball_machine_on_ball_three_not_final():
    # A22 default "final_ball": ball 3 of a 5-ball machine is not its final ball.
    states = [free("A"), busy("B", group=2, ball=3, balls=5)]

    result = selectable_machines(states, group=1)

    assert result.machines == ("A",)


def test_selectable_machines_literal_ball_three_reading():
    # A22 alternative "literal_ball_3": ball 3 of 5 counts.
    states = [free("A"), busy("B", group=2, ball=3, balls=5)]
    ruleset = Ruleset(ball3_means="literal_ball_3")

    result = selectable_machines(states, group=1, ruleset=ruleset)

    assert result.machines == ("A", "B")


def test_on_final_ball_five_of_five_and_free_machine():
    # A22: ball 5 of 5 is the final ball; a free machine is on no ball.
    assert on_final_ball(busy("B", group=2, ball=5, balls=5)) is True
    assert on_final_ball(free("A")) is False


def test_selectable_machines_fallback_lifts_in_use_keeps_no_repeat():
    # R5-f, A22: every unplayed machine is in use before its final ball, so the in-use
    # restriction is lifted; A, already played and free, is still refused (R5-e).
    states = [free("A"), busy("B", group=2, ball=1), busy("C", group=3, ball=2)]

    result = selectable_machines(states, group=1, played=["A"])

    assert result == SelectableMachines(
        machines=("B", "C"), fallback=True, repeats=False, claimed=False
    )


def test_selectable_machines_fallback_always_allows_repeat():
    # A22 alternative fallback_allows_repeat="always": the fallback lifts the no-repeat rule too.
    states = [free("A"), busy("B", group=2, ball=1)]
    ruleset = Ruleset(fallback_allows_repeat="always")

    result = selectable_machines(states, group=1, played=["A"], ruleset=ruleset)

    assert result == SelectableMachines(
        machines=("A", "B"), fallback=True, repeats=True, claimed=False
    )


def test_selectable_machines_always_still_refuses_repeat_when_unplayed_is_free():
    # R5-e under fallback_allows_repeat="always": no fallback while B is free and unplayed.
    states = [free("A"), free("B")]
    ruleset = Ruleset(fallback_allows_repeat="always")

    result = selectable_machines(states, group=1, played=["A"], ruleset=ruleset)

    assert result.machines == ("B",)


def test_selectable_machines_repeat_only_when_no_unplayed_machine():
    # R4-b, A53: C is unplayable and A, B were played, so repeats are allowed (and logged).
    states = [free("A"), busy("B", group=2, ball=1), broken("C")]

    result = selectable_machines(states, group=1, played=["A", "B"])

    assert result == SelectableMachines(
        machines=("A",), fallback=False, repeats=True, claimed=False
    )


def test_selectable_machines_never_unplayable_even_in_fallback():
    # R7.3-r: C is unplayable; in the R5-f fallback only B remains.
    states = [busy("B", group=2, ball=1), broken("C")]

    result = selectable_machines(states, group=1)

    assert result.machines == ("B",)
    assert result.fallback is True


def test_selectable_machines_excludes_machine_another_group_waits_for():
    # R5-g: group 3 is already waiting for B (on group 2's final ball): only A remains.
    states = [
        busy("A", group=4, ball=3),
        MachineState("B", in_use_by=2, current_ball=3, claimed_by=(3,)),
    ]

    result = selectable_machines(states, group=1)

    assert result.machines == ("A",)


def test_selectable_machines_own_claim_does_not_exclude():
    # R5-g: only another group's claim counts; group 1 waiting for B may keep it.
    states = [free("A"), MachineState("B", in_use_by=2, current_ball=3, claimed_by=(1,))]

    result = selectable_machines(states, group=1)

    assert result.machines == ("A", "B")


def test_selectable_machines_prefers_unclaimed_in_use_machine_over_claimed():
    # R5-g, R5-f: the only open machine B is claimed by group 3, so the fallback offers the
    # unclaimed machine A although it is on ball 1.
    states = [
        busy("A", group=4, ball=1),
        MachineState("B", in_use_by=2, current_ball=3, claimed_by=(3,)),
    ]

    result = selectable_machines(states, group=1)

    assert result == SelectableMachines(
        machines=("A",), fallback=True, repeats=False, claimed=False
    )


def test_selectable_machines_only_claimed_machines_remain():
    # R5-g: "unless only such machines remain".
    states = [MachineState("B", in_use_by=2, current_ball=1, claimed_by=(3,)), broken("C")]

    result = selectable_machines(states, group=1)

    assert result == SelectableMachines(machines=("B",), fallback=True, repeats=False, claimed=True)


def test_selectable_machines_no_playable_machine_refused():
    # R7.3-r: nothing playable is left; the LO must act.
    with pytest.raises(
        RuleError, match=r"no playable machine is left: the LO must designate one \(R7.3-r\)"
    ):
        selectable_machines([broken("A")], group=1)


def test_selectable_machines_played_machine_unknown_refused():
    with pytest.raises(RuleError, match=r"played machine\(s\) Z are not among"):
        selectable_machines([free("A")], group=1, played=["Z"])


def test_selectable_machines_group_zero_refused():
    with pytest.raises(RuleError, match="group number must be an integer of at least 1"):
        selectable_machines([free("A")], group=0)


def test_machine_state_in_use_without_ball_refused():
    with pytest.raises(RuleError, match="in use needs both the group and its current ball"):
        MachineState("A", in_use_by=2)


def test_machine_state_ball_beyond_balls_per_game_refused():
    with pytest.raises(RuleError, match="A has 3 balls per game, so its current ball cannot be 4"):
        MachineState("A", in_use_by=2, current_ball=4)


def test_machine_state_unplayable_and_in_use_refused():
    with pytest.raises(RuleError, match="cannot be both unplayable and in use"):
        MachineState("A", in_use_by=2, current_ball=1, unplayable=True)


def test_machine_state_empty_name_refused():
    with pytest.raises(RuleError, match="machine must be a non-empty string"):
        MachineState("  ")


# --- Validating a chosen machine -----------------------------------------------------------------


def test_check_machine_choice_allowed_returns_selection():
    # R5-d: B on group 2's final ball may be chosen.
    states = [free("A"), busy("B", group=2, ball=3)]

    result = check_machine_choice("B", states, group=1)

    assert result.machines == ("A", "B")


def test_check_machine_choice_unplayable_refused():
    # R7.3-r
    states = [free("Attack from Mars"), broken("Medieval Madness")]

    with pytest.raises(RuleError) as error:
        check_machine_choice("Medieval Madness", states, group=1)

    assert str(error.value) == (
        "machine Medieval Madness is unplayable (R7.3-r); allowed: Attack from Mars"
    )


def test_check_machine_choice_repeat_refused():
    # R5-e, R4-b: A was played and B is unplayed.
    states = [free("A"), free("B")]

    with pytest.raises(RuleError) as error:
        check_machine_choice("A", states, group=2, played=["A"])

    assert str(error.value) == (
        "group 2 has already played A tonight and unplayed machines remain (R5-e, R4-b); allowed: B"
    )


def test_check_machine_choice_in_use_refused():
    # R5-d: B is on ball 1 of 3 of group 3's game.
    states = [free("A"), busy("B", group=3, ball=1)]

    with pytest.raises(RuleError) as error:
        check_machine_choice("B", states, group=1)

    assert str(error.value) == (
        "machine B is in use by group 3 on ball 1 of 3, not its final ball (R5-d); allowed: A"
    )


def test_check_machine_choice_in_use_literal_reading_message():
    # A22 literal reading names ball 3 in the message.
    states = [free("A"), busy("B", group=3, ball=2, balls=5)]
    ruleset = Ruleset(ball3_means="literal_ball_3")

    with pytest.raises(RuleError) as error:
        check_machine_choice("B", states, group=1, ruleset=ruleset)

    assert str(error.value) == (
        "machine B is in use by group 3 on ball 2 of 5, not ball 3 (R5-d); allowed: A"
    )


def test_check_machine_choice_claimed_refused():
    # R5-g: group 3 is already waiting for B.
    states = [free("A"), MachineState("B", in_use_by=2, current_ball=3, claimed_by=(3,))]

    with pytest.raises(RuleError) as error:
        check_machine_choice("B", states, group=1)

    assert str(error.value) == "group 3 is already waiting for B (R5-g); allowed: A"


def test_check_machine_choice_claimed_by_two_groups_message():
    # R5-g
    states = [free("A"), MachineState("B", in_use_by=2, current_ball=3, claimed_by=(3, 4))]

    with pytest.raises(RuleError) as error:
        check_machine_choice("B", states, group=1)

    assert str(error.value) == "groups 3, 4 are already waiting for B (R5-g); allowed: A"


def test_check_machine_choice_unknown_machine_refused():
    with pytest.raises(RuleError) as error:
        check_machine_choice("Z", [free("A")], group=1)

    assert str(error.value) == "machine Z is not one of this meet's machines; allowed: A"


def test_check_machine_choice_fallback_in_use_allowed():
    # R5-f: nothing free or on a final ball is left, so the in-use machine B may be chosen.
    states = [busy("B", group=3, ball=1)]

    result = check_machine_choice("B", states, group=1)

    assert result.fallback is True


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


@given(states=state_lists, group=st.integers(1, 4), data=st.data())
def test_selectable_machines_invariants(states, group, data):
    # R7.3-r, R5-e, R4-b, R5-d, R5-f: never unplayable; a repeat only if no playable machine
    # is unplayed; an in-use machine only in the fallback; each listed machine passes the check.
    played = data.draw(st.lists(st.sampled_from([s.machine for s in states]), unique=True))
    playable = [s for s in states if not s.unplayable]
    if not playable:
        with pytest.raises(RuleError):
            selectable_machines(states, group=group, played=played)
        return

    result = selectable_machines(states, group=group, played=played)

    by_name = {s.machine: s for s in states}
    assert result.machines
    assert all(not by_name[m].unplayable for m in result.machines)
    if any(s.machine not in played for s in playable):
        assert all(m not in played for m in result.machines)
    if not result.fallback:
        for m in result.machines:
            s = by_name[m]
            assert s.in_use_by in (None, group) or on_final_ball(s)
    for m in result.machines:
        assert check_machine_choice(m, states, group=group, played=played) == result
    for s in states:
        if s.machine not in result.machines:
            with pytest.raises(RuleError):
                check_machine_choice(s.machine, states, group=group, played=played)


# --- Replacement machine (R5.1-a, A23) -----------------------------------------------------------


def test_replacement_machine_original_selector_chooses():
    # R5.1-a, A23: C picked B, which broke; C chooses among the §5-selectable machines.
    states = [free("A"), busy("B", group=1, ball=2), free("D")]

    result = replacement_machine("B", states, group=1, selector="C", played=["A"])

    assert result == Replacement(
        by="selector", chooser="C", machine=None, options=("D",), seed=None
    )


def test_replacement_machine_randomly_assigned_is_redrawn_from_seed():
    # R5.1-a, A23: game 1 was randomly assigned, so the replacement is drawn at random again.
    states = [busy("B", group=1, ball=1), free("A"), free("D"), free("E")]

    first = replacement_machine("B", states, group=1, selector=None, seed=11)
    second = replacement_machine("B", states, group=1, selector=None, seed=11)

    assert first == second
    assert first.by == "random"
    assert first.options == ("A", "D", "E")
    assert first.machine == "A"  # pinned: the seed must replay the same redraw


def test_replacement_machine_random_without_seed_refused():
    # A23: a random redraw needs a recorded seed.
    with pytest.raises(RuleError, match=r"drawn at random: a random seed is required"):
        replacement_machine("B", [busy("B", group=1, ball=1), free("A")], group=1, selector=None)


def test_replacement_machine_lo_designates():
    # A23 alternative, R7.3-s: the LO designates the machine; the §5 options are still listed.
    states = [busy("B", group=1, ball=1), free("A")]
    ruleset = Ruleset(replacement_selector="lo_designates")

    result = replacement_machine("B", states, group=1, selector="C", ruleset=ruleset)

    assert result == Replacement(by="lo", chooser=None, machine=None, options=("A",), seed=None)


def test_replacement_machine_unknown_machine_refused():
    with pytest.raises(RuleError, match="machine Z is not one of this meet's machines"):
        replacement_machine("Z", [free("A")], group=1, selector="C")


# --- Play order (R5-b, R5.2-a, R5.2-b, R5.2-c, A25) ---------------------------------------------


def test_play_order_game_one_follows_seeding():
    """R5-b, R5.2-a: game 1 in seeding order, highest seed first."""
    order = play_order(["A", "B", "C", "D"])

    assert order == ["A", "B", "C", "D"]


def test_play_order_later_game_follows_previous_results():
    # R5.2-b: 1st of the previous game plays first, then 2nd, and so on.
    games = [PlayedGame("Funhouse", ("C", "A", "D", "B"))]

    order = play_order(["A", "B", "C", "D"], games=games)

    assert order == ["C", "A", "D", "B"]


def test_play_order_after_the_fourth_game_is_empty():
    """§4, R5.2-b: a match is four games; after the fourth there is no next game to order
    (the TV listed "1. Alice, 2. Frank" for a game 5 nobody plays, issue 27 §5)."""
    games = [PlayedGame(f"Machine {n}", ("C", "A", "D", "B")) for n in range(1, 5)]

    assert play_order(["A", "B", "C", "D"], games=games[:3]) == ["C", "A", "D", "B"]
    assert play_order(["A", "B", "C", "D"], games=games) == []


def test_play_order_returning_forfeiter_after_finishers_in_ladder_order():
    # A25: B and D forfeited game 1; they follow the finishers, in ladder order.
    games = [PlayedGame("Funhouse", ("C", "A"))]

    order = play_order(["A", "B", "C", "D"], games=games)

    assert order == ["C", "A", "B", "D"]


def test_play_order_late_joiner_in_game_one_plays_last():
    # R5.2-c: A, the top seed, joined game 1 late, so he plays last in it.
    order = play_order(["A", "B", "C", "D"], late=["A"])

    assert order == ["B", "C", "D", "A"]


def test_play_order_late_joiner_after_returning_forfeiter():
    # R5.2-c, A25: A forfeited game 1 (late, could not join); B forfeited it too but is no
    # late joiner. Game 2: finishers, then B, then A last in his first game.
    games = [PlayedGame("Funhouse", ("D", "C"))]

    order = play_order(["A", "B", "C", "D"], games=games, late=["A"])

    assert order == ["D", "C", "B", "A"]


def test_play_order_late_joiner_second_game_uses_results():
    # R5.2-b: after his first game the late joiner is ordered by his result like anyone.
    games = [PlayedGame("Funhouse", ("B", "C", "D", "A"))]

    order = play_order(["A", "B", "C", "D"], games=games, late=["A"])

    assert order == ["B", "C", "D", "A"]
    games = [PlayedGame("Funhouse", ("B", "C", "A", "D"))]
    assert play_order(["A", "B", "C", "D"], games=games, late=["A"]) == ["B", "C", "A", "D"]


def test_play_order_absent_player_left_out():
    # R2.4-a: D forfeits game 2 (not present), so he has no position.
    games = [PlayedGame("Funhouse", ("D", "C", "B", "A"))]

    order = play_order(["A", "B", "C", "D"], games=games, present=["A", "B", "C"])

    assert order == ["C", "B", "A"]


def test_play_order_player_outside_group_refused():
    with pytest.raises(RuleError, match="E listed as present but not in the group"):
        play_order(["A", "B", "C"], present=["A", "E"])


def test_play_order_game_naming_outsider_refused():
    with pytest.raises(RuleError, match="game 1 lists E, who are not in the group"):
        play_order(["A", "B", "C"], games=[PlayedGame("Funhouse", ("E", "A"))])


@given(
    group=st.permutations("ABCD").map(list) | st.permutations("ABC").map(list),
    data=st.data(),
)
def test_play_order_is_permutation_of_present_players(group, data):
    # R5.2-a, R5.2-b, R5.2-c, A25: every present player gets exactly one position.
    orders = data.draw(
        st.lists(st.lists(st.sampled_from(group), unique=True).map(tuple), max_size=3)
    )
    games = [PlayedGame(f"M{i}", order) for i, order in enumerate(orders)]
    present = data.draw(st.lists(st.sampled_from(group), unique=True))
    late = data.draw(st.lists(st.sampled_from(group), unique=True))

    order = play_order(group, games=games, present=present, late=late)

    assert sorted(order) == sorted(present)
    joining = [p for p in order if p in late and not any(p in g.order for g in games)]
    assert order[len(order) - len(joining) :] == joining


def test_ruleset_defaults_for_selection():
    # A21..A25, A61: FWPL_V1 carries the documented defaults.
    assert (
        FWPL_V1.machine_selector,
        FWPL_V1.ball3_means,
        FWPL_V1.fallback_allows_repeat,
        FWPL_V1.replacement_selector,
        FWPL_V1.late_joiner_no_pick_scope,
        FWPL_V1.play_order_returning_players,
    ) == (
        "last_place_present",
        "final_ball",
        "only_if_no_unplayed_machine",
        "original_selector_else_random",
        "first_game_played",
        "after_finishers_in_ladder_order",
    )


@pytest.mark.parametrize(
    ("picker", "by_official", "chosen_by", "verdict"),
    [
        ("p4", False, "p4", "picks"),  # R5-c, A21: the picker picks
        ("p4", False, "p1", "not_the_picker"),  # R5-c: nobody else does
        ("p4", True, None, "player_picks"),  # A66: the LO only when nobody may
        (THE_LO, True, None, "picks"),  # A66: nobody played the previous game
        (THE_LO, False, "p1", "official_chooses"),  # A66: no player picks then
    ],
)
def test_pick_verdict_r5_c_a66(
    picker: str, by_official: bool, chosen_by: str | None, verdict: str
) -> None:
    """R5-c, A21, A66: who may choose the next machine, a player or the LO."""
    from flipwell.rules.selection import pick_verdict

    assert pick_verdict(picker, by_official=by_official, chosen_by=chosen_by) == verdict
