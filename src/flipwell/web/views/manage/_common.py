"""Helpers the console views share: running a service for a posted form, and lookups of a
league's own rows (another league's id is a 404, never its data).

Words: a use case's *contract* is its service's keyword arguments. A console form names its
fields as those arguments and cleans each id into the league's own row, so its
``cleaned_data`` is the arguments the official gave; `run` passes them through once, with
what the form does not hold (the actor, the league or meet of the page). A name the form and
the service spell differently fails as a TypeError on the first post.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render

from flipwell.league import models as m
from flipwell.league.selectors.lookups import league_meet, league_season, meet_game
from flipwell.web.forms import show_service_errors

T = TypeVar("T")
R = TypeVar("R")


def run(form: forms.Form, service: Callable[..., T], /, **extra: Any) -> T | None:
    """``service(**form.cleaned_data, **extra)`` for a valid form; the service's
    ValidationError lands on the form (see the contract above).

    Returns the service's result, or None when the form or the service refused the input.
    PermissionDenied is not caught: the request answers 403 with the service's message.
    """
    return attempt(form, lambda: service(**form.cleaned_data, **extra))


def attempt(form: forms.Form, call: Callable[[], T]) -> T | None:
    """`call()` for a valid form, its ValidationError on the form (as `run`): for a call
    whose arguments the view computes from more than the form."""
    if not form.is_valid():
        return None
    try:
        return call()
    except ValidationError as error:
        show_service_errors(form, error)
        return None


def done(request: HttpRequest, message: str) -> HttpResponse:
    """Back to the same page (a GET), with a success message."""
    messages.success(request, message)
    return HttpResponseRedirect(request.get_full_path())


def page(
    request: HttpRequest, template: str, context: dict[str, Any], *, failed: bool = False
) -> HttpResponse:
    """Render a console page; 400 when it shows a refused form again."""
    return render(request, template, context, status=400 if failed else 200)


def action(request: HttpRequest) -> str:
    """Which form of the page was posted (the submit button's ``action`` value)."""
    return request.POST.get("action", "") if request.method == "POST" else ""


def found(row: R | None, what: str) -> R:
    """`row`, or a 404 when there is none (another league's id, or a guessed one)."""
    if row is None:
        raise Http404(f"No such {what}.")
    return row


def season_of(league: m.League, season_id: int) -> m.Season:
    return found(league_season(league, season_id), "season")


def meet_of(league: m.League, meet_id: int) -> m.Meet:
    return found(league_meet(league, meet_id), "meet")


def game_of(meet: m.Meet, pk: int) -> m.Game:
    return found(meet_game(meet, pk), "game")


def official(request: HttpRequest) -> User:
    """The signed-in user (console views run only for signed-in officials)."""
    user = request.user
    if not isinstance(user, User):  # console_page and signed_in let nobody else through
        raise PermissionDenied("Sign in first.")
    return user
