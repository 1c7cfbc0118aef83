"""A service's refusals, each with a stable code a program can tell apart.

Words:
- a *refusal* is a user's mistake a service will not write: a `Refusal` (the request itself
  is wrong: it must change to succeed) or a `ConflictError` (the league's state forbids it
  now: already done, already closed, not ready yet, or another request won). Both are
  Django ``ValidationError``s, so a console form shows their messages as before, and both
  keep their *code* (Django drops the code of a ValidationError made from a dict of fields).
- a *code* is a snake_case name of the check that refused (``meet_not_today``): the API
  answers it as the error's ``code``, 409 for a `ConflictError`, 422 for a `Refusal`
  (`flipwell.api.errors`). Each code is listed in `CODES` with its status and one line
  saying what it means; the OpenAPI document lists, for each operation, the codes of the
  services it calls (`flipwell.api.refusal_codes`).

To refuse in a service::

    raise Refusal({"machine": f"{title} is not allowed ..."}, code="machine_not_allowed")
    raise ConflictError(f"Meet {n} is closed.", code="meet_already_closed")
    with rules_edge("machine", code="machine_not_allowed"):  # a RuleError becomes a Refusal
        ...

and add the code to `CODES` (tests/api/test_refusal_codes.py fails until it is there, and
says what to add). A plain ``ValidationError`` from a service is a mistake the test refuses;
elsewhere (a model's ``full_clean``, a validator) the API answers it with the code ``invalid``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, NamedTuple

from django.core.exceptions import ValidationError


class Refusal(ValidationError):  # noqa: N818 (a refusal is an answer, not a failure)
    """The request itself is wrong (422): its `code` names the check that refused it.

    `message` is what a ValidationError takes: a text (about the request as a whole) or a
    dict of field -> text(s). `players`: the ids of the players it is about, when its field
    is a list of lines naming players (a sheet's ``scores``): the API then keys it on those
    lines' `part` (``scores.2.player``), a form on the list."""

    status = 422

    def __init__(
        self,
        message: Any,
        code: str,
        params: Any = None,
        *,
        players: Collection[int] = (),
        part: str = "player",
    ) -> None:
        super().__init__(message, code, params)
        self.refusal = code
        self.players = frozenset(players)
        self.part = part


class ConflictError(Refusal):
    """The league's state forbids the request now (409): it was already done (a meet already
    started or closed, an absence already recorded), it is not ready yet (an unfinished meet,
    a game not confirmed), or another request won (two confirmations, a reused key)."""

    status = 409

    @property
    def conflict(self) -> str:
        """The code (its older name)."""
        return self.refusal


class Code(NamedTuple):
    status: int
    meaning: str


def _codes(status: int, meanings: dict[str, str]) -> dict[str, Code]:
    return {code: Code(status, meaning) for code, meaning in meanings.items()}


CONFLICTS = _codes(409, {})
REFUSALS = _codes(422, {})
CODES: dict[str, Code] = {**CONFLICTS, **REFUSALS}
"""Every code a service refuses with: its status and what it means."""
