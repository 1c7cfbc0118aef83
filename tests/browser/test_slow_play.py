"""The slow-play warning (R7.5-a) in a browser, at 390 px and 1280 px: the official records it
on the meet's violations page, sees it listed, and the player's page says it in plain words;
neither page overflows (the demo league: groups of four, 13-digit scores)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, log_in, overflows, screenshot


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_slow_play_warning_recorded_in_the_console_shows_on_the_players_page(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    demo = billions
    slug = demo.league.slug
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    game = m.Game.objects.filter(group__meet=meet).order_by("group__number", "number").first()
    assert game is not None
    player = game.group.members.order_by("position").first().player
    official = new_page(f"official, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    log_in(official, DEMO_USERNAME, demo.password)
    url = f"/manage/{slug}/meets/{meet.pk}/violations/"

    problems = overflows(official, {"slow-play-form": url}, size)
    official.locator("#id_turn_game").select_option(str(game.pk))
    official.locator("#id_turn_player").select_option(str(player.pk))
    official.locator("#id_turn_reason").fill("Two minutes at the bar before plunging.")
    official.get_by_role("button", name="Record the ruling").click()
    official.get_by_text(f"Recorded: Slow-play warning: {player}, meet {meet.number}").wait_for()
    screenshot(official, f"slow-play-recorded-{size}")
    problems += overflows(
        official,
        {"slow-play-listed": url, "slow-play-player": f"/leagues/{slug}/players/{player.pk}/"},
        size,
    )

    assert not problems, "\n".join(problems)
    assert "Slow-play warning in game" in official.inner_text("main")
    assert m.Ruling.objects.filter(kind="slow_play_warning", player=player, game=game).exists()
