"""The playoff night in the browser (§6): the official qualifies the players and draws the
bracket in the console, settles the seed ties with single-ball playoffs (R6.1-e), records the
withdrawal of the last seed before the night (R6.6-b, the next player moving up), starts and
records every game of the first quarterfinal until it is complete (R6.3-c, R6.4), and the
public playoffs page and the TV show the bracket with the players who go through (R6.3-j).
Then every other match of the bracket is played the same way, round after round, to the
final: the division's places (R6.3-k) and its champion show in the console and on the
public playoffs page, and the official closes the playoff night.

The season is the demo's finished season (`demo_finished_season.json`: 21 players, ten closed
meets) imported into a league of its own, with no playoff night yet: its qualification has two
ties for seeds, so the seed playoff is played through the console too.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from flipwell.league import models as m
from flipwell.league.exchange.demo import MACHINES
from flipwell.league.selectors.playoffs.bracket import DivisionView, MatchView, playoff_bracket
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, TV, log_in, screenshot, visit
from tests.browser.night import OFFICIAL, PASSWORD, SLUG, shows
from tests.browser.playoff_night import qualify, settle_seed_ties

MATCH = "QF1"
MAX_GAMES = 6  # a match is three games (R6.3-c), with room for a tiebreaker (R6.5-a)
MAX_MATCHES = 8  # a bracket of 12 plays 4 quarterfinals, 2 semifinals and the final
TV_PANELS = 4  # two of standings, the bracket, and one to spare
TV_TURN_MS = 12_500  # the TV shows its next panel every 12 s


def match_view(season: m.Season, name: str) -> MatchView:
    """The match `name` of division A as the bracket shows it now."""
    (division,) = playoff_bracket(season).divisions
    return next(match for match in division.matches if match.match == name)


def match_card(official: Page, name: str) -> Locator:
    """The console's card of the match `name`, its forms opened."""
    card = official.locator("article").filter(
        has=official.get_by_role("heading", name=re.compile(rf"^{name}\b"))
    )
    card.get_by_text(f"Record for {name}").click()
    return card


def match_form(card: Locator, submit: str) -> Locator:
    """The form of `card` sent with the button `submit`.

    Each match's forms share field ids with the other matches' (Django's default ids), so
    the fields are found by name within the form rather than by label.
    """
    return card.locator("form").filter(has=card.page.get_by_role("button", name=submit))


def withdraw_last_seed(official: Page, season: m.Season) -> str:
    """Record the withdrawal of division A's last seed before the night (R6.6-b); the name."""
    (division,) = playoff_bracket(season).divisions
    _, last = division.seeds[-1]
    assert last is not None, "division A has a bye as its last seed"
    form = official.locator("section.panel").filter(
        has=official.get_by_role("heading", name="Withdrawal before the night")
    )
    form.get_by_label("Player withdrawing").select_option(label=last.name)
    form.get_by_label("Note").fill("Away on the playoff night")
    form.get_by_role("button", name="Record the withdrawal").click()
    shows(official, "Withdrawal recorded: the seeds below moved up.")
    return last.name


def play_game(official: Page, season: m.Season, match: MatchView) -> None:
    """Start the match's next game in the console and record its scores (all different: the
    player first in play order scores the least)."""
    card = match_card(official, match.match)
    start = match_form(card, "Start the game")
    if match.machine_chooser is not None:  # game 1's machine is drawn (R6.4-b)
        played = {game.machine for game in match.games}
        title = next(title for title, *_ in MACHINES if title not in played)
        start.locator("select[name=machine]").select_option(label=title)
    start.get_by_role("button", name="Start the game").click()
    shows(official, "Game started.")
    playing = match_view(season, match.match).game_in_progress
    assert playing is not None, f"{match.match} has no game in progress after the start"
    card = match_card(official, match.match)
    record = match_form(card, "Record the game")
    absent = {ref.id for ref in match.no_shows}
    present = [ref for ref in match.play_order if ref.id not in absent]
    for place, ref in enumerate(present, start=1):
        score = 1_000_000 * place + 10_000 * playing.number
        record.locator(f"input[name=score_{ref.id}]").fill(str(score))
    screenshot(official, f"playoffs-console-{match.match}-game-{playing.number}")
    record.get_by_role("button", name="Record the game").click()
    shows(official, "Game recorded.")


def break_tie(official: Page, match: MatchView) -> None:
    """Record the match's tiebreaker (R6.5-a), in the order the tie lists the players."""
    card = match_card(official, match.match)
    form = match_form(card, "Record the tiebreaker")
    for place, ref in enumerate(match.tied[0], start=1):
        form.locator(f"select[name=place_{place}]").select_option(value=str(ref.id))
    form.get_by_role("button", name="Record the tiebreaker").click()
    shows(official, "Tiebreaker recorded.")


def play_match(official: Page, season: m.Season, name: str) -> MatchView:
    """Play the match `name` through the console until it is complete."""
    for _ in range(MAX_GAMES):
        match = match_view(season, name)
        if match.status == "complete":
            return match
        if match.status == "tiebreaker_needed":
            break_tie(official, match)
        else:
            play_game(official, season, match)
    raise AssertionError(f"{name} is not complete after {MAX_GAMES} steps")


def play_bracket(official: Page, season: m.Season) -> DivisionView:
    """Play division A's matches through the console, each as soon as it is ready (a ready
    match first in the bracket's order), until the final is complete; the division then."""
    for _ in range(MAX_MATCHES * MAX_GAMES):
        (division,) = playoff_bracket(season).divisions
        if division.complete:
            return division
        ready = [m for m in division.matches if m.status in ("ready", "tiebreaker_needed")]
        assert ready, f"no match can be played: {[(m.match, m.status) for m in division.matches]}"
        match = ready[0]
        if match.status == "tiebreaker_needed":
            break_tie(official, match)
        else:
            play_game(official, season, match)
    raise AssertionError(f"the bracket is not complete after {MAX_MATCHES * MAX_GAMES} steps")


def test_playoff_night_through_the_console(
    finished_season: m.Season, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    official = new_page("official", viewport=DESKTOP)
    log_in(official, OFFICIAL, PASSWORD)

    qualify(official)
    settled = settle_seed_ties(official)
    withdrawn = withdraw_last_seed(official, finished_season)
    settled += settle_seed_ties(official)  # the player moving up may tie another
    match = play_match(official, finished_season, MATCH)

    assert len(settled) >= 2, f"the season's two seed ties were not both settled: {settled}"
    (division,) = playoff_bracket(finished_season).divisions
    seeded = [ref.name for _, ref in division.seeds if ref is not None]
    for names in settled:  # the seed playoff's winner (listed last) takes the higher seed
        assert seeded.index(names[-1]) < seeded.index(names[0]), f"{names} after {seeded}"
    assert withdrawn not in seeded, f"{withdrawn} is still seeded after the withdrawal"
    assert len(seeded) == 12, f"the next player did not move up (R6.6-b): {seeded}"
    assert [len(game.order) for game in match.games] == [4, 4, 4]
    assert sum(points for _, points in match.totals) == 21  # 3 games of 4-2-1-0 (R6.3-c)
    leaders = sorted(match.totals, key=lambda total: -total[1])[:2]
    advancing = [ref.name for ref in match.advancing]
    assert set(advancing) == {ref.name for ref, _ in leaders}, f"{MATCH} sends {advancing}"
    semifinal = match_view(finished_season, "SF1")
    assert set(advancing) <= {ref.name for ref in semifinal.players}
    shows(official, re.compile(rf"{MATCH}\s+complete"))
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        official.set_viewport_size(viewport)
        screenshot(official, f"playoffs-console-after-{MATCH}-{size}")

    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        public = new_page(f"public playoffs, {size}", viewport=viewport)
        visit(public, f"/leagues/{SLUG}/playoffs/")
        bracket_figure = public.get_by_role("figure", name="Division A bracket")
        for name in advancing:
            expect(bracket_figure).to_contain_text(name)
        # A complete match's card is folded: a person opens it to read who advances.
        public.locator("summary", has_text=f"{MATCH} (").first.click()
        shows(public, f"Advancing: {', '.join(advancing)}")
        screenshot(public, f"playoffs-public-after-{MATCH}-{size}")

    tv = new_page("tv", viewport=TV)
    tv.clock.install()  # the TV turns its panels on a timer: fast-forward it
    visit(tv, f"/tv/{SLUG}/")
    panel = tv.get_by_role("region", name="Playoff bracket", include_hidden=True)
    expect(panel).to_contain_text(f"Playoffs · {finished_season.name} · division A")
    for name in advancing:
        expect(panel).to_contain_text(name)
    for _ in range(TV_PANELS):  # the standings come first
        if panel.is_visible():
            break
        tv.clock.run_for(TV_TURN_MS)
    expect(panel).to_be_visible()
    screenshot(tv, f"playoffs-tv-after-{MATCH}")

    # The rest of the night: every match to the final, then the night is closed.
    official.reload()
    division = play_bracket(official, finished_season)
    (final,) = [match for match in division.matches if match.round == division.matches[-1].round]
    place, champion = division.places[0]
    assert (place, champion in final.players) == (1, True), f"places: {division.places}"
    assert len(division.places) == len(seeded), f"not every player is placed: {division.places}"
    assert all(match.status == "complete" for match in division.matches)
    official.goto(official.url)
    shows(official, f"Places: 1st {champion.name}")
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        official.set_viewport_size(viewport)
        screenshot(official, f"playoffs-console-final-complete-{size}")
    official.get_by_role("button", name="Close the playoff night").click()
    shows(official, "The playoff night is closed.")
    screenshot(official, "playoffs-console-night-closed")
    assert m.PlayoffNight.objects.get(season=finished_season).status == "closed"
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        public = new_page(f"public playoffs after the final, {size}", viewport=viewport)
        visit(public, f"/leagues/{SLUG}/playoffs/")
        places = public.locator("ol.places")
        expect(places.get_by_role("listitem").first).to_have_text(f"1. {champion.name}")
        screenshot(public, f"playoffs-public-final-{size}")
