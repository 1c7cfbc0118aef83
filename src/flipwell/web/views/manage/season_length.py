"""A season cut short in the console (A68): ending it early or lowering its number of meets.

The page asks for the new number of meets (the meets started, to end the season now) and
why; its preview folds the season with that number (never stored) and says what changes:
who becomes eligible or ineligible for the playoffs, who clinches or is eliminated, the meets
left, the planned meets cancelled and the IFPA requirements the new length fails. Only the
confirmation writes (cut_season), and a confirmation sent twice writes once.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.season_length import (
    CutPreview,
    season_cut_preview,
    season_meets_started,
)
from flipwell.rules import RuleError
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import CutSeasonForm
from flipwell.web.once import records_nothing
from flipwell.web.race_words import place_word
from flipwell.web.views.manage._common import action, official, page, run, season_of
from flipwell.web.words import counted


@console_page(LO_ONLY)
def cut_season(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """End a season early or lower its number of meets (A68): the form, its preview of what
    changes, and the confirmation (cut_season); back to the seasons once cut."""
    season = season_of(league, season_id)
    started = season_meets_started(season)
    form = CutSeasonForm(request.POST or None, initial={"number_of_meets": max(started, 1)})
    preview: CutPreview | None = None
    if action(request) == "confirm":
        done = run(form, services.cut_season, season=season, actor=official(request))
        if done is not None:
            messages.success(request, _cut_message(done))
            return HttpResponseRedirect(reverse("web:manage_seasons", args=[league.slug]))
    elif action(request) == "preview" and form.is_valid():
        try:
            preview = season_cut_preview(
                season, number_of_meets=form.cleaned_data["number_of_meets"]
            )
        except RuleError as error:
            form.add_error("number_of_meets", _sentence(str(error)))
    context: dict[str, Any] = {
        "league": league,
        "role": role,
        "season": season,
        "form": form,
        "started": started,
        "preview": preview,
        "changes": _changes(preview) if preview else [],
    }
    response = page(request, "manage/season_length.html", context, failed=bool(form.errors))
    # The preview writes nothing: its form key is not kept, so the confirmation gets its own.
    return records_nothing(response) if action(request) == "preview" else response


def _changes(preview: CutPreview) -> list[dict[str, Any]]:
    """Each player whose place in the race changes: the name and the words before and after."""
    return [
        {
            "name": preview.names.get(change.player, change.player),
            "before": place_word(change.before),
            "after": place_word(change.after),
        }
        for change in preview.cut.changes
    ]


def _cut_message(done: services.CutSeason) -> str:
    """What the cut did, in words."""
    season = done.season
    if done.cut is None:
        return f"{season.name} already has {counted(season.number_of_meets, 'meet')}."
    said = f"{season.name} now has {counted(season.number_of_meets, 'meet')}"
    if done.cancelled:
        said += f"; planned meet{'s' if len(done.cancelled) > 1 else ''} "
        said += ", ".join(str(n) for n in done.cancelled) + " cancelled"
    return said + ". The reason is kept as a ruling."


def _sentence(text: str) -> str:
    """A rules message as a sentence: capital first, full stop last."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else f"{text}."
