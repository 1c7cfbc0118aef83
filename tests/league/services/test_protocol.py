"""The write protocol (`league/services/_protocol`: `league_write`, `official_write`): a write
checks its actor by kind, records its rulings (R1.1-a, A55), refolds the season once (R3-e)
when it can change a number and never when it cannot, then records its audit events, all in
one transaction: an error rolls every part back."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.services import _edge
from flipwell.league.services._protocol import Actor, league_write, official_write
from flipwell.league.services.violations.penalties import record_violation
from flipwell.rules import RuleError
from tests import factories as f
from tests.league.league_night import build_night, game
from tests.league.league_night import play as play_game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db


def _season(official: m.LeagueOfficial) -> m.Season:
    return f.SeasonFactory(league=official.league, created_at=f.SET_UP_2026)


def test_a_write_records_its_ruling_refolds_the_season_then_records_its_event(official):
    season = _season(official)
    before = m.Season.objects.get(pk=season.pk).revision

    with official_write(
        league=official.league, actor=official.user, action="test", season=season
    ) as write:
        write.ruling(kind="test_ruling", subject="a subject", reason="a reason")
        write.event("test.event", season, {"n": 1})
        assert not m.Ruling.objects.exists()  # recorded when the write finishes

    ruling = m.Ruling.objects.get()
    event = m.AuditEvent.objects.get(action="test.event")
    assert (ruling.kind, ruling.official, ruling.reason) == (
        "test_ruling",
        official.user,
        "a reason",
    )
    assert (event.actor, event.data) == (official.user, {"n": 1})
    assert m.Season.objects.get(pk=season.pk).revision != before  # refolded once


def test_refold_mid_write_is_the_only_refold(official):
    season = _season(official)
    with official_write(
        league=official.league, actor=official.user, action="test", season=season
    ) as write:
        write.refold()
        revision = m.Season.objects.get(pk=season.pk).revision

    assert m.Season.objects.get(pk=season.pk).revision == revision


def _refused_write(official: m.LeagueOfficial, season: m.Season) -> None:
    with official_write(
        league=official.league, actor=official.user, action="test", season=season, field="x"
    ) as write:
        write.ruling(kind="test_ruling", subject="s", reason="r")
        write.event("test.event", season, {})
        raise RuleError("not allowed by the rules")


def test_a_rule_error_becomes_a_field_error_and_nothing_is_recorded(official):
    season = _season(official)
    with pytest.raises(ValidationError) as caught:
        _refused_write(official, season)

    assert caught.value.message_dict == {"x": ["Not allowed by the rules."]}
    assert not m.Ruling.objects.exists()
    assert not m.AuditEvent.objects.filter(action="test.event").exists()


def _strangers_write(official: m.LeagueOfficial, stranger: object) -> None:
    with official_write(league=official.league, actor=stranger, action="test"):  # type: ignore[arg-type]
        pytest.fail("the write ran for a stranger")


def test_anyone_but_an_official_of_the_league_is_refused(official):
    with pytest.raises(PermissionDenied):
        _strangers_write(official, f.UserFactory())


def test_a_scorekeeper_writes_as_a_scorekeeper_but_not_as_an_official():
    keeper = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.SCOREKEEPER)
    with league_write(league=keeper.league, actor=Actor.scorekeeper(keeper.user), action="t"):
        pass

    with (
        pytest.raises(PermissionDenied),
        official_write(league=keeper.league, actor=keeper.user, action="test"),
    ):
        pytest.fail("the write ran for a scorekeeper")


def test_a_players_write_is_checked_by_its_service_and_audited_without_an_account(official):
    season = _season(official)
    with league_write(league=official.league, actor=Actor.player(), action="test") as write:
        write.event("test.event", season, {})

    event = m.AuditEvent.objects.get(action="test.event")
    assert (event.actor, event.league) == (None, official.league)


def test_a_write_without_a_season_changes_no_number_and_never_folds(official, monkeypatch):
    season = _season(official)
    before = m.Season.objects.get(pk=season.pk).revision
    monkeypatch.setattr(_edge.results, "write_fold", _no_fold)

    with official_write(league=official.league, actor=official.user, action="test") as write:
        write.ruling(kind="test_ruling", subject="a subject", reason="a reason")
        write.record_rulings()  # a ruling recorded now, for its event, without a fold
        write.event("test.event", write.recorded[-1], {})

    assert m.Season.objects.get(pk=season.pk).revision == before
    assert m.AuditEvent.objects.get(action="test.event").object_id == str(m.Ruling.objects.get().pk)


def _no_fold(season: m.Season, **_: object) -> None:
    pytest.fail("a write that changes no number folded its season")


def test_a_write_nested_in_one_of_the_same_season_folds_it_once(official, monkeypatch):
    season = _season(official)
    folds = _count_folds(monkeypatch)

    with official_write(league=official.league, actor=official.user, action="outer", season=season):
        with official_write(
            league=official.league, actor=official.user, action="inner", season=season
        ):
            pass
        assert folds == []  # the inner write left its fold to the outer one

    assert len(folds) == 1


def _count_folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    folds: list[int] = []
    real = _edge.results.write_fold

    def counted(season: m.Season, **how: object):  # type: ignore[no-untyped-def]
        folds.append(season.pk)
        return real(season, **how)  # type: ignore[arg-type]

    monkeypatch.setattr(_edge.results, "write_fold", counted)
    return folds


def test_a_nested_write_after_the_outer_folded_folds_its_own_facts(official, monkeypatch):
    season = _season(official)
    folds = _count_folds(monkeypatch)

    with official_write(
        league=official.league, actor=official.user, action="outer", season=season
    ) as outer:
        outer.refold()
        with official_write(
            league=official.league, actor=official.user, action="inner", season=season
        ):
            pass

    assert len(folds) == 2


def test_a_violation_folds_its_season_once(monkeypatch):
    """Issue 35: a write that can change a number folds once, a violation included (its
    penalty reads the fold before it, which every earlier write stored)."""
    night = build_night(players=8)
    meet = start_night(night)
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    folds = _count_folds(monkeypatch)

    record_violation(
        meet=meet, player=a[0], kind="interference", game=game(meet, 1, 1),
        reason="Bumped the machine on A2's ball", actor=night.user,
    )  # fmt: skip

    assert folds == [night.season.pk]
