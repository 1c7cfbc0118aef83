"""A playoff night played from the players' phones (§6, issue 27 §2): the official qualifies
the players and prints the match sheets; then every match of the bracket is played on its
match sheet at 390 px, round after round: a player starts game 1 (its machine drawn, R6.4-b),
one player enters the scores and another confirms them on a second phone (R3-a), the loser of
each game picks the next machine among those allowed (R6.4-c, R6.4-a, A44), the points
accrue game by game (R6.3-a), and a tie that decides a place is broken by a tiebreaker game
the sheet explains (R6.5-a). The final's champion shows on the public playoffs page.

Scores: the player first in play order scores the least, so each game reverses the order of
the one before and the final ends with a tie for 3rd place: its tiebreaker is played too.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.selectors.playoffs.bracket import MatchView, playoff_bracket
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, PRINT, log_in, screenshot, visit
from tests.browser.night import OFFICIAL, PASSWORD, SLUG, shows
from tests.browser.playoff_night import qualify, settle_seed_ties

MAX_STEPS = 5 * 4  # five matches of three games, a tiebreaker each at most


def match_view(season: m.Season, name: str) -> MatchView:
    (division,) = playoff_bracket(season).divisions
    return next(match for match in division.matches if match.match == name)


def sheet_links(official: Page) -> dict[str, str]:
    """Each match's sheet link, as the console's playoffs page gives it."""
    official.reload()
    links = {}
    for heading in official.locator("article h3").all():
        name = heading.inner_text().split()[0]
        link = heading.get_by_role("link", name="match sheet")
        links[name] = link.get_attribute("href") or ""
    return links


def fits(phone: Page) -> None:
    """Nothing on the sheet is wider than the phone."""
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{phone.url} is {width} px wide at {PHONE['width']} px"


def play_step(season: m.Season, name: str, url: str, phones: tuple[Page, Page], shot: str) -> None:
    """One step of match `name` on its sheet: start the next game, or enter and confirm the
    game in play (or the tiebreaker)."""
    enterer, confirmer = phones
    match = match_view(season, name)
    visit(enterer, url)
    if match.status == "ready" and match.game_in_progress is None:
        if match.machine_chooser is None:  # game 1: drawn (R6.4-b)
            shows(enterer, "Its machine is drawn at random when you start it.")
            enterer.get_by_label("You are").select_option(label=match.players[0].name)
            screenshot(enterer, f"{shot}-start")
            enterer.get_by_role("button", name="Start game 1").click()
            shows(enterer, "Game 1 is on ")
        else:  # the loser picks on his own phone (R6.4-c)
            loser = match.machine_chooser.name
            visit(confirmer, url)
            shows(confirmer, f"{loser} finished last in game {match.next_game - 1}")
            played = {game.machine for game in match.games}
            options = confirmer.get_by_label("Next machine").locator("option").all_inner_texts()
            offered = [title for title in options if title != "Choose…"]
            assert offered, "the loser is offered no machine"
            assert not played & set(offered), f"{played} offered again (A44): {offered}"
            confirmer.get_by_label("Next machine").select_option(label=offered[0])
            fits(confirmer)
            screenshot(confirmer, f"{shot}-loser-picks")
            confirmer.get_by_role("button", name=f"Start game {match.next_game}").click()
            shows(confirmer, f"Game {match.next_game} is on {offered[0]}.")
        return
    tiebreaker = match.status == "tiebreaker_needed"
    players = list(match.tied[0]) if tiebreaker else list(match.play_order)
    if tiebreaker:
        shows(enterer, "They play one more game")
    for place, ref in enumerate(players, start=1):
        enterer.get_by_label(f"{ref.name}’s score").fill(f"{place * 1_000_000 + 123_456:,}")
    enterer.get_by_label("Entered by (you)").select_option(label=players[0].name)
    fits(enterer)
    screenshot(enterer, f"{shot}-enter")
    enterer.get_by_role("button", name="Enter scores").click()
    shows(enterer, f"Entered by {players[0].name}: check it")
    visit(confirmer, url)
    other = next(ref for ref in match.players if ref.name != players[0].name)
    confirmer.get_by_label("Confirmed by (you)").select_option(label=other.name)
    screenshot(confirmer, f"{shot}-confirm")
    label = "the tiebreaker" if tiebreaker else f"game {match.game_in_progress.number}"
    confirmer.get_by_role("button", name=f"Confirm {label}").click()
    shows(confirmer, "confirmed.")
    fits(confirmer)
    screenshot(confirmer, f"{shot}-confirmed")


def test_playoff_night_from_phones(
    finished_season: m.Season, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    official = new_page("official", viewport=DESKTOP)
    log_in(official, OFFICIAL, PASSWORD)
    qualify(official)
    settle_seed_ties(official)
    official.get_by_role("link", name="Print the match sheets").click()
    expect(official.locator("section.print-page")).to_have_count(5)  # QF1, QF2, SF1, SF2, F
    expect(official.locator("section.print-page svg")).to_have_count(5)
    official.set_viewport_size(PRINT)
    screenshot(official, "playoffs-print-match-sheets")
    official.go_back()
    links = sheet_links(official)
    assert sorted(links) == ["F", "QF1", "QF2", "SF1", "SF2"], links

    phones = (new_page("phone of the enterer"), new_page("phone of another player"))
    played: list[str] = []
    for step in range(MAX_STEPS * 5):
        (division,) = playoff_bracket(finished_season).divisions
        if division.complete:
            break
        ready = [x for x in division.matches if x.status in ("ready", "tiebreaker_needed")]
        assert ready, f"nothing to play: {[(x.match, x.status) for x in division.matches]}"
        name = ready[0].match
        played.append(name)
        play_step(finished_season, name, links[name], phones, f"playoffs-phone-{name}-{step:02d}")
    else:
        raise AssertionError("the bracket is not complete")

    (division,) = playoff_bracket(finished_season).divisions
    final = match_view(finished_season, "F")
    assert final.status == "complete"
    assert sum(points for _, points in final.totals) == 21  # 4-2-1-0 three times (R6.3-c)
    assert m.Tiebreaker.objects.filter(purpose=m.Tiebreaker.Purpose.MATCH).exists()
    assert m.PlayoffSheet.objects.filter(status="confirmed").count() == (
        m.PlayoffGame.objects.count() + m.Tiebreaker.objects.filter(purpose="match").count()
    )
    champion = division.places[0][1].name
    visit(phones[0], links["F"])
    shows(phones[0], f"{champion} wins the playoffs.")
    fits(phones[0])
    screenshot(phones[0], "playoffs-phone-final-complete")
    laptop = new_page("the final's sheet on a laptop", viewport=DESKTOP)
    visit(laptop, links["F"])
    shows(laptop, f"{champion} wins the playoffs.")
    width = laptop.evaluate("document.documentElement.scrollWidth")
    assert width <= DESKTOP["width"], f"the final's sheet is {width} px wide at 1280 px"
    screenshot(laptop, "playoffs-desktop-final-complete")
    public = new_page("public playoffs")
    visit(public, f"/leagues/{SLUG}/playoffs/")
    places = public.locator("ol.places")
    expect(places.get_by_role("listitem").first).to_have_text(re.compile(rf"1\. {champion}"))
    screenshot(public, "playoffs-public-champion-from-phones")
