"""gunicorn's worker for `flipwell serve`: its threaded worker (gthread), whose own refusals
are answered in the API's error shape.

Words: a *refusal of gunicorn's own* is an answer gunicorn writes itself, before flipwell
sees the request: a request it cannot read (400: a control byte in a header, a bad request
line), a request line longer than ``limit_request_line`` (414; 4,094 bytes), more headers
than ``limit_request_fields`` or one longer than ``limit_request_field_size`` (431). gunicorn
writes an HTML page for each; this worker sends the same status as
``{"error": {"code", "message", "fields"}}`` (`flipwell.api.errors`), ``application/json``.

Whatever the path: a request gunicorn could not read has no path to go by, and only a
program sends such a request (a browser never does), so a program gets what it can parse.
Why not raise gunicorn's limits and let Django answer instead: a malformed request never
reaches Django whatever the limits, and the limits are what keep a worker's memory bounded.

The worker lets gunicorn write its page to a stand-in for the client's socket
(`_Captured`), reads the status from it, and sends the JSON answer to the client instead;
gunicorn's logging of the refusal is unchanged. Django is not loaded in gunicorn's master,
which loads this class: this module imports nothing of flipwell's Django apps.
"""

from __future__ import annotations

import json
import re
import socket
from typing import Any

from gunicorn import util  # type: ignore[import-untyped]
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

STATUS_LINE = re.compile(rb"^HTTP/1\.[01] (\d{3}) ([^\r\n]*)\r\n")
CODES = {
    400: "malformed",
    403: "forbidden",
    414: "uri_too_long",
    417: "expectation_failed",
    431: "headers_too_large",
    500: "server_error",
    501: "not_implemented",
}


def refusal_message(status: int, cfg: Any) -> str:
    """What a refusal of gunicorn's own says, in plain words, with the limit it applied."""
    if status == 414:
        return (
            f"The request line (method, path with its query, HTTP version) is longer than "
            f"{cfg.limit_request_line} bytes: send a shorter path or query."
        )
    if status == 431:
        return (
            f"The request's headers are too large: at most {cfg.limit_request_fields} headers, "
            f"each at most {cfg.limit_request_field_size} bytes."
        )
    if status == 400:
        return "The request is not valid HTTP: its request line or a header is malformed."
    if status >= 500:
        return "flipwell's server failed on this request; the error is logged."
    return "The server refused this request before reading it."


def json_refusal(status: int, reason: str, message: str) -> bytes:
    """The whole HTTP answer of a refusal in the error shape (the connection is closed)."""
    error = {"code": CODES.get(status, "refused"), "message": message, "fields": {}}
    body = json.dumps({"error": error}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n"
    )
    return head.encode("latin-1") + body


class _Captured:
    """The client's socket as gunicorn's error page writer sees it: what is sent is kept,
    anything else is the socket's."""

    def __init__(self, client: socket.socket) -> None:
        self._client = client
        self.written = bytearray()

    def sendall(self, data: bytes) -> None:
        self.written += data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)


class JsonErrorsWorker(ThreadWorker):  # type: ignore[misc]
    """gthread, with its own refusals in the error shape (see the module's words)."""

    def handle_error(self, req: Any, client: socket.socket, addr: Any, exc: BaseException) -> None:
        captured = _Captured(client)
        super().handle_error(req, captured, addr, exc)
        status_line = STATUS_LINE.match(bytes(captured.written))
        if status_line is None:
            return  # gunicorn wrote nothing (or not an answer): nothing to translate
        status = int(status_line.group(1))
        reason = status_line.group(2).decode("latin-1")
        answer = json_refusal(status, reason, refusal_message(status, self.cfg))
        try:
            util.write_nonblock(client, answer)
        except Exception:  # as gunicorn does: the client may be gone
            self.log.debug("Failed to send error message.")
