"""The playoff race as people read it (issue 33 §1, §3): certain during a meet, never "not
eligible" for a player who has a game to play, and the same words on every screen
(`flipwell.web.race_words`)."""

import datetime
import html
import re
from pathlib import Path

import pytest

from flipwell.league import models as m
from flipwell.league.services.season_files import import_season_file
from tests import factories as f
from tests.golden import GOLDEN
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).parents[2] / "src/flipwell/web/templates"


def text(response) -> str:
    """The page's words, tags left out."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.text)).split())


def play_group(meet, number):
    """Group `number` plays its four games: the ladder's order finishes in order; the last of
    each game picks the next machine (R5-c)."""
    members = [g.player for g in meet.groups.get(number=number).members.order_by("position")]
    current = night_.game(meet, number, 1)
    for game in range(1, 5):
        night_.play(current, {p: 1000 * (len(members) - i) for i, p in enumerate(members)})
        if game < 4:
            current = night_.next_game(meet, number, members[-1])
    return members


@pytest.fixture
def meet_one_of_six():
    """Meet 1 of 6, ten players in groups of 4, 3 and 3: groups 1 and 2 finished, group 3 has
    not confirmed a game yet."""
    night = night_.build_night(players=10, machines=10)
    night.season.number_of_meets = 6
    night.season.save()
    meet = night_.start(night)
    finished = play_group(meet, 1) + play_group(meet, 2)
    playing = [g.player for g in meet.groups.get(number=3).members.all()]
    return night, finished, playing


def test_standings_during_an_open_meet_clinch_nobody_and_bar_nobody_still_playing(
    client, meet_one_of_six
):
    """issue 33 §1 (§6.1 playoff eligibility, A05, R6.1-d): the seven who finished were all
    "clinched" (7 eligible, q = 7) and group 3 "not eligible"; ten will be eligible, q = 8, and
    five meets are left."""
    night, finished, playing = meet_one_of_six

    response = client.get(f"/leagues/{night.league.slug}/")

    lines = {line.player.id: line for line in response.context["page"].standings.lines}
    assert {lines[p.pk].race_status for p in finished + playing} == {"alive"}
    assert {lines[p.pk].may_become_eligible for p in playing} == {True}
    shown = text(response)
    assert "clinched" not in shown.replace("clinched is in whatever happens", "")
    assert "not eligible" not in shown
    assert shown.count("no game yet") == len(playing) + 1  # and the legend


def test_api_standings_during_an_open_meet_say_who_may_still_become_eligible(
    client, meet_one_of_six
):
    """issue 33 §1: the API reads the same race."""
    night, finished, playing = meet_one_of_six

    body = client.get(f"/api/v1/seasons/{night.season.pk}/standings").json()

    lines = {line["player"]["id"]: line for line in body["lines"]}
    assert {lines[p.pk]["race_status"] for p in finished + playing} == {"alive"}
    assert [lines[p.pk]["may_become_eligible"] for p in playing] == [True] * len(playing)
    assert {lines[p.pk]["eligible"] for p in finished} == {True}
    assert body["playoff_line_after_meet"] is None


@pytest.fixture
def just_published():
    """A season of 8 players published, no meet started."""
    return night_.build_night(players=8)


def test_standings_right_after_publishing_say_when_the_playoff_line_comes(client, just_published):
    """issue 33 §1: every player read "not eligible" beside "No playoff line yet"."""
    night = just_published

    shown = text(client.get(f"/leagues/{night.league.slug}/"))

    assert "not eligible" not in shown
    assert shown.count("playoff line after meet 1") == 8
    assert "Playoff line after meet 1: it is drawn once six players have played a game." in shown


def test_player_page_right_after_publishing_says_when_the_playoff_line_comes(
    client, just_published
):
    """issue 33 §1: the player page says it too."""
    night = just_published

    shown = text(client.get(f"/leagues/{night.league.slug}/players/{night.players[0].pk}/"))

    assert "1st in the standings: playoff line after meet 1" in shown
    assert "not eligible" not in shown


def test_tv_and_print_right_after_publishing_say_when_the_playoff_line_comes(
    client, just_published
):
    """issue 33 §1: the TV and the printed standings say it as the standings do."""
    night = just_published

    tv = text(client.get(f"/tv/{night.league.slug}/"))
    printed = text(client.get(f"/print/{night.league.slug}/standings/"))

    assert tv.count("playoff line after meet 1") == 8
    assert printed.count("playoff line after meet 1") == 8
    assert "not eligible" not in tv + printed


def test_api_standings_right_after_publishing_give_the_meet_of_the_playoff_line(
    client, just_published
):
    """issue 33 §1: the API's standings give the meet after which the line is drawn."""
    night = just_published

    body = client.get(f"/api/v1/seasons/{night.season.pk}/standings").json()

    assert (body["playoff_qualifiers"], body["playoff_line_after_meet"]) == (None, 1)
    assert {line["may_become_eligible"] for line in body["lines"]} == {True}


@pytest.fixture
def finished_season():
    """The golden season, every meet closed: each player clinched or eliminated (R6.1-d)."""
    official = f.LeagueOfficialFactory(
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__slug="golden"
    )
    return import_season_file(
        league=official.league,
        name="Winter 2026",
        data=GOLDEN,
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )


def test_tv_says_eliminated_as_the_standings_do(client, finished_season):
    """issue 33 §3: the TV said "out" where the standings say "eliminated"."""
    standings = client.get("/leagues/golden/")
    tv = client.get("/tv/golden/")

    eliminated = [
        line
        for line in standings.context["page"].standings.lines
        if line.race_status == "eliminated"
    ]
    assert eliminated
    assert text(tv).count("eliminated") == text(standings).count("eliminated") - 1  # the legend
    assert '<span class="badge eliminated">out</span>' not in tv.text


@pytest.mark.parametrize(
    "template",
    [
        "public/_standings_table.html",
        "public/player.html",
        "tv/_panels.html",
        "print/standings.html",
    ],
)
def test_race_words_come_from_one_source(template):
    """issue 33 §3: the words for race states live in flipwell.web.race_words, not in each
    template (where the TV's "out" and the standings' "eliminated" had drifted apart)."""
    source = (TEMPLATES / template).read_text()

    assert "{% race_word " in source
    for word in ("clinched<", "eliminated<", ">out<", "not eligible", "season forfeited"):
        assert word not in source
