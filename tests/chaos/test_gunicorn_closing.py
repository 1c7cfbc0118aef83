"""A connection that ends never holds up the worker's next ones (`flipwell.gunicorn_worker`,
*lingering close*): gthread read, blocking on the worker's main thread, until the client of
each ``Connection: close`` answer closed its end (up to 2 s), so the connections accepted
after it waited. flipwell's worker half-closes the same way and waits for the client's close
on its poller instead.

First the waiting connections alone (`Lingering`, on socket pairs), then a real gunicorn of
one worker and one thread whose clients keep their end open after their answer.
"""

from __future__ import annotations

import selectors
import socket
import time
from urllib.parse import urlsplit

import pytest

from flipwell.gunicorn_worker import Lingering
from tests.chaos.conftest import NewDatabase
from tests.chaos.live import LiveServer

CLIENTS = 3


@pytest.fixture
def poller():
    with selectors.DefaultSelector() as selector:
        yield selector


def _pair() -> tuple[socket.socket, socket.socket]:
    server, client = socket.socketpair()
    server.setblocking(True)  # as gthread leaves a connection after its answer
    return server, client


def _turn(poller: selectors.BaseSelector) -> None:
    """One turn of the worker's main loop: the callbacks of the sockets ready now."""
    for key, _mask in poller.select(timeout=0.1):
        key.data(key.fileobj)


def test_a_connection_whose_client_has_not_closed_is_half_closed_at_once_and_waits(poller):
    server, client = _pair()

    Lingering(poller).close(server)

    assert client.recv(10) == b""  # the client sees the end of the answer: the FIN
    assert server.fileno() != -1  # still open to read what the client may send
    assert server in [key.fileobj for key in poller.get_map().values()]
    client.close()


def test_it_is_closed_when_its_client_closes_after_sending_more(poller):
    server, client = _pair()
    lingering = Lingering(poller)
    lingering.close(server)

    client.sendall(b"GET /next HTTP/1.1\r\n\r\n")  # read and dropped, not a reset
    client.close()
    _turn(poller)

    assert server.fileno() == -1
    assert len(lingering) == 0
    assert not poller.get_map()


def test_a_client_that_closed_already_is_closed_without_waiting(poller):
    server, client = _pair()
    client.close()
    lingering = Lingering(poller)

    lingering.close(server)

    assert server.fileno() == -1
    assert not poller.get_map()


def test_a_client_that_never_closes_is_closed_when_its_time_is_up(poller):
    server, client = _pair()
    lingering = Lingering(poller, seconds=2.0)
    lingering.close(server)

    lingering.expire(now=time.monotonic() + 1.0)
    assert server.fileno() != -1
    lingering.expire(now=time.monotonic() + 2.5)

    assert server.fileno() == -1
    assert not poller.get_map()
    client.close()


def test_the_worker_stopping_closes_every_waiting_connection(poller):
    pairs = [_pair() for _ in range(3)]
    lingering = Lingering(poller)
    for server, _client in pairs:
        lingering.close(server)

    lingering.expire(force=True)

    assert [server.fileno() for server, _client in pairs] == [-1, -1, -1]
    assert not poller.get_map()


def _answered_keeping_open(server: LiveServer) -> tuple[socket.socket, float]:
    """One ``Connection: close`` request, read to its end; the client's socket, left open,
    and how long the answer took."""
    address = urlsplit(server.url)
    started = time.monotonic()
    sock = socket.create_connection((address.hostname, address.port), timeout=30)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    assert received.startswith(b"HTTP/1.1 200 "), received[:200]
    return sock, time.monotonic() - started


@pytest.mark.django_db
def test_clients_keeping_their_end_open_do_not_hold_up_the_next_ones(new_database: NewDatabase):
    database = new_database()
    server = LiveServer(database=database, log=database.data_dir / "gunicorn.log")
    server.workers, server.threads = 1, 1
    server.start()
    try:
        answers = [_answered_keeping_open(server) for _ in range(CLIENTS)]
    finally:
        server.kill()
    for sock, _seconds in answers:
        sock.close()

    # gthread's blocking close held each next connection until the one before timed out
    # (2 s each: 4 s or more for the last two); a lingering close holds nobody.
    assert sum(seconds for _sock, seconds in answers[1:]) < 2.0
