"""Signing in and out of the official's console, and who may open which console page.

Words:
- *official*: a user with a role in a league (`LeagueOfficial`): a league official (LO) or a
  scorekeeper. A superuser counts as an LO of every league.
- *sign-in limit*: django-axes counts failed sign-ins (the console's and the admin's: it
  watches every ``authenticate()``) in the database, per user name and *client address*;
  at ``LOGIN_FAILURE_LIMIT`` that name from that address is refused, even with the right
  password, for ``LOGIN_COOLOFF_MINUTES`` (see `flipwell.settings`). The refusal is the
  lockout page (429), which says when to try again.
- *client address*: ``REMOTE_ADDR``; behind the one trusted proxy (``BEHIND_PROXY``), the
  last ``X-Forwarded-For`` entry, the one that proxy appended (a client can forge the others).
- *forgot password*: an official who forgot his password types his account's e-mail address;
  Django's password-reset view e-mails every active account with that address and a usable
  password a one-time link to the set-password page (the same page and token as a new
  official's link). The page says the same whether or not an account matched, so it tells
  nobody which addresses have accounts. E-mail goes through ``EMAIL_HOST`` (printed on stdout
  when unset, see `flipwell.settings`); an account without an e-mail address (officials are
  added by user name) asks a league official for a new link instead.
- *console page role*: each console page names the roles that may open it (`LO_ONLY` or
  `ANY_ROLE`). Anybody else gets 403, whichever league he officiates: one league's console
  never shows its data to another league's officials. Services check roles again on writes.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable
from functools import wraps
from typing import Any

from axes.helpers import get_client_username  # type: ignore[import-untyped]
from axes.utils import reset as axes_reset  # type: ignore[import-untyped]
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.views import (
    PasswordResetDoneView,
    PasswordResetView,
    redirect_to_login,
)
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from flipwell.league import models as m
from flipwell.league.selectors import access, lookups
from flipwell.web.reset_limit import limit_password_resets

LO = m.LeagueOfficial.Role.LEAGUE_OFFICIAL
SCOREKEEPER = m.LeagueOfficial.Role.SCOREKEEPER
LO_ONLY: tuple[str, ...] = (LO,)
ANY_ROLE: tuple[str, ...] = (LO, SCOREKEEPER)
WARN_WHEN_LEFT = 2
"""The sign-in form says how many attempts are left from this many on."""

# --- the sign-in limit (django-axes calls these two) -----------------------------------------


def locked_out_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """The lockout page (``AXES_LOCKOUT_CALLABLE``): 429, saying when to try again."""
    username = get_client_username(request, credentials) or ""
    last = access.last_sign_in_attempt(username, getattr(request, "axes_ip_address", None))
    cool_off = datetime.timedelta(minutes=settings.LOGIN_COOLOFF_MINUTES)
    wait = (last or timezone.now()) + cool_off - timezone.now()
    seconds = max(60, math.ceil(wait.total_seconds()))
    context = {"username": username, "minutes": math.ceil(seconds / 60)}
    response = render(request, "manage/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


# --- sign in, sign out -----------------------------------------------------------------------


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
def login_view(request: HttpRequest) -> HttpResponse:
    """The sign-in form; on success, back to `next` (a local URL) or the console."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = ""
    target = target or reverse("web:manage_home")
    if request.user.is_authenticated and request.method != "POST":
        return HttpResponseRedirect(target)
    form = AuthenticationForm(request, data=request.POST if request.method == "POST" else None)
    if request.method == "POST":
        # authenticate() (in is_valid) goes through django-axes: a locked-out name+address
        # is refused before its password is checked, and its middleware answers the lockout.
        if form.is_valid():
            login(request, form.get_user())
            return HttpResponseRedirect(target)
        failures = getattr(request, "axes_failures_since_start", None) or 0
        left = settings.LOGIN_FAILURE_LIMIT - failures
        if 0 < left <= WARN_WHEN_LEFT:
            form.add_error(None, f"{left} attempt{'s' if left > 1 else ''} left.")
    return render(request, "manage/login.html", {"form": form, "next": target})


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    """Sign out (a POST with the CSRF token, so no link on another site can sign you out)."""
    logout(request)
    return HttpResponseRedirect(reverse("web:login"))


# --- roles -----------------------------------------------------------------------------------


def role_in(user: User | AnonymousUser, league: m.League) -> str | None:
    """The user's role in `league` (a superuser is an LO everywhere), or None."""
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return str(LO)
    return access.role_of(user.pk, league.pk)


def signed_in(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Send an anonymous visitor to the sign-in page, then back."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), reverse("web:login"))
        return view(request, *args, **kwargs)

    return never_cache(wrapper)


ConsoleView = Callable[..., HttpResponse]


def console_page(roles: tuple[str, ...]) -> Callable[[ConsoleView], ConsoleView]:
    """A console view of one league (URL keyword `slug`), open to `roles` of that league.

    Anonymous: redirected to sign in. Signed in without one of `roles` in this league: 403.
    The view is called as ``view(request, league, role, **other_url_kwargs)``.
    """

    def decorate(view: ConsoleView) -> ConsoleView:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path(), reverse("web:login"))
            league = lookups.league_by_slug(slug)
            if league is None:
                raise Http404("No such league.")
            role = role_in(request.user, league)
            if role is None or role not in roles:
                raise PermissionDenied(
                    f"Your account has no role in {league} that opens this page."
                    if role is None
                    else "Only a league official may open this page."
                )
            return view(request, league, role, **kwargs)

        return never_cache(wrapper)

    return decorate


# --- the one-time set-password link ----------------------------------------------------------


def _link_user(uidb64: str, token: str) -> User | None:
    """The user a set-password link is for, while its token is valid (unused, not expired)."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (TypeError, ValueError, OverflowError, UnicodeDecodeError):
        return None
    user: User | None = access.active_user(pk)
    if user is None or not default_token_generator.check_token(user, token):
        return None
    return user


@sensitive_post_parameters("new_password1", "new_password2")
@csrf_protect
@never_cache
def set_password_view(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """A one-time set-password link (from a forgot-password e-mail): choose a password, then
    sign in.

    The token hashes the password, so it dies once the password is set; it also expires after
    ``PASSWORD_RESET_TIMEOUT``. A dead or forged link answers 400 and says what to do.
    """
    user = _link_user(uidb64, token)
    if user is None:
        return render(request, "manage/set_password.html", {"invalid": True}, status=400)
    form = SetPasswordForm(user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        form.save()
        axes_reset(username=user.get_username())  # a new password ends any lockout
        if request.user.is_authenticated and request.user.pk != user.pk:
            logout(request)
        messages.success(request, f"Password set for {user.get_username()}: sign in with it.")
        return HttpResponseRedirect(reverse("web:login"))
    context = {"form": form, "account": user.get_username(), "invalid": False}
    return render(
        request, "manage/set_password.html", context, status=400 if form.is_bound else 200
    )


# --- forgot password (see the module docstring) ----------------------------------------------


class ForgotPasswordView(PasswordResetView):
    """Django's password-reset view, its link starting with the site address
    (``FLIPWELL_SITE_URL``), never with the request's ``Host``: a forged host would otherwise
    land in the e-mail, and its link would carry the token to the forger. Without a site
    address the page says so and sends nothing (`flipwell serve` warns of it at start-up)."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "site_url": settings.SITE_URL}

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.SITE_URL:
            return self.render_to_response(self.get_context_data(), status=503)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: Any) -> HttpResponse:
        self.extra_email_context = {"site_url": settings.SITE_URL}
        return super().form_valid(form)


forgot_password_view = ForgotPasswordView.as_view(
    template_name="manage/forgot_password.html",
    email_template_name="manage/forgot_password_email.txt",
    subject_template_name="manage/forgot_password_subject.txt",
    success_url=reverse_lazy("web:forgot_password_sent"),
)
forgot_password_view = limit_password_resets(forgot_password_view)
forgot_password_sent_view = PasswordResetDoneView.as_view(
    template_name="manage/forgot_password_sent.html"
)
