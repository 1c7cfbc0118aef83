"""The league's public sign-up form for the next season (``/leagues/<slug>/sign-up/``): no
login. Open while an official has opened it (`set_signups_open`); a newcomer gives their name,
e-mail address and IFPA number (sign_up), and the official accepts or refuses each in the
console. A refused form shows the page again with why next to each field (400); one address
sending too many is answered 429.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.public_pages import seasons as season_pages
from flipwell.league.selectors.signups import open_signups
from flipwell.web.client_address import address_hash
from flipwell.web.forms import SignUpForm
from flipwell.web.views.public_forms import answer_public_form
from flipwell.web.words import signups as words


@never_cache
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest, slug: str) -> HttpResponse:
    """The sign-up form; POST signs up (sign_up) and thanks the newcomer on the same page."""
    try:
        league = season_pages.league_by_slug(slug)
    except season_pages.NotFoundError as error:
        raise Http404(str(error)) from error
    call = open_signups(league)
    form = SignUpForm(request.POST if request.method == "POST" else None)
    return answer_public_form(
        request,
        form,
        lambda: services.sign_up(
            league=league, **form.cleaned_data, address_hash=address_hash(request)
        ),
        lambda shown, status, sent: _page(request, league, call, shown, status=status, sent=sent),
        open_=call is not None,
    )


def _page(
    request: HttpRequest,
    league: m.League,
    call: m.SeasonCall | None,
    form: SignUpForm,
    *,
    status: int = 200,
    sent: m.SignUp | None = None,
) -> HttpResponse:
    context: dict[str, Any] = {"league": league, "form": form, "sent": sent, "call": call}
    if call is not None:
        context["question"] = words.question(call.name)
        context["details"] = words.call_details(call)
    response = render(request, "public/signup.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    return response
