"""Violations and corrections of a league night in the console (§8, §3).

Words:
- *penalty decision*: what the rules give a recorded violation (§8.5), shown with it.
- *correction*: a request to change a confirmed game's scores; an override reason lets the
  official decide without the group's consent.
"""

from __future__ import annotations

from django.http import (
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import render

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.console import (
    meet_facts,
    meet_group_players,
    meet_players,
)
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.photos import game_photos
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import (
    AnswerForm,
    ConsoleCorrectionForm,
    TurnRulingForm,
    ViolationForm,
)
from flipwell.web.ids import parse_id
from flipwell.web.views.manage._common import (
    action,
    done,
    game_of,
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
from flipwell.web.words.turn_rulings import WORDS


@console_page(LO_ONLY)
def violations(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Violations (record_violation), with the penalty decision the rules give, and the
    rulings about a player's turn (record_turn_ruling: a slow-play warning, ...)."""
    the_meet = meet_of(league, meet_id)
    chosen = chosen_group(request, the_meet)
    games, players = game_choices(the_meet, chosen), meet_players(the_meet, group=chosen)
    turn = TurnRulingForm(
        request.POST if action(request) == "turn_ruling" else None,
        games=games,
        players=meet_group_players(the_meet, group=chosen),
        auto_id="id_turn_%s",  # its fields' names are the violation form's too
    )
    ruled = run(turn, services.record_turn_ruling, actor=official(request))
    if ruled is not None:
        return done(request, f"Recorded: {ruled.subject}.")
    posted = request.method == "POST" and not turn.is_bound
    form = ViolationForm(request.POST if posted else None, games=games, players=players)
    recorded = None
    if posted:
        recorded = run(form, services.record_violation, meet=the_meet, actor=official(request))
    decision = None if recorded is None else recorded.decision
    context = {
        **night_context(league, role, the_meet, "violations"),
        **group_context(the_meet, chosen),
        "facts": meet_facts(the_meet),
        "form": ViolationForm(games=games, players=players) if decision is not None else form,
        "decision": decision,
        "turn_form": turn,
        "turn_kinds": WORDS.values(),
    }
    return render(
        request,
        "manage/violations.html",
        context,
        status=400 if request.method == "POST" and decision is None else 200,
    )


@console_page(LO_ONLY)
def corrections(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Corrections of confirmed games: request one (request_correction, an override reason
    after the close) and record each asked player's answer (respond_to_correction)."""
    the_meet = meet_of(league, meet_id)
    board = meet_board(the_meet) if the_meet.status != m.Meet.Status.PLANNED else None
    which = action(request)
    game_id = parse_id(request.POST.get("game") or request.GET.get("game"))
    game = game_of(the_meet, game_id) if game_id is not None else None
    group = None
    if game is not None and board is not None:
        group = next(g for g in board.groups if g.id == game.group_id)
    players = [(p, group.names[p]) for p in group.players] if group else []
    form = ConsoleCorrectionForm(request.POST if which == "request" else None, players=players)
    answer = AnswerForm(request.POST if which == "answer" else None, meet=the_meet)
    if which == "request" and game is not None:
        made = run(form, services.request_correction, game=game, actor=official(request))
        if made is not None:
            return done(request, "Correction requested: record each asked player's answer.")
    elif which == "answer":
        answered = run(answer, services.respond_to_correction, actor=official(request))
        if answered is not None:
            status = answered.outcome.status
            return done(request, f"Answer recorded: the correction is {status}.")
    context = {
        **night_context(league, role, the_meet, "corrections"),
        "facts": meet_facts(the_meet),
        "board": board,
        "games": game_choices(the_meet),
        "game": game,
        "form": form,
        "answer": answer,
        "group_names": {g.id: g.names for g in board.groups} if board else {},
        "photos": game_photos([game.pk]).get(game.pk, ()) if game is not None else (),
    }
    return page(request, "manage/corrections.html", context, failed=bool(which))
