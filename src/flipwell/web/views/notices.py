"""A player's notice preferences, reached by the signed link in every notice
(`flipwell.web.emails.preferences_url`): choose the notices, or stop them all.

The link's token is the league's and the player's ids signed with the installation's key, so
it is the only credential, and it reaches that league's notices only (an older token, the
player's id alone, reaches every league's): the page needs no sign-in and no CSRF cookie (a
mail program's one-click unsubscribe, RFC 8058, posts ``List-Unsubscribe=One-Click`` to it
without either). A GET never changes anything, so a mail scanner that follows the link stops
nothing. A link stays valid as long as the installation's ``SECRET_KEY``: a player's old
e-mails still unsubscribe them.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt

from flipwell.league import models as m
from flipwell.league.notice_links import preferences_for_token
from flipwell.league.selectors.lookups import player_by_id
from flipwell.league.selectors.notices import link_subscriptions
from flipwell.league.services.notices import choose_notices_by_link, unsubscribe_by_link
from flipwell.web.forms import NoticeKindsForm, show_service_errors


@csrf_exempt
@never_cache
def preferences(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the player's notices as a form. POST: save the boxes ticked (``action=save``), or
    stop every notice (``action=stop``, or a mail program's one-click unsubscribe)."""
    target = preferences_for_token(token)
    if target is None:
        raise Http404("This link is not a notices link of this league site.")
    player = player_by_id(target.player)
    if player is None:
        raise Http404("This link's player is no longer on this league site.")
    reached = link_subscriptions(player.pk, league_id=target.league)
    if not reached:
        raise Http404("No notices are set up for this player.")
    subscription = reached[0]
    league = subscription.league if target.league is not None else None
    status = 200
    saved = ""
    if request.method == "POST":
        one_click = request.POST.get("List-Unsubscribe") == "One-Click"
        if one_click or request.POST.get("action") == "stop":
            subscription = unsubscribe_by_link(player=player, league=league) or subscription
            if one_click:
                return HttpResponse("Unsubscribed.", content_type="text/plain")
            saved = "You get no more notices. Tick a box and save to get them again."
            form = _form(subscription)
        else:
            form = NoticeKindsForm(request.POST)
            if form.is_valid():
                try:
                    subscription = choose_notices_by_link(
                        player=player, league=league, kinds=form.kinds()
                    )
                except ValidationError as error:
                    show_service_errors(form, error)
                    status = 400
                else:
                    saved = "Saved." if form.kinds() else "You get no more notices."
                    form = _form(subscription)
            else:
                status = 400
    else:
        form = _form(subscription)
    context = {
        "player": player,
        "subscription": subscription,
        "leagues": [row.league for row in reached],
        "form": form,
        "saved": saved,
    }
    return render(request, "public/notice_preferences.html", context, status=status)


def _form(subscription: m.NoticeSubscription) -> NoticeKindsForm:
    return NoticeKindsForm(initial={kind: subscription.wants(kind) for kind in m.NoticeKind.values})
