"""The write protocol (`league/services/_protocol.official_write`): an official's write is
refused for anyone else, records its rulings (R1.1-a, A55), refolds the season once (R3-e),
then records its audit events, all in one transaction: an error rolls every part back."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.services._protocol import official_write
from flipwell.rules import RuleError
from tests import factories as f

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
