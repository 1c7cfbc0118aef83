"""Machines at a meet (§5, §5.1, §7.3): the choice of each next machine, declarations of
unplayable and repaired machines, and the replacement of a game's machine that became
unplayable."""

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.services.meet_machines.declarations import (
    declare_machine_repaired,
    declare_machine_unplayable,
)
from flipwell.league.services.meet_machines.next_machine import choose_next_machine
from flipwell.league.services.meet_machines.replacement import replace_machine
from tests.league.league_night import build_night, free_machine, game, group, next_game
from tests.league.league_night import play as play_game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db


def _declared_unplayable(meet, machine):
    return m.MachineDeclaration.objects.filter(
        meet=meet, machine=machine, kind=m.MachineDeclaration.Kind.UNPLAYABLE
    ).exists()


# --- choose_next_machine ---------------------------------------------------------------------


def _play_first_game(night, meet):
    a = night.players
    return play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})


def test_choose_next_machine_by_the_last_placed_player():
    """R5-c, A21: 4th place picks; R5.2-b: play order follows game 1's finishing order."""
    night = build_night()
    meet = start_night(night)
    a = night.players
    play_game(game(meet, 1, 1), {a[1]: 100, a[0]: 50, a[3]: 30, a[2]: 10})

    chosen = choose_next_machine(
        group=group(meet, 1), machine=free_machine(meet, 1), chosen_by=a[2]
    )

    assert (chosen.game.number, chosen.game.chosen_by) == (2, a[2])
    assert chosen.play_order == (a[1].pk, a[0].pk, a[3].pk, a[2].pk)


def test_choose_next_machine_by_another_player_refused():
    night = build_night()
    meet = start_night(night)
    _play_first_game(night, meet)

    with pytest.raises(ValidationError) as caught:
        choose_next_machine(
            group=group(meet, 1), machine=free_machine(meet, 1), chosen_by=night.players[0]
        )

    assert caught.value.message_dict["chosen_by"][0].startswith(
        f"{night.players[3]} picks the machine for game 2 of group 1"
    )


def test_choose_next_machine_already_played_refused():
    """R5-e: not a machine the group played tonight while unplayed ones remain."""
    night = build_night()
    meet = start_night(night)
    _play_first_game(night, meet)

    with pytest.raises(ValidationError) as caught:
        choose_next_machine(
            group=group(meet, 1), machine=game(meet, 1, 1).machine, chosen_by=night.players[3]
        )

    assert "already played" in caught.value.message_dict["machine"][0]
    assert "(R5-e, R4-b)" in caught.value.message_dict["machine"][0]


def test_choose_next_machine_in_use_by_another_group_refused():
    """R5-d: a machine with another group's unconfirmed game is in use."""
    night = build_night()
    meet = start_night(night)
    _play_first_game(night, meet)

    with pytest.raises(ValidationError) as caught:
        choose_next_machine(
            group=group(meet, 1), machine=game(meet, 2, 1).machine, chosen_by=night.players[3]
        )

    assert "is in use by group 2" in caught.value.message_dict["machine"][0]


def test_choose_next_machine_before_the_game_is_confirmed_refused():
    night = build_night()
    meet = start_night(night)

    with pytest.raises(ValidationError) as caught:
        choose_next_machine(
            group=group(meet, 1), machine=free_machine(meet, 1), chosen_by=night.players[3]
        )

    assert caught.value.messages == [
        "Game 1 of group 1 has no confirmed scores yet: the next machine is chosen after it (R5-c)."
    ]


# --- machine declarations (R7.3-q, R7.3-r) ---------------------------------------------------


def test_declare_machine_unplayable_then_repaired(night, meet):
    """R7.3-q, R7.3-r: out of every choice until marked repaired."""
    machine = night.machines[-1]
    declare_machine_unplayable(meet=meet, machine=machine, reason="Coil fire", actor=night.user)
    with pytest.raises(ValidationError) as caught:
        declare_machine_unplayable(meet=meet, machine=machine, reason="Again", actor=night.user)
    assert caught.value.message_dict["machine"] == [
        f"{machine} is already unplayable at this meet."
    ]

    declare_machine_repaired(meet=meet, machine=machine, reason="Coil replaced",
                             actor=night.user)  # fmt: skip

    assert list(m.MachineDeclaration.objects.values_list("kind", flat=True)) == [
        "unplayable", "repaired",
    ]  # fmt: skip


def test_declare_machine_unplayable_without_reason_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        declare_machine_unplayable(meet=meet, machine=night.machines[0], reason="",
                                   actor=night.user)  # fmt: skip

    assert "needs a reason" in caught.value.message_dict["reason"][0]


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

    assert "choose its replacement (R5.1-a, A23)" in caught.value.message_dict["chosen_by"][0]


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
