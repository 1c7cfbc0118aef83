"""Score photos in the console: each photo of the league's games to its officials (and the
league's other roles), and the removal of a closed meet's photos by a league official."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_safe

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.photos import kept_photo, meet_photos
from flipwell.web.auth import ANY_ROLE, LO_ONLY, console_page
from flipwell.web.forms import RemovePhotosForm
from flipwell.web.photos import photo_response
from flipwell.web.views.manage._common import meet_of, official, page, run


@require_safe
@console_page(ANY_ROLE)
def photo(request: HttpRequest, league: m.League, role: str, key: str) -> HttpResponse:
    """A kept photo of one of the league's games; another league's, or a removed one, is a
    404."""
    found = kept_photo(key)
    if found is None or found.game.group.meet.season.league_id != league.pk:
        raise Http404("This league has no such photo.")
    return photo_response(found)  # console_page makes it never kept (no-store)


@console_page(LO_ONLY)
def remove(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """Remove every photo of a closed meet, after a confirmation step that says how many and
    asks why (remove_meet_photos); back to the meet with what was done."""
    the_meet = meet_of(league, meet_id)
    form = RemovePhotosForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        removed = run(form, services.remove_meet_photos, meet=the_meet, actor=official(request))
        if removed is not None:
            messages.success(request, f"{removed} photo{'s' if removed != 1 else ''} removed.")
            url = reverse("web:manage_meet", args=[league.slug, meet_id])
            return HttpResponseRedirect(url + "#photos")
    context = {
        "league": league,
        "role": role,
        "meet": the_meet,
        "season": the_meet.season,
        "tab": "hub",
        "photos": meet_photos(the_meet),
        "form": form,
    }
    return page(request, "manage/remove_photos.html", context, failed=form.is_bound)
