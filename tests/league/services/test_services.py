"""The first services: create_league, create_season, register_player, import_players_csv."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from flipwell.league import models as m
from flipwell.league.audit import record_event
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.services import (
    create_league,
    create_season,
    import_players_csv,
    register_player,
)
from tests import factories as f

pytestmark = pytest.mark.django_db

HEADER = "first_name,last_name,ifpa_number,ifpa_rank\n"


@pytest.fixture
def season(official):
    return f.SeasonFactory(league=official.league, name="Spring 2026", number_of_meets=8)


def _actions():
    return list(m.AuditEvent.objects.values_list("action", flat=True))


# --- create_league ---


def test_create_league_creator_becomes_league_official():
    user = f.UserFactory()

    league = create_league(
        name="Flip Well", slug="flip-well", venue="The Arcade", time_zone="Europe/Berlin",
        ruleset_overrides={"dues_period": "meet"}, created_by=user,
    )  # fmt: skip

    assert (league.name, league.ruleset_overrides) == ("Flip Well", {"dues_period": "meet"})
    assert list(league.officials.values_list("user", "role")) == [(user.pk, "league_official")]


def test_create_league_writes_audit_event():
    user = f.UserFactory()

    league = create_league(name="Flip Well", slug="flip-well", created_by=user)

    event = m.AuditEvent.objects.get()
    assert (event.action, event.league, event.actor, event.object_type, event.object_id) == (
        "league.created",
        league,
        user,
        "league.League",
        str(league.pk),
    )
    assert event.data["slug"] == "flip-well"


def test_create_league_unknown_ruleset_setting_refused_and_nothing_written():
    with pytest.raises(ValidationError) as caught:
        create_league(
            name="Flip Well", slug="flip-well", ruleset_overrides={"dues_perod": "meet"},
            created_by=f.UserFactory(),
        )  # fmt: skip

    assert caught.value.message_dict["ruleset_overrides"] == [
        "Unknown ruleset setting(s): 'dues_perod' (did you mean 'dues_period'?)."
    ]
    assert (m.League.objects.count(), m.AuditEvent.objects.count()) == (0, 0)


def test_create_league_ruleset_override_value_not_allowed_refused_and_nothing_written():
    with pytest.raises(ValidationError) as caught:
        create_league(
            name="Flip Well", slug="flip-well", ruleset_overrides={"dues_period": "weekly"},
            created_by=f.UserFactory(),
        )  # fmt: skip

    assert caught.value.message_dict == {
        "ruleset_overrides": [
            "Ruleset setting dues_period cannot be 'weekly'; allowed: 'season', 'meet'."
        ]
    }
    assert (m.League.objects.count(), m.AuditEvent.objects.count()) == (0, 0)


def test_create_league_unknown_time_zone_refused():
    with pytest.raises(ValidationError) as caught:
        create_league(name="X", slug="x", time_zone="Moon/Base", created_by=f.UserFactory())

    assert list(caught.value.message_dict) == ["time_zone"]


def test_create_league_taken_slug_refused():
    f.LeagueFactory(slug="flip-well")

    with pytest.raises(ValidationError) as caught:
        create_league(name="Other", slug="flip-well", created_by=f.UserFactory())

    assert list(caught.value.message_dict) == ["slug"]


# --- create_season ---


def test_create_season_by_league_official(official):
    season = create_season(
        league=official.league, name="Spring 2026", weekday=m.Weekday.TUESDAY,
        start_time=datetime.time(19, 30), number_of_meets=12, dues_cents=2500, actor=official.user,
    )  # fmt: skip

    stored = m.Season.objects.get(pk=season.pk)
    assert (stored.weekday, stored.start_time, stored.number_of_meets, stored.dues_cents) == (
        1,
        datetime.time(19, 30),
        12,
        2500,
    )
    assert _actions() == ["season.created"]


def test_create_season_by_scorekeeper_refused():
    scorekeeper = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.SCOREKEEPER)

    with pytest.raises(PermissionDenied, match="Only a league official of"):
        create_season(
            league=scorekeeper.league, name="S", weekday=1, start_time=datetime.time(19),
            number_of_meets=10, actor=scorekeeper.user,
        )  # fmt: skip


def test_create_season_official_of_another_league_refused(official):
    with pytest.raises(PermissionDenied):
        create_season(
            league=f.LeagueFactory(), name="S", weekday=1, start_time=datetime.time(19),
            number_of_meets=10, actor=official.user,
        )  # fmt: skip


def test_create_season_superuser_allowed():
    admin = f.UserFactory(is_superuser=True)

    season = create_season(
        league=f.LeagueFactory(), name="S", weekday=1, start_time=datetime.time(19),
        number_of_meets=10, actor=admin,
    )  # fmt: skip

    assert season.pk is not None


def test_create_season_name_taken_in_league_refused(official, season):
    with pytest.raises(ValidationError) as caught:
        create_season(
            league=official.league, name=season.name, weekday=1, start_time=datetime.time(19),
            number_of_meets=10, actor=official.user,
        )  # fmt: skip

    assert caught.value.message_dict == {
        "name": [
            f"{official.league.name} already has a season called “{season.name}”: "
            "choose another name."
        ]
    }


@pytest.mark.parametrize(
    ("field", "value"), [("weekday", 7), ("number_of_meets", 0), ("dues_cents", -100)]
)
def test_create_season_bad_value_refused(official, field, value):
    arguments = {"weekday": 1, "number_of_meets": 10, "dues_cents": 0} | {field: value}

    with pytest.raises(ValidationError) as caught:
        create_season(
            league=official.league, name="S", start_time=datetime.time(19), actor=official.user,
            **arguments,
        )  # fmt: skip

    assert field in caught.value.message_dict
    assert m.Season.objects.count() == 0


# --- register_player ---


def test_register_player_new_player(official, season):
    entry = register_player(
        season=season, first_name=" Ann ", last_name="Archer", ifpa_number=1234, ifpa_rank=56,
        actor=official.user,
    )  # fmt: skip

    player = entry.player
    assert (player.first_name, player.last_name, player.ifpa_number) == ("Ann", "Archer", 1234)
    assert (entry.season, entry.ifpa_rank_at_start, entry.joined_at_meet) == (season, 56, 1)
    assert _actions() == ["player.created", "player.registered"]


def test_register_player_known_ifpa_number_reuses_player(official, season):
    known = f.PlayerFactory(first_name="Ann", last_name="Archer", ifpa_number=1234)

    entry = register_player(
        season=season, first_name="ann", last_name="ARCHER", ifpa_number=1234, actor=official.user
    )

    assert (entry.player, m.Player.objects.count()) == (known, 1)
    assert _actions() == ["player.registered"]


def test_register_player_ifpa_number_of_someone_else_refused(official, season):
    f.PlayerFactory(first_name="Ann", last_name="Archer", ifpa_number=1234)

    with pytest.raises(ValidationError) as caught:
        register_player(
            season=season, first_name="Bob", last_name="Baker", ifpa_number=1234,
            actor=official.user,
        )  # fmt: skip

    assert caught.value.message_dict == {
        "ifpa_number": [
            "IFPA number 1234 belongs to Ann Archer, not Bob Baker; check the number or the "
            "spelling."
        ]
    }


def test_register_player_unranked_namesake_reused(official, season):
    known = f.PlayerFactory(first_name="Cy", last_name="Cole", ifpa_number=None)
    f.SeasonEntryFactory(season=f.SeasonFactory(league=season.league), player=known)

    entry = register_player(season=season, first_name="Cy", last_name="Cole", actor=official.user)

    assert entry.player == known


def test_register_player_already_entered_refused(official, season):
    register_player(season=season, first_name="Cy", last_name="Cole", actor=official.user)

    with pytest.raises(ValidationError, match="Cy Cole is already entered in Spring 2026"):
        register_player(season=season, first_name="Cy", last_name="Cole", actor=official.user)


def test_register_player_joining_meet_outside_season_refused(official, season):
    with pytest.raises(ValidationError) as caught:
        register_player(
            season=season, first_name="Cy", last_name="Cole", joined_at_meet=9, actor=official.user
        )

    assert caught.value.message_dict == {
        "joined_at_meet": ["Meet 9 is not in Spring 2026, which has meets 1 to 8."]
    }
    assert m.Player.objects.count() == 0


def test_register_player_late_joiner(official, season):
    entry = register_player(
        season=season, first_name="Cy", last_name="Cole", joined_at_meet=3, actor=official.user
    )

    assert entry.joined_at_meet == 3


def test_register_player_by_non_official_refused(season):
    with pytest.raises(PermissionDenied):
        register_player(season=season, first_name="Cy", last_name="Cole", actor=f.UserFactory())


# --- import_players_csv ---


def test_import_players_csv_registers_every_row(official, season):
    known = f.PlayerFactory(first_name="Ann", last_name="Archer", ifpa_number=1234)
    text = HEADER + "Ann,Archer,1234,56\nBob,Baker,,\nCy,Cole,777,\n"

    result = import_players_csv(season=season, csv_text=text, actor=official.user)

    assert [(e.player.last_name, e.ifpa_rank_at_start) for e in result.entries] == [
        ("Archer", 56),
        ("Baker", None),
        ("Cole", None),
    ]
    assert [p.last_name for p in result.created_players] == ["Baker", "Cole"]
    assert result.entries[0].player == known
    assert season.entries.count() == 3
    assert _actions()[-1] == "players.imported"


def test_import_players_csv_bad_row_names_line_and_writes_nothing(official, season):
    text = HEADER + "Ann,Archer,1234,56\nBob,Baker,abc,\n"

    with pytest.raises(PlayersCsvError) as caught:
        import_players_csv(season=season, csv_text=text, actor=official.user)

    assert (caught.value.line, caught.value.column) == (3, "ifpa_number")
    assert (m.Player.objects.count(), m.SeasonEntry.objects.count()) == (0, 0)
    assert m.AuditEvent.objects.count() == 0


def test_import_players_csv_conflict_in_database_names_line_and_rolls_back(official, season):
    f.PlayerFactory(first_name="Zed", last_name="Zane", ifpa_number=42)
    text = HEADER + "Ann,Archer,,\nBob,Baker,42,\n"

    with pytest.raises(PlayersCsvError) as caught:
        import_players_csv(season=season, csv_text=text, actor=official.user)

    assert str(caught.value) == (
        "line 3, column ifpa_number: IFPA number 42 belongs to Zed Zane, not Bob Baker; "
        "check the number or the spelling."
    )
    assert (m.Player.objects.count(), m.SeasonEntry.objects.count()) == (1, 0)
    assert m.AuditEvent.objects.count() == 0


def test_import_players_csv_player_already_entered_names_line(official, season):
    f.SeasonEntryFactory(season=season, player=f.PlayerFactory(first_name="Cy", last_name="Cole"))

    with pytest.raises(PlayersCsvError) as caught:
        import_players_csv(season=season, csv_text=HEADER + "Cy,Cole,,3\n", actor=official.user)

    assert (caught.value.line, caught.value.column) == (2, "last_name")


def test_import_players_csv_by_non_official_refused(season):
    with pytest.raises(PermissionDenied):
        import_players_csv(season=season, csv_text=HEADER, actor=f.UserFactory())


# --- record_event ---


@pytest.mark.django_db(transaction=True)
def test_record_event_outside_transaction_fails_loudly():
    league = f.LeagueFactory()

    with pytest.raises(RuntimeError, match="must run inside the service's transaction"):
        record_event(action="league.touched", obj=league, league=league, actor=None)


def test_record_event_unsaved_object_fails_loudly():
    league = f.LeagueFactory.build()

    with transaction.atomic(), pytest.raises(RuntimeError, match="needs a saved object"):
        record_event(action="league.touched", obj=league, league=None, actor=None)
