"""Whether a check accepts what it is given, as a value a test can assert on: the message it
refuses with, or None. A test of an accepted case asserts ``refusal(...) is None``, so what it
checks is written in the test, and a refusal fails it with the check's own words."""

from __future__ import annotations

from collections.abc import Callable


def refusal(call: Callable[[], object], *errors: type[Exception]) -> str | None:
    """The message `call` is refused with (one of `errors`); None when it accepts."""
    try:
        call()
    except errors as error:
        return str(error)
    return None
