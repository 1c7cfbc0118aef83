"""The league's readings in the console: every `Ruleset` setting with the rulebook passage it
reads and its interpretation, and the form that changes one before a season begins."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.readings import league_readings
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import ReadingForm
from flipwell.web.views.manage._common import official, page, run


@console_page(LO_ONLY)
def readings(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """The readings; ``?setting=<name>`` (or a posted one) opens the form that changes it."""
    shown = league_readings(league)
    name = request.POST.get("setting") or request.GET.get("setting", "")
    line = shown.line(name)
    form = None
    if line is not None and not shown.locked:
        form = ReadingForm(
            request.POST or None,
            choices=line.choices,
            help_text=line.hint,
            initial={"setting": line.name, "value": line.value},
        )
    if request.method == "POST" and form is not None and line is not None:
        changed = run(form, services.change_ruleset_setting, league=league, actor=official(request))
        if changed is not None:
            now = league_readings(changed).line(line.name)
            value = now.value.replace("_", " ") if now else ""  # words, as the page shows it
            messages.success(request, f"{line.reading.title}: now {value}.")
            url = reverse("web:manage_readings", args=[league.slug])
            return HttpResponseRedirect(f"{url}#{line.name}")
    context: dict[str, Any] = {
        "league": league,
        "role": role,
        "readings": shown,
        "line": line,
        "form": form,
    }
    return page(request, "manage/readings.html", context, failed=request.method == "POST")
