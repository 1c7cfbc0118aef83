"""Helpers the console views share: running a service for a posted form, and lookups of a
league's own rows (another league's id is a 404, never its data)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render

from flipwell.league import models as m
from flipwell.web.forms import show_service_errors

T = TypeVar("T")


def run(form: forms.Form, call: Callable[[dict[str, Any]], T]) -> T | None:
    """Call a service with the form's cleaned data; its ValidationError lands on the form.

    Returns the service's result, or None when the form or the service refused the input.
    PermissionDenied is not caught: the request answers 403 with the service's message.
    """
    if not form.is_valid():
        return None
    try:
        return call(form.cleaned_data)
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


def season_of(league: m.League, season_id: int) -> m.Season:
    return get_object_or_404(m.Season.objects.select_related("league"), pk=season_id, league=league)


def meet_of(league: m.League, meet_id: int) -> m.Meet:
    return get_object_or_404(
        m.Meet.objects.select_related("season__league"), pk=meet_id, season__league=league
    )


def player(pk: int) -> m.Player:
    return get_object_or_404(m.Player, pk=pk)


def game_of(meet: m.Meet, pk: int) -> m.Game:
    return get_object_or_404(m.Game.objects.select_related("group"), pk=pk, group__meet=meet)


def machine_of(league: m.League, pk: int) -> m.Machine:
    return get_object_or_404(m.Machine, pk=pk, league=league)


def official(request: HttpRequest) -> User:
    """The signed-in user (console views run only for signed-in officials)."""
    user = request.user
    if not isinstance(user, User):  # console_page and signed_in let nobody else through
        raise PermissionDenied("Sign in first.")
    return user
