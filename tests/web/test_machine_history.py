"""A machine's history and reliability as the public machine page says them (R7.3-u)."""

import pytest
from django.urls import reverse

from flipwell.league import services
from tests import factories as f
from tests.league.league_night import build_night, game, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_group_night():
    night = build_night(players=4, machines=4)
    night.meet = start(night)
    night.game = game(night.meet, 1, 1)
    return night


def _page(client, one_group_night, machine):
    return client.get(f"/leagues/{one_group_night.season.league.slug}/machines/{machine.pk}/").text


def test_machine_history_lists_a_malfunction_once_r7_3_u(client, one_group_night):
    """issue 33 §3: the history listed each malfunction twice, as "malfunction" and as
    "note: major malfunction"."""
    services.report_malfunction(
        game=one_group_night.game, player=one_group_night.players[0], ball=2,
        reason_code="forced_tilt_stuck_ball", actor=one_group_night.user,
    )  # fmt: skip

    page = _page(client, one_group_night, one_group_night.game.machine)

    assert page.count('class="badge kind-malfunction"') == 1
    assert page.count('class="badge kind-note"') == 0


def test_machine_history_leaves_out_the_copy_an_older_version_wrote_r7_3_u(client, one_group_night):
    services.report_malfunction(
        game=one_group_night.game, player=one_group_night.players[0], ball=2,
        reason_code="forced_tilt_stuck_ball", actor=one_group_night.user,
    )  # fmt: skip
    f.MaintenanceNoteFactory(
        machine=one_group_night.game.machine,
        meet=one_group_night.meet,
        created_by=one_group_night.user,
        text="major malfunction: Stuck ball, ball 2, group 1 game 1 (R7.3-i)",
    )  # fmt: skip
    f.MaintenanceNoteFactory(machine=one_group_night.game.machine, text="New flipper rubbers")

    page = _page(client, one_group_night, one_group_night.game.machine)

    assert page.count('class="badge kind-malfunction"') == 1
    assert page.count('class="badge kind-note"') == 1
    assert "New flipper rubbers" in page


def test_machine_reliability_says_days_out_of_service_in_a_sentence_r7_3_u(client, one_group_night):
    """issue 33 §3: "Days out of service 0 of 1" read as a puzzle."""
    page = _page(client, one_group_night, one_group_night.game.machine)

    assert "In service every day since the season's first meet." in page
    assert "Days out of service" not in page


def test_the_meet_board_links_each_game_to_its_machine_page(client, one_group_night):
    """The board builds each link from the machines page's URL (reversed once per board, not
    per game): it must stay the machine page's own URL."""
    league = one_group_night.season.league
    machine = one_group_night.game.machine
    board = client.get(f"/leagues/{league.slug}/meets/{one_group_night.meet.pk}/").text

    assert f'href="{reverse("web:machine", args=[league.slug, machine.pk])}"' in board
    assert client.get(reverse("web:machine", args=[league.slug, machine.pk])).status_code == 200
