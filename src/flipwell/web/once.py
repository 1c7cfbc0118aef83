"""The console's forms record once: a double tap, or a form sent again, is not a second write.

Words: a *form key* is a one-time random value each console form carries in the hidden field
``form_key`` (the ``{% form_key %}`` tag, `flipwell.web.templatetags.flipwell_forms`, put in
every POST form of the console's templates: a test checks them all). The first POST with a
key runs its view; the key is then kept for the signed-in user, with where the answer went
(a redirect's address, or the page itself when it answered with a page). The same key posted
again within ``IDEMPOTENCY_KEY_HOURS`` runs nothing: the browser is sent where the first went,
with the message "Already recorded". A refused form (4xx) keeps no key: it is shown again
with a new key, and its corrected copy is a new write; nor does a review step that records
nothing (`records_nothing`). Storage is `flipwell.league.idempotency`, scope ``console``.

A key is *issued* by the server: a random value signed (Django's ``TimestampSigner``, keyed by
``SECRET_KEY``) for the signed-in user and his session, valid ``IDEMPOTENCY_KEY_HOURS`` from
when the page was drawn (as long as a used key is kept, so a used key never runs again). A
console POST of a signed-in user without a key, or with one the server did not issue to this
session (made up, another official's, from before a sign-in, too old), runs nothing: it is
refused (400) with a plain sentence, and what was typed comes back in a form that carries a
key the server issued, to be checked and sent again (`refused`). The pages for signed-out
people (sign in, forgotten password, set a password: `KEYLESS`) carry no key.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.core.signing import BadSignature, TimestampSigner
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import render

from flipwell.league.idempotency import Answer, KeyReusedError, fingerprint, key_lifetime, once

FIELD = "form_key"
CONSOLE = "/manage/"
ALREADY_RECORDED = "Already recorded: this form was sent before, and it is recorded once."
OTHER_FORM = "This form's key was used on another page: reload the page and send it again."
NOT_ISSUED = (
    "Nothing was recorded: this form did not come from a page flipwell showed you in this "
    "session, or the page is too old. What you typed is below: check it and send it again."
)
KEYLESS = frozenset({"login", "forgot_password", "forgot_password_sent", "set_password"})
"""The console's pages for signed-out people (their URL names): their forms carry no key."""
SALT = "flipwell.web.once.form_key"
NOT_SENT_AGAIN = frozenset({"csrfmiddlewaretoken", FIELD})
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


def _signer(user_pk: object, session_key: str | None) -> TimestampSigner:
    return TimestampSigner(salt=f"{SALT}:{user_pk}:{session_key or ''}")


def issue_form_key(*, user_pk: object, session_key: str | None) -> str:
    """A new form key issued to the user `user_pk` in the session `session_key`."""
    return _signer(user_pk, session_key).sign(secrets.token_urlsafe(16))


def request_form_key(request: HttpRequest | None) -> str:
    """A new form key for the user signed in on `request` (a signed-out request's key is
    issued to nobody: no console write accepts it)."""
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    return issue_form_key(
        user_pk=getattr(user, "pk", None) if user is not None and user.is_authenticated else None,
        session_key=getattr(session, "session_key", None),
    )


def issued_here(request: HttpRequest, key: str) -> bool:
    """Whether the server issued `key` to the user and session of `request`, within the
    key's lifetime."""
    signer = _signer(request.user.pk, request.session.session_key)
    try:
        signer.unsign(key, max_age=key_lifetime())
    except BadSignature:  # made up, another's, or expired (SignatureExpired)
        return False
    return True


def refused(request: HttpRequest) -> HttpResponse:
    """The answer to a console POST whose key the server did not issue: nothing runs; the
    posted values come back in a form to the same address, with a key issued now."""
    fields = [(name, values) for name, values in request.POST.lists() if name not in NOT_SENT_AGAIN]
    context = {
        "message": NOT_ISSUED,
        "address": request.get_full_path(),
        "fields": [(name, value, "\n" in value) for name, values in fields for value in values],
        "files": sorted(request.FILES),
        "multipart": bool(request.FILES),
    }
    return render(request, "manage/form_refused.html", context, status=400)


RECORDS_NOTHING = "flipwell_records_nothing"
_Response = TypeVar("_Response", bound=HttpResponseBase)


def records_nothing(response: _Response) -> _Response:
    """Mark `response` as a step that wrote nothing (a review shown before the official
    confirms): its form key is not kept, so a double tap shows the review again rather than
    "Already recorded"."""
    setattr(response, RECORDS_NOTHING, True)
    return response


class OnceFormMiddleware:
    """Refuses a console POST without a form key issued to its session; runs one with such a
    key once per key and user (module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponseBase],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponseBase | None:
        if request.method != "POST" or not request.path.startswith(CONSOLE):
            return None
        if not request.user.is_authenticated:
            return None
        match = request.resolver_match
        if match is not None and match.url_name in KEYLESS:
            return None
        key = request.POST.get(FIELD, "")
        if not key or not issued_here(request, key):
            return refused(request)
        here = request.get_full_path()

        def kept(response: HttpResponseBase) -> Answer | None:
            if getattr(response, RECORDS_NOTHING, False):
                return None  # a review step: the key stays free for the form it shows
            if response.status_code in _REDIRECTS:
                return Answer(status=302, headers={"Location": response["Location"]})
            if 200 <= response.status_code < 300:
                return Answer(status=302, headers={"Location": here})
            return None  # refused: the form comes back with a new key

        try:
            answer = once(
                scope="console",
                sender=f"user:{request.user.pk}",
                key=key,
                fingerprint=fingerprint(method="POST", path=request.path, body=b""),
                write=lambda: view(request, *args, **kwargs),
                keep=kept,
            )
        except KeyReusedError:
            messages.error(request, OTHER_FORM)
            return HttpResponseRedirect(here)
        if isinstance(answer, Answer):
            messages.info(request, ALREADY_RECORDED)
            return HttpResponseRedirect(answer.headers.get("Location", here))
        return answer
