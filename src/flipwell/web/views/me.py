"""A player's personal link (``/me/<token>/``): no login, the token is the key.

The player answers whether they play in the next season when an official asked (until its
first meet starts), sees their coming meets with "I'll be absent" and "I'll be late" until
each meet's start time (R2.2-a, R3.1-d), their group once the meet has started, their season
with every point explained, and may leave an email address (private). Each POST calls one
service and redirects back to the page; a refused one shows the page again with why (400).

A token that is forged or whose link was revoked is a 404: it opens nothing.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from flipwell.league import limits, notice_links, notices, services
from flipwell.league import models as m
from flipwell.league.player_link_tokens import DeadLinkError
from flipwell.league.selectors.lookups import season_meet
from flipwell.league.selectors.notices import notice_subscription
from flipwell.league.selectors.player_links import player_link_page
from flipwell.league.selectors.signups import link_question
from flipwell.league.services.player_links import live_link
from flipwell.web.ids import parse_number
from flipwell.web.words import signups as signup_words


@never_cache
@require_http_methods(["GET", "POST"])
def page(request: HttpRequest, token: str) -> HttpResponse:
    """The player's page; POST ``action`` = absence | late | withdraw_absence | withdraw_late
    (with ``meet``, its number) | email | answer (with ``answer``: yes, no or maybe, about
    the next season)."""
    try:
        link = live_link(token)
    except DeadLinkError as error:
        raise Http404(str(error)) from error
    errors: list[str] = []
    if request.method == "POST":
        try:
            message = _act(request, link)
        except ValidationError as error:
            errors = error.messages
        else:
            messages.success(request, message)
            return HttpResponseRedirect(request.path)
    context: dict[str, Any] = {
        "me": player_link_page(link),
        "next": _next_season(link),
        "errors": errors,
        "email": request.POST.get("email", link.email) if errors else link.email,
        "notices": _notices(link) if notices.enabled() else None,
    }
    response = render(request, "me/page.html", context, status=400 if errors else 200)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _act(request: HttpRequest, link: m.PlayerLink) -> str:
    """Run the posted action's service; its success message."""
    which = request.POST.get("action", "")
    if which == "answer":
        given = services.answer_next_season(link=link, answer=request.POST.get("answer", ""))
        said = signup_words.ANSWERS[given.answer]
        return (
            f"Your answer for {given.call.name} is saved: {said}. You can change it until its "
            "first meet starts."
        )
    if which == "email":
        saved = services.set_player_link_email(link=link, email=request.POST.get("email", ""))
        return (
            f"Your email address {saved.email} is saved."
            if saved.email
            else "Your email address is removed."
        )
    if which not in ("absence", "late", "withdraw_absence", "withdraw_late"):
        raise ValidationError("Choose what to tell: absent or late.")
    meet = _meet(link, request.POST.get("meet", ""))
    if which.startswith("withdraw_"):
        kind = "absence" if which == "withdraw_absence" else "lateness"
        services.withdraw_announcement_by_link(link=link, meet=meet, kind=kind)
        what = "absence from" if kind == "absence" else "lateness notice for"
        return f"Your {what} meet {meet.number} is withdrawn: see you there."
    if which == "absence":
        services.announce_absence_by_link(link=link, meet=meet)
        return f"Your absence from meet {meet.number} is recorded. Thank you for telling us."
    told = services.announce_lateness_by_link(link=link, meet=meet)
    wait = told.tardiness.wait_until
    return (
        f"Your lateness notice for meet {meet.number} is recorded: your group waits for you "
        f"until {wait:%H:%M} at the latest (R2.2-a)."
        if wait is not None
        else f"Your lateness notice for meet {meet.number} is recorded."
    )


def _next_season(link: m.PlayerLink) -> dict[str, Any] | None:
    """The question about the next season on the player's page, in words (None: none)."""
    asked = link_question(link)
    if asked is None:
        return None
    return {
        "asked": asked,
        "question": signup_words.question(asked.call.name),
        "details": signup_words.call_details(asked.call),
        "answer": signup_words.ANSWERS.get(asked.answer or ""),
        "meaning": signup_words.ANSWERED.get(asked.answer or ""),
        "choices": list(signup_words.ANSWERS.items()),
    }


def _notices(link: m.PlayerLink) -> str:
    """The player's page for the e-mail notices of the link's league (choose them or stop
    them; the signed link every notice carries, `flipwell.league.notices`), or "" while no
    official of that league has set up notices for them (that page needs their address)."""
    league = link.season.league
    if notice_subscription(link.player, league=league) is None:
        return ""
    token = notice_links.preferences_token(league.pk, link.player_id)
    return reverse("web:notice_preferences", args=[token])


def _meet(link: m.PlayerLink, raw: str) -> m.Meet:
    """The meet of the link's season numbered `raw`; ValidationError for any other."""
    number = parse_number(raw, limits.MEET_NUMBER) or 0
    meet = season_meet(link.season_id, number)
    if meet is None:
        raise ValidationError(f"There is no scheduled meet {raw[:10]!r} in {link.season.name}.")
    return meet
