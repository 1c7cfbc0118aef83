"""The score sheet's forms without a script (issue 27 §5 "Sheet", §3 "A group nobody can
continue"): who is offered as enterer and confirmer (R3-a), a refused entry keeps its choices,
the server refuses a score next to a ticked forfeit, and a group recorded absent is said to be
(R2.4-a)."""

import re

import pytest

from flipwell.league import models as m
from flipwell.league import services
from tests.web.sheet_posts import enter, entry_data

pytestmark = pytest.mark.django_db


def offered(page: str, name: str) -> list[str]:
    """The values of the options of the select `name` on `page` (blank left out)."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, f"no select {name}"
    return [v for v in re.findall(r'<option value="([^"]*)"', select[1]) if v]


def chosen(page: str, name: str) -> str | None:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, f"no select {name}"
    found = re.search(r'<option value="([^"]*)" selected>', select[1])
    return found[1] if found else None


def test_sheet_refused_entry_keeps_the_entered_by_choice(client, sheet_night):
    response = enter(
        client, sheet_night, ["400", "", "200", "100"], entered_by=sheet_night.players[2]
    )

    assert response.status_code == 400
    assert chosen(response.text, "entered_by") == str(sheet_night.players[2].pk)


def test_sheet_score_next_to_a_ticked_forfeit_refused_without_a_script(client, sheet_night):
    player = sheet_night.players[3]
    data = {**entry_data(sheet_night, ["400", "300", "200", "100"]), f"forfeit_{player.pk}": "on"}

    response = client.post(sheet_night.url + "enter/", data)

    assert response.status_code == 400
    assert f"{player} is marked as not playing (a forfeit)" in response.text
    assert not m.ScoreSubmission.objects.exists()


def test_sheet_confirmer_is_neither_the_enterer_nor_a_player_who_did_not_play_r3_a(
    client,
    sheet_night,
):
    enter(client, sheet_night, ["400", "300", "200", None])

    page = client.get(sheet_night.url).text

    assert offered(page, "confirmed_by") == [str(p.pk) for p in sheet_night.players[1:3]]


def test_sheet_confirmation_by_a_player_who_did_not_play_refused_r3_a(client, sheet_night):
    enter(client, sheet_night, ["400", "300", "200", None])
    submission = m.ScoreSubmission.objects.get()

    response = client.post(
        sheet_night.url + "confirm/",
        {"submission": submission.pk, "confirmed_by": sheet_night.players[3].pk},
    )

    assert response.status_code == 400
    assert f"{sheet_night.players[3]} did not play game 1" in response.text
    submission.refresh_from_db()
    assert submission.confirmed_by is None


def test_sheet_enterer_is_never_a_player_whose_forfeit_is_recorded_r2_4_a(
    client,
    sheet_night,
):
    services.record_forfeit(
        game=sheet_night.game, player=sheet_night.players[3], actor=sheet_night.official
    )

    page = client.get(sheet_night.url).text

    assert offered(page, "entered_by") == [str(p.pk) for p in sheet_night.players[:3]]
    refused = enter(
        client, sheet_night, ["400", "300", "200", None], entered_by=sheet_night.players[3]
    )
    assert refused.status_code == 400
    assert not m.ScoreSubmission.objects.exists()


def test_sheet_of_a_game_every_player_forfeits_offers_no_entry_r2_4_a(client, sheet_night):
    for player in sheet_night.players:
        services.record_forfeit(game=sheet_night.game, player=player, actor=sheet_night.official)

    page = client.get(sheet_night.url).text

    assert "Every player of the group forfeits this game" in page
    assert 'name="entered_by"' not in page


def test_sheet_of_a_group_recorded_absent_says_so_and_offers_nothing_r2_4_a(
    client,
    sheet_night,
):
    services.record_match_absence(
        group=sheet_night.group, players=sheet_night.players, actor=sheet_night.official, seed=3
    )

    page = client.get(sheet_night.url).text

    assert "Group 1 is recorded absent" in page
    assert "each of them forfeits all four games" in page
    for offer in ("entered_by", "confirmed_by", "requested_by", "Request a correction"):
        assert offer not in page
    assert "Match complete" not in page
    # The sheets the official's record stored name players as enterer and confirmer: the
    # page names nobody as having entered or confirmed anything.
    assert "Entered by" not in page


def test_sheet_of_a_group_absent_after_game_1_names_the_games_nobody_played(
    client,
    sheet_night,
):
    enter(client, sheet_night, ["400", "300", "200", "100"])
    submission = m.ScoreSubmission.objects.get()
    services.confirm_scores(submission=submission, confirmed_by=sheet_night.players[1])
    services.record_match_absence(
        group=sheet_night.group, players=sheet_night.players, actor=sheet_night.official, seed=3
    )

    page = client.get(sheet_night.url).text

    assert "Nobody of the group played games 2, 3, 4" in page
    assert "Group 1 is recorded absent" not in page
    correctable = re.search(r'<select name="game"[^>]*>(.*?)</select>', page, re.S)
    assert correctable is not None
    assert re.findall(r'<option value="(\d+)"', correctable[1]) == [str(sheet_night.game.pk)]
