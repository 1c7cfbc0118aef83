"""Every kind of ruling about a player's turn (flipwell.league.turn_rulings.KINDS: the
slow-play warning R7.5-a, the distraction ruling R7.7-a / R7.8-a) goes the whole way from its
registry entry: the service records who, when and why with its audit event and notice; the
console's form offers it; the API has its write; the player's page says it in words. A kind
added to the registry is held to all of it here."""

from __future__ import annotations

import datetime
import html

import pytest
from django.core.exceptions import ValidationError

from flipwell.api.api import api
from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.notice_worker import work_once
from flipwell.league.services.notices import set_notice_preferences
from flipwell.league.turn_rulings import KINDS, TurnRulingKind
from flipwell.web.words.turn_rulings import WORDS
from tests import factories as f
from tests.api.conftest import post, token

pytestmark = pytest.mark.django_db

EVERY_KIND = pytest.mark.parametrize("entry", list(KINDS.values()), ids=list(KINDS))


@pytest.fixture
def turn_night(client):
    """Meet 1 of league "tuesday" open, one group of four; its LO signed in."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    for rank in (1, 2, 3, 4):
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=rank)
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone"):
        f.MachineFactory(league=official.league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    game = started.first_games[0]
    group = [row.player for row in game.group.members.order_by("position")]
    return official, started.meet, game, group


@EVERY_KIND
def test_service_records_the_kind_with_its_event_and_notice(
    turn_night, entry: TurnRulingKind, settings, mailoutbox
):
    official, _meet, game, group = turn_night
    settings.NOTICES_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    set_notice_preferences(
        league=official.league, player=group[2], email="cy@example.org", kinds=["ruling"],
        actor=official.user,
    )  # fmt: skip

    ruling = services.record_turn_ruling(
        kind=entry.kind, game=game, player=group[2], reason="Seen at the machine",
        actor=official.user,
    )  # fmt: skip

    assert (ruling.kind, ruling.player, ruling.game) == (entry.kind, group[2], game)
    assert ruling.subject == f"{entry.name}: {group[2]}, meet 1 group 1 game 1"
    event = m.AuditEvent.objects.get(action=f"ruling.{entry.kind}")
    assert event.data["rules"] == list(entry.rules)
    work_once()
    (mail,) = mailoutbox
    assert mail.subject == f"{official.league}: a {entry.name.lower()} at meet 1"
    assert WORDS[entry.kind].told in " ".join(mail.body.split())


def test_service_refuses_a_kind_the_registry_does_not_know(turn_night):
    official, _meet, game, group = turn_night

    with pytest.raises(ValidationError) as refused:
        services.record_turn_ruling(
            kind="yellow_card", game=game, player=group[0], reason="x", actor=official.user
        )

    assert "There is no ruling of kind 'yellow_card'" in str(refused.value.message_dict["kind"])
    assert not m.Ruling.objects.exists()


@EVERY_KIND
def test_console_form_offers_and_records_the_kind(client, turn_night, entry: TurnRulingKind):
    _official, meet, game, group = turn_night
    url = f"/manage/tuesday/meets/{meet.pk}/violations/"
    page = html.unescape(client.get(url).text)
    assert f'<option value="{entry.kind}">{entry.name}</option>' in page
    assert WORDS[entry.kind].when in page

    response = client.post(
        url,
        {"action": "turn_ruling", "kind": entry.kind, "game": game.pk, "player": group[1].pk,
         "reason": "Seen from the bar"},
    )  # fmt: skip

    assert response.status_code == 302
    assert m.Ruling.objects.get(kind=entry.kind).player == group[1]


@EVERY_KIND
def test_api_write_of_the_kind_is_201_and_documented(client, turn_night, entry: TurnRulingKind):
    official, _meet, game, group = turn_night
    path = f"/api/v1/games/{game.pk}/{entry.path}"

    response = post(
        client, path, {"player": group[0].pk, "reason": "Seen"}, token(official, "manage")
    )

    assert response.status_code == 201, response.content
    assert response.json()["kind"] == entry.kind
    operation = api.get_openapi_schema()["paths"][f"/api/v1/games/{{game_id}}/{entry.path}"]
    assert "Idempotency-Key" in [p["name"] for p in operation["post"]["parameters"]]


@EVERY_KIND
def test_player_page_says_the_kind_in_words(client, turn_night, entry: TurnRulingKind):
    official, _meet, game, group = turn_night
    services.record_turn_ruling(
        kind=entry.kind, game=game, player=group[3], reason="Private words", actor=official.user
    )

    page = html.unescape(client.get(f"/leagues/tuesday/players/{group[3].pk}/").text)

    rules = ", ".join(entry.rules)
    why = f'<details class="why"><summary>Why</summary><p>The rulebook: {rules}.</p>'
    assert f"{entry.name} in game 1: {WORDS[entry.kind].ruled}{why}" in page
    assert "Private words" not in page
