"""The season's fold is computed once per change of its facts and read by every worker
(issue #10 item 1): revisions, the stored fold and the process memo."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.db import connection, transaction
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.derived import caches, results
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.standings import standings
from flipwell.league.services.setup.machine_pool import create_machine
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


def _played_night() -> tuple[night_.Night, m.Meet]:
    night = night_.build_night(players=8)
    meet = night_.start(night)
    game = night_.game(meet, 1, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]
    night_.play(game, {p: 1000 * (i + 1) for i, p in enumerate(members)})
    return night, meet


def _revisions(season: m.Season) -> tuple[int, int]:
    season.refresh_from_db()
    return season.revision, m.League.objects.get(pk=season.league_id).revision


def test_a_score_gives_the_season_and_its_league_new_revisions():
    night, meet = _played_night()
    before = _revisions(night.season)
    game = night_.game(meet, 2, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]

    night_.play(game, {p: 500 * (i + 1) for i, p in enumerate(members)})

    after = _revisions(night.season)
    assert (after[0] != before[0], after[1] != before[1]) == (True, True)


def test_a_write_stores_the_fold_of_its_new_revision():
    night, _ = _played_night()
    night.season.refresh_from_db()

    stored = m.DerivedResult.objects.get(scope__startswith=f"fold:{night.season.pk}:")
    caches.forget()

    folded = caches.stored_fold(night.season.pk, stored.revision, explain=False)
    assert (stored.revision, folded.result) == (
        night.season.revision,
        results.compute_fold(night.season).result,
    )


def test_a_reader_finds_the_stored_fold_with_three_queries(django_assert_num_queries):
    night, _ = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    caches.forget()

    # The revision, the stored fold, and the prefix it was folded on (stored with it once, not
    # again in each fold: a process reads it once, then holds it: two queries from then on).
    with django_assert_num_queries(3):
        folded = results.season_fold(season)

    assert folded.result == results.compute_fold(season).result


def test_a_remembered_fold_costs_one_query(django_assert_num_queries):
    night, _ = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    results.season_fold(season)

    with django_assert_num_queries(1):  # the revision
        results.season_fold(season)


def test_a_season_row_loaded_before_a_write_is_served_the_new_fold():
    night, meet = _played_night()
    loaded_before = m.Season.objects.get(pk=night.season.pk)
    results.season_fold(loaded_before)
    game = night_.game(meet, 2, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]
    night_.play(game, {p: 500 * (i + 1) for i, p in enumerate(members)})

    served = results.season_fold(loaded_before).result

    assert served == results.compute_fold(m.Season.objects.get(pk=night.season.pk)).result


def test_a_missing_fold_is_computed_once_and_stored():
    night, _ = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    m.DerivedResult.objects.all().delete()
    caches.forget()

    folded = results.season_fold(season)

    stored = m.DerivedResult.objects.get(scope__startswith=f"fold:{season.pk}:")
    assert (stored.revision, folded.result) == (
        season.revision,
        results.compute_fold(season).result,
    )


def test_a_rolled_back_write_leaves_no_fold_behind():
    night, meet = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    folds = m.DerivedResult.objects.filter(scope__startswith="fold:")
    kept = (season.revision, folds.get().payload)
    game = night_.game(meet, 2, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]

    def failing_request() -> None:
        with transaction.atomic():
            night_.play(game, {p: 500 * (i + 1) for i, p in enumerate(members)})
            raise RuntimeError("the request failed after the write")

    with pytest.raises(RuntimeError):
        failing_request()

    season.refresh_from_db()
    assert (season.revision, folds.get().payload) == kept


def test_a_fold_stored_by_other_code_is_replaced():
    night, _ = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    m.DerivedResult.objects.all().delete()  # as after upgrading: only the old build's fold
    m.DerivedResult.objects.create(
        scope=f"fold:{season.pk}:numbers:oldbuild", revision=season.revision, payload=b"old"
    )

    results.store_fold(season, results.compute_fold(season))

    scopes = list(m.DerivedResult.objects.values_list("scope", flat=True))
    assert scopes == [f"fold:{season.pk}:numbers:{caches.build()}"]


def test_standings_after_a_write_show_it():
    night, meet = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    first = standings(season)
    game = night_.game(meet, 2, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]
    night_.play(game, {p: 500 * (i + 1) for i, p in enumerate(members)})

    second = standings(m.Season.objects.get(pk=season.pk))

    assert (
        sum(x.games_played for x in first.lines),
        sum(x.games_played for x in second.lines),
    ) == (
        4,
        8,
    )


def _standings_queries(players: int) -> tuple[int, int]:
    """Queries of the standings selector on a season of `players` with one game per group
    played: with nothing stored (cold) and once the fold is stored and remembered (warm)."""
    night = night_.build_night(players=players, machines=max(8, players))
    meet = night_.start(night)
    for group in meet.groups.order_by("number"):
        game = group.games.get(number=1)
        members = [gm.player for gm in group.members.order_by("position")]
        night_.play(game, {p: 100 * (i + 1) for i, p in enumerate(members)})
    season = m.Season.objects.get(pk=night.season.pk)
    m.DerivedResult.objects.all().delete()
    caches.forget()
    with CaptureQueriesContext(connection) as cold:
        standings(season)
    with CaptureQueriesContext(connection) as warm:
        standings(m.Season.objects.get(pk=season.pk))
    return len(cold), len(warm)


def test_the_standings_selector_runs_as_many_queries_for_any_season_size():
    small = _standings_queries(8)
    large = _standings_queries(24)

    assert small == large
    assert small[1] <= 4


def test_machine_changes_give_the_league_a_new_revision():
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    league = official.league
    before = league.revision

    create_machine(league=league, title="Medieval Madness", balls_per_game=3, actor=official.user)

    league.refresh_from_db()
    assert league.revision != before


def test_an_admin_repair_gives_every_league_and_season_a_new_revision(admin_user):
    season = f.SeasonFactory()
    before = (season.revision, season.league.revision)
    request = RequestFactory().post("/admin/")
    request.user = admin_user
    model_admin = site._registry[m.Season]
    season.name = "Repaired"

    model_admin.save_model(request, season, form=None, change=True)

    season.refresh_from_db()
    season.league.refresh_from_db()
    assert (season.revision != before[0], season.league.revision != before[1]) == (True, True)


def test_editing_a_player_gives_every_season_they_play_in_a_new_revision():
    from flipwell.league.services.players.editing import edit_player

    night = night_.build_night(players=4)
    other = f.SeasonFactory()
    f.SeasonEntryFactory(season=other, player=night.players[0])
    f.LeagueOfficialFactory(league=other.league, user=night.user)  # may rename (issue 26 §1)
    before = _revisions(other)

    edit_player(
        season=night.season,
        player=night.players[0],
        first_name="Renamed",
        last_name="Player",
        ifpa_number=None,
        actor=night.user,
    )

    after = _revisions(other)
    assert (after[0] != before[0], after[1] != before[1]) == (True, True)


def test_storing_a_new_revision_of_a_stored_fold_updates_its_row_in_one_query(
    django_assert_num_queries,
):
    night, _ = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    folded = results.compute_fold(season)
    row = m.DerivedResult.objects.get(scope__startswith=f"fold:{season.pk}:numbers:")
    season.revision += 1

    with django_assert_num_queries(1):
        results.store_fold(season, folded)

    folds = m.DerivedResult.objects.filter(scope__startswith="fold:")
    assert folds.values_list("pk", "revision").get() == (row.pk, season.revision)


def _members(game: m.Game) -> list[m.Player]:
    return [gm.player for gm in game.group.members.order_by("position")]


def _players(game: m.Game) -> tuple[str, ...]:
    """The rules' player keys of the game's group, in ladder order."""
    return tuple(str(p.pk) for p in _members(game))


def test_a_board_of_plain_scores_reads_the_fold_its_write_stored(monkeypatch):
    """A league night's board after a score: the stored numbers, no explained fold (its
    scores need no reason beside them, `scores_adjusted_at`). Every worker's board after a
    score otherwise folded the season again, explained (bench_night)."""
    _, meet = _played_night()
    caches.forget()
    folded: list[bool] = []
    compute = results.compute_fold
    monkeypatch.setattr(
        results,
        "compute_fold",
        lambda season, *, explain=False: folded.append(explain) or compute(season, explain=explain),
    )

    board = meet_board(m.Meet.objects.get(pk=meet.pk))

    assert folded == []
    assert not m.DerivedResult.objects.filter(scope__contains=":explained:").exists()
    assert board.groups[0].games[0].cells  # the confirmed game's lines, from the numbers


def test_a_reader_that_folded_before_a_write_keeps_the_writes_newer_fold():
    """A page folded the season at revision R; a write then stored its fold at R + 1. The
    page's late store must not put the older fold back (the next write would find the
    stored fold stale, fold inside its transaction and lock the row against the writer
    ahead of it: the deadlock bench_nights met)."""
    night, meet = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    older = results.compute_fold(season)
    older_revision = season.revision
    game = night_.game(meet, 2, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]
    night_.play(game, {p: 700 * (i + 1) for i, p in enumerate(members)})
    season.refresh_from_db()

    caches.store_read_fold(season.pk, older_revision, older, explain=False)

    stored = m.DerivedResult.objects.get(scope=f"fold:{season.pk}:numbers:{caches.build()}")
    assert stored.revision == season.revision != older_revision


def test_a_fold_read_inside_a_write_is_not_stored():
    """A service that reads a season's fold finds it unstored (a new build): it folds, and
    leaves the storing to its write's end, locking no stored row early in its transaction."""
    night, _ = _played_night()
    season = m.Season.objects.get(pk=night.season.pk)
    m.DerivedResult.objects.filter(scope__startswith="fold:").delete()
    caches.forget()

    with transaction.atomic(), results.within_write():
        results.season_fold(season)
        assert not m.DerivedResult.objects.filter(scope__startswith="fold:").exists()

    caches.forget()  # another process, which has not folded it yet
    results.season_fold(season)  # a page's read, outside a write, stores it
    assert m.DerivedResult.objects.filter(scope__startswith="fold:").count() == 1
