"""What every console page of a league night shares: its context and the game and group choices
of its forms.

Words:
- *chosen group*: the group number ``?group=N`` chose; a night page's forms then list only
  that group's games and players (None: every group).
"""

from __future__ import annotations

from typing import Any

from django.http import (
    HttpRequest,
)

from flipwell.league import models as m
from flipwell.league.selectors.console import (
    meet_games,
)
from flipwell.web.ids import parse_id


def night_context(league: m.League, role: str, meet: m.Meet, tab: str) -> dict[str, Any]:
    return {"league": league, "role": role, "meet": meet, "season": meet.season, "tab": tab}


def game_choices(meet: m.Meet, group: int | None = None) -> list[tuple[int, str]]:
    return [
        (g.pk, f"Group {g.group.number} · game {g.number} · {g.machine.title}")
        for g in meet_games(meet, group=group)
    ]


def chosen_group(request: HttpRequest, meet: m.Meet) -> int | None:
    """The group number ``?group=N`` chose (its forms then list only that group's games and
    players); None for every group, or for a number the meet does not have."""
    wanted = parse_id(request.GET.get("group"))
    if wanted is not None and meet.groups.filter(number=wanted).exists():
        return wanted
    return None


def group_context(meet: m.Meet, chosen: int | None) -> dict[str, Any]:
    return {
        "group_numbers": list(meet.groups.order_by("number").values_list("number", flat=True)),
        "chosen_group": chosen,
    }
