"""gunicorn's own refusals are the API's error shape (issue 34 §1): a request gunicorn cannot
read (a control byte in a header), a request line over 4,094 bytes and a header over 8,190
bytes were gunicorn's HTML pages, before Django ever saw the request.

A real gunicorn with flipwell's configuration (`flipwell.gunicorn_conf`, its worker
`flipwell.gunicorn_worker`), on a copy of the test database, sent raw bytes on a socket: a
client library would refuse to send such requests.
"""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import pytest

from tests.chaos.conftest import NewDatabase, NewServer
from tests.chaos.live import LiveServer

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def server(new_database: NewDatabase, new_server: NewServer) -> LiveServer:
    return new_server(new_database())  # `new_server` kills it when the module ends


def _raw(server: LiveServer, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send `request` as it is; the status, headers and body of the answer."""
    address = urlsplit(server.url)
    with socket.create_connection((address.hostname, address.port), timeout=30) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines)
    return int(status_line.split()[1]), headers, body


def _error(answer: tuple[int, dict[str, str], bytes]) -> tuple[int, str, str]:
    status, headers, body = answer
    error = json.loads(body)["error"]
    assert set(error) == {"code", "message", "fields"}
    return status, headers["Content-Type"], error["code"]


def test_a_control_byte_in_a_header_is_a_json_400(server):
    answer = _raw(server, b"GET /api/v1/leagues HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x01b\r\n\r\n")

    assert _error(answer) == (400, "application/json", "malformed")


def test_a_request_line_over_4094_bytes_is_a_json_414(server):
    path = b"/api/v1/leagues?q=" + b"a" * 4100
    answer = _raw(server, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")

    assert _error(answer) == (414, "application/json", "uri_too_long")
    assert "4094 bytes" in json.loads(answer[2])["error"]["message"]


def test_a_header_too_large_is_a_json_431(server):
    big = b"X-Big: " + b"a" * 9000 + b"\r\n"
    answer = _raw(server, b"GET /api/v1/leagues HTTP/1.1\r\nHost: 127.0.0.1\r\n" + big + b"\r\n")

    assert _error(answer) == (431, "application/json", "headers_too_large")


def test_a_request_gunicorn_reads_is_still_flipwells(server):
    status, headers, _body = _raw(
        server, b"GET /api/v1/leagues HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )

    assert (status, headers["Content-Type"]) == (200, "application/json")
