"""The slow-play warning (R7.5-a) on the pages: the console's form beside the violations (its
fields the service's arguments, once per form key), the player's public page and their
personal page, in plain words with the rule apart from the sentence."""

from __future__ import annotations

import datetime
import html
import re
from types import SimpleNamespace

import pytest
from django.contrib.messages import get_messages

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.player_link_tokens import token_for
from flipwell.web.once import ALREADY_RECORDED
from tests import factories as f
from tests.form_keys import issued_key

pytestmark = pytest.mark.django_db

SENTENCE = (
    "Slow-play warning in game 1: play did not begin promptly, so the official plunged the "
    "ball and it was not played"
)


@pytest.fixture
def slow_play_night(client):
    """Meet 1 of league "tuesday" open, one group of four playing game 1; its LO signed in."""
    official = f.LeagueOfficialFactory(league__slug="tuesday")
    client.force_login(official.user)
    season = f.SeasonFactory(
        league=official.league, name="Spring", number_of_meets=3, created_at=f.SET_UP_2026
    )
    players = [
        f.SeasonEntryFactory(season=season, ifpa_rank_at_start=r).player for r in (1, 2, 3, 4)
    ]
    for title in ("Addams Family", "Medieval Madness", "Twilight Zone"):
        f.MachineFactory(league=official.league, title=title)
    started = services.start_meet(
        season=season, number=1, date=datetime.date(2026, 1, 6), actor=official.user, seed=5
    )
    return SimpleNamespace(
        user=official.user,
        season=season,
        players=players,
        game=started.first_games[0],
        url=f"/manage/tuesday/meets/{started.meet.pk}/violations/",
    )


def _form(slow_play_night, **fields) -> dict[str, object]:
    return {
        "action": "turn_ruling",
        "kind": "slow_play_warning",
        "game": slow_play_night.game.pk,
        "player": slow_play_night.players[1].pk,
        "reason": "Two minutes at the bar before plunging.",
        **fields,
    }


def test_console_slow_play_form_records_the_warning_and_lists_it(client, slow_play_night):
    response = client.post(slow_play_night.url, _form(slow_play_night))

    assert response.status_code == 302
    ruling = m.Ruling.objects.get(kind="slow_play_warning")
    assert (ruling.player, ruling.game, ruling.official) == (
        slow_play_night.players[1],
        slow_play_night.game,
        slow_play_night.user,
    )
    messages = [str(x) for x in get_messages(response.wsgi_request)]
    subject = f"Slow-play warning: {slow_play_night.players[1]}, meet 1 group 1 game 1"
    assert messages == [f"Recorded: {subject}."]
    page = html.unescape(client.get(slow_play_night.url).text)
    assert f"{subject} · Two minutes at the bar before plunging." in page


def test_console_slow_play_form_fields_are_the_services_arguments(client, slow_play_night):
    """The view passes the form's cleaned data as they are: each field is a keyword."""
    page = client.get(slow_play_night.url).text
    form = page[page.index('value="turn_ruling"') :]
    form = form[: form.index("</form>")]

    names = set(re.findall(r'name="([a-z_]+)"', form)) - {"form_key", "csrfmiddlewaretoken"}

    assert names == {"kind", "game", "player", "reason"}


def test_console_slow_play_of_a_player_outside_the_group_says_so_by_the_field(
    client, slow_play_night
):
    outsider = f.SeasonEntryFactory(season=slow_play_night.season, ifpa_rank_at_start=9).player

    response = client.post(slow_play_night.url, _form(slow_play_night, player=outsider.pk))

    assert response.status_code == 400
    assert "that player is not one of the players offered here" in response.text
    assert not m.Ruling.objects.exists()


def test_console_slow_play_of_a_forfeited_player_shows_the_rules_refusal(client, slow_play_night):
    services.record_forfeit(
        game=slow_play_night.game, player=slow_play_night.players[1], actor=slow_play_night.user
    )

    response = client.post(slow_play_night.url, _form(slow_play_night))

    assert response.status_code == 400
    text = html.unescape(response.text)
    assert f"{slow_play_night.players[1]} forfeited this game, so has no turn in it." in text
    assert "The rulebook: R7.5-a." in text
    assert not m.Ruling.objects.exists()


def test_console_slow_play_form_posted_twice_records_once(client, slow_play_night):
    form = {**_form(slow_play_night), "form_key": issued_key(client)}

    first, second = client.post(slow_play_night.url, form), client.post(slow_play_night.url, form)

    assert (first.status_code, second.status_code) == (302, 302)
    assert ALREADY_RECORDED in [str(x) for x in get_messages(second.wsgi_request)]
    assert m.Ruling.objects.filter(kind="slow_play_warning").count() == 1
    assert m.AuditEvent.objects.filter(action="ruling.slow_play_warning").count() == 1


def test_console_violation_posted_without_an_action_still_records_a_violation(
    client, slow_play_night
):
    response = client.post(
        slow_play_night.url,
        {"player": slow_play_night.players[0].pk, "kind": "interference", "reason": "Shoved it.",
         "games_completed": "0"},
    )  # fmt: skip

    assert response.status_code == 200
    assert m.Violation.objects.count() == 1
    assert not m.Ruling.objects.filter(kind="slow_play_warning").exists()


def _warned(slow_play_night) -> m.Player:
    services.record_turn_ruling(
        kind="slow_play_warning",
        game=slow_play_night.game,
        player=slow_play_night.players[1],
        reason="Slow to begin",
        actor=slow_play_night.user,
    )
    return slow_play_night.players[1]


def _meet_card(page: str) -> str:
    text = html.unescape(page)
    return text[text.index('aria-labelledby="meet-1"') :]


def test_player_page_says_the_slow_play_warning_in_plain_words(client, slow_play_night):
    warned = _warned(slow_play_night)

    response = client.get(f"/leagues/tuesday/players/{warned.pk}/")

    assert response.status_code == 200
    card = _meet_card(response.text)
    assert (
        SENTENCE
        + '<details class="why"><summary>Why</summary><p>The rulebook: R7.5-a.</p></details></li>'
        in card
    )
    assert "Slow to begin" not in response.text  # the official's reason is not public


def test_player_page_of_another_player_of_the_group_has_no_warning(client, slow_play_night):
    _warned(slow_play_night)

    response = client.get(f"/leagues/tuesday/players/{slow_play_night.players[0].pk}/")

    assert "Slow-play warning" not in response.text


def test_personal_page_shows_the_players_own_slow_play_warning(client, slow_play_night):
    warned = _warned(slow_play_night)
    link = services.issue_player_link(
        season=slow_play_night.season, player=warned, actor=slow_play_night.user
    )
    client.logout()

    response = client.get(f"/me/{token_for(link)}/")

    assert response.status_code == 200
    assert SENTENCE in html.unescape(response.text)


def test_league_hub_lists_the_warning_among_the_latest_rulings(client, slow_play_night):
    warned = _warned(slow_play_night)

    page = html.unescape(client.get("/manage/tuesday/").text)

    assert f"Slow-play warning: {warned}, meet 1 group 1 game 1: Slow to begin" in page
