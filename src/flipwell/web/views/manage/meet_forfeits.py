"""Forfeits and late arrivals of an open meet in the console (§2.3, §2.4).

Words:
- *forfeit action*: one form of the page: a forfeit recorded (record_forfeit) or a late arrival
  (record_late_join).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import (
    HttpRequest,
    HttpResponse,
)

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import (
    meet_facts,
    meet_forfeits,
    meet_group_players,
)
from flipwell.web.auth import ANY_ROLE, console_page
from flipwell.web.forms import (
    ForfeitForm,
    LateJoinForm,
    NonCountableForm,
)
from flipwell.web.views.manage._common import (
    action,
    done,
    meet_of,
    official,
    page,
    run,
)
from flipwell.web.views.manage._night import (
    chosen_group,
    game_choices,
    group_context,
    night_context,
)

FORFEIT_ACTIONS: dict[str, tuple[Callable[..., Any], Callable[[Any], str]]] = {
    "forfeit": (services.record_forfeit, lambda row: f"{row.player}'s forfeit is recorded."),
    # The rules' reason reads as the rest of a sentence about the player.
    "late": (
        services.record_late_join,
        lambda arrival: f"Late arrival recorded: {arrival.row.player} {arrival.decision.reason}.",
    ),
    "non_countable": (
        services.designate_forfeit_non_countable,
        lambda row: f"{row.player}'s forfeit no longer counts (R2.4-g).",
    ),
}
"""The forfeits page's actions: each one's service, and what the console says once done."""


@console_page(ANY_ROLE)
def forfeits(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Forfeits (record_forfeit) and late arrivals (record_late_join) of an open meet. The list
    holds every forfeit of the meet, those entered on score sheets too (`meet_forfeits`), each
    countable one with the way to designate it non-countable (R2.4-g)."""
    the_meet = meet_of(league, meet_id)
    chosen = chosen_group(request, the_meet)
    which = action(request)
    posted = _forfeit_forms(request, the_meet, chosen, which)
    if which in FORFEIT_ACTIONS:
        service, said = FORFEIT_ACTIONS[which]
        result = run(posted[which], service, actor=official(request))
        if result is not None:
            return done(request, said(result))
    context = {
        **night_context(league, role, the_meet, "forfeits"),
        **group_context(the_meet, chosen),
        "facts": meet_facts(the_meet),
        "forfeits": [
            f for f in meet_forfeits(the_meet) if chosen is None or f.game.group.number == chosen
        ],
        "forfeit": posted["forfeit"],
        "late": posted["late"],
        "designate": posted["non_countable"],
    }
    return page(request, "manage/forfeits.html", context, failed=bool(which))


def _forfeit_forms(
    request: HttpRequest, meet: m.Meet, chosen: int | None, which: str
) -> dict[str, forms.Form]:
    """The forfeits page's forms by action, the posted one bound."""
    games, players = game_choices(meet, chosen), meet_group_players(meet, group=chosen)

    def bound(name: str) -> Any:
        return request.POST if which == name else None

    # One page, two forms with the same field names: ids of their own keep each label on
    # its own field. One small form per countable forfeit of the list: the one posted shows
    # its errors.
    return {
        "forfeit": ForfeitForm(
            bound("forfeit"), games=games, players=players, auto_id="id_forfeit_%s"
        ),
        "late": LateJoinForm(bound("late"), games=games, players=players, auto_id="id_late_%s"),
        "non_countable": NonCountableForm(bound("non_countable"), meet=meet),
    }
