"""The request id: one short text naming a request in every log line it causes.

A request keeps the ``X-Request-ID`` its proxy sent when that is a plain token (letters,
digits, ``-_.:``, at most `MAX_LENGTH` characters: nothing that could forge a log line);
otherwise it gets a new random one, 128 bits as 32 hexadecimal digits, from the process's own
generator (reseeded in each forked worker): ``uuid4`` reads the system's random device on
every request, a system call that lets go of the interpreter lock and waits to take it back
behind the worker's other threads (4% of the workers' busy samples in
``bench/bench_nights.py``); a name for log lines needs to be unique, not secret. The id is
``request.id``, every log record's ``request_id`` (`flipwell.logs`), and the answer's
``X-Request-ID`` header.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from flipwell.logs import request_id

HEADER = "X-Request-ID"
MAX_LENGTH = 128
_TOKEN = re.compile(rf"[A-Za-z0-9._:-]{{1,{MAX_LENGTH}}}")


def incoming_or_new(header: str | None) -> str:
    """The proxy's request id when it is a plain token, else a new random one."""
    if header and _TOKEN.fullmatch(header):
        return header
    return f"{random.getrandbits(128):032x}"


class RequestIdMiddleware:
    """Sets ``request.id`` and the logging context; echoes the id in ``X-Request-ID``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        value = incoming_or_new(request.headers.get(HEADER))
        request.id = value  # type: ignore[attr-defined]
        token = request_id.set(value)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        response[HEADER] = value
        return response
