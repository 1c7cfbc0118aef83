"""A public form's POST: the forms anyone may send without a login (a machine's problem
report from its QR code, the sign-up for the next season), each limited per address.

`answer_public_form` is their one shape: a valid form is written once; a refusal is shown on
the form beside its field (400); an address over its limit is answered 429 with Retry-After;
a written form thanks the sender on a fresh form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse

from flipwell.league.services import RateLimitedError
from flipwell.web.forms.fields import show_service_errors

Row = TypeVar("Row")
Form = TypeVar("Form", bound=forms.Form)


def answer_public_form(
    request: HttpRequest,
    form: Form,
    write: Callable[[], Row],
    page: Callable[[Form, int, Row | None], HttpResponse],
    *,
    open_: bool = True,
) -> HttpResponse:
    """The page for `request`: on a POST of a valid `form` while the form is `open_`,
    `write()` (the service call, reading ``form.cleaned_data``) and thank the sender on an
    empty form; else the page with the form as sent (400 after a POST). `page` renders the
    form's page from (the form, the status, the row just written or None)."""
    if request.method == "POST" and open_ and form.is_valid():
        try:
            written = write()
        except RateLimitedError as error:
            show_service_errors(form, error)
            limited = page(form, 429, None)
            limited["Retry-After"] = str(error.retry_after)
            return limited
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            return page(type(form)(), 200, written)
    return page(form, 400 if request.method == "POST" else 200, None)
