"""A browser-free client that posts the console's forms as a browser does: with a form key the
server issued to its session (`flipwell.web.once`), unless the test gives its own.

The root conftest's ``client`` fixture is a `KeyedClient`; a test that posts without a key
sets ``carries_form_key = False`` (or uses Django's own `Client`).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.test import Client

CONSOLE = "/manage/"  # `flipwell.web.once`: imported late, once Django's apps are ready
FIELD = "form_key"


def issued_key(client: Client) -> str:
    """A form key the server issues to the user signed in on `client`, in its session."""
    from flipwell.web.once import issue_form_key

    session = client.session
    return issue_form_key(user_pk=session.get("_auth_user_id"), session_key=session.session_key)


class KeyedClient(Client):
    carries_form_key = True

    def post(self, path: str, data: Any = None, *args: Any, **extra: Any) -> Any:
        signed_in = settings.SESSION_COOKIE_NAME in self.cookies  # else no session to bind to
        wants_key = self.carries_form_key and signed_in and str(path).startswith(CONSOLE)
        if wants_key and (data is None or isinstance(data, dict)) and FIELD not in (data or {}):
            data = {**(data or {}), FIELD: issued_key(self)}
        return super().post(path, data, *args, **extra)
