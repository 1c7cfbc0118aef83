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
def night():
    night = build_night()
    night.meet = start(night)
    night.game = game(night.meet, 1, 1)
    night.group = [row.player for row in night.game.group.members.order_by("position")]
    return night


def _written() -> tuple[int, int, int]:
    return (m.Ruling.objects.count(), m.AuditEvent.objects.count(), m.Notice.objects.count())


def test_slow_play_warning_records_who_when_and_why_about_the_player_in_the_game(night):
    season_revision = night.season.revision
    player = night.group[1]

    ruling = record_turn_ruling(
        kind="slow_play_warning",
        game=night.game,
        player=player,
        reason="Waited two minutes at the plunger",
        actor=night.user,
    )

    ruling.refresh_from_db()
    assert (ruling.kind, ruling.player, ruling.game) == ("slow_play_warning", player, night.game)
    assert (ruling.official, ruling.reason) == (night.user, "Waited two minutes at the plunger")
    assert ruling.created_at is not None
    assert ruling.subject == f"Slow-play warning: {player}, meet 1 group 1 game 1"
    assert not ruling.official_involved
    event = m.AuditEvent.objects.get(action="ruling.slow_play_warning")
    assert (event.object_id, event.actor, event.league) == (
        str(ruling.pk),
        night.user,
        night.league,
    )
    assert event.data == {
        "game": night.game.pk,
        "player": player.pk,
        "reason": "Waited two minutes at the plunger",
        "rules": ["R7.5-a"],
    }
    night.season.refresh_from_db()
    assert night.season.revision != season_revision  # the player's pages show it


def test_slow_play_warning_takes_the_players_id_as_the_console_and_api_send_it(night):
    ruling = record_turn_ruling(
        kind="slow_play_warning",
        game=night.game,
        player=night.group[2].pk,
        reason="Slow to plunge",
        actor=night.user,
    )

    assert ruling.player == night.group[2]


def test_slow_play_warning_is_sent_to_the_player(night, settings, mailoutbox):
    settings.NOTICES_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://league.example.org"
    player = night.group[0]
    set_notice_preferences(
        league=night.league, player=player, email="ada@example.org", kinds=["ruling"],
        actor=night.user,
    )  # fmt: skip

    record_turn_ruling(
        kind="slow_play_warning",
        game=night.game,
        player=player,
        reason="Talking at the bar",
        actor=night.user,
    )
    work_once()

    (mail,) = mailoutbox
    assert mail.subject == f"{night.league}: a slow-play warning at meet 1"
    assert "the official plunged your ball, and it was not played." in mail.body
    assert "The official's reason: Talking at the bar" in mail.body


def test_slow_play_warning_by_an_official_who_plays_in_the_group_is_flagged(night):
    """R1.1-a, A55: allowed, and flagged."""
    night.official.player = night.group[3]
    night.official.save()

    ruling = record_turn_ruling(
        kind="slow_play_warning",
        game=night.game,
        player=night.group[0],
        reason="Slow",
        actor=night.user,
    )

    assert ruling.official_involved


def test_slow_play_warning_of_a_player_outside_the_group_refused(night):
    outsider = next(p for p in night.players if p not in night.group)
    before = _written()

    with pytest.raises(ValidationError) as refused:
        record_turn_ruling(
            kind="slow_play_warning",
            game=night.game,
            player=outsider,
            reason="Slow",
            actor=night.user,
        )

    assert refused.value.message_dict == {
        "player": [f"{outsider} does not play in this game's group, so has no turn in it (R7.5-a)."]
    }
    assert _written() == before


def test_slow_play_warning_of_a_player_who_forfeited_the_game_refused(night):
    record_forfeit(game=night.game, player=night.group[3], actor=night.user)
    before = _written()

    with pytest.raises(ValidationError) as refused:
        record_turn_ruling(
            kind="slow_play_warning",
            game=night.game,
            player=night.group[3],
            reason="Slow",
            actor=night.user,
        )

    assert list(refused.value.message_dict) == ["player"]
    assert "forfeited this game" in refused.value.message_dict["player"][0]
    assert _written() == before


def test_slow_play_warning_without_a_reason_refused_then_its_retry_records_once(night):
    with pytest.raises(ValidationError) as refused:
        record_turn_ruling(
            kind="slow_play_warning",
            game=night.game,
            player=night.group[0],
            reason=" ",
            actor=night.user,
        )
    assert list(refused.value.message_dict) == ["reason"]
    assert m.Ruling.objects.count() == 0

    record_turn_ruling(
        kind="slow_play_warning",
        game=night.game,
        player=night.group[0],
        reason="Slow to begin",
        actor=night.user,
    )

    assert m.Ruling.objects.filter(kind="slow_play_warning").count() == 1


def test_slow_play_warning_at_a_closed_meet_refused(night):
    m.Meet.objects.filter(pk=night.meet.pk).update(status=m.Meet.Status.CLOSED)

    with pytest.raises(ConflictError, match="Meet 1 is closed: cannot record a slow-play warning"):
        record_turn_ruling(
            kind="slow_play_warning",
            game=night.game,
            player=night.group[0],
            reason="Slow",
            actor=night.user,
        )

    assert m.Ruling.objects.count() == 0


def test_slow_play_warning_by_a_scorekeeper_refused(night):
    keeper = f.LeagueOfficialFactory(
        league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    ).user
    before = _written()

    with pytest.raises(PermissionDenied):
        record_turn_ruling(
            kind="slow_play_warning",
            game=night.game,
            player=night.group[0],
            reason="Slow",
            actor=keeper,
        )

    assert _written() == before
