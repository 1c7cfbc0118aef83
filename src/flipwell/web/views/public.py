"""Public pages: no login, nothing private."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from flipwell.league import models as m


def league_list(request: HttpRequest) -> HttpResponse:
    """Every league hosted here, with its venue."""
    leagues = m.League.objects.order_by("name")
    return render(request, "public/league_list.html", {"leagues": leagues})
