"""gunicorn's worker for `flipwell serve`: its threaded worker (gthread), whose own refusals
are answered in the API's error shape, and whose main thread never waits for a client to
close its connection.

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
gunicorn's logging of the refusal is unchanged.

*Lingering close*: after an answer that ends its connection (every ``Connection: close``:
a viewer's fetch, a phone's write), gthread closes the connection as RFC 9112 §9.6 asks: it
half-closes (FIN), then reads until the client closes too, so that bytes the client sent
after the request never make the kernel reset the connection over the answer's last bytes.
gthread does that read blocking, for up to 2 s, on the worker's main thread, the one that
accepts connections and hands them to the threads: every such answer made the worker's next
connections wait for the last client's close (about 1 ms each on a loaded machine, 2.5% of
the main threads' time in `bench/bench_nights.py` at 3 leagues, and up to 2 s behind a
client that keeps its end open). This worker half-closes the same way and reads what is
there without waiting; a client that has not closed yet waits on the worker's poller
(`Lingering`), closed when it does or after `LINGER_SECONDS`, as gthread's own limit.

Django is not loaded in gunicorn's master, which loads this class: this module imports
nothing of flipwell's Django apps.
"""

from __future__ import annotations

import contextlib
import json
import re
import selectors
import socket
import time
from collections import deque
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


LINGER_SECONDS = 2.0
"""How long a half-closed connection waits for its client's close: gthread's own limit."""
DRAIN_READS = 16
"""The most reads of one readable lingering socket at a time (64 KiB each)."""


def drained(sock: socket.socket) -> bool:
    """Read, without waiting, what the client has sent; whether it has closed (or failed)."""
    try:
        for _ in range(DRAIN_READS):
            if not sock.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:  # reset, or not a connected socket any more
        return True
    return False


class Lingering:
    """Connections whose answer is sent and whose client has not closed yet, on the worker's
    poller: each is closed when its client closes, or `seconds` after it was half-closed."""

    def __init__(self, poller: selectors.BaseSelector, seconds: float = LINGER_SECONDS) -> None:
        self._poller = poller
        self._seconds = seconds
        self._waiting: deque[tuple[float, socket.socket]] = deque()  # by deadline

    def __len__(self) -> int:
        return sum(1 for _deadline, sock in self._waiting if sock.fileno() != -1)

    def close(self, sock: socket.socket) -> None:
        """Half-close `sock` (the answer is whole) and close it once its client has."""
        try:
            sock.shutdown(socket.SHUT_WR)
            sock.setblocking(False)
            done = drained(sock)
        except OSError:
            done = True
        if done:
            util.close(sock)
            return
        self._poller.register(sock, selectors.EVENT_READ, self._readable)
        self._waiting.append((time.monotonic() + self._seconds, sock))

    def expire(self, *, now: float | None = None, force: bool = False) -> None:
        """Close the connections whose time is up (every one when `force`)."""
        now = time.monotonic() if now is None else now
        while self._waiting and (force or self._waiting[0][0] <= now):
            _deadline, sock = self._waiting.popleft()
            self._end(sock)

    def _readable(self, sock: socket.socket) -> None:
        if drained(sock):
            self._end(sock)

    def _end(self, sock: socket.socket) -> None:
        if sock.fileno() == -1:
            return  # its client closed before its time was up
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._poller.unregister(sock)
        util.close(sock)


class JsonErrorsWorker(ThreadWorker):  # type: ignore[misc]
    """gthread, with its own refusals in the error shape and a lingering close that does not
    wait (see the module's words)."""

    _lingering: Lingering | None = None

    def finish_request(self, conn: Any, fs: Any) -> None:
        """On the main thread: a connection that ends lingers on the poller; anything else
        (kept alive, deferred, failed) as gthread does."""
        if fs.cancelled() or fs.exception() is not None or fs.result():
            super().finish_request(conn, fs)
            return
        self.nr_conns -= 1
        if self._lingering is None:
            self._lingering = Lingering(self.poller)
        self._lingering.close(conn.sock)

    def murder_keepalived(self, force: bool = False) -> None:
        """After each turn of the main loop (and at the end, `force`): close the kept-alive
        connections whose time is up, as gthread does, and the lingering ones."""
        super().murder_keepalived(force)
        if self._lingering is not None:
            self._lingering.expire(force=force)

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
