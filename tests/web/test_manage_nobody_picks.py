"""A group nobody can continue, on the console's meet page (issue 27 §3): the official
chooses or draws the next machine when nobody played the previous game (R5-c, A66), and
records a group's absence for every remaining game at once (R2.4-a, §2.5)."""

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import meet_forfeits
from tests import factories as f
from tests.league.league_night import all_late_for_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def all_late_night(client):
    """Meet 1 open, one group of four who were all late for game 1 (every score empty)."""
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
    machines = [
        f.MachineFactory(league=official.league, title=title)
        for title in ("Addams Family", "Medieval Madness", "Twilight Zone", "Funhouse", "Tron")
    ]
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    return started.meet, started.first_games[0], players, machines


def test_meet_page_offers_the_official_the_next_machine_when_nobody_played(client, all_late_night):
    """issue 27 §3, A66: the page said only that nobody could pick; now it offers the choice."""
    meet, game, players, _ = all_late_night
    all_late_for_game(game, players)

    response = client.get(f"/manage/tuesday/meets/{meet.pk}/")

    text = response.content.decode()
    assert "so no player picks the next machine: you choose it, or draw it" in text
    assert "Draw one at random" in text


def test_meet_page_chooses_the_next_machine_for_the_official(client, all_late_night):
    """issue 27 §3, R5-c, A66: the official's choice makes game 2 on that machine."""
    meet, game, players, machines = all_late_night
    all_late_for_game(game, players)
    wanted = next(mc for mc in machines if mc != game.machine)

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/groups/1/", {"action": "choose", "machine": wanted.pk}
    )

    assert response.status_code == 302
    assert response["Location"] == f"/manage/tuesday/meets/{meet.pk}/"
    assert m.Game.objects.get(group__meet=meet, number=2).machine == wanted


def test_meet_page_draws_the_next_machine(client, all_late_night):
    """issue 27 §3, A66: drawn at random, never the machine of game 1 (R5-e)."""
    meet, game, players, _ = all_late_night
    all_late_for_game(game, players)

    response = client.post(f"/manage/tuesday/meets/{meet.pk}/groups/1/", {"action": "draw"})

    assert response.status_code == 302
    drawn = m.Game.objects.get(group__meet=meet, number=2)
    assert (drawn.chosen_by, drawn.machine == game.machine) == (None, False)


def test_meet_page_choose_while_a_player_picks_refused(client, all_late_night):
    """A66: while a player played the last game, that player picks (R5-c)."""
    meet, game, players, _ = all_late_night
    a = players
    sheet = services.submit_scores(
        game=game, scores={a[0]: 40, a[1]: 30, a[2]: 20, a[3]: 10}, entered_by=a[0],
        idempotency_key="sheet-1",
    )  # fmt: skip
    services.confirm_scores(submission=sheet.submission, confirmed_by=a[1])

    response = client.post(f"/manage/tuesday/meets/{meet.pk}/groups/1/", {"action": "draw"})

    assert response.status_code == 400
    assert "Not done: Dan X picks the machine for game 2 of group 1" in response.content.decode()
    assert not m.Game.objects.filter(group__meet=meet, number=2).exists()


def test_meet_page_records_a_whole_groups_absence_for_every_game(client, all_late_night):
    """issue 27 §3, R2.4-a, §2.5: 4 countable forfeits each, from one form."""
    meet, _, players, _ = all_late_night

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/groups/1/",
        {"action": "absence", "players": [p.pk for p in players], "note": "No-show"},
    )

    assert response.status_code == 302
    forfeits = meet_forfeits(meet)
    assert (len(forfeits), all(f.countable for f in forfeits)) == (16, True)
    assert m.Game.objects.filter(group__meet=meet).count() == 4


def test_meet_group_action_by_a_scorekeeper_refused(client, all_late_night):
    meet, game, players, _ = all_late_night
    all_late_for_game(game, players)
    keeper = f.LeagueOfficialFactory(league=meet.season.league, role="scorekeeper")
    client.force_login(keeper.user)

    response = client.post(f"/manage/tuesday/meets/{meet.pk}/groups/1/", {"action": "draw"})

    assert response.status_code == 403
    assert not m.Game.objects.filter(group__meet=meet, number=2).exists()
