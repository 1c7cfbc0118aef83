"""Malfunctions and compensatory games of an open meet in the console (§7.3, §8.4).

Words:
- *review*: what a game-ending malfunction (R7.3-h, R8.4-c) gives each player, shown before the
  official confirms it; the *reviewed* is what the official confirmed.
- *compensatory action*: one of the compensatory game's forms: request one, or record it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import (
    HttpRequest,
    HttpResponse,
)

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import (
    malfunction_ends_the_game,
    meet_facts,
    meet_group_players,
)
from flipwell.league.services.malfunctions.game_ending import GameEnding
from flipwell.league.services.malfunctions.report import ReportedMalfunction
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import (
    CompensatoryGameForm,
    CompensatoryRequestForm,
    MalfunctionForm,
    NextBallsForm,
)
from flipwell.web.once import records_nothing
from flipwell.web.views.manage._common import (
    action,
    attempt,
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
from flipwell.web.words.incidents import what_owed

COMPENSATORY_ACTIONS: dict[str, tuple[Callable[..., Any], Callable[[Any], str]]] = {
    "grant": (
        services.request_compensatory_game,
        lambda granted: (
            "Compensatory game granted: "
            + ("1 ball." if granted.balls == 1 else f"{granted.balls} balls.")
        ),
    ),
    "compensatory": (services.record_compensatory_game, lambda _: "Compensatory game recorded."),
}
"""The malfunctions page's compensatory game actions: each one's service, and what the
console says once done."""


@console_page(LO_ONLY)
def malfunctions(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Malfunctions (report_malfunction) and compensatory games (request and record)."""
    the_meet = meet_of(league, meet_id)
    chosen = chosen_group(request, the_meet)
    which = action(request)
    posted = _malfunction_forms(request, the_meet, chosen, which)
    base = {
        **night_context(league, role, the_meet, "malfunctions"),
        **group_context(the_meet, chosen),
    }
    if which == "malfunction":
        answer = _report(request, posted["report"], base)
        if answer is not None:
            return answer
    elif which in COMPENSATORY_ACTIONS:
        service, said = COMPENSATORY_ACTIONS[which]
        result = run(posted[which], service, actor=official(request))
        if result is not None:
            return done(request, said(result))
    context = {
        **base,
        "facts": meet_facts(the_meet),
        "report": posted["report"],
        "grant": posted["grant"],
        "record": posted["compensatory"],
    }
    return page(request, "manage/malfunctions.html", context, failed=bool(which))


def _malfunction_forms(
    request: HttpRequest, meet: m.Meet, chosen: int | None, which: str
) -> dict[str, forms.Form]:
    """The malfunctions page's forms (the report, and the compensatory game's two), the
    posted one bound."""
    games, players = game_choices(meet, chosen), meet_group_players(meet, group=chosen)

    def bound(name: str) -> dict[str, Any]:
        # Three forms with the same field names on one page: each has ids of its own, so
        # each label names its own field.
        return {
            "data": request.POST if which == name else None,
            "games": games,
            "players": players,
            "auto_id": f"id_{name}_%s",
        }

    return {
        "report": MalfunctionForm(**bound("malfunction")),
        "grant": CompensatoryRequestForm(**bound("grant")),
        "compensatory": CompensatoryGameForm(**bound("compensatory")),
    }


def _report(request: HttpRequest, report: forms.Form, base: dict[str, Any]) -> HttpResponse | None:
    """Report a malfunction (report_malfunction). A game-ending event is shown for review
    first, and recorded once the official confirms it. None: the report was refused (its
    form says why)."""
    assert isinstance(report, MalfunctionForm)
    review = _game_ending_review(request, report)
    if isinstance(review, _Review):  # a game-ending event not confirmed yet: show it first
        context = {**base, "report": report, "ending": review.ending, "balls": review.balls}
        failed = review.ending is None or bool(review.balls.errors)
        return records_nothing(
            page(request, "manage/malfunction_review.html", context, failed=failed)
        )
    reported = run(report, _reporting(review), actor=official(request))
    return done(request, _reported_message(reported)) if reported is not None else None


@dataclass(frozen=True)
class _Review:
    """What a game-ending malfunction gives each player, shown before the official confirms;
    `ending` None when the report itself was refused (its errors are on the report form)."""

    ending: GameEnding | None
    balls: NextBallsForm


@dataclass(frozen=True)
class _Reviewed:
    """What the official confirmed on the review of a game-ending malfunction: the other
    players' next balls and the extra balls they had collected (R7.3-l)."""

    next_balls: dict[int, int]
    extra_balls: dict[int, int]


def _reporting(review: _Reviewed | None) -> Callable[..., ReportedMalfunction]:
    """report_malfunction, with what the official confirmed on the review of a game-ending
    event: the other players' next balls, and their extra balls beside the reporting
    player's."""
    if review is None:
        return services.report_malfunction

    def reported(*, extra_balls: dict[int, int], **arguments: Any) -> ReportedMalfunction:
        return services.report_malfunction(
            **arguments,
            next_balls=review.next_balls,
            extra_balls={**review.extra_balls, **extra_balls},
        )

    return reported


def _game_ending_review(
    request: HttpRequest, report: MalfunctionForm
) -> _Review | _Reviewed | None:
    """For a reason that ends the game (R7.3-h, R8.4-c): until the official confirms, what to
    show them (each player's malfunctions and compensatory game, who slam tilted on purpose,
    each player's next ball and extra balls to adjust); once confirmed, the balls set. None
    for any other report."""
    if not report.is_valid() or not malfunction_ends_the_game(report.cleaned_data["reason_code"]):
        return None
    reviewed = "confirm" in request.POST  # posted from the review page
    d = report.cleaned_data

    def preview(form: forms.Form, told: _Reviewed | None) -> GameEnding | None:
        # The report's game, player and ball, with the balls the review gave.
        return attempt(
            form,
            lambda: services.preview_game_ending(
                game=d["game"],
                player=d["player"],
                ball=d["ball"],
                ball_in_play=d["ball_in_play"],
                slammer=d["slammer"],
                next_balls=told.next_balls if told else None,
                extra_balls={**(told.extra_balls if told else {}), **d["extra_balls"]},
            ),
        )

    first = preview(report, None)
    if first is None:
        return _Review(None, NextBallsForm(owed=()))
    others = [
        (o.player_id, o.name, o.next_ball) for o in first.owed if o.player_id != d["player"].pk
    ]
    balls = NextBallsForm(request.POST if reviewed else None, owed=others)
    if not reviewed or not balls.is_valid():
        return _Review(first, balls)
    told = _Reviewed(next_balls=balls.next_balls(), extra_balls=balls.extra_balls())
    if request.POST["confirm"] == "yes":
        return told
    return _Review(preview(balls, told) or first, balls)


def _reported_message(reported: ReportedMalfunction) -> str:
    """What the console says once a malfunction is recorded."""
    if reported.ending is not None:
        owed = "; ".join(f"{o.name}: {what_owed(o)}" for o in reported.ending.owed)
        return f"Recorded: the game ended. {owed}. Grant each compensatory game below."
    extra = []
    if reported.entitled:
        extra.append("They may now have a compensatory game.")
    if reported.machine_unplayable:
        extra.append("The machine is now unplayable for the meet (R7.3-r).")
    kind = reported.ruling.kind.replace("_", " ")
    return (
        f"Recorded as a {kind} malfunction ({reported.ruling.rule}): "
        f"{reported.ruling.reason}. {' '.join(extra)}"
    ).strip()
