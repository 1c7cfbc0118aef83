"""Issue 33 §3 at 390 px and 1280 px: a closed meet's sheet link says the meet is closed and
leads to its results; the console's malfunction and forfeit forms offer each game's players
and refuse another group's player in words; the playoffs console offers one seed playoff form
per tie with its tied players only, and nothing once the night is closed; the printed score
sheet carries its address in type beside the QR code. Each page fits its screen, passes the
accessibility audit and is photographed (the demo league, 13-digit scores)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague
from flipwell.league.services import qualify_for_playoffs
from flipwell.league.services.season_files import import_season_file
from tests import factories as f
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    audit,
    log_in,
    overflows,
    overflows_here,
    sheet_path,
)

GOLDEN = Path(__file__).parents[1] / "data" / "golden_season.json"
PASSWORD = "correct horse battery staple"  # the factories' password


def _checked(page: Page, name: str, size: str) -> list[str]:
    """What does not fit or fails the audit on `page` as it is now, photographed."""
    return overflows_here(page, name, size) + audit(page)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_closed_meets_sheet_link_says_it_is_closed_and_leads_to_the_results(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    closed = billions.finished_season.meets.order_by("-number").first()
    assert closed is not None
    assert closed.status == m.Meet.Status.CLOSED
    group = closed.groups.order_by("number").first()
    assert group is not None
    phone = new_page(f"player, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    error_guard.expect_refusal(phone, 410)

    answer = phone.goto(sheet_path(group), wait_until="load")

    assert answer is not None
    assert answer.status == 410
    expect(phone.get_by_role("heading", name=f"Meet {closed.number} is closed")).to_be_visible()
    assert "new link" not in phone.inner_text("main")
    problems = _checked(phone, "closed-sheet", size)
    phone.get_by_role("link", name="See the results").click()
    phone.wait_for_load_state("load")
    assert phone.url.endswith(f"/leagues/{billions.league.slug}/meets/{closed.pk}/")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_incident_forms_offer_each_games_players_and_refuse_a_stranger(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    demo = billions
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    groups = meet.groups.count()
    official = new_page(f"official, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    log_in(official, DEMO_USERNAME, demo.password)
    base = f"/manage/{demo.league.slug}/meets/{meet.pk}/"
    problems = overflows(official, {"forfeits-form": base + "forfeits/"}, size)
    forfeit_player = official.locator("#id_forfeit_player optgroup")
    assert forfeit_player.count() == groups
    problems += overflows(official, {"malfunctions-form": base + "malfunctions/"}, size)
    player = official.locator("#id_malfunction_player")
    assert player.locator("optgroup").count() == groups
    game = m.Game.objects.filter(group__meet=meet, group__number=1).order_by("number").first()
    assert game is not None
    stranger = m.GroupMember.objects.get(group__meet=meet, group__number=2, position=1)

    error_guard.expect_refusal(official, 400)  # the refused form, shown again
    official.locator("#id_malfunction_game").select_option(str(game.pk))
    player.select_option(str(stranger.player_id))
    official.locator("#id_malfunction_ball").fill("1")
    official.get_by_role("button", name="Record", exact=True).first.click()
    official.wait_for_load_state("load")

    error = official.locator(".field.has-error .error").first
    expect(error).to_contain_text(f"{stranger.player} does not play game {game.number} of group 1")
    problems += _checked(official, "malfunctions-refused", size)
    assert not m.Malfunction.objects.filter(player=stranger.player, game=game).exists()
    assert not problems, "\n".join(problems)


@pytest.fixture
def tied(live_server: object) -> m.Season:
    """The golden season in a league of its own, qualified: two seed ties to settle."""
    official = f.LeagueOfficialFactory(user__username="ties", league__slug="ties")
    season = import_season_file(
        league=official.league,
        name="Winter 2026",
        data=json.loads(GOLDEN.read_text()),
        first_meet=datetime.date(2026, 1, 7),
        actor=official.user,
    )
    qualify_for_playoffs(season=season, date=datetime.date(2026, 3, 25), actor=official.user)
    return season


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_seed_tie_forms_offer_each_ties_players_and_none_once_closed(
    tied: m.Season, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    official = new_page(f"official, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    log_in(official, "ties", PASSWORD)
    url = f"/manage/ties/seasons/{tied.pk}/playoffs/"

    problems = overflows(official, {"seed-ties": url}, size)
    forms = official.locator("article.seed-tie")
    assert forms.count() == 2
    for n in (1, 2):
        offered = official.locator(f"#id_tie{n}_place_1 option:not([value=''])")
        assert offered.count() == 2
        assert official.locator(f"#id_tie{n}_place_3").count() == 0
    first = forms.nth(0)
    names = first.locator("#id_tie1_place_1 option:not([value=''])").all_inner_texts()
    first.locator("#id_tie1_place_1").select_option(label=names[0])
    first.locator("#id_tie1_place_2").select_option(label=names[1])
    first.get_by_role("button", name="Record this seed playoff").click()
    official.get_by_text("Seed playoff recorded.").wait_for()
    assert official.locator("article.seed-tie").count() == 1
    problems += _checked(official, "seed-tie-settled", size)

    m.PlayoffNight.objects.filter(season=tied).update(status=m.PlayoffNight.Status.CLOSED)
    official.goto(url, wait_until="load")
    expect(official.get_by_text("The playoff night is closed")).to_be_visible()
    for gone in ("Qualify", "Record the withdrawal", "Close the playoff night"):
        expect(official.get_by_role("button", name=gone)).to_have_count(0)
    problems += _checked(official, "playoffs-closed", size)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_printed_score_sheet_carries_its_address_beside_the_qr_code(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    demo = billions
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    official = new_page(f"official, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    log_in(official, DEMO_USERNAME, demo.password)

    problems = overflows(
        official, {"print-sheets": f"/print/{demo.league.slug}/meets/{meet.pk}/sheets/"}, size
    )

    addresses = official.locator(".sheet-qr .sheet-url")
    assert addresses.count() == meet.groups.count()
    group = meet.groups.order_by("number").first()
    assert group is not None
    first = addresses.first.inner_text()
    assert first.startswith("http://")
    ids = sheet_path(group).split("/")[2].split(":")[0]  # the token's signed ids
    assert f"/sheet/{ids}:" in first
    figure = official.locator(".sheet-qr").first.bounding_box()
    text = addresses.first.bounding_box()
    assert figure is not None
    assert text is not None
    assert text["x"] + text["width"] <= figure["x"] + figure["width"] + 1  # within the figure
    official.emulate_media(media="print")
    problems += _checked(official, "print-sheets-printed", size)
    assert not problems, "\n".join(problems)
