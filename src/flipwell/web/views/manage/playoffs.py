"""The playoff night in the console (§6): qualify and draw the bracket, settle seed ties,
withdrawals, then each match's games, tiebreakers and no-shows, and the close."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import league_machines, season_players
from flipwell.league.selectors.playoffs import playoff_bracket
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import (
    MatchForm,
    NoShowForm,
    OrderForm,
    PlayoffScoresForm,
    QualifyForm,
    StartPlayoffGameForm,
    WithdrawalForm,
    show_service_errors,
)
from flipwell.web.scoresheet_tokens import match_sheet_path
from flipwell.web.views.manage._common import (
    action,
    done,
    machine_of,
    official,
    page,
    player,
    run,
    season_of,
)


@console_page(LO_ONLY)
def playoffs(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """The whole playoff night on one page; each match has its own forms."""
    season = season_of(league, season_id)
    which = action(request)
    post = request.POST
    machines = [(x.pk, x.title) for x in league_machines(league)]
    players = season_players(season)

    def machine(pk: int | None) -> m.Machine | None:
        return machine_of(league, pk) if pk else None

    qualify = QualifyForm(post if which == "qualify" else None)
    seed = OrderForm(
        post if which == "seed" else None, players=players, places=4, machines=machines
    )
    withdraw = WithdrawalForm(post if which == "withdraw" else None, players=players)
    close = MatchForm({"division": "-", "match": "-"})
    result: Any = None
    message = ""
    posted_match = (post.get("division", ""), post.get("match", ""))
    if which == "qualify":
        result = run(
            qualify,
            lambda d: services.qualify_for_playoffs(
                season=season,
                date=d["date"],
                cut=d["cut"],
                cut_reason=d["cut_reason"],
                actor=official(request),
            ),
        )
        message = "Qualification done."
        if result is not None and result.qualification.ties:
            message += " Ties to settle with a single-ball playoff are listed below."
    elif which == "seed":
        result = run(
            seed,
            lambda d: services.record_seed_playoff(
                season=season,
                order=[player(p) for p in seed.order()],
                machine=machine(d["machine"]),
                actor=official(request),
            ),
        )
        message = "Seed playoff recorded."
    elif which == "withdraw":
        result = run(
            withdraw,
            lambda d: services.record_withdrawal(
                season=season, player=player(d["player"]), note=d["note"], actor=official(request)
            ),
        )
        message = "Withdrawal recorded: the seeds below moved up."
    elif which == "close":
        try:
            result = services.close_playoff_night(season=season, actor=official(request))
        except ValidationError as error:
            close.is_valid()
            show_service_errors(close, error)
        message = "The playoff night is closed."
    bracket = playoff_bracket(season)
    night_id = m.PlayoffNight.objects.filter(season=season).values_list("pk", flat=True).first()
    divisions = []
    for division in bracket.divisions:
        matches = []
        for match in division.matches:
            here = (division.name, match.match) == posted_match
            match_players = [(p.id, p.name) for p in match.players]
            # Ids of their own per match and form, so each label names its own field.
            slug = f"{division.name}-{match.match}".replace("/", "-").replace(" ", "-")

            def ids(form: str, slug: str = slug) -> str:
                return f"id_{slug}-{form}-%s"

            forms = {
                "start": StartPlayoffGameForm(
                    post if here and which == "start" else None,
                    machines=machines,
                    initial={"division": division.name, "match": match.match},
                    auto_id=ids("start"),
                ),
                "game": PlayoffScoresForm(
                    post if here and which == "game" else None,
                    players=match_players,
                    initial={"division": division.name, "match": match.match},
                    auto_id=ids("game"),
                ),
                "tiebreaker": OrderForm(
                    post if here and which == "tiebreaker" else None,
                    players=match_players,
                    places=len(match_players),
                    machines=machines,
                    auto_id=ids("tiebreaker"),
                ),
                "noshow": NoShowForm(
                    post if here and which == "noshow" else None,
                    players=match_players,
                    initial={"division": division.name, "match": match.match},
                    auto_id=ids("noshow"),
                ),
            }
            if here and which in forms and result is None:
                result = _match_action(request, season, which, forms[which], machine)
                message = {
                    "start": "Game started.",
                    "game": "Game recorded.",
                    "tiebreaker": "Tiebreaker recorded.",
                    "noshow": "No-show recorded.",
                }[which]
            sheet = match_sheet_path(night_id, division.name, match.match) if night_id else ""
            matches.append({"view": match, "forms": forms, "sheet": sheet})
        divisions.append({"view": division, "matches": matches})
    if result is not None:
        return done(request, message)
    context = {
        "league": league,
        "role": role,
        "season": season,
        "bracket": bracket,
        "divisions": divisions,
        "qualify": qualify,
        "seed": seed,
        "withdraw": withdraw,
        "close": close,
    }
    return page(request, "manage/playoffs.html", context, failed=bool(which))


def _match_action(
    request: HttpRequest, season: m.Season, which: str, form: Any, machine: Any
) -> Any:
    division = request.POST.get("division", "")
    match = request.POST.get("match", "")
    actor = official(request)
    if which == "start":
        return run(
            form,
            lambda d: services.start_playoff_game(
                season=season, division=division, match=match, machine=machine(d["machine"]),
                actor=actor,
            ),
        )  # fmt: skip
    if which == "game":
        return run(
            form,
            lambda d: services.record_playoff_game(
                season=season,
                division=division,
                match=match,
                scores={player(p): s for p, s in form.scores().items()},
                tie_orders=[[player(p) for p in order] for order in form.tie_orders()],
                actor=actor,
            ),
        )
    if which == "tiebreaker":
        return run(
            form,
            lambda d: services.record_playoff_tiebreaker(
                season=season,
                division=division,
                match=match,
                order=[player(p) for p in form.order()],
                machine=machine(d["machine"]),
                actor=actor,
            ),
        )
    return run(
        form,
        lambda d: services.record_no_show(
            season=season, division=division, match=match, player=player(d["player"]),
            note=d["note"], actor=actor,
        ),
    )  # fmt: skip
