"""A small league for the browser tests and what its players do on their phones.

Words:
- *the league*: "Tuesday Flippers" (slug ``tuesday``), its league official ``lo``, a season of
  four players (one group) and six machines, nothing played yet.
- *sheet phone*: a phone showing the group's score sheet; it enters, confirms and chooses
  through the page's labelled fields and buttons, as a player would.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django.utils import timezone
from playwright.sync_api import Locator, Page, expect

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.values import BoardGroup
from tests import factories as f

PASSWORD = "correct horse battery staple"  # UserFactory's
OFFICIAL = "lo"
SLUG = "tuesday"
PLAYERS = (("Ada", "Flipper"), ("Bo", "Tilt"), ("Cy", "Plunger"), ("Di", "Spinner"))
TITLES = ("Attack from Mars", "Black Knight", "Cirqus Voltaire", "Demolition Man", "Elvira")
ENTER = re.compile(r"^\s*enter scores", re.IGNORECASE)
CONFIRM = re.compile(r"^\s*confirm game", re.IGNORECASE)
START_GAME = re.compile(r"^\s*start game", re.IGNORECASE)


@dataclass
class League:
    league: m.League
    season: m.Season
    players: list[m.Player]
    machines: list[m.Machine]


def build_league() -> League:
    """The league with its official, four players (IFPA ranks 1-4) and the machines."""
    official: m.LeagueOfficial = create(
        f.LeagueOfficialFactory,
        user__username=OFFICIAL,
        league__name="Tuesday Flippers",
        league__slug=SLUG,
        league__time_zone="UTC",  # "today" in the tests (UTC) is the league's today
        role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL,
    )
    league = official.league
    # Set up now, with tonight a league day: the night plays today (issue 26 §4 date checks).
    season: m.Season = create(
        f.SeasonFactory,
        league=league,
        name="Spring 2026",
        number_of_meets=10,
        weekday=datetime.date.today().weekday(),
        created_at=timezone.now(),
    )
    players: list[m.Player] = [
        create(
            f.SeasonEntryFactory,
            season=season,
            ifpa_rank_at_start=rank,
            player__first_name=first,
            player__last_name=last,
        ).player
        for rank, (first, last) in enumerate(PLAYERS, start=1)
    ]
    machines: list[m.Machine] = [
        create(f.MachineFactory, league=league, title=title) for title in TITLES
    ]
    return League(league=league, season=season, players=players, machines=machines)


def create(factory: object, **fields: object) -> Any:
    """A row made by a factory_boy factory (factory_boy has no type hints)."""
    return cast(Callable[..., Any], factory)(**fields)


def board_group(meet: m.Meet) -> BoardGroup:
    """The meet's only group, as the meet board sees it now."""
    (group,) = meet_board(meet).groups
    return group


def enter_scores(phone: Page, *, entered_by: str, scores: dict[str, int]) -> None:
    """Type each player's score (by name) and press Enter, as `entered_by`."""
    phone.get_by_label("Entered by").select_option(label=entered_by)
    for name, score in scores.items():
        phone.get_by_label(f"{name}’s score").fill(str(score))
    phone.get_by_role("button", name=ENTER).click()


def confirm_scores(phone: Page, *, confirmed_by: str) -> None:
    """Confirm the entered sheet as `confirmed_by`."""
    phone.get_by_label("Confirmed by").select_option(label=confirmed_by)
    phone.get_by_role("button", name=CONFIRM).click()


def choose_machine(phone: Page, title: str) -> None:
    """Choose the next game's machine."""
    phone.get_by_label("Next machine").select_option(label=title)
    phone.get_by_role("button", name=START_GAME).click()


def standings_row(page: Page, name: str, *, visible: bool = True) -> Locator:
    """The row of `name` in a standings table; with `visible` off, a hidden one too (the TV
    rotates its panels: the standings may be the one not shown just now)."""
    return page.get_by_role("row", name=name, include_hidden=not visible).first


def expect_standing(
    page: Page, name: str, *, points: str, games: int, visible: bool = True
) -> None:
    """`name`'s standings row shows `points` league points and `games` games; the row is on
    screen unless `visible` is off (a TV's panel not shown just now).

    The cells after the name are, in order, the points and the games (public page and TV).
    """
    row = standings_row(page, name, visible=visible)
    if visible:
        expect(row).to_be_visible()
    cells = row.locator("td")
    expect(cells.nth(1)).to_have_text(points, use_inner_text=visible)
    expect(cells.nth(2)).to_have_text(str(games), use_inner_text=visible)


def shows(page: Page, text: str | re.Pattern[str], timeout: float | None = None) -> None:
    """The page shows `text` on screen: its rendered text (innerText, which leaves out what
    CSS hides: display none, visibility hidden) contains it. Text in the page but hidden, as a
    message a style rule hides, is not shown (issue 26 §6)."""
    expect(page.locator("body")).to_contain_text(text, use_inner_text=True, timeout=timeout)
