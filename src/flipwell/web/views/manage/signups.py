"""The question about the next season on the console's next-season page: its forms (the
question, a refusal's reason) and what the page shows of it (who answered what, who signed
up). The page, which runs their services (ask_next_season, set_signups_open, accept_signup,
refuse_signup) and builds the season from the answers, is
`flipwell.web.views.manage.next_season`."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.selectors.signups import CallPage, call_page
from flipwell.web.forms import AskNextSeasonForm, RefuseSignUpForm
from flipwell.web.forms.fields import cents_as_money
from flipwell.web.words import signups as words

ACTIONS = ("ask", "signups_open", "signups_close", "accept", "refuse")
"""The page's forms about the question (``action``); ``next`` builds the season."""


def ask_form(
    request: HttpRequest, which: str, season: m.Season, call: m.SeasonCall | None
) -> AskNextSeasonForm:
    """The question's form: the question as asked, or the season's league night; bound when
    posted."""
    initial: dict[str, Any] = {"weekday": season.weekday}
    if call is not None:
        initial = {
            "name": call.name,
            "weekday": call.weekday,
            "starts_on": call.starts_on,
            "dues_cents": cents_as_money(call.dues_cents),
        }
    # Ids of its own: the page's other form has a name and a league night too.
    posted = request.POST if which == "ask" else None
    return AskNextSeasonForm(posted, initial=initial, auto_id="id_ask_%s")


def refuse_form(request: HttpRequest, which: str) -> RefuseSignUpForm:
    """The refusal's form, bound when posted (for the sign-up it names)."""
    return RefuseSignUpForm(request.POST if which == "refuse" else None)


def shown(
    request: HttpRequest, call: m.SeasonCall | None, which: str, refuse: RefuseSignUpForm
) -> dict[str, Any]:
    """What the page shows of the question (nothing before it is asked): the answers, the
    tally, and each sign-up with its refusal's form (the posted one bound)."""
    if call is None:
        return {"call": None}
    page: CallPage = call_page(call)
    posted = request.POST.get("signup", "") if which == "refuse" else ""
    signups = []
    for signup in page.signups:
        form = refuse if posted == str(signup.pk) else RefuseSignUpForm()
        form.auto_id = f"id_refuse{signup.pk}_%s"  # one form a sign-up: ids of their own
        signups.append((signup, form))
    return {
        "call": page,
        "question": words.question(call.name),
        "details": words.call_details(call),
        "answers": [(row, words.ANSWERS.get(row.answer or "")) for row in page.answers],
        "tally": [(words.ANSWERS.get(key, "Not answered"), key, page.counts[key])
                  for key in (*words.ANSWERS, "none")],
        "signups": signups,
        "signup_url": request.build_absolute_uri(
            reverse("web:signup", args=[call.season.league.slug])
        ),
    }  # fmt: skip
