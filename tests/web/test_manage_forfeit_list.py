"""The meet's Forfeits & late page lists every forfeit, those entered on the score sheet too,
and the official designates one non-countable there (issue 27 §3, §2.4)."""

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.standings import standings
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def forfeit_night(client):
    """Meet 1 open, one group of four; game 1's sheet confirmed with Dan's forfeit box ticked."""
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
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone"):
        f.MachineFactory(league=official.league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    game = started.first_games[0]
    a = players
    sheet = services.submit_scores(
        game=game, scores={a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None}, entered_by=a[0],
        idempotency_key="sheet-1",
    )  # fmt: skip
    services.confirm_scores(submission=sheet.submission, confirmed_by=a[1])
    return season, started.meet, game, players


def _countable(season, player):
    return next(line for line in standings(season).lines if line.player.id == player.pk)


def test_forfeits_page_lists_a_forfeit_entered_on_the_sheet(client, forfeit_night):
    """issue 27 §3: the page said "Forfeits: None" for a forfeit ticked on the score sheet."""
    meet = forfeit_night[1]

    response = client.get(f"/manage/tuesday/meets/{meet.pk}/forfeits/")

    text = response.content.decode()
    assert "Dan X · group 1 game 1 · entered on the score sheet" in text
    assert "It should not count…" in text


def test_forfeits_page_designates_a_sheet_forfeit_non_countable_and_standings_follow(
    client, forfeit_night
):
    """issue 27 §3, R2.4-g, R2.4-h: the official says why; the forfeit stops counting toward
    the season's forfeits; a ruling and an audit event record it."""
    season, meet, game, a = forfeit_night
    assert _countable(season, a[3]).countable_forfeits == 1

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/forfeits/",
        {"action": "non_countable", "game": game.pk, "player": a[3].pk,
         "reason": "His car broke down on the way."},
    )  # fmt: skip

    assert response.status_code == 302
    forfeit = m.Forfeit.objects.get(game=game, player=a[3])
    assert forfeit.countable is False
    assert _countable(season, a[3]).countable_forfeits == 0
    assert m.AuditEvent.objects.filter(action="forfeit.designated_non_countable").count() == 1
    page = client.get(f"/manage/tuesday/meets/{meet.pk}/forfeits/").content.decode()
    assert 'Dan X · group 1 game 1 · Other <span class="tag">not countable</span>' in page


def test_forfeits_page_designation_without_a_reason_refused(client, forfeit_night):
    """issue 27 §3, R2.4-g: a non-countable forfeit needs the official's reason."""
    season, meet, game, a = forfeit_night

    response = client.post(
        f"/manage/tuesday/meets/{meet.pk}/forfeits/",
        {"action": "non_countable", "game": game.pk, "player": a[3].pk, "reason": ""},
    )

    assert response.status_code == 400
    assert not m.Forfeit.objects.exists()
    assert _countable(season, a[3]).countable_forfeits == 1
