"""The console's readings page (/manage/<league>/readings/): every `Ruleset` setting with its
rulebook passage and interpretation; a change before the newest season begins (R2-a), with
its reason, and the refusal after; the page says which season a change reaches; the standings
legend reads the season's limit (R2.5-a)."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from flipwell.league import models as m
from flipwell.rules import READINGS, Ruleset
from tests import factories as f
from tests.league.league_night import build_night, start

pytestmark = pytest.mark.django_db

URL = "/manage/tuesday/readings/"


def test_readings_page_shows_every_setting_with_its_passage(client, lo_account):
    page = client.get(URL)

    text = page.content.decode()
    assert page.status_code == 200
    assert [name for name in READINGS if f'id="{name}"' not in text] == []
    assert "How many countable forfeits forfeit the season" in text
    assert "· rules R2.5-a" in text
    assert f'href="{URL}"' in client.get("/manage/tuesday/").content.decode()


def test_readings_page_changes_a_setting_with_a_reason_r2_5_a(client, lo_account):
    form = client.get(URL, {"setting": "season_forfeit_limit"})
    response = client.post(
        URL, {"setting": "season_forfeit_limit", "value": "10", "reason": "A shorter season"}
    )

    assert 'name="value"' in form.content.decode()
    assert response.status_code == 302
    assert response["Location"] == f"{URL}#season_forfeit_limit"
    lo_account.league.refresh_from_db()
    assert lo_account.league.ruleset_overrides == {"season_forfeit_limit": 10}
    shown = client.get(URL).content.decode()
    assert "How many countable forfeits forfeit the season: now 10." in shown
    assert "(the rulebook's default: 12)" in shown


def test_readings_page_says_the_change_is_for_the_season_not_begun_r2_a(client, lo_account):
    season = f.SeasonFactory(league=lo_account.league, name="Spring 2027")

    form = client.get(URL, {"setting": "season_forfeit_limit"}).content.decode()
    client.post(
        URL, {"setting": "season_forfeit_limit", "value": "10", "reason": "A shorter season"}
    )

    said = (
        "A change applies to Spring 2027, which has not begun, and to every season created "
        "after it. Seasons already played keep the readings they were played under."
    )
    assert form.count(said) == 2  # atop the page and by the form
    season.refresh_from_db()
    assert season.ruleset_overrides == {"season_forfeit_limit": 10}


def test_readings_page_says_a_begun_season_keeps_its_readings_r2_a(client):
    night = build_night()
    start(night)
    client.force_login(night.user)

    page = client.get(f"/manage/{night.league.slug}/readings/").content.decode()

    assert (
        f"{night.season.name} keeps the readings it began with. A change made while the next "
        "season is prepared applies to that season and every season after it."
    ) in page


def test_readings_page_offers_the_choices_of_a_setting(client, lo_account):
    form = client.get(URL, {"setting": "dues_period"}).content.decode()

    assert '<option value="season" selected>season</option>' in form
    assert '<option value="meet">meet</option>' in form


def test_readings_page_refuses_a_value_out_of_bounds_on_the_form_r2_5_a(client, lo_account):
    response = client.post(
        URL, {"setting": "season_forfeit_limit", "value": "0", "reason": "None at all"}
    )

    assert response.status_code == 400
    assert "at 0 every player would be out before the first game" in response.content.decode()
    lo_account.league.refresh_from_db()
    assert lo_account.league.ruleset_overrides == {}


def test_readings_page_says_why_nothing_may_change_once_the_season_has_begun_r2_a(client):
    night = build_night()
    start(night)
    client.force_login(night.user)
    url = f"/manage/{night.league.slug}/readings/"

    page = client.get(url, {"setting": "season_forfeit_limit"}).content.decode()
    posted = client.post(url, {"setting": "season_forfeit_limit", "value": "8", "reason": "Now"})

    assert f"{night.season.name} has begun" in page
    assert 'name="value"' not in page
    assert posted.status_code == 400
    assert m.League.objects.get(pk=night.league.pk).ruleset_overrides == {}


def test_standings_legend_reads_the_season_limit_r2_5_a(client):
    """The season's own readings, not the league's (changed since for a later season)."""
    night = build_night()
    night.season.ruleset_overrides = {"season_forfeit_limit": 9}
    night.season.save()
    night.league.ruleset_overrides = {"season_forfeit_limit": 5}
    night.league.save()
    start(night)

    slug, season = night.league.slug, night.season.pk
    page = client.get(f"/leagues/{slug}/seasons/{season}/").content.decode()
    printed = client.get(f"/print/{slug}/standings/", {"season": season}).content.decode()

    assert "(9 forfeit it)." in page
    assert "(9 forfeit it)." in printed


def test_readings_page_names_settings_in_words_their_code_under_why_only(client, lo_account):
    """A person reads the readings in words: a setting's code (a `Ruleset` field name) is
    shown only in the reference line under "Why", never in the reading's text."""
    page = client.get(URL).content.decode()

    names = [f.name for f in fields(Ruleset)]
    text = re.sub(r"<[^>]*>", " ", page)  # what a person reads: no tag, no attribute
    shown = {n: len(re.findall(rf"\b{n}\b", text)) for n in names}
    referenced = {n: text.count(f"Setting {n} ") for n in names}
    why = re.findall(r'<details class="why">.*?</details>', page, re.S)

    assert shown == referenced == dict.fromkeys(names, 1)
    assert all(f"Setting {n} " in w for n, w in zip(names, why, strict=True))
    assert 'Setting playoff_cut_rule = "table_round_up"' not in page


def test_readings_page_says_a_changed_choice_in_words(client, lo_account):
    response = client.post(
        URL,
        {"setting": "playoff_cut_rule", "value": "sentence_round_down", "reason": "Our way"},
        follow=True,
    )

    said = "The cut sentence contradicts the division table and the 50% rule: now sentence round"
    assert f"{said} down." in response.content.decode()
