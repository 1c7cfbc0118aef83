"""A player absent for the rest of the match, on the pages (issue 33 §1, R2.4-a): recorded
from the console's meet page, his line on every later game's sheet says so and takes no
score, and the Forfeits page lists each game he forfeits."""

import datetime
import re
import uuid

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def named_group_night(client):
    """Meet 1 open, one group of four (Ann, Ben, Cleo, Dan); the official is logged in."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    players = [
        f.SeasonEntryFactory(
            season=season, ifpa_rank_at_start=rank, player__first_name=first, player__last_name="X"
        ).player
        for rank, first in enumerate(("Ann", "Ben", "Cleo", "Dan"), start=1)
    ]
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone", "Attack from Mars"):
        f.MachineFactory(league=official.league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    return started.meet, started.groups[0], started.first_games[0], players


def _play(game, scores, enterer, confirmer):
    sheet = services.submit_scores(
        game=game, scores=scores, entered_by=enterer, idempotency_key=uuid.uuid4().hex
    )
    services.confirm_scores(submission=sheet.submission, confirmed_by=confirmer)


def _next(group, picker):
    """The picker chooses the first machine his group has not played."""
    played = set(group.games.values_list("machine_id", flat=True))
    machine = m.Machine.objects.exclude(pk__in=played).order_by("pk").first()
    return services.choose_next_machine(group=group, machine=machine, chosen_by=picker).game


def _dan_absent_after_game_1(client, named_group_night):
    """Dan leaves during game 1: the official records it on the meet page; game 1 is played
    without him and Cleo starts game 2."""
    meet, group, game, a = named_group_night
    recorded = client.post(
        f"/manage/tuesday/meets/{meet.pk}/groups/1/",
        {"action": "absence", "players": [a[3].pk], "note": "Went home"},
    )
    assert recorded.status_code == 302
    _play(game, {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None}, a[0], a[1])
    return _next(group, a[2])


def test_sheet_line_of_an_absent_player_says_so_and_offers_no_score_box(client, named_group_night):
    """R2.4-a: game 2's sheet says Dan is absent for the rest of the match; his line has no
    score box and he is not offered as the enterer (R3-a)."""
    _meet, group, _, a = named_group_night
    _dan_absent_after_game_1(client, named_group_night)

    page = client.get(scoresheet_path(group)).text

    assert "Dan X is absent for the rest of the match: games 1 to 4 are their forfeits" in page
    assert "this game is Dan X’s forfeit, so there is no score to enter" in page
    assert f'id="id_score_{a[3].pk}"' not in page
    assert f'id="id_score_{a[2].pk}"' in page
    enterers = re.search(r'<select name="entered_by"[^>]*>(.*?)</select>', page, re.S)
    assert enterers is not None
    assert re.findall(r'<option value="(\d+)"', enterers[1]) == [str(p.pk) for p in a[:3]]


def test_sheet_refuses_a_score_for_an_absent_player(client, named_group_night):
    """R2.4-a: a score posted for Dan on game 2 is refused in plain words, nothing stored
    (today the sheet took it and he earned points from games 2-4)."""
    _meet, group, _, a = named_group_night
    game_2 = _dan_absent_after_game_1(client, named_group_night)
    data = {
        "idempotency_key": "k-2",
        "entered_by": str(a[0].pk),
        "game": str(game_2.pk),
        "seen_version": "0",
        **{f"score_{p.pk}": s for p, s in zip(a, ("400", "300", "200", "900"), strict=True)},
    }

    response = client.post(scoresheet_path(group) + "enter/", data)

    assert response.status_code == 400
    assert (
        "Dan X is absent for the rest of the match: this game is their forfeit, so it takes "
        "no score." in response.text
    )
    assert not m.ScoreSubmission.objects.filter(game=game_2).exists()


def test_forfeits_page_lists_each_game_of_an_absent_player(client, named_group_night):
    """R2.4-a, §2.5: after the night the Forfeits page lists Dan's forfeit of each of the
    four games, each countable (today: game 1 only)."""
    meet, group, _, a = named_group_night
    game_2 = _dan_absent_after_game_1(client, named_group_night)
    scores = {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None}
    _play(game_2, scores, a[0], a[1])
    for _ in range(2):
        _play(_next(group, a[2]), scores, a[0], a[1])

    page = client.get(f"/manage/tuesday/meets/{meet.pk}/forfeits/").content.decode()

    listed = re.findall(r"Dan X · group 1 game (\d) · absent for the rest of the match", page)
    assert listed == ["1", "2", "3", "4"]
    assert page.count("It should not count…") == 4


def test_meet_page_lists_an_absence_and_withdraws_it(client, named_group_night):
    """R2.4-a: the meet page says who is absent from which game; recorded by mistake, the
    official withdraws it with a reason and game 2's sheet offers the player's score again."""
    meet, group, _, a = named_group_night
    _dan_absent_after_game_1(client, named_group_night)
    page = client.get(f"/manage/tuesday/meets/{meet.pk}/").content.decode()

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/groups/1/",
        {"action": "withdraw_absence", "player": a[3].pk, "reason": "Wrong box ticked"},
    )

    assert "Dan X is absent for the rest of the match, from game 1" in page
    assert response.status_code == 302
    assert not m.MatchAbsence.objects.exists()
    assert f'id="id_score_{a[3].pk}"' in client.get(scoresheet_path(group)).text


def test_meet_page_offers_no_withdrawal_of_a_whole_groups_absence(client, named_group_night):
    """R2.4-a, A66: its games were stored as played by nobody: nothing to withdraw one by
    one."""
    meet, _, _, a = named_group_night
    client.post(
        f"/manage/tuesday/meets/{meet.pk}/groups/1/",
        {"action": "absence", "players": [p.pk for p in a], "note": "No-show"},
    )

    page = client.get(f"/manage/tuesday/meets/{meet.pk}/").content.decode()

    assert page.count("is absent for the rest of the match, from game 1") == 4
    assert "Withdraw the absence" not in page
