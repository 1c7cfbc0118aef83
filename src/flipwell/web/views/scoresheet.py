"""The score sheet at the machine (``/sheet/<token>/``): no login, the token is the key.

A group member enters a game's scores, another confirms them, the picker chooses the next
machine, and after confirmation only a correction with the group's consent changes a score.
Each POST parses a form, calls one service and redirects back to the sheet (or, for the
phone's offline queue, answers JSON). Every page works without JavaScript.

Words: a *stale* entry or confirmation was made on a page that no longer shows the group's
sheet: its game was confirmed meanwhile, or another version of the sheet was entered. Each
entry names its game and the version it saw, each confirmation the version it confirms; the
services refuse a stale one (nothing is written, never to another game) and the phone is
shown the sheet as it is now, with why (409; a 200 for htmx, which swaps only 2xx answers).

A *live* sheet is the page's ``#sheet`` fragment at ``/sheet/<token>/state/``, which the
phone's script asks for every few seconds while the page is visible. It answers 304 to a
phone whose copy is current, after one query (the league's revision, `flipwell.serving.http_cache`):
an idle sheet costs next to nothing. Its *digest* changes exactly when what the sheet shows
changes (another group's pick changes the league's revision, not this sheet's digest), so the
script replaces the page's sheet only when the group's own sheet moved on.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.photos import kept_photo
from flipwell.league.selectors.scoresheet import ScoreSheet, scoresheet
from flipwell.league.selectors.sheet_rows import (
    chosen_player,
    group_correction,
    group_game,
    group_submission,
    league_machine,
    sheet_player,
)
from flipwell.serving.http_cache import View, conditional_on_revision
from flipwell.web.forms import (
    ConfirmForm,
    CorrectionAnswerForm,
    CorrectionRequestForm,
    NextMachineForm,
    PhotoForm,
    ScoreEntryForm,
    show_service_errors,
)
from flipwell.web.forms.sheet_page import absent_now, entry_players, sheet_forms
from flipwell.web.htmx import asked_by_htmx
from flipwell.web.photos import photo_response
from flipwell.web.scoresheet_tokens import (
    DeadToken,
    SheetClosed,
    group_for_token,
    ids_for_token,
    scoresheet_path,
)

T = TypeVar("T")

STALE_CODES = frozenset({"game_already_confirmed", "stale_version"})
"""The services' error codes for an entry or confirmation made on a stale page."""

ENTERED = "Scores entered. Another player of the group now checks and confirms them."
CORRECTION_REQUESTED = "Correction requested: each player asked now agrees or disagrees below."
ANSWER_MESSAGES = {
    "pending": "Answer recorded. The correction waits for the other players asked.",
    "applied": "Every player asked agreed: the correction is applied.",
    "refused": "A player disagreed: the score sheet stands as confirmed (R3-d).",
}


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


FORM_NAMES = {
    "enter": "entry_form",
    "confirm": "confirm_form",
    "next": "next_form",
    "correct": "correction_form",
    "answer": "answer_form",
    "photo": "photo_form",
}


def _page(
    request: HttpRequest,
    token: str,
    group: m.Group,
    *,
    form: Any = None,
    which: str = "",
    status: int | None = None,
) -> HttpResponse:
    """The sheet page; `form` is the posted form `which`, shown again with its errors (400),
    or `status` for a refusal that shows the page afresh."""
    sheet = scoresheet(group)
    league = group.meet.season.league
    context = {
        **_context(token, sheet),
        "which": which,
        # The league's live stream (live.js): the sheet asks for its fragment when it moves.
        "live_events": reverse("web:live_events", args=[league.slug]),
        "live_revision": league.revision,
    }
    if form is not None:
        context[FORM_NAMES[which]] = form
    if status is None:
        status = 400 if which else 200
    # htmx swaps only 2xx answers: a refusal shown in the page is a 200 for htmx.
    if asked_by_htmx(request):
        status = 200
    return render(request, "scoresheet/sheet.html", context, status=status)


def _context(token: str, sheet: ScoreSheet) -> dict[str, Any]:
    """What the sheet template shows: the sheet, its digest and its unbound forms."""
    return {
        "sheet": sheet,
        "sheet_digest": sheet_digest(sheet),
        "token": token,
        "absent_ids": absent_now(sheet),
        **sheet_forms(sheet),
    }


def sheet_digest(sheet: ScoreSheet) -> str:
    """A digest of everything `sheet` shows: equal digests, equal sheets (the same in every
    server process: the one set in a sheet is written sorted)."""
    canonical = (dataclasses.replace(sheet, forfeits=frozenset()), sorted(sheet.forfeits))
    return hashlib.blake2b(repr(canonical).encode(), digest_size=12).hexdigest()


def _refused_as_stale(
    request: HttpRequest, token: str, group: m.Group, error: ValidationError
) -> HttpResponse:
    """A stale entry or confirmation: nothing was written. Say why, and show the sheet as it
    is now (the message also waits for the page the offline queue reloads)."""
    message = " ".join([*error.messages, _where_now(scoresheet(group))]).strip()
    messages.error(request, message)
    if _wants_json(request):
        errors = {"__all__": [{"message": message, "code": getattr(error, "code", "")}]}
        return JsonResponse(
            {"ok": False, "stale": True, "message": message, "errors": errors}, status=409
        )
    return _page(request, token, group, status=409)


def _where_now(sheet: ScoreSheet) -> str:
    """Where the group's sheet is now, for a phone whose page was stale."""
    if sheet.current is not None:
        return f"Here is game {sheet.current.number}."
    if sheet.next_picker is not None:
        return f"Game {len(sheet.games) + 1} is next: {sheet.next_picker[1]} picks the machine."
    if sheet.match_over:
        return "The match is complete."
    return ""


def _back(token: str, group: m.Group) -> HttpResponse:
    return HttpResponseRedirect(scoresheet_path(group))


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@never_cache
@require_GET
def sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The group's score sheet: players in play order, the current game, what to do next."""
    try:
        group = group_for_token(token)
    except SheetClosed as closed:
        return closed_sheet(request, closed)
    return _page(request, token, group)


def closed_sheet(request: HttpRequest, closed: SheetClosed) -> HttpResponse:
    """The page of a sheet whose meet (or playoff night) is closed: it says so and links the
    results (410: the sheet is gone for good, not mistyped)."""
    return render(request, "scoresheet/closed.html", {"closed": closed}, status=410)


def _with_group_id(view: View) -> View:
    """Give `view` the id of the group its token names as ``group_id`` (the signature is
    checked, no query), so `conditional_on_revision("group_id")` finds the league's revision
    with its one query. A dead token is a 404 at once."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str) -> Any:
        group_id, _meet_id = ids_for_token(token)
        return view(request, token=token, group_id=group_id)

    return wrapper


@require_GET
@_with_group_id
@conditional_on_revision("group_id")
def state(request: HttpRequest, token: str, group_id: int) -> HttpResponse:
    """The live sheet: the page's ``#sheet`` fragment, tagged with the revision of the
    league of group `group_id` (`_with_group_id` names it from the token for the tag).

    Not `never_cache`: the phone keeps it and asks again with If-None-Match. Every answer
    holds this phone's form token, so the page memo never keeps one (`http_cache` refuses a
    page that set up a CSRF cookie). Once the meet is closed it says so, with no forms and
    nothing to ask for again; a token that is not ours is a 404 like the page's.
    """
    try:
        group = group_for_token(token)
    except DeadToken as dead:
        # The meet closed under an open sheet: say so in its place (a 404 would only be a
        # console error on every phone still showing it), and stop the phone asking.
        closed = dead if isinstance(dead, SheetClosed) else None
        return render(request, "scoresheet/_sheet_over.html", {"why": str(dead), "closed": closed})
    context = {**_context(token, scoresheet(group)), "which": "", "live": True}
    return render(request, "scoresheet/_sheet.html", context)


class StaleWrite(Exception):  # noqa: N818 (a signal to the view's decorator, not a failure)
    """A write the service refused as made on a stale page (see the module docstring)."""

    def __init__(self, error: ValidationError) -> None:
        super().__init__(error)
        self.error = error


def write_or_show(
    form: forms.Form, write: Callable[[], T], *, stale: frozenset[str] = frozenset()
) -> T | None:
    """`write()`, a sheet view's one service call (one that returns what it wrote, never None);
    its refusal goes on `form` and None is returned, but one whose code is in `stale` (made on
    a stale page) raises `StaleWrite`, which the view's decorator answers with the sheet as it
    is now (409). Every sheet's POST (the league night's and the playoff match's) writes
    through it."""
    try:
        return write()
    except ValidationError as error:
        if getattr(error, "code", None) in stale:
            raise StaleWrite(error) from error
        show_service_errors(form, error)
        return None


def _posted(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A POST of the sheet: never cached; `view` is given the group the token names (a dead
    token is a 404), and a stale write is answered by `_refused_as_stale`."""

    @never_cache
    @require_POST
    @wraps(view)
    def posted(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
        group = group_for_token(token)
        try:
            return view(request, token, group, **kwargs)
        except StaleWrite as stale:
            return _refused_as_stale(request, token, group, stale.error)

    return posted


@_posted
def enter(request: HttpRequest, token: str, group: m.Group) -> HttpResponse:
    """A member enters the sheet of the game his page shows, as of the version it showed
    (submit_scores; a resent key stores nothing, a stale entry is refused)."""
    sheet_now = scoresheet(group)
    current = sheet_now.current
    # A recorded forfeit empties that player's score on the current game's sheet only.
    on_current = current is not None and request.POST.get("game") == str(current.id)
    form = ScoreEntryForm(
        request.POST,
        players=entry_players(sheet_now),
        forfeits=sheet_now.forfeits if on_current else frozenset(),
        enterers=sheet_now.enterers if on_current else None,
        absent=absent_now(sheet_now) if on_current else frozenset(),
    )
    if form.is_valid():
        d = form.cleaned_data
        game = group_game(group, d["game"])
        if game is None:
            form.add_error(None, "That game is not this group's: reload the sheet.")
        else:
            result = write_or_show(
                form,
                lambda: services.submit_scores(
                    game=game,
                    scores=form.scores(),
                    tie_order=form.tie_order(),
                    entered_by=sheet_player(d["entered_by"]),
                    idempotency_key=d["idempotency_key"],
                    seen_version=d["seen_version"],
                    submitter=f"sheet:{group.pk}",
                    actor=_user(request),
                ),
                stale=STALE_CODES,
            )
            if result is not None:
                points = {str(p): v for p, v in result.points.items()}
                if _wants_json(request):
                    return _entered(points, replayed=result.replayed)
                messages.success(request, ENTERED)
                return _back(token, group)
    if _wants_json(request):
        return JsonResponse({"ok": False, "errors": form.errors.get_json_data()}, status=400)
    return _page(request, token, group, form=form, which="enter")


def _entered(points: dict[str, int], *, replayed: bool) -> JsonResponse:
    """The phone's answer to an entry: a resent key gets the first answer again (the sheet's
    points), marked ``Idempotent-Replayed: true`` as the API marks its replays."""
    answer = JsonResponse({"ok": True, "points": points})
    if replayed:
        answer["Idempotent-Replayed"] = "true"
    return answer


@_posted
def confirm(request: HttpRequest, token: str, group: m.Group) -> HttpResponse:
    """Another member confirms the version of the sheet his page shows (confirm_scores; a
    version replaced or confirmed meanwhile is refused as stale)."""
    form = ConfirmForm(request.POST, players=scoresheet(group).players)
    if form.is_valid():
        submission = group_submission(group, form.cleaned_data["submission"])
        if submission is None:
            form.add_error(None, "That score sheet is not this group's: reload the page.")
        else:
            done = write_or_show(
                form,
                lambda: services.confirm_scores(
                    submission=submission,
                    confirmed_by=sheet_player(form.cleaned_data["confirmed_by"]),
                    actor=_user(request),
                ),
                stale=STALE_CODES,
            )
            if done is not None:
                messages.success(request, f"Game {submission.game.number} confirmed.")
                return _back(token, group)
    return _page(request, token, group, form=form, which="confirm")


@_posted
def choose(request: HttpRequest, token: str, group: m.Group) -> HttpResponse:
    """The picker chooses the next game's machine (choose_next_machine)."""
    form = NextMachineForm(request.POST, machines=scoresheet(group).selectable)
    if form.is_valid():
        machine = league_machine(group.meet.season.league, form.cleaned_data["machine"])
        chooser = chosen_player(form.cleaned_data["chosen_by"])
        if machine is None or chooser is None:
            form.add_error(None, "Reload the page: that choice is no longer offered.")
        else:
            next_game = write_or_show(
                form,
                lambda: services.choose_next_machine(
                    group=group, machine=machine, chosen_by=chooser, actor=_user(request)
                ),
            )
            if next_game is not None:
                messages.success(request, f"Game {next_game.game.number} is on {machine.title}.")
                return _back(token, group)
    return _page(request, token, group, form=form, which="next")


@_posted
def correct(request: HttpRequest, token: str, group: m.Group) -> HttpResponse:
    """A member reports a scoring error in a confirmed game (request_correction)."""
    sheet_now = scoresheet(group)
    form = CorrectionRequestForm(
        request.POST,
        players=sheet_now.players,
        games=[(g.id, f"Game {g.number}") for g in sheet_now.correctable],
    )
    if form.is_valid():
        d = form.cleaned_data
        game = group_game(group, d["game"])
        if game is None:  # the form offered only the group's games: a race with a reload
            form.add_error(None, "That game is not this group's: reload the sheet.")
        else:
            done = write_or_show(
                form,
                lambda: services.request_correction(
                    game=game,
                    scores=form.scores(),
                    requested_by=sheet_player(d["requested_by"]),
                    reason=d["reason"],
                    actor=_user(request),
                ),
            )
            if done is not None:
                messages.success(request, CORRECTION_REQUESTED)
                return _back(token, group)
    return _page(request, token, group, form=form, which="correct")


@_posted
def answer(request: HttpRequest, token: str, group: m.Group, request_id: int) -> HttpResponse:
    """A player asked agrees or disagrees with a correction (respond_to_correction)."""
    form = CorrectionAnswerForm(request.POST, players=scoresheet(group).players)
    correction = group_correction(group, request_id)
    if correction is None:
        form.is_valid()
        form.add_error(None, "That correction is not this group's.")
    elif form.is_valid():
        answered = write_or_show(
            form,
            lambda: services.respond_to_correction(
                request=correction,
                player=sheet_player(form.cleaned_data["player"]),
                agrees=form.cleaned_data["agrees"],
                actor=_user(request),
            ),
        )
        if answered is not None:
            status = answered.outcome.status
            messages.success(request, ANSWER_MESSAGES.get(status, "Answer recorded."))
            return _back(token, group)
    return _page(request, token, group, form=form, which="answer")


@_posted
def attach_photo(request: HttpRequest, token: str, group: m.Group) -> HttpResponse:
    """A member attaches a photo of the machine's display to one of the group's games
    (attach_photo); the phone's script sends it on its own, so typed scores never wait on it
    (JSON for the script, a redirect for a page without it)."""
    form = PhotoForm(request.POST, request.FILES, players=scoresheet(group).players)
    if form.is_valid():
        d = form.cleaned_data
        game = group_game(group, d["game"])
        if game is None:
            form.add_error(None, "That game is not this group's: reload the sheet.")
        else:
            photo = write_or_show(
                form,
                lambda: services.attach_photo(
                    game=game,
                    photo=d["photo"],
                    size=d["photo"].size,
                    uploaded_by=sheet_player(d["uploaded_by"]) if d["uploaded_by"] else None,
                    actor=_user(request),
                    idempotency_key=d["idempotency_key"],
                    submitter=f"sheet:{group.pk}",
                ),
            )
            if photo is not None:
                url = reverse("web:scoresheet_photo", args=[token, photo.key])
                if _wants_json(request):
                    digest = sheet_digest(scoresheet(group))
                    return JsonResponse(
                        {"ok": True, "game": game.number, "url": url, "digest": digest}
                    )
                messages.success(request, f"Photo added to game {game.number}.")
                return _back(token, group)
    if _wants_json(request):
        return JsonResponse({"ok": False, "errors": form.errors.get_json_data()}, status=400)
    return _page(request, token, group, form=form, which="photo")


@require_GET
def photo(request: HttpRequest, token: str, key: str) -> HttpResponse:
    """A photo of one of the group's games, to those holding the group's live sheet link
    only: another group's photo, a removed one or a dead link is a 404."""
    group = group_for_token(token)
    found = kept_photo(key)
    if found is None or found.game.group_id != group.pk:
        raise Http404("This sheet has no such photo.")
    return photo_response(found)
