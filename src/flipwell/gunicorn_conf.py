"""gunicorn's settings for `flipwell serve` (``gunicorn -c python:flipwell.gunicorn_conf``).

Words and the variables that set them:
- *workers*: ``WEB_CONCURRENCY`` processes; default 2 x CPU cores + 1 (gunicorn's advice).
- *threads*: ``GUNICORN_THREADS`` per worker; default 4. A worker answers that many requests
  at once; each thread keeps its own database connection (``CONN_MAX_AGE``), so PostgreSQL
  sees up to workers x threads connections per app server.
- *bind*: ``--bind`` of `flipwell serve`, else ``0.0.0.0:$PORT`` when ``PORT`` is set (as
  container platforms do), else ``127.0.0.1:8000``: only this machine, for a reverse proxy in
  front. Nothing is exposed to the network unless asked for.
- *graceful shutdown*: on SIGTERM the workers finish the requests they are answering, for at
  most ``GRACEFUL_TIMEOUT`` seconds (default 30), then exit; systemd and docker stop send it.
- *one socket per worker*: on Linux, when every address is TCP, each worker listens on a
  socket of its own (``SO_REUSEPORT``) and the kernel spreads new connections over them
  evenly. On one shared socket, the worker that wins the race to accept a burst of
  connections keeps them all while they stay open (keep-alive: a reverse proxy's pool to
  gunicorn, or a load test), and the other workers idle: bench_http saw one worker of two
  holding all 32 of wrk's connections in a third of its loads, at a third of the
  throughput. The price: connections waiting in a worker's queue when it dies are dropped,
  not taken by another worker (a phone's score sheet is kept and sent again). A Unix socket
  or systemd's sockets stay shared (a path cannot be bound twice).
  Since a second server on the same port would then be let in, sharing its connections, the
  server refuses to start on an address another program is listening on, as gunicorn would.
- *timeout*: a worker silent for ``GUNICORN_TIMEOUT`` seconds (default 60) is restarted.
- *ports a request may name*: the ports of the addresses gunicorn listens on are passed to
  its workers (``FLIPWELL_LISTEN_PORTS``), where they join ``ALLOWED_PORTS``: a ``Host``
  header naming the port the server really listens on is accepted, any other is refused.
- *logs*: the access log (one line per request, with its request id) to stdout, gunicorn's
  own messages to stderr; flipwell's logs go to stdout too (`flipwell.logs`).
- *worker*: gunicorn's threaded worker (gthread), whose own refusals of a request it cannot
  read or whose request line or headers pass its limits (400, 414, 431) are answered in the
  API's error shape, JSON, not gunicorn's HTML page (`flipwell.gunicorn_worker`).
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from flipwell.env import LISTEN_PORTS_VARIABLE, env_int

DEFAULT_BIND = "127.0.0.1:8000"


def default_workers(cores: int | None = None) -> int:
    """gunicorn's advice: two workers per core, and one more."""
    return 2 * (cores or os.cpu_count() or 1) + 1


def default_bind(environ: Mapping[str, str] = os.environ) -> str:
    """``0.0.0.0:$PORT`` when the platform sets ``PORT``, else `DEFAULT_BIND`."""
    if environ.get("PORT", "").strip():
        return f"0.0.0.0:{env_int('PORT', 8000, minimum=1, environ=environ)}"
    return DEFAULT_BIND


def socket_per_worker(
    binds: Sequence[str], *, platform: str = sys.platform, environ: Mapping[str, str] = os.environ
) -> bool:
    """Whether each worker should listen on a socket of its own (see *one socket per worker*):
    on Linux, whose kernel spreads connections over such sockets (other systems give them all
    to one), when every address is TCP and systemd passes no sockets of its own."""
    if platform != "linux" or environ.get("LISTEN_FDS"):
        return False
    return all(not bind.startswith(("unix:", "fd://")) for bind in binds)


def refuse_addresses_in_use(binds: Sequence[str]) -> None:
    """Refuse, naming it, an address another program listens on: with a socket per worker,
    binding would succeed beside another server's socket of the same kind and share its
    connections, where gunicorn alone would refuse. Probes each address as gunicorn binds it
    (IPv6 for an IPv6 literal, else IPv4); any other failure is left to gunicorn to report."""
    from gunicorn.util import is_ipv6, parse_address  # type: ignore[import-untyped]

    for bind in binds:
        host, port = parse_address(bind)
        family = socket.AF_INET6 if is_ipv6(host) else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            # As gunicorn binds: connections of an earlier server still closing (TIME_WAIT)
            # do not make the address busy, a listening socket does.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((host, port))
            except OSError as error:
                if error.errno == errno.EADDRINUSE:
                    raise RuntimeError(
                        f"{bind} is in use by another program (another flipwell serve?): "
                        "stop it, or choose another address with --bind or PORT"
                    ) from None


def listen_ports(binds: Sequence[str]) -> list[str]:
    """The TCP ports of gunicorn's addresses (none for a Unix socket or systemd's sockets)."""
    from gunicorn.util import parse_address

    ports = []
    for bind in binds:
        if bind.startswith(("unix:", "fd://")):
            continue
        _host, port = parse_address(bind)
        ports.append(str(port))
    return ports


def on_starting(server: Any) -> None:
    """gunicorn's hook before its master listens: its ports passed to the workers (*ports a
    request may name*), one socket per worker where it balances connections
    (`socket_per_worker`), on an address no other program listens on. A master started by a
    running one to replace it (USR2) shares its address by design."""
    binds = list(server.cfg.bind)
    os.environ[LISTEN_PORTS_VARIABLE] = ",".join(listen_ports(binds))
    per_worker = socket_per_worker(binds)
    server.cfg.set("reuse_port", per_worker)
    if not per_worker:
        return
    if not server.master_pid:
        refuse_addresses_in_use(binds)
    # gunicorn's own "Listening at" line names only its master's sockets: none here, so it
    # would read "Listening at:  (pid)". It names the addresses instead.
    server.log.error_log.addFilter(NamedAddresses(binds))


class NamedAddresses(logging.Filter):
    """Names `binds` in gunicorn's "Listening at" line when its master holds no socket (a
    socket per worker): "Listening at: 127.0.0.1:8000, a socket per worker (4321)"."""

    def __init__(self, binds: Sequence[str]) -> None:
        super().__init__()
        self.addresses = f"{', '.join(binds)}, a socket per worker"

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if (
            isinstance(record.msg, str)
            and record.msg.startswith("Listening at: %s")
            and isinstance(args, tuple)
            and args
            and not args[0]
        ):
            record.args = (self.addresses, *args[1:])
        return True


wsgi_app = "flipwell.wsgi:application"
# gthread, answering gunicorn's own refusals (400, 414, 431) in the API's error shape.
worker_class = "flipwell.gunicorn_worker.JsonErrorsWorker"
bind = [default_bind()]
workers = env_int("WEB_CONCURRENCY", default_workers(), minimum=1)
threads = env_int("GUNICORN_THREADS", 4, minimum=1)
timeout = env_int("GUNICORN_TIMEOUT", 60, minimum=1)
graceful_timeout = env_int("GRACEFUL_TIMEOUT", 30, minimum=0)
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(B)s %(M)sms "%(f)s" "%(a)s" [%({x-request-id}o)s]'
control_socket_disable = True  # no runtime control socket: systemd or docker manages it
# A worker's heartbeat file: in memory, not on a container's (possibly slow) overlay disk.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
