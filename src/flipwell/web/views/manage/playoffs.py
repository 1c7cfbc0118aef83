"""The playoff night in the console (§6): qualify and draw the bracket, settle seed ties,
withdrawals, then each match's games, tiebreakers and no-shows, and the close.

Words: a *night action* is a form of the whole night (qualify, seed, withdraw, close); a
*match action* one of a match's own forms (start, game, tiebreaker, noshow), posted with its
division and match. Each runs one service, `SERVICES[action]`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import league_machines, season_players
from flipwell.league.selectors.lookups import playoff_night_id
from flipwell.league.selectors.playoffs.bracket import PlayoffBracket, playoff_bracket
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import (
    NoShowForm,
    OrderForm,
    PlayerChoices,
    PlayoffScoresForm,
    QualifyForm,
    StartPlayoffGameForm,
    TiebreakerForm,
    WithdrawalForm,
)
from flipwell.web.scoresheet_tokens import match_sheet_path
from flipwell.web.views.manage._common import action, done, official, page, run, season_of

SERVICES: dict[str, Callable[..., Any]] = {
    "qualify": services.qualify_for_playoffs,
    "seed": services.record_seed_playoff,
    "withdraw": services.record_withdrawal,
    "close": services.close_playoff_night,
    "start": services.start_playoff_game,
    "game": services.record_playoff_game,
    "tiebreaker": services.record_playoff_tiebreaker,
    "noshow": services.record_no_show,
}

DONE = {
    "qualify": "Qualification done.",
    "seed": "Seed playoff recorded.",
    "withdraw": "Withdrawal recorded: the seeds below moved up.",
    "close": "The playoff night is closed.",
    "start": "Game started.",
    "game": "Game recorded.",
    "tiebreaker": "Tiebreaker recorded.",
    "noshow": "No-show recorded.",
}


@console_page(LO_ONLY)
def playoffs(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """The whole playoff night on one page; each match has its own forms."""
    season = season_of(league, season_id)
    which = action(request)
    machines = [(x.pk, x.title) for x in league_machines(league)]
    bracket = playoff_bracket(season)
    night = _night_forms(request, season, which, machines)
    ties = _tie_forms(request, bracket, which, machines)
    divisions, posted = _divisions(request, season, bracket, which, machines)
    form = night.get(which, posted)
    stale_tie = None
    if which == "seed":
        form = _posted_tie(request, ties)
        stale_tie = None if any(form is f for _, f in ties) else form
    if form is not None:
        result = run(form, SERVICES[which], season=season, actor=official(request))
        if result is not None:
            return done(request, _message(which, result))
    context = {
        "league": league,
        "role": role,
        "season": season,
        "bracket": bracket,
        "divisions": divisions,
        "ties": ties,
        "stale_tie": stale_tie,
        # A closed night is over: no form of it is offered (its services refuse them too).
        "closed": bracket.status == m.PlayoffNight.Status.CLOSED,
        **night,
    }
    return page(request, "manage/playoffs.html", context, failed=bool(which))


def _message(which: str, result: Any) -> str:
    if which == "qualify" and result.qualification.ties:
        return f"{DONE[which]} Ties to settle with a single-ball playoff are listed below."
    return DONE[which]


def _night_forms(
    request: HttpRequest, season: m.Season, which: str, machines: PlayerChoices
) -> dict[str, forms.Form]:
    """The night actions' forms, the posted one bound."""
    players = season_players(season)

    def bound(name: str) -> Any:
        return request.POST if which == name else None

    return {
        "qualify": QualifyForm(bound("qualify")),
        "withdraw": WithdrawalForm(bound("withdraw"), players=players),
        "close": forms.Form(bound("close")),  # no field: the service's refusal, on top
    }


def _tie_forms(
    request: HttpRequest, bracket: PlayoffBracket, which: str, machines: PlayerChoices
) -> list[tuple[str, OrderForm]]:
    """One seed playoff form per open tie (R6.1-e), offering only its tied players, one
    place each; the posted one (``tie`` names it) bound."""
    posted = request.POST.get("tie", "") if which == "seed" else None
    tie_forms = []
    for number, (text, players) in enumerate(
        zip(bracket.ties, bracket.tie_players, strict=True), 1
    ):
        data = request.POST if posted == str(number) else None
        form = OrderForm(
            data,
            players=players,
            places=len(players),
            machines=machines,
            auto_id=f"id_tie{number}_%s",
        )
        tie_forms.append((text, form))
    return tie_forms


def _posted_tie(request: HttpRequest, ties: list[tuple[str, OrderForm]]) -> forms.Form:
    """The seed playoff form posted; a tie the page no longer has (settled meanwhile) is
    said on an unbound form's errors."""
    for _, form in ties:
        if form.is_bound:
            return form
    stale = forms.Form(request.POST)
    stale.is_valid()
    stale.add_error(None, "That tie is settled already, or the page is out of date: reload it.")
    return stale


def _divisions(
    request: HttpRequest,
    season: m.Season,
    bracket: PlayoffBracket,
    which: str,
    machines: PlayerChoices,
) -> tuple[list[dict[str, Any]], forms.Form | None]:
    """Each division of the bracket with its matches (their forms and sheet links), and the
    match action's form posted (None: no match action, or a match the bracket no longer has)."""
    post = request.POST
    posted_match = (post.get("division", ""), post.get("match", ""))
    night_id = playoff_night_id(season)
    divisions, posted = [], None
    for division in bracket.divisions:
        matches = []
        for match in division.matches:
            here = which if (division.name, match.match) == posted_match else ""
            match_forms = _match_forms(
                post, here, division.name, match.match, [(p.id, p.name) for p in match.players],
                machines,
            )  # fmt: skip
            posted = match_forms.get(here, posted)
            sheet = match_sheet_path(night_id, division.name, match.match) if night_id else ""
            matches.append({"view": match, "forms": match_forms, "sheet": sheet})
        divisions.append({"view": division, "matches": matches})
    return divisions, posted


def _match_forms(
    post: Any,
    which: str,
    division: str,
    match: str,
    players: PlayerChoices,
    machines: PlayerChoices,
) -> dict[str, forms.Form]:
    """One match's forms, the one posted (`which`, empty for another match's) bound."""
    initial = {"division": division, "match": match}
    # Ids of their own per match and form, so each label names its own field.
    slug = f"{division}-{match}".replace("/", "-").replace(" ", "-")

    def bound(name: str) -> dict[str, Any]:
        return {
            "data": post if which == name else None,
            "initial": initial,
            "auto_id": f"id_{slug}-{name}-%s",
        }

    return {
        "start": StartPlayoffGameForm(**bound("start"), machines=machines),
        "game": PlayoffScoresForm(**bound("game"), players=players),
        "tiebreaker": TiebreakerForm(
            **bound("tiebreaker"), players=players, places=len(players), machines=machines
        ),
        "noshow": NoShowForm(**bound("noshow"), players=players),
    }
