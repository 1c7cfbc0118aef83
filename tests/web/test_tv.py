"""The venue's TV: public, dark, rotating panels refreshed by htmx; QR codes for staff only."""

import html
import re

import pytest

from flipwell.league import models as m
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


def test_tv_shows_tonights_groups_and_standings(client, started_night):
    night, _meet = started_night

    response = client.get(f"/tv/{night.league.slug}/")

    assert response.status_code == 200
    assert 'class="tv"' in response.text
    assert "/static/flipwell/tv.js" in response.text
    assert 'hx-trigger="every 15s, flipwell:live"' in response.text
    assert response.text.count("data-tv-panel") >= 2
    assert "Group 1" in response.text
    assert "Group 2" in response.text
    assert "Standings" in response.text


def test_tv_htmx_refresh_gets_only_the_panels(client, started_night):
    night, _meet = started_night

    response = client.get(f"/tv/{night.league.slug}/", headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "<html" not in response.text
    assert "data-tv-panel" in response.text


def test_tv_hides_score_sheet_qr_codes_from_the_public(client, started_night):
    night, _meet = started_night

    response = client.get(f"/tv/{night.league.slug}/")

    assert 'class="qr"' not in response.text
    assert "/sheet/" not in response.text


def test_tv_shows_score_sheet_qr_codes_to_the_leagues_staff(client, started_night):
    night, _meet = started_night
    scorekeeper = f.LeagueOfficialFactory(
        league=night.league, role=m.LeagueOfficial.Role.SCOREKEEPER
    )
    client.force_login(scorekeeper.user)

    response = client.get(f"/tv/{night.league.slug}/")

    assert response.text.count('class="qr"') == 2


def test_tv_hides_qr_codes_from_another_leagues_official(client, started_night):
    night, _meet = started_night
    client.force_login(f.LeagueOfficialFactory().user)

    response = client.get(f"/tv/{night.league.slug}/")

    assert 'class="qr"' not in response.text


def test_tv_of_a_league_without_season_says_so(client):
    f.LeagueFactory(slug="empty")

    response = client.get("/tv/empty/")

    assert response.status_code == 200
    assert "Nothing to show yet." in response.text


def test_tv_of_unknown_league_is_404(client):
    assert client.get("/tv/nope/").status_code == 404


# --- the playoff bracket: whose, and until when (issue #11, item 9) ---


def test_tv_hides_last_seasons_bracket_once_the_new_season_plays(client, demo):
    response = client.get(f"/tv/{demo.league.slug}/")

    assert response.context["page"].bracket is None
    assert "Playoffs" not in response.text


def test_tv_stays_on_the_season_being_played_while_another_is_prepared(client, demo):
    """issue 27 §1: a season created while another is played is not the TV's until its first
    meet starts (the TV showed the new, empty season: no groups, no standings)."""
    f.SeasonFactory(league=demo.league, name="Autumn 2026")

    response = client.get(f"/tv/{demo.league.slug}/")

    page = response.context["page"]
    assert page.season.name == demo.current_season.name
    assert page.meet is not None
    assert page.bracket is None


# --- issue 27 §5: the result after a match, the night's points, standings slides ---


def text(response) -> str:
    """The page's words, tags left out."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.text)).split())


def play_games(night, meet, members, count):
    """Play `count` games of group 1: the ladder's last player wins games 1 to 3 and comes last
    in game 4, which the ladder's first wins (R5-c: the last of a game picks the next)."""
    current = night_.game(meet, 1, 1)
    for number in range(1, count + 1):
        winner_first = members if number == 4 else members[::-1]
        night_.play(current, {p: 1000 * (4 - i) for i, p in enumerate(winner_first)})
        if number < count:
            current = night_.next_game(meet, 1, winner_first[3])


@pytest.fixture
def one_group():
    night = night_.build_night(players=4)
    meet = night_.start(night)
    members = [g.player for g in meet.groups.get().members.order_by("position")]
    return night, meet, members


def test_tv_after_the_match_shows_the_groups_result_not_a_next_play_order(client, one_group):
    """§4, R3.3-a: after game 4 there is no game 5: the TV lists the night's places and
    points (the ladder's last player won the night though game 4's winner was first in the
    order a game 5 would have had)."""
    night, meet, (a, b, c, d) = one_group
    play_games(night, meet, [a, b, c, d], 4)

    response = client.get(f"/tv/{night.league.slug}/")

    shown = text(response)
    assert (
        f"Match finished. The night's points 1st {d} 23 pts 2nd {c} 19 pts "
        f"3rd {b} 18 pts 4th {a} 14 pts"
    ) in shown
    assert "Play order" not in shown
    group = response.context["page"].meet.groups[0]
    assert [(line.name, line.place, line.points) for line in group.lines] == [
        (str(d), 1, 23),
        (str(c), 2, 19),
        (str(b), 3, 18),
        (str(a), 4, 14),
    ]


def test_tv_during_the_match_lists_the_play_order_with_the_points_so_far(client, one_group):
    """R5.2-b, R3.3-a: game 2 is played in game 1's finishing order; each player's points
    of the night so far beside his name (the public board's night totals)."""
    night, meet, (a, b, c, d) = one_group
    play_games(night, meet, [a, b, c, d], 2)

    shown = text(client.get(f"/tv/{night.league.slug}/"))

    assert (
        f"Play order · points so far 1. {d} 14 pts 2. {c} 10 pts 3. {b} 8 pts 4. {a} 4 pts"
    ) in shown


def test_tv_before_any_game_lists_the_play_order_alone(client, one_group):
    """R5-b: game 1 in ladder order, no points yet."""
    night, _meet, (a, b, c, d) = one_group

    shown = text(client.get(f"/tv/{night.league.slug}/"))

    assert f"Play order 1. {a} 2. {b} 3. {c} 4. {d} " in shown
    assert " pts" not in shown.split("Standings")[0]


@pytest.mark.parametrize(
    ("players", "slides"),
    [(12, [12]), (14, [14]), (20, [20]), (21, [11, 10]), (25, [13, 12]), (41, [14, 14, 13])],
)
def test_tv_standings_fill_a_slide_and_split_evenly_beyond(client, players, slides):
    """Issue 27 §5: 14 standings lines on one slide (they were split 12 + 2); beyond the 20
    a slide holds, the lines are shared evenly between the slides."""
    night = night_.build_night(players=players, machines=8)
    night_.start(night)

    response = client.get(f"/tv/{night.league.slug}/")

    assert [len(lines) for lines in response.context["standing_panels"]] == slides
    assert response.text.count('aria-label="Standings"') == len(slides)
