"""A playoff match's score sheet (``/sheet/match/<token>/``): no login, the token is the key.

The league night's sheet for one playoff match (§6): a player of the match starts its game
(game 1's machine drawn at random, later games picked by the loser of the one before),
enters the scores, another player confirms them, and a confirmed game changes only through a
correction the other players agree to. Each POST parses a form, calls one service
(`flipwell.league.services.playoff_sheets`) and redirects back to the sheet; the entry form
is the league night's, sent through the same offline queue (``scoresheet.js``), and a stale
entry or confirmation is refused the same way (409, nothing written).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.playoff_sheet import MatchSheet, match_sheet
from flipwell.league.selectors.sheet_rows import league_machine, match_sheet_row, sheet_player
from flipwell.rules import RuleError
from flipwell.serving.http_cache import View, conditional_on_revision
from flipwell.web.forms import (
    ConfirmForm,
    CorrectionAnswerForm,
    CorrectionRequestForm,
    PlayoffEntryForm,
    PlayoffStartForm,
)
from flipwell.web.scoresheet_tokens import (
    DeadToken,
    SheetClosed,
    match_for_token,
    night_id_for_token,
)
from flipwell.web.views.scoresheet import (
    ANSWER_MESSAGES,
    STALE_CODES,
    StaleWrite,
    closed_sheet,
    write_or_show,
)

FORM_NAMES = {
    "start": "start_form",
    "enter": "entry_form",
    "confirm": "confirm_form",
    "correct": "correction_form",
    "answer": "answer_form",
}


def _load(token: str) -> tuple[m.PlayoffNight, str, str, MatchSheet]:
    night, division, match = match_for_token(token)
    try:
        return night, division, match, match_sheet(night, division, match)
    except (KeyError, RuleError) as error:
        raise Http404("No such playoff match.") from error


def _forms(sheet: MatchSheet) -> dict[str, Any]:
    current = sheet.current
    players = current.play_order if current is not None else sheet.players
    initial: dict[str, Any] = {
        "idempotency_key": uuid.uuid4().hex,
        "game": current.number if current is not None else None,
        "seen_version": current.version if current is not None else 0,
    }
    if current is not None and current.pending is not None:
        for line in current.pending.lines:
            initial[f"score_{line.player_id}"] = f"{line.machine_score:,}"
    entered_by = current.pending.entered_by_id if current and current.pending else None
    starters = [sheet.picker] if sheet.picker is not None else list(sheet.players)
    return {
        "start_form": PlayoffStartForm(
            players=starters,
            machines=sheet.selectable,
            initial={"started_by": sheet.picker[0] if sheet.picker else None},
        ),
        "entry_form": PlayoffEntryForm(players=players, initial=initial),
        "confirm_form": ConfirmForm(
            players=[p for p in sheet.players if p[0] != entered_by],
            initial={
                "submission": current.pending.sheet_id if current and current.pending else None
            },
        ),
        "correction_form": CorrectionRequestForm(
            players=sheet.players,
            games=[(g.number, f"Game {g.number}: {g.machine}") for g in sheet.correctable],
        ),
        "answer_form": CorrectionAnswerForm(players=sheet.players),
    }


def sheet_digest(sheet: MatchSheet) -> str:
    """A digest of everything `sheet` shows: equal digests, equal sheets."""
    return hashlib.blake2b(repr(sheet).encode(), digest_size=12).hexdigest()


def _page(
    request: HttpRequest, token: str, *, form: Any = None, which: str = "", status: int = 0
) -> HttpResponse:
    night, _, _, sheet = _load(token)
    league = night.season.league
    context: dict[str, Any] = {
        "sheet": sheet,
        "sheet_digest": sheet_digest(sheet),
        "token": token,
        "which": which,
        # The league's live stream (live.js): the sheet asks for its fragment when it moves.
        "live_events": reverse("web:live_events", args=[league.slug]),
        "live_revision": league.revision,
        **_forms(sheet),
    }
    if form is not None:
        context[FORM_NAMES[which]] = form
    status = status or (400 if which else 200)
    if request.headers.get("HX-Request"):
        status = 200
    return render(request, "scoresheet/playoff_sheet.html", context, status=status)


def _back(token: str) -> HttpResponse:
    return HttpResponseRedirect(reverse("web:playoff_sheet", kwargs={"token": token}))


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _stale(request: HttpRequest, token: str, error: ValidationError) -> HttpResponse:
    """A stale entry or confirmation: nothing was written; say why and show the sheet now."""
    message = " ".join(error.messages)
    messages.error(request, message)
    if _wants_json(request):
        errors = {"__all__": [{"message": message, "code": getattr(error, "code", "")}]}
        return JsonResponse(
            {"ok": False, "stale": True, "message": message, "errors": errors}, status=409
        )
    return _page(request, token, status=409)


def _posted(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A POST of the match's sheet: never cached, and a write refused as stale
    (`write_or_show`) answered with the sheet as it is now (`_stale`, 409)."""

    @never_cache
    @require_POST
    @wraps(view)
    def posted(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, token, **kwargs)
        except StaleWrite as stale:
            return _stale(request, token, stale.error)

    return posted


@never_cache
@require_GET
def sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The match's sheet: its players, the games so far with points, what to do next."""
    try:
        return _page(request, token)
    except SheetClosed as closed:
        return closed_sheet(request, closed)


def _with_night_id(view: View) -> View:
    """Give `view` the id of the playoff night its token names as ``night_id`` (the signature
    is checked, no query), so `conditional_on_revision("night_id")` finds the league's
    revision with its one query. A token that is not ours passes no id: the view answers it."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str) -> Any:
        try:
            night_id = str(night_id_for_token(token))
        except DeadToken:
            night_id = ""
        return view(request, token=token, night_id=night_id)

    return wrapper


@require_GET
@_with_night_id
@conditional_on_revision("night_id")
def state(request: HttpRequest, token: str, night_id: str) -> HttpResponse:
    """The live sheet: the page's ``#sheet`` fragment, asked for every few seconds and tagged
    with the revision of the night's league (every playoff write gives it a new one), so a
    phone that holds the current fragment is answered 304 without the sheet being computed.
    Once the night is closed it says so, with no forms and nothing to ask for again."""
    try:
        _, _, _, sheet_now = _load(token)
    except DeadToken as dead:
        closed = dead if isinstance(dead, SheetClosed) else None
        return render(request, "scoresheet/_sheet_over.html", {"why": str(dead), "closed": closed})
    context = {
        "sheet": sheet_now,
        "sheet_digest": sheet_digest(sheet_now),
        "token": token,
        "which": "",
        "live": True,
        **_forms(sheet_now),
    }
    return render(request, "scoresheet/_playoff_sheet.html", context)


@_posted
def start(request: HttpRequest, token: str) -> HttpResponse:
    """A player starts the next game: game 1 drawn, later games picked by the loser."""
    night, division, match, sheet_now = _load(token)
    # Every player is accepted here: the service refuses the one who may not pick (R6.4-c).
    form = PlayoffStartForm(request.POST, players=sheet_now.players, machines=sheet_now.selectable)
    if form.is_valid():
        machine_id = form.cleaned_data.get("machine")
        league = night.season.league
        machine = league_machine(league, machine_id) if machine_id is not None else None
        game = write_or_show(
            form,
            lambda: services.start_playoff_game_on_sheet(
                season=night.season,
                division=division,
                match=match,
                started_by=sheet_player(form.cleaned_data["started_by"]),
                machine=machine,
            ),
            stale=frozenset({"game_in_progress"}),
        )
        if game is not None:
            messages.success(request, f"Game {game.number} is on {game.machine.title}.")
            return _back(token)
    return _page(request, token, form=form, which="start")


@_posted
def enter(request: HttpRequest, token: str) -> HttpResponse:
    """A player enters the scores of the game the page shows (a resent key stores nothing)."""
    night, division, match, sheet_now = _load(token)
    current = sheet_now.current
    players = current.play_order if current is not None else sheet_now.players
    form = PlayoffEntryForm(request.POST, players=players)
    if form.is_valid():
        d = form.cleaned_data
        entered = write_or_show(
            form,
            lambda: services.submit_playoff_scores(
                season=night.season,
                division=division,
                match=match,
                number=d["game"],
                scores=form.machine_scores(),
                tie_order=form.tie_order(),
                entered_by=sheet_player(d["entered_by"]),
                idempotency_key=d["idempotency_key"],
                seen_version=d["seen_version"],
                submitter=f"playoff-sheet:{night.pk}:{division}:{match}",
            ),
            stale=STALE_CODES,
        )
        if entered is not None:
            if _wants_json(request):
                return JsonResponse({"ok": True})
            messages.success(
                request, "Scores entered. Another player of the match now checks and confirms them."
            )
            return _back(token)
    if _wants_json(request):
        return JsonResponse({"ok": False, "errors": form.errors.get_json_data()}, status=400)
    return _page(request, token, form=form, which="enter")


@_posted
def confirm(request: HttpRequest, token: str) -> HttpResponse:
    """Another player confirms the version the page shows (stale: refused)."""
    night, division, match, sheet_now = _load(token)
    form = ConfirmForm(request.POST, players=sheet_now.players)
    if form.is_valid():
        entry = match_sheet_row(night, division, match, form.cleaned_data["submission"])
        if entry is None:
            form.add_error(None, "Those scores are not this match's: reload the page.")
        else:
            confirmed = write_or_show(
                form,
                lambda: services.confirm_playoff_scores(
                    sheet=entry, confirmed_by=sheet_player(form.cleaned_data["confirmed_by"])
                ),
                stale=STALE_CODES,
            )
            if confirmed is not None:
                label = "The tiebreaker game" if entry.number == 4 else f"Game {entry.number}"
                messages.success(request, f"{label} confirmed.")
                return _back(token)
    return _page(request, token, form=form, which="confirm")


@_posted
def correct(request: HttpRequest, token: str) -> HttpResponse:
    """A player reports a wrong score in a confirmed game (the others then answer)."""
    night, division, match, sheet_now = _load(token)
    form = CorrectionRequestForm(
        request.POST,
        players=sheet_now.players,
        games=[(g.number, f"Game {g.number}") for g in sheet_now.correctable],
    )
    if form.is_valid():
        d = form.cleaned_data
        asked = write_or_show(
            form,
            lambda: services.request_playoff_correction(
                season=night.season,
                division=division,
                match=match,
                number=d["game"],
                scores=form.scores(),
                requested_by=sheet_player(d["requested_by"]),
                reason=d["reason"],
            ),
        )
        if asked is not None:
            messages.success(
                request, "Correction asked: each other player now agrees or disagrees below."
            )
            return _back(token)
    return _page(request, token, form=form, which="correct")


@_posted
def answer(request: HttpRequest, token: str, request_id: int) -> HttpResponse:
    """A player agrees or disagrees with a correction."""
    night, division, match, sheet_now = _load(token)
    form = CorrectionAnswerForm(request.POST, players=sheet_now.players)
    correction = match_sheet_row(night, division, match, request_id)
    if correction is None:
        form.is_valid()
        form.add_error(None, "That correction is not this match's.")
    elif form.is_valid():
        answered = write_or_show(
            form,
            lambda: services.answer_playoff_correction(
                sheet=correction,
                player=sheet_player(form.cleaned_data["player"]),
                agrees=form.cleaned_data["agrees"],
            ),
        )
        if answered is not None:
            messages.success(request, ANSWER_MESSAGES.get(answered.status, "Answer recorded."))
            return _back(token)
    return _page(request, token, form=form, which="answer")
