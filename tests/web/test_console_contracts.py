"""One contract per use case: a console form's fields are its service's keyword arguments,
passed through once (`run`), its ids cleaned into the league's own rows. Each form below is
posted and recorded, so a field named apart from its service's argument fails here; an id of
another league's (or another meet's) row is refused on the form, and nothing is written."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests import factories as f
from tests.league.league_night import build_night, game, play, start

pytestmark = pytest.mark.django_db


def test_malfunctions_page_records_a_compensatory_game_r7_3_m(client, spring_night):
    victim = spring_night.players[0]
    services.report_malfunction(
        game=spring_night.game, player=victim, ball=1, reason_code="power_loss", ball_in_play=False,
        actor=spring_night.user,
    )  # fmt: skip
    services.request_compensatory_game(
        game=spring_night.game, player=victim, actor=spring_night.user
    )

    response = client.post(
        spring_night.meet_url + "malfunctions/",
        {"action": "compensatory", "game": spring_night.game.pk, "player": victim.pk,
         "new_score": "700,000", "leading_subtracted": "", "state_subtracted": ""},
    )  # fmt: skip

    assert response.status_code == 302
    played = m.CompensatoryGame.objects.get()
    assert (played.new_score, played.leading_subtracted, played.state_subtracted) == (
        700_000,
        0,
        0,
    )


def test_machines_page_announces_a_problem_r7_3_g(client, spring_night):
    machine = spring_night.league.machines.first()

    response = client.post(
        "/manage/tuesday/machines/",
        {"action": "problem", "machine": machine.pk, "problem": "Left ramp diverter sticks"},
    )

    assert response.status_code == 302
    assert m.AnnouncedProblem.objects.get().machine == machine


def test_machines_page_declares_a_machine_repaired(client, spring_night):
    machine = spring_night.league.machines.first()
    services.declare_machine_unplayable(
        meet=spring_night.meet,
        machine=machine,
        reason="Left flipper dead.",
        actor=spring_night.user,
    )

    response = client.post(
        "/manage/tuesday/machines/",
        {"action": "declare", "machine": machine.pk, "kind": "repaired", "reason": "Coil swapped"},
    )

    assert response.status_code == 302
    assert m.MachineDeclaration.objects.order_by("-pk").first().kind == "repaired"


def test_special_rulings_page_adds_and_amends_a_ruling_ra_a(client, spring_lo):
    url = "/manage/tuesday/special-rulings/"
    ruling = {"kind": "not_a_malfunction", "text": "A ball stuck in the pops is play on.",
              "reproducible": "on", "reproduction": "Trap up on the left flipper, nudge.",
              "cause_and_effect": "The pops hold the ball; a nudge frees it."}  # fmt: skip

    added = client.post(url, {"action": "add", "machine_title": "Cyclone", **ruling})
    first = m.SpecialRuling.objects.get()
    amended = client.post(
        url,
        {"action": "amend", "ruling": first.pk, **ruling, "text": "Play on.", "reason": "Shorter"},
    )

    assert (added.status_code, amended.status_code) == (302, 302)
    newest = m.SpecialRuling.objects.order_by("-version").first()
    assert (newest.machine_title, newest.version, newest.text) == ("Cyclone", 2, "Play on.")


@pytest.fixture
def correction(spring_night):
    """Game 1 confirmed (400, 300, 200, 100), then a correction of the fourth score asked."""
    p = spring_night.players
    sheet = services.submit_scores(
        game=spring_night.game, scores={p[0]: 400, p[1]: 300, p[2]: 200, p[3]: 100},
        entered_by=p[0], idempotency_key="k1",
    )  # fmt: skip
    services.confirm_scores(submission=sheet.submission, confirmed_by=p[1])
    return services.request_correction(
        game=spring_night.game,
        scores={p[3]: 150},
        requested_by=p[0],
        reason="Misread.",
        actor=spring_night.user,
    )


def test_corrections_page_records_an_answer(client, spring_night, correction):
    response = client.post(
        spring_night.meet_url + "corrections/",
        {"action": "answer", "request": correction.pk, "player": spring_night.players[1].pk,
         "agrees": "yes"},
    )  # fmt: skip

    assert response.status_code == 302
    assert m.CorrectionResponse.objects.get(player=spring_night.players[1]).agrees is True


def test_corrections_page_refuses_an_answer_to_another_meets_correction(client, spring_night):
    elsewhere = build_night(players=4)
    played = game(start(elsewhere), 1, 1)
    members = [row.player for row in played.group.members.order_by("position")]
    play(played, dict(zip(members, (400, 300, 200, 100), strict=True)))
    theirs = services.request_correction(
        game=played, scores={members[3]: 150}, requested_by=members[0], reason="Misread.",
        actor=elsewhere.user,
    )  # fmt: skip

    response = client.post(
        spring_night.meet_url + "corrections/",
        {"action": "answer", "request": theirs.pk, "player": members[1].pk, "agrees": "yes"},
    )

    assert response.status_code == 400
    assert "That correction is not one this page offered" in response.text
    assert not m.CorrectionResponse.objects.filter(player=members[1]).exists()


def test_forfeits_page_refuses_another_leagues_game(client, spring_night):
    other = game(start(build_night()), 1, 1)

    response = client.post(
        spring_night.meet_url + "forfeits/",
        {"action": "forfeit", "game": other.pk, "player": spring_night.players[3].pk,
         "reason": "absent", "countable": "on"},
    )  # fmt: skip

    assert response.status_code == 400
    assert "that game is not one of the games offered here" in response.text
    assert not m.Forfeit.objects.exists()


def test_forfeits_page_refuses_to_designate_another_meets_forfeit(client, spring_night):
    elsewhere = build_night()
    other = game(start(elsewhere), 1, 1)
    member = other.group.members.first().player
    services.record_forfeit(game=other, player=member, actor=elsewhere.user)

    response = client.post(
        spring_night.meet_url + "forfeits/",
        {"action": "non_countable", "game": other.pk, "player": member.pk, "reason": "Ill"},
    )

    assert response.status_code == 400
    assert "That game is not one this page offered" in response.text
    assert m.Forfeit.objects.get().countable is True


def test_ledger_page_refuses_to_reverse_another_leagues_entry(client, spring_lo):
    theirs = f.LedgerEntryFactory(amount_cents=2000)

    response = client.post(
        "/manage/tuesday/ledger/", {"action": "reverse", "entry": theirs.pk, "reason": "Mine?"}
    )

    assert response.status_code == 400
    assert "That entry is not one this page offered" in response.text
    assert m.LedgerEntry.objects.count() == 1


def test_ledger_page_refuses_another_leagues_season(client, spring_lo):
    theirs = f.SeasonFactory(name="Elsewhere")

    response = client.post(
        "/manage/tuesday/ledger/",
        {"action": "entry", "kind": "kitty_in", "account": "kitty", "amount_cents": "5.00",
         "season": theirs.pk},
    )  # fmt: skip

    assert response.status_code == 400
    assert "that season is not one of the seasons offered here" in response.text
    assert not m.LedgerEntry.objects.exists()
