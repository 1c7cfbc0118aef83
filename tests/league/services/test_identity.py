"""Merging two player rows that are one person, and undoing it (issue #13 part 5)."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.services import (
    edit_player,
    merge_players,
    register_player,
    undo_player_merge,
)
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair():
    """An official's league with two seasons: the same person entered once in each, as two
    rows (a typo in the first name)."""
    official = f.LeagueOfficialFactory()
    first = f.SeasonFactory(league=official.league, name="Winter")
    second = f.SeasonFactory(league=official.league, name="Spring")
    old = f.SeasonEntryFactory(season=first, player__first_name="Bea", player__last_name="Adams")
    new = f.SeasonEntryFactory(season=second, player__first_name="Bee", player__last_name="Adams")
    return official, old.player, new.player


def _merge(official, kept, merged, reason="Same person: a typo in the first name."):
    return merge_players(
        league=official.league, kept=kept, merged=merged, reason=reason, actor=official.user
    )


def test_merge_players_points_the_merged_row_at_the_kept_one(pair):
    official, kept, merged = pair

    merge = _merge(official, kept, merged)

    merged.refresh_from_db()
    assert merged.merged_into_id == kept.pk
    assert (merge.kept, merge.merged, merge.merged_by) == (kept, merged, official.user)
    assert merge.undone_at is None
    event = m.AuditEvent.objects.get(action="player.merged")
    assert (event.league, event.actor, event.object_id) == (
        official.league,
        official.user,
        str(merge.pk),
    )
    assert event.data == {
        "kept": kept.pk,
        "merged": merged.pk,
        "reason": "Same person: a typo in the first name.",
    }


def test_merge_players_gives_the_league_a_new_revision(pair):
    official, kept, merged = pair
    before = m.League.objects.get(pk=official.league.pk).revision

    _merge(official, kept, merged)

    assert m.League.objects.get(pk=official.league.pk).revision != before


def test_merge_players_of_one_season_is_refused(pair):
    official, kept, merged = pair
    f.SeasonEntryFactory(season=merged.season_entries.get().season, player=kept)

    with pytest.raises(ValidationError) as error:
        _merge(official, kept, merged)

    assert "both entered in Spring" in str(error.value)
    assert m.PlayerMerge.objects.count() == 0


def test_merge_players_with_different_ifpa_numbers_is_refused(pair):
    official, kept, merged = pair
    m.Player.objects.filter(pk=kept.pk).update(ifpa_number=111)
    m.Player.objects.filter(pk=merged.pk).update(ifpa_number=222)

    with pytest.raises(ValidationError) as error:
        _merge(official, kept, merged)

    assert "different IFPA numbers (111 and 222)" in str(error.value)


def test_merge_players_with_one_ifpa_number_is_allowed(pair):
    official, kept, merged = pair
    m.Player.objects.filter(pk=merged.pk).update(ifpa_number=222)

    merge = _merge(official, kept, merged)

    assert merge.pk is not None


def test_merge_players_twice_is_refused(pair):
    official, kept, merged = pair
    _merge(official, kept, merged)

    with pytest.raises(ValidationError) as error:
        _merge(official, kept, merged)

    assert "already merged" in str(error.value)


def test_merge_players_into_a_merged_row_is_refused(pair):
    official, kept, merged = pair
    third = f.SeasonEntryFactory(season=f.SeasonFactory(league=official.league)).player
    _merge(official, kept, merged)

    with pytest.raises(ValidationError) as error:
        _merge(official, merged, third)

    assert "merge into that player instead" in str(error.value)


def test_merge_players_without_a_reason_is_refused(pair):
    official, kept, merged = pair

    with pytest.raises(ValidationError):
        _merge(official, kept, merged, reason="  ")


def test_merge_players_by_an_official_of_another_league_is_refused(pair):
    _, kept, merged = pair
    stranger = f.LeagueOfficialFactory()

    with pytest.raises(PermissionDenied):
        _merge(stranger, kept, merged)


def test_merge_players_of_a_row_that_never_played_in_the_league_is_refused(pair):
    official, kept, _ = pair
    elsewhere = f.SeasonEntryFactory().player

    with pytest.raises(PermissionDenied) as error:
        _merge(official, kept, elsewhere)

    assert "never played in" in str(error.value)


def test_merge_players_by_a_superuser_of_any_league(pair):
    _, kept, merged = pair
    admin = f.UserFactory(is_superuser=True)

    merge = merge_players(
        league=f.LeagueFactory(), kept=kept, merged=merged, reason="Same person.", actor=admin
    )

    assert merge.merged_by == admin


def test_undo_player_merge_restores_both_rows_exactly(pair):
    official, kept, merged = pair
    before = list(m.Player.objects.order_by("pk").values())
    merge = _merge(official, kept, merged)

    undone = undo_player_merge(
        league=official.league, merge=merge, reason="Two people after all.", actor=official.user
    )

    assert list(m.Player.objects.order_by("pk").values()) == before
    assert (undone.undone_by, undone.undo_reason) == (official.user, "Two people after all.")
    assert undone.undone_at is not None
    assert m.AuditEvent.objects.filter(action="player.merge_undone").count() == 1


def test_undo_player_merge_twice_is_refused(pair):
    official, kept, merged = pair
    merge = _merge(official, kept, merged)
    undo_player_merge(league=official.league, merge=merge, reason="No.", actor=official.user)

    with pytest.raises(ValidationError) as error:
        undo_player_merge(league=official.league, merge=merge, reason="No.", actor=official.user)

    assert "already undone" in str(error.value)


def test_merge_players_again_after_an_undo(pair):
    official, kept, merged = pair
    merge = _merge(official, kept, merged)
    undo_player_merge(league=official.league, merge=merge, reason="No.", actor=official.user)

    again = _merge(official, kept, merged)

    assert m.PlayerMerge.objects.filter(undone_at__isnull=True).get() == again


def test_register_player_by_a_merged_rows_name_enters_the_person(pair):
    official, kept, merged = pair
    _merge(official, kept, merged)
    summer = f.SeasonFactory(league=official.league, name="Summer")

    entry = register_player(season=summer, first_name="Bee", last_name="Adams", actor=official.user)

    assert entry.player == kept


def test_edit_player_refuses_an_ifpa_number_unlike_a_merged_rows(pair):
    official, kept, merged = pair
    m.Player.objects.filter(pk=merged.pk).update(ifpa_number=222)
    _merge(official, kept, merged)

    with pytest.raises(ValidationError) as error:
        edit_player(
            season=kept.season_entries.get().season,
            player=kept,
            first_name="Bea",
            last_name="Adams",
            ifpa_number=111,
            actor=official.user,
        )

    assert "one person has one IFPA number" in str(error.value)
