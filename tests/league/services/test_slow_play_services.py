"""The slow-play warning (R7.5-a): the official plunged the ball of a player who did not begin
play promptly; recorded as a ruling about that player in that game (who, when, why), audited,
and told to the player."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.notice_worker import work_once
from flipwell.league.services import record_forfeit, record_turn_ruling
from flipwell.league.services._edge import ConflictError
from flipwell.league.services.notices import set_notice_preferences
from tests import factories as f
from tests.league.league_night import build_night, game, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def first_game_night():
    night = build_night()
    night.meet = start(night)
    night.game = game(night.meet, 1, 1)
    night.group = [row.player for row in night.game.group.members.order_by("position")]
    return night


def _written() -> tuple[int, int, int]:
    return (m.Ruling.objects.count(), m.AuditEvent.objects.count(), m.Notice.objects.count())


def test_slow_play_warning_records_who_when_and_why_about_the_player_in_the_game(first_game_night):
    season_revision = first_game_night.season.revision
    league_revision = first_game_night.league.revision
    player = first_game_night.group[1]

    ruling = record_turn_ruling(
        kind="slow_play_warning",
        game=first_game_night.game,
        player=player,
        reason="Waited two minutes at the plunger",
        actor=first_game_night.user,
    )

    ruling.refresh_from_db()
    assert (ruling.kind, ruling.player, ruling.game) == (
        "slow_play_warning",
        player,
        first_game_night.game,
    )
    assert (ruling.official, ruling.reason) == (
        first_game_night.user,
        "Waited two minutes at the plunger",
    )
    assert ruling.created_at is not None
    assert ruling.subject == f"Slow-play warning: {player}, meet 1 group 1 game 1"
    assert not ruling.official_involved
    event = m.AuditEvent.objects.get(action="ruling.slow_play_warning")
    assert (event.object_id, event.actor, event.league) == (
        str(ruling.pk),
        first_game_night.user,
        first_game_night.league,
    )
    assert event.data == {
        "game": first_game_night.game.pk,
        "player": player.pk,
        "reason": "Waited two minutes at the plunger",
        "rules": ["R7.5-a"],
    }
    first_game_night.season.refresh_from_db()
    first_game_night.league.refresh_from_db()
    assert first_game_night.league.revision != league_revision  # the player's pages show it
    assert first_game_night.season.revision == season_revision  # no number changed: no refold


def test_slow_play_warning_takes_the_players_id_as_the_console_and_api_send_it(first_game_night):
    ruling = record_turn_ruling(
        kind="slow_play_warning",
        game=first_game_night.game,
        player=first_game_night.group[2].pk,
        reason="Slow to plunge",
        actor=first_game_night.user,
    )

    assert ruling.player == first_game_night.group[2]


def test_slow_play_warning_is_sent_to_the_player(first_game_night, settings, mailoutbox):
    settings.NOTICES_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://league.example.org"
    player = first_game_night.group[0]
    set_notice_preferences(
        league=first_game_night.league, player=player, email="ada@example.org", kinds=["ruling"],
        actor=first_game_night.user,
    )  # fmt: skip

    record_turn_ruling(
        kind="slow_play_warning",
        game=first_game_night.game,
        player=player,
        reason="Talking at the bar",
        actor=first_game_night.user,
    )
    work_once()

    (mail,) = mailoutbox
    assert mail.subject == f"{first_game_night.league}: a slow-play warning at meet 1"
    assert "the official plunged your ball, and it was not played." in mail.body
    assert "The official's reason: Talking at the bar" in mail.body


def test_slow_play_warning_by_an_official_who_plays_in_the_group_is_flagged(first_game_night):
    """R1.1-a, A55: allowed, and flagged."""
    first_game_night.official.player = first_game_night.group[3]
    first_game_night.official.save()

    ruling = record_turn_ruling(
        kind="slow_play_warning",
        game=first_game_night.game,
        player=first_game_night.group[0],
        reason="Slow",
        actor=first_game_night.user,
    )

    assert ruling.official_involved


def test_slow_play_warning_of_a_player_outside_the_group_refused(first_game_night):
    outsider = next(p for p in first_game_night.players if p not in first_game_night.group)
    before = _written()

    with pytest.raises(ValidationError) as refused:
        record_turn_ruling(
            kind="slow_play_warning",
            game=first_game_night.game,
            player=outsider,
            reason="Slow",
            actor=first_game_night.user,
        )

    assert refused.value.message_dict == {
        "player": [f"{outsider} does not play in this game's group, so has no turn in it (R7.5-a)."]
    }
    assert _written() == before


def test_slow_play_warning_of_a_player_who_forfeited_the_game_refused(first_game_night):
    record_forfeit(
        game=first_game_night.game, player=first_game_night.group[3], actor=first_game_night.user
    )
    before = _written()

    with pytest.raises(ValidationError) as refused:
        record_turn_ruling(
            kind="slow_play_warning",
            game=first_game_night.game,
            player=first_game_night.group[3],
            reason="Slow",
            actor=first_game_night.user,
        )

    assert list(refused.value.message_dict) == ["player"]
    assert "forfeited this game" in refused.value.message_dict["player"][0]
    assert _written() == before


def test_slow_play_warning_without_a_reason_refused_then_its_retry_records_once(first_game_night):
    with pytest.raises(ValidationError) as refused:
        record_turn_ruling(
            kind="slow_play_warning",
            game=first_game_night.game,
            player=first_game_night.group[0],
            reason=" ",
            actor=first_game_night.user,
        )
    assert list(refused.value.message_dict) == ["reason"]
    assert m.Ruling.objects.count() == 0

    record_turn_ruling(
        kind="slow_play_warning",
        game=first_game_night.game,
        player=first_game_night.group[0],
        reason="Slow to begin",
        actor=first_game_night.user,
    )

    assert m.Ruling.objects.filter(kind="slow_play_warning").count() == 1


def test_slow_play_warning_at_a_closed_meet_refused(first_game_night):
    m.Meet.objects.filter(pk=first_game_night.meet.pk).update(status=m.Meet.Status.CLOSED)

    with pytest.raises(ConflictError, match="Meet 1 is closed: cannot record a slow-play warning"):
        record_turn_ruling(
            kind="slow_play_warning",
            game=first_game_night.game,
            player=first_game_night.group[0],
            reason="Slow",
            actor=first_game_night.user,
        )

    assert m.Ruling.objects.count() == 0


def test_slow_play_warning_by_a_scorekeeper_refused(first_game_night):
    keeper = f.LeagueOfficialFactory(
        league=first_game_night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    ).user
    before = _written()

    with pytest.raises(PermissionDenied):
        record_turn_ruling(
            kind="slow_play_warning",
            game=first_game_night.game,
            player=first_game_night.group[0],
            reason="Slow",
            actor=keeper,
        )

    assert _written() == before
