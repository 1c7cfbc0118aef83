"""Helpers of the group score tables (board, console meet page, sheets).

Words: a *stacked* score table is one a phone shows as one line per player and game, the
player's name beside the score (app.css `.scores.stacks`): four 13-digit scores side by side do
not fit a 390 px screen, so each cell carries its player's name.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template

register = template.Library()


@register.filter
def name_of(choices: Iterable[tuple[int, str]], player_id: int) -> str:
    """The name paired with `player_id` in (id, name) choices; "" when none is."""
    return next((name for pid, name in choices if pid == player_id), "")
