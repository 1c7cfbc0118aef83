"""The console's forms record once: a double tap, or a form sent again, is not a second write.

Words: a *form key* is a one-time random value each console form carries in the hidden field
``form_key`` (the ``{% form_key %}`` tag, `flipwell.web.templatetags.flipwell_forms`, put in
every POST form of the console's templates: a test checks them all). The first POST with a
key runs its view; the key is then kept for the signed-in user, with where the answer went
(a redirect's address, or the page itself when it answered with a page). The same key posted
again within ``IDEMPOTENCY_KEY_HOURS`` runs nothing: the browser is sent where the first went,
with the message "Already recorded". A refused form (4xx) keeps no key: it is shown again
with a new key, and its corrected copy is a new write; nor does a review step that records
nothing (`records_nothing`). A POST without a key (a script, an old
page) runs as before. Storage is `flipwell.league.idempotency`, scope ``console``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponseRedirect
from django.http.response import HttpResponseBase

from flipwell.league.idempotency import Answer, KeyReusedError, fingerprint, key_problem, once

FIELD = "form_key"
CONSOLE = "/manage/"
ALREADY_RECORDED = "Already recorded: this form was sent before, and it is recorded once."
OTHER_FORM = "This form's key was used on another page: reload the page and send it again."
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


RECORDS_NOTHING = "flipwell_records_nothing"
_Response = TypeVar("_Response", bound=HttpResponseBase)


def records_nothing(response: _Response) -> _Response:
    """Mark `response` as a step that wrote nothing (a review shown before the official
    confirms): its form key is not kept, so a double tap shows the review again rather than
    "Already recorded"."""
    setattr(response, RECORDS_NOTHING, True)
    return response


class OnceFormMiddleware:
    """Runs a console POST that carries a form key once per key and user (module docstring)."""

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
        key = request.POST.get(FIELD, "")
        if not key or key_problem(key) is not None:
            return None  # no key: runs as before
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
