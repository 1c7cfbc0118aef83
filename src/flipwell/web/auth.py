"""Signing in and out of the official's console, and who may open which console page.

Words:
- *official*: a user with a role in a league (`LeagueOfficial`): a league official (LO) or a
  scorekeeper. A superuser counts as an LO of every league.
- *attempt limit*: failed sign-ins are counted per user name and client address in Django's
  cache (`MAX_FAILURES` in `WINDOW`); once reached, that name from that address is refused
  without checking the password until the window has passed. A successful sign-in clears the
  count. The address is ``REMOTE_ADDR``: a forwarded header could be forged to dodge the limit.
- *console page role*: each console page names the roles that may open it (`LO_ONLY` or
  `ANY_ROLE`). Anybody else gets 403, whichever league he officiates: one league's console
  never shows its data to another league's officials. Services check roles again on writes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlsafe_base64_decode
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from flipwell.league import models as m

MAX_FAILURES = 5
WINDOW_SECONDS = 15 * 60
LO = m.LeagueOfficial.Role.LEAGUE_OFFICIAL
SCOREKEEPER = m.LeagueOfficial.Role.SCOREKEEPER
LO_ONLY: tuple[str, ...] = (LO,)
ANY_ROLE: tuple[str, ...] = (LO, SCOREKEEPER)

# --- the attempt limit -----------------------------------------------------------------------


def _limit_key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.strip().lower()}|{address}".encode()).hexdigest()
    return f"flipwell:login-failures:{digest}"


def client_address(request: HttpRequest) -> str:
    """The address the request came from (never a forwarded header, which anyone can set)."""
    return str(request.META.get("REMOTE_ADDR", ""))


def is_locked_out(username: str, address: str) -> bool:
    """Whether `username` from `address` has used up its failed attempts in this window."""
    return int(cache.get(_limit_key(username, address), 0)) >= MAX_FAILURES


def record_failure(username: str, address: str) -> int:
    """Count one failed sign-in; the window starts at the first failure. Returns the count."""
    key = _limit_key(username, address)
    if cache.add(key, 1, timeout=WINDOW_SECONDS):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=WINDOW_SECONDS)
        return 1


def clear_failures(username: str, address: str) -> None:
    cache.delete(_limit_key(username, address))


LOCKED_MESSAGE = (
    f"Too many failed sign-ins for this name from this device: wait {WINDOW_SECONDS // 60} "
    "minutes and try again, or ask another league official to reset your password."
)


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
    status = 200
    locked = ""
    if request.method == "POST":
        username = request.POST.get("username", "")
        address = client_address(request)
        if is_locked_out(username, address):
            # The password is not even checked: guessing on goes nowhere.
            form = AuthenticationForm(request, initial={"username": username})
            locked = LOCKED_MESSAGE
            status = 429
        elif form.is_valid():
            clear_failures(username, address)
            login(request, form.get_user())
            return HttpResponseRedirect(target)
        else:
            failures = record_failure(username, address)
            left = MAX_FAILURES - failures
            if left <= 0:
                form.add_error(None, LOCKED_MESSAGE)
            elif left <= 2:
                form.add_error(None, f"{left} attempt{'s' if left > 1 else ''} left.")
    context = {"form": form, "next": target, "locked": locked}
    return render(request, "manage/login.html", context, status=status)


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
    return (
        m.LeagueOfficial.objects.filter(user_id=user.pk, league=league)
        .values_list("role", flat=True)
        .first()
    )


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
            league = get_object_or_404(m.League, slug=slug)
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
    user = User.objects.filter(pk=pk, is_active=True).first()
    if user is None or not default_token_generator.check_token(user, token):
        return None
    return user


@sensitive_post_parameters("new_password1", "new_password2")
@csrf_protect
@never_cache
def set_password_view(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """A new official's one-time link (from `add_official`): choose a password, then sign in.

    The token hashes the password, so it dies once the password is set; it also expires after
    ``PASSWORD_RESET_TIMEOUT``. A dead or forged link answers 400 and says what to do.
    """
    user = _link_user(uidb64, token)
    if user is None:
        return render(request, "manage/set_password.html", {"invalid": True}, status=400)
    form = SetPasswordForm(user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        form.save()
        clear_failures(user.get_username(), client_address(request))
        if request.user.is_authenticated and request.user.pk != user.pk:
            logout(request)
        messages.success(request, f"Password set for {user.get_username()}: sign in with it.")
        return HttpResponseRedirect(reverse("web:login"))
    context = {"form": form, "account": user.get_username(), "invalid": False}
    return render(
        request, "manage/set_password.html", context, status=400 if form.is_bound else 200
    )
