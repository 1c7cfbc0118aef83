"""The forgot-password limit: how often one client address, and one e-mail address, may ask
for a set-password link.

Words:
- *window*: ``FORGOT_PASSWORD_WINDOW_MINUTES`` of clock time; counts start again at each
  window's end (fixed windows: simple, and the same on every cache).
- *per address*: the requests from one client address
  (`flipwell.web.client_address.client_address`, as the sign-in limit counts them) in a
  window, at most ``FORGOT_PASSWORD_PER_ADDRESS``: one machine cannot send link after link to
  many inboxes.
- *per account*: the requests naming one e-mail address (any case, from any client address),
  at most ``FORGOT_PASSWORD_PER_ACCOUNT``: nobody can flood one official's inbox. An address
  is counted whether or not an account has it, so the limit tells nobody which addresses do.

A request over either limit sends nothing and answers the form again with a plain sentence,
status 429 and ``Retry-After``. Counts live in the shared cache (`flipwell.league.rate_limits`:
Redis with ``REDIS_URL``, else the database), so every worker counts the same requests.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render

from flipwell.league.rate_limits import count, seconds_left
from flipwell.web.client_address import client_address

KIND = "forgot-password"


def refusal(request: HttpRequest, email: str, *, now: float | None = None) -> tuple[str, int]:
    """Count this forgot-password request; ("", 0) when it may go on, else the sentence that
    refuses it and the seconds until the window ends."""
    now = time.time() if now is None else now
    window = settings.FORGOT_PASSWORD_WINDOW_MINUTES * 60
    wait = seconds_left(window, now)
    minutes = math.ceil(wait / 60)
    later = f"try again in {minutes} minute{'s' if minutes != 1 else ''}"
    if count(KIND, "address", client_address(request), window=window, now=now) > (
        settings.FORGOT_PASSWORD_PER_ADDRESS
    ):
        return (
            f"Too many set-password links were asked for from this address: {later}.",
            wait,
        )
    if email and count(KIND, "account", email, window=window, now=now) > (
        settings.FORGOT_PASSWORD_PER_ACCOUNT
    ):
        return (
            f"Too many set-password links were asked for {email}: {later}. The links already "
            "sent still work: look for them in that inbox (and its spam folder).",
            wait,
        )
    return ("", 0)


def limit_password_resets(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """The forgot-password view with the limits above on its POST."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        form = PasswordResetForm(request.POST)
        email = form.cleaned_data["email"].strip().lower() if form.is_valid() else ""
        message, wait = refusal(request, email)
        if not message:
            return view(request, *args, **kwargs)
        form.add_error(None, message)
        context = {"form": form, "site_url": settings.SITE_URL}
        response = render(request, "manage/forgot_password.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response

    return wrapper
