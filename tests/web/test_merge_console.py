"""The console's merge page: choose two players, confirm with their seasons, merge, undo."""

import pytest

from flipwell.league import models as m
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def rows(tuesday_lo):
    first = f.SeasonFactory(league=tuesday_lo.league, name="Winter")
    second = f.SeasonFactory(league=tuesday_lo.league, name="Spring")
    old = f.SeasonEntryFactory(season=first, player__first_name="Bea", player__last_name="Adams")
    new = f.SeasonEntryFactory(season=second, player__first_name="Bee", player__last_name="Adams")
    return old.player, new.player


URL = "/manage/tuesday/players/merge/"


def _post(client, kept, merged, action, reason="Same person: a typo."):
    return client.post(
        URL, {"kept": kept.pk, "merged": merged.pk, "reason": reason, "action": action}
    )


def test_merge_page_names_players_with_their_seasons(client, rows):
    response = client.get(URL)

    assert response.status_code == 200
    assert "Bea Adams (Winter, " in response.text
    assert "Bee Adams (Spring, " in response.text


def test_merge_page_review_shows_both_players_seasons_and_merges_nothing(client, rows):
    old, new = rows

    response = _post(client, old, new, "review")

    assert response.status_code == 200
    assert "Are these one person?" in response.text
    assert "Merge Bee Adams into Bea Adams" in response.text
    assert m.PlayerMerge.objects.count() == 0


def test_merge_page_review_of_two_people_shows_why_and_no_confirmation(client, rows):
    old, new = rows
    f.SeasonEntryFactory(season=new.season_entries.get().season, player=old)

    response = _post(client, old, new, "review")

    assert response.status_code == 400
    assert "they are two people" in response.text
    assert "Are these one person?" not in response.text


def test_merge_page_merges_after_confirmation(client, rows):
    old, new = rows

    response = _post(client, old, new, "merge")

    assert response.status_code == 302
    new.refresh_from_db()
    assert new.merged_into == old
    page = client.get(URL)
    assert "Bee Adams is merged into Bea Adams." in page.text
    assert "Undo" in page.text


def test_merge_page_shows_a_refusal_on_the_form(client, rows):
    old, new = rows
    f.SeasonEntryFactory(season=new.season_entries.get().season, player=old)

    response = _post(client, old, new, "merge")

    assert response.status_code == 400
    assert "they are two people" in response.text


def test_merge_page_undoes_a_merge(client, rows):
    old, new = rows
    _post(client, old, new, "merge")
    merge = m.PlayerMerge.objects.get()

    response = client.post(URL, {"merge": merge.pk, "reason": "Twins.", "action": "undo"})

    assert response.status_code == 302
    new.refresh_from_db()
    assert new.merged_into is None
    assert "Bee Adams is a player of their own again." in client.get(URL).text


def test_merge_page_is_for_league_officials_only(client, rows):
    scorekeeper = f.LeagueOfficialFactory(
        league=m.League.objects.get(slug="tuesday"), role=m.LeagueOfficial.Role.SCOREKEEPER
    )
    client.force_login(scorekeeper.user)

    assert client.get(URL).status_code == 403
