"""A playoff match's score sheet from the players' phones (§6.3-§6.5, R3-a..R3-d): start a game
(game 1 drawn, R6.4-b; the loser picks, R6.4-c), enter, confirm by another player, correct
with the others' consent, the tiebreaker game (R6.5-a), stale and repeated posts."""

import datetime
from types import SimpleNamespace

import pytest
from django.test import Client

from flipwell.league import models as m
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.web.scoresheet_tokens import match_sheet_path
from tests import factories as f

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def bracket_night():
    """An 8-player bracket (seeds in NAMES order), nothing played: SF1 is Ann, Dee, Eve, Hal
    (seeds 1, 4, 5, 8, R6.3-h)."""
    official = f.LeagueOfficialFactory()
    league = official.league
    season = f.SeasonFactory(league=league, created_at=f.SET_UP_2026)
    titles = ("Addams Family", "Medieval Madness", "Twilight Zone", "Attack from Mars", "Cyclone")
    for title in titles:
        f.MachineFactory(league=league, title=title)
    night = f.PlayoffNightFactory(season=season, date=datetime.date(2026, 4, 7), cut=8)
    players = {}
    for seed, name in enumerate(NAMES, 1):
        player = f.PlayerFactory(first_name=name, last_name="Test")
        f.QualifierFactory(playoff_night=night, player=player, seed=seed)
        players[name] = player
    return SimpleNamespace(
        season=season, night=night, p=players, url=match_sheet_path(night.pk, "A", "SF1")
    )


def shown_number_version(bracket_night, match="SF1"):
    row = m.PlayoffMatch.objects.filter(playoff_night=bracket_night.night).first()
    game = m.PlayoffGame.objects.filter(match=row).order_by("-number").first()
    tied = m.PlayoffSheet.objects.filter(match=row, number=4).exists()
    number = 4 if tied or (game and game.results.exists()) else game.number
    version = max(
        m.PlayoffSheet.objects.filter(match=row, number=number).values_list("version", flat=True),
        default=0,
    )
    return number, version


def start(client, bracket_night, who, machine=None, url=None):
    data = {"started_by": str(bracket_night.p[who].pk)}
    if machine is not None:
        data["machine"] = str(m.Machine.objects.get(title=machine).pk)
    return client.post((url or bracket_night.url) + "start/", data)


def enter(
    client, bracket_night, scores, *, by, key="k1", number=None, version=None, ties=None, url=None
):
    shown_number, shown_version = shown_number_version(bracket_night)
    data = {
        "idempotency_key": key,
        "entered_by": str(bracket_night.p[by].pk),
        "game": str(number or shown_number),
        "seen_version": str(shown_version if version is None else version),
    }
    for name, score in scores.items():
        data[f"score_{bracket_night.p[name].pk}"] = score
    for name, place in (ties or {}).items():
        data[f"tie_{bracket_night.p[name].pk}"] = str(place)
    return client.post((url or bracket_night.url) + "enter/", data)


def confirm(client, bracket_night, *, by, sheet=None, url=None):
    sheet = sheet or m.PlayoffSheet.objects.order_by("-pk").first()
    data = {"submission": str(sheet.pk), "confirmed_by": str(bracket_night.p[by].pk)}
    return client.post((url or bracket_night.url) + "confirm/", data)


def play_game(client, bracket_night, order, *, picker=None, machine=None, key="k"):
    """Start a game (the loser picks `machine`), enter scores in `order` (winner first) and
    confirm it by another player."""
    assert start(client, bracket_night, picker or order[0], machine).status_code == 302
    scores = {name: f"{(10 - i) * 1_000_000:,}" for i, name in enumerate(order)}
    assert enter(client, bracket_night, scores, by=order[0], key=key).status_code == 302
    assert confirm(client, bracket_night, by=order[1]).status_code == 302


def sf1(bracket_night):
    bracket = playoff_bracket(bracket_night.season)
    return next(x for x in bracket.divisions[0].matches if x.match == "SF1")


def test_sheet_shows_the_match_players_and_how_game_1_starts(client, bracket_night):
    page = client.get(bracket_night.url).content.decode()

    assert "Semifinal 1" in page
    assert "Players: Ann Test · Dee Test · Eve Test · Hal Test" in page
    assert "Its machine is drawn at random when you start it." in page


def test_start_game_1_r6_4_b_draws_its_machine(client, bracket_night):
    response = start(client, bracket_night, "Eve")

    assert response.status_code == 302
    game = m.PlayoffGame.objects.get()
    assert (game.number, game.chosen_by) == (1, None)
    page = client.get(bracket_night.url).content.decode()
    assert f"Game 1 · {game.machine.title}" in page


def test_enter_then_confirm_by_another_player_r3_a(client, bracket_night):
    start(client, bracket_night, "Ann")
    scores = {"Ann": "4,000,000", "Dee": "3,000,000", "Eve": "2,000,000"}
    scores["Hal"] = "1,234,567,890,123"  # 13 digits

    assert enter(client, bracket_night, scores, by="Dee").status_code == 302
    page = client.get(bracket_night.url).content.decode()
    assert "Entered by Dee Test: check it" in page
    assert "1,234,567,890,123" in page
    assert confirm(client, bracket_night, by="Eve").status_code == 302

    results = dict(m.PlayoffResult.objects.values_list("player__first_name", "machine_score"))
    assert results["Hal"] == 1_234_567_890_123
    totals = {r.name.split()[0]: t for r, t in sf1(bracket_night).totals}
    assert totals == {"Ann": 2, "Dee": 1, "Eve": 0, "Hal": 4}  # R6.3-a: 4-2-1-0
    page = client.get(bracket_night.url).content.decode()
    assert "Points so far" in page  # the games confirmed, with their running totals
    assert "Game 2: Eve Test picks the machine" in page


def test_enterer_cannot_confirm_own_scores_r3_a(client, bracket_night):
    start(client, bracket_night, "Ann")
    enter(client, bracket_night, {"Ann": "4", "Dee": "3", "Eve": "2", "Hal": "1"}, by="Ann")

    response = confirm(client, bracket_night, by="Ann")

    assert response.status_code == 400
    assert not m.PlayoffResult.objects.exists()
    assert "Select a valid" not in response.content.decode()


def test_player_of_another_match_is_refused(client, bracket_night):
    start(client, bracket_night, "Ann")

    response = enter(
        client, bracket_night, {"Ann": "4", "Dee": "3", "Eve": "2", "Hal": "1"}, by="Bea"
    )

    assert response.status_code == 400
    assert not m.PlayoffSheet.objects.exists()
    assert start(client, bracket_night, "Bea").status_code == 400


def test_only_the_loser_picks_the_next_machine_r6_4_c(client, bracket_night):
    play_game(client, bracket_night, ["Ann", "Dee", "Eve", "Hal"])
    first = m.PlayoffGame.objects.get().machine.title
    other = next(t for t in ("Cyclone", "Twilight Zone") if t != first)

    refused = start(client, bracket_night, "Ann", other)
    assert refused.status_code == 400
    assert "Hal Test finished last in game 1, so Hal Test picks" in refused.content.decode()
    assert (
        start(client, bracket_night, "Hal", first).status_code == 400
    )  # played in this match (A44)
    assert start(client, bracket_night, "Hal", other).status_code == 302

    game = m.PlayoffGame.objects.get(number=2)
    assert (game.machine.title, game.chosen_by.first_name) == (other, "Hal")


def test_retried_entry_stores_once_and_stale_entry_is_refused(client, bracket_night):
    start(client, bracket_night, "Ann")
    scores = {"Ann": "4", "Dee": "3", "Eve": "2", "Hal": "1"}
    assert enter(client, bracket_night, scores, by="Ann", key="same", version=0).status_code == 302

    again = enter(client, bracket_night, scores, by="Ann", key="same", version=0)
    assert again.status_code == 302
    assert m.PlayoffSheet.objects.count() == 1

    stale = enter(client, bracket_night, {**scores, "Ann": "5"}, by="Dee", key="other", version=0)
    assert stale.status_code == 409
    assert m.PlayoffSheet.objects.count() == 1


def test_fixed_entry_replaces_and_old_version_cannot_be_confirmed(client, bracket_night):
    start(client, bracket_night, "Ann")
    enter(
        client, bracket_night, {"Ann": "4", "Dee": "3", "Eve": "2", "Hal": "1"}, by="Ann", key="a"
    )
    old = m.PlayoffSheet.objects.get()
    enter(
        client, bracket_night, {"Ann": "1", "Dee": "3", "Eve": "2", "Hal": "4"}, by="Dee", key="b"
    )

    assert confirm(client, bracket_night, by="Eve", sheet=old).status_code == 409
    assert confirm(client, bracket_night, by="Eve").status_code == 302
    assert confirm(client, bracket_night, by="Hal").status_code == 409  # confirmed meanwhile
    winner = m.PlayoffResult.objects.order_by("-machine_score").first()
    assert winner.player.first_name == "Hal"


def test_correction_applies_when_every_other_player_agrees_r3_d(client, bracket_night):
    play_game(client, bracket_night, ["Ann", "Dee", "Eve", "Hal"])
    game = m.PlayoffGame.objects.get()
    data = {
        "game": str(game.number),
        "requested_by": str(bracket_night.p["Hal"].pk),
        f"score_{bracket_night.p['Hal'].pk}": "99,000,000",
        "reason": "Hal's score was typed without a digit",
    }
    assert client.post(bracket_night.url + "correction/", data).status_code == 302
    correction = m.PlayoffSheet.objects.get(status="pending")
    page = client.get(bracket_night.url).content.decode()
    assert 'Hal Test: <span class="score">7,000,000</span> → ' in page

    for name in ("Ann", "Dee"):
        answer = {"player": str(bracket_night.p[name].pk), "agrees": "yes"}
        client.post(bracket_night.url + f"correction/{correction.pk}/answer/", answer)
    assert m.PlayoffResult.objects.get(player=bracket_night.p["Hal"]).machine_score == 7_000_000

    answer = {"player": str(bracket_night.p["Eve"].pk), "agrees": "yes"}
    assert (
        client.post(bracket_night.url + f"correction/{correction.pk}/answer/", answer).status_code
        == 302
    )
    correction.refresh_from_db()
    assert correction.status == "applied"
    assert m.PlayoffResult.objects.get(player=bracket_night.p["Hal"]).machine_score == 99_000_000
    assert sf1(bracket_night).machine_chooser.name == "Eve Test"  # Eve is last now (R6.4-c)


def test_correction_refused_when_one_player_disagrees_r3_d(client, bracket_night):
    play_game(client, bracket_night, ["Ann", "Dee", "Eve", "Hal"])
    data = {
        "game": "1",
        "requested_by": str(bracket_night.p["Hal"].pk),
        f"score_{bracket_night.p['Hal'].pk}": "99,000,000",
        "reason": "wrong",
    }
    client.post(bracket_night.url + "correction/", data)
    correction = m.PlayoffSheet.objects.get(status="pending")

    answer = {"player": str(bracket_night.p["Eve"].pk), "agrees": "no"}
    client.post(bracket_night.url + f"correction/{correction.pk}/answer/", answer)

    correction.refresh_from_db()
    assert correction.status == "refused"
    assert m.PlayoffResult.objects.get(player=bracket_night.p["Hal"]).machine_score == 7_000_000


def test_tied_semifinal_plays_a_tiebreaker_game_explained_r6_5_a(client, bracket_night):
    # Ann 4+2+2 = 8, Dee 2+0+4 = 6, Eve 1+4+1 = 6, Hal 0+1+0 = 1: Dee and Eve tie for 2nd.
    play_game(client, bracket_night, ["Ann", "Dee", "Eve", "Hal"], key="g1")
    machines = iter(("Cyclone", "Twilight Zone", "Attack from Mars", "Medieval Madness"))
    played = {m.PlayoffGame.objects.get().machine.title}
    pick = next(t for t in machines if t not in played)
    play_game(
        client, bracket_night, ["Eve", "Ann", "Hal", "Dee"], picker="Hal", machine=pick, key="g2"
    )
    played.add(pick)
    pick = next(t for t in machines if t not in played)
    play_game(
        client, bracket_night, ["Dee", "Ann", "Eve", "Hal"], picker="Dee", machine=pick, key="g3"
    )

    page = client.get(bracket_night.url).content.decode()
    assert "Tiebreaker game · " in page
    assert "Dee Test and Eve Test both have 6 points, and only one of them goes on" in page
    scores = {"Dee": "1,000", "Eve": "2,000"}
    assert enter(client, bracket_night, scores, by="Dee", key="tb").status_code == 302
    assert confirm(client, bracket_night, by="Ann").status_code == 302

    drawn = m.Tiebreaker.objects.get(purpose="match").machine.title
    assert f"Tiebreaker game · {drawn}" in page  # the sheet showed where it is drawn (R6.5-b)
    state = sf1(bracket_night)
    assert state.status == "complete"
    assert [r.name for r in state.advancing] == ["Ann Test", "Eve Test"]
    page = client.get(bracket_night.url).content.decode()
    assert "go on to the next round" in page
    assert "Tiebreaker game on " in page
    assert ": Eve Test ahead of Dee Test." in page


def test_forged_or_other_token_is_404(client, bracket_night):
    assert client.get("/sheet/match/nope/").status_code == 404


def test_sheet_of_a_closed_night_says_it_is_closed_and_links_the_playoffs(client, bracket_night):
    bracket_night.night.status = m.PlayoffNight.Status.CLOSED
    bracket_night.night.save()

    response = client.get(bracket_night.url)

    assert response.status_code == 410
    assert "The playoff night is closed" in response.content.decode()
    slug, season = bracket_night.season.league.slug, bracket_night.season.pk
    assert f'href="/leagues/{slug}/playoffs/?season={season}"' in response.content.decode()


def test_live_state_fragment_changes_when_scores_are_entered(client, bracket_night):
    before = client.get(bracket_night.url + "state/").content.decode()
    start(client, bracket_night, "Ann")
    after = client.get(bracket_night.url + "state/").content.decode()

    assert 'id="sheet"' in before
    assert before != after


def test_the_sheet_opens_the_leagues_live_stream(client, bracket_night):
    """The match sheet asks for its fragment as soon as the league's stream says it moved."""
    league = bracket_night.season.league
    league.refresh_from_db()

    page = client.get(bracket_night.url).content.decode()

    assert f'data-live-events="/live/{league.slug}/events/"' in page
    assert f'data-live-revision="{league.revision}"' in page
    assert "flipwell/live.js" in page


def test_live_state_answers_304_to_its_tag_after_one_query(
    client, bracket_night, django_assert_max_num_queries
):
    """The live sheet is computed once per change of the night's facts, not per poll."""
    first = client.get(bracket_night.url + "state/")

    with django_assert_max_num_queries(1):
        again = client.get(bracket_night.url + "state/", HTTP_IF_NONE_MATCH=first["ETag"])

    assert first["ETag"].startswith('W/"')
    assert (again.status_code, again.content) == (304, b"")


def test_live_state_after_a_game_starts_has_a_new_tag_and_shows_it(client, bracket_night):
    before = client.get(bracket_night.url + "state/")

    start(Client(), bracket_night, "Ann")  # another phone of the match
    after = client.get(bracket_night.url + "state/", HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.content != before.content


def test_live_state_of_a_closed_night_says_the_sheet_is_over(client, bracket_night):
    client.get(bracket_night.url + "state/")
    bracket_night.night.status = m.PlayoffNight.Status.CLOSED
    bracket_night.night.save()

    over = client.get(bracket_night.url + "state/")

    assert over.status_code == 200
    assert "The playoff night is closed" in over.content.decode()


def test_printed_match_sheets_carry_each_match_qr_code(client, bracket_night):
    official = m.LeagueOfficial.objects.get(league=bracket_night.season.league)
    client.force_login(official.user)
    season = bracket_night.season
    url = f"/print/{season.league.slug}/seasons/{season.pk}/playoff-sheets/"

    page = client.get(url).content.decode()

    assert page.count('class="print-page"') == 3  # SF1, SF2, F (R6.3-d)
    assert page.count("<svg") == 3
    assert page.count('<span class="sheet-url">http://testserver/sheet/match/') == 3
    assert "Semifinal 1" in page
    assert "Ann Test</li><li>Dee Test</li><li>Eve Test</li><li>Hal Test" in page
    assert "the top 2 of semifinal 1 and of semifinal 2" in page
    console = client.get(
        f"/manage/{bracket_night.season.league.slug}/seasons/{bracket_night.season.pk}/playoffs/"
    )
    assert url in console.content.decode()
    assert bracket_night.url.split("/")[3][:10] in console.content.decode()


def test_printed_match_sheets_are_for_the_league_officials(client, bracket_night):
    season = bracket_night.season
    url = f"/print/{season.league.slug}/seasons/{season.pk}/playoff-sheets/"
    assert client.get(url).status_code == 302  # sign in first
    client.force_login(f.LeagueOfficialFactory().user)  # another league's
    assert client.get(url).status_code == 403


def test_correction_waiting_shows_each_asked_players_answer_form(client, bracket_night):
    """The league night's sheet and the match's share one correction include: a long name
    on its own line above the two buttons, each form posting to the correction's answer."""
    play_game(client, bracket_night, ["Ann", "Dee", "Eve", "Hal"])
    data = {
        "game": "1",
        "requested_by": str(bracket_night.p["Hal"].pk),
        f"score_{bracket_night.p['Hal'].pk}": "99,000,000",
        "reason": "wrong",
    }
    client.post(bracket_night.url + "correction/", data)
    correction = m.PlayoffSheet.objects.get(status="pending")

    page = client.get(bracket_night.url).content.decode()

    answer = f'action="{bracket_night.url}correction/{correction.pk}/answer/"'
    assert page.count(answer) == 3  # Ann, Dee and Eve are asked
    assert '<span class="answer-name">Ann Test:</span>' in page
    assert "<h3>Game 1, asked by Hal Test</h3>" in page
